// The selftest's checks: which configurations, on which frames, compared how.
#include "core/pipeline/selftest.hpp"

#include <GLES3/gl31.h>
#include <linux/dma-buf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <random>

#include "base/enum_names.hpp"
#include "base/pixel_format.hpp"
#include "capture/frame_encode.hpp"
#include "core/image/gpu_image.hpp"
#include "core/import/gbm_dmabuf_allocator.hpp"
#include "core/pipeline/pipeline_backend.hpp"
#include "core/pipeline/selftest_facts.hpp"
#include "core/tuning/auto_params.hpp"
#include "core/tuning/synthetic_frames.hpp"
#include "esframe/version.hpp"

namespace esf {
namespace {

struct FrameSpec {
  PixelFormat format = PixelFormat::kRGBA32;
  FrameContent content = FrameContent::kRandom;
  int width = 0, height = 0;
};

struct Case {
  std::string name;
  PipelineConfig config;
  std::vector<FrameSpec> frames;
  bool compare_image = true;  // false where the GPU's image is not the result (the packed blur)
};

// A frame of `spec` in `bytes`, which must stay put while the frame is used.
Status buildFrame(const FrameSpec& spec, uint32_t seed, std::vector<uint8_t>& bytes, Frame& frame) {
  const RgbaImage image = syntheticFrame(spec.content, spec.width, spec.height, seed);
  Result<std::vector<uint8_t>> encoded = encodeRgba(image, spec.format, {});
  if (!encoded) return encoded.error();
  bytes = std::move(encoded.value());
  frame = Frame{};
  frame.format = spec.format, frame.width = spec.width, frame.height = spec.height;
  frame.source = "selftest";
  return attachTightPlanes(frame, bytes.data(), bytes.size());
}

// What a backend made of one frame, as plain data.
struct Outcome {
  FrameResult result;
  std::vector<uint8_t> image;
};

Result<Outcome> processFrame(PipelineBackend& backend, const Frame& frame, bool read_image) {
  if (Status s = backend.configureFor(frame); !s) return s.error();
  Result<FrameResult> r = backend.process(frame);
  if (!r) return r.error();
  Outcome o{std::move(r.value()), {}};
  if (read_image && o.result.image) {
    o.image = o.result.image->pixels;
  } else if (read_image && o.result.gpu) {
    const GpuFrameView& view = *o.result.gpu;
    Result<RgbaImage> image =
        GpuImage::downloadTexture(view.image_texture, view.width, view.height);
    if (!image) return image.error();
    o.image = std::move(image->pixels);
  }
  o.result.image = nullptr, o.result.gpu = nullptr;
  return o;
}

std::string formatted(const char* format, auto... args) {
  char line[256];
  std::snprintf(line, sizeof line, format, args...);
  return line;
}

// The first way `got` differs from `want`, or "" when they are equal.
std::string firstDifference(const Outcome& got, const Outcome& want) {
  const FrameResult &g = got.result, &w = want.result;
  if (g.width != w.width || g.height != w.height)
    return formatted("size %dx%d, expected %dx%d", g.width, g.height, w.width, w.height);
  if (got.image.size() != want.image.size())
    return formatted("image of %zu bytes, expected %zu", got.image.size(), want.image.size());
  for (size_t i = 0; i < got.image.size(); ++i)
    if (got.image[i] != want.image[i])
      return formatted("pixel (%d, %d) %c: %u, expected %u", int(i / 4 % size_t(w.width)),
                       int(i / 4 / size_t(w.width)), "RGBA"[i % 4], got.image[i], want.image[i]);
  if (g.hist.bins != w.hist.bins || g.hist.channels != w.hist.channels ||
      g.hist.counts.size() != w.hist.counts.size())
    return "histogram shape differs";
  for (int b = 0; b < w.hist.bins; ++b)
    for (int c = 0; c < w.hist.channelCount(); ++c)
      if (g.hist.at(b, c) != w.hist.at(b, c))
        return formatted("histogram %c bin %d: %u, expected %u", w.hist.channels[size_t(c)], b,
                         g.hist.at(b, c), w.hist.at(b, c));
  if (g.raw != w.raw) return "raw statistics differ";
  if (g.stats.size() != w.stats.size()) return "a different number of channel statistics";
  for (size_t i = 0; i < w.stats.size(); ++i) {
    const ChannelStats &a = g.stats[i], &b = w.stats[i];
    if (a.count != b.count || a.min != b.min || a.max != b.max || a.sum != b.sum ||
        a.mean != b.mean || a.p1 != b.p1 || a.p10 != b.p10 || a.p50 != b.p50 || a.p90 != b.p90 ||
        a.p99 != b.p99 || a.clip_low != b.clip_low || a.clip_high != b.clip_high || a.msv != b.msv)
      return formatted("statistics of %c: mean %.6f p50 %u, expected mean %.6f p50 %u", b.channel,
                       a.mean, a.p50, b.mean, b.p50);
  }
  if (g.scale != w.scale) return "the graph scale differs";
  if (g.health != w.health) {
    if (!g.health || !w.health) return "health figures missing";
    return formatted("health: ydif %.6f si %.6f ti %.6f, expected ydif %.6f si %.6f ti %.6f",
                     g.health->ydif, g.health->si, g.health->ti, w.health->ydif, w.health->si,
                     w.health->ti);
  }
  if (g.events != w.events) return "health events differ";
  if (g.scopes != w.scopes) {
    if (!g.scopes || !w.scopes) return "scope counts missing";
    return formatted("scopes: waveform %s, parade %s, vectorscope %s",
                     g.scopes->waveform == w.scopes->waveform ? "equal" : "differs",
                     g.scopes->parade == w.scopes->parade ? "equal" : "differs",
                     g.scopes->vectorscope == w.scopes->vectorscope ? "equal" : "differs");
  }
  return "";
}

// Ends a check with its outcome and the time since it started: `return finish(outcome, why);`.
class CheckEnd {
 public:
  explicit CheckEnd(SelftestCheck& check) : check_(check) {}
  SelftestCheck operator()(SelftestCheck::Outcome outcome, std::string detail) const {
    check_.outcome = outcome;
    check_.detail = std::move(detail);
    check_.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
                    .count();
    return check_;
  }

 private:
  SelftestCheck& check_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Runs one case: a GPU backend and a reference backend over the case's frames.
SelftestCheck runCase(GlContext& gl, const Case& c, std::vector<StageTiming>& timings) {
  SelftestCheck check;
  check.name = c.name;
  const CheckEnd finish(check);
  PipelineConfig gpu_config = c.config, ref_config = c.config;
  gpu_config.backend = Backend::kGles, ref_config.backend = Backend::kReference;
  Result<std::unique_ptr<PipelineBackend>> gpu = createGpuBackend(gl, gpu_config);
  if (!gpu)
    return finish(gpu.error().code == ErrorCode::kUnsupported ? SelftestCheck::Outcome::kRefused
                                                              : SelftestCheck::Outcome::kFailed,
                  gpu.error().message);
  Result<std::unique_ptr<PipelineBackend>> ref = createReferenceBackend(ref_config);
  if (!ref) return finish(SelftestCheck::Outcome::kFailed, ref.error().message);
  std::vector<uint8_t> bytes;
  Frame frame;
  uint32_t seed = 1;
  for (const FrameSpec& spec : c.frames) {
    const std::string where = formatted("%s %s %dx%d: ", frameContentName(spec.content),
                                        formatName(spec.format), spec.width, spec.height);
    if (Status s = buildFrame(spec, seed++, bytes, frame); !s)
      return finish(SelftestCheck::Outcome::kFailed, where + s.error().message);
    Result<Outcome> want = processFrame(**ref, frame, c.compare_image);
    if (!want) return finish(SelftestCheck::Outcome::kFailed, where + want.error().message);
    Result<Outcome> got = processFrame(**gpu, frame, c.compare_image);
    if (!got)
      return finish(got.error().code == ErrorCode::kUnsupported ? SelftestCheck::Outcome::kRefused
                                                                : SelftestCheck::Outcome::kFailed,
                    where + got.error().message);
    for (const StageTiming& t : got->result.timings) timings.push_back(t);
    ++check.frames;
    check.pixels += uint64_t(spec.width) * uint64_t(spec.height);
    if (std::string diff = firstDifference(*got, *want); !diff.empty())
      return finish(SelftestCheck::Outcome::kWrong, where + diff);
  }
  return finish(SelftestCheck::Outcome::kExact, std::to_string(check.frames) + " frames");
}

// A mapping of a dmabuf for the CPU's writes, unmapped when it goes.
class DmabufMapping {
 public:
  DmabufMapping(int fd, size_t length)
      : length_(length),
        data_(::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)) {}
  ~DmabufMapping() {
    if (data_ != MAP_FAILED) ::munmap(data_, length_);
  }
  DmabufMapping(const DmabufMapping&) = delete;
  DmabufMapping& operator=(const DmabufMapping&) = delete;
  uint8_t* data() const { return data_ == MAP_FAILED ? nullptr : static_cast<uint8_t*>(data_); }

 private:
  size_t length_;
  void* data_;
};

// Zero-copy: a GBM buffer on the GPU's device, written by the CPU as a camera would fill it,
// imported as a dmabuf, against the reference of the same bytes. Refused where there is no
// DRM device (surfaceless EGL) or the buffer cannot be made: nothing of the GPU is wrong then.
SelftestCheck dmabufImportCheck(GlContext& gl, std::vector<StageTiming>& timings) {
  SelftestCheck check;
  check.name = "import RGBA32 from a GBM dmabuf (zero-copy)";
  const CheckEnd finish(check);
  Result<std::unique_ptr<DmabufAllocator>> allocator = createGbmDmabufAllocator(gl);
  if (!allocator) return finish(SelftestCheck::Outcome::kRefused, allocator.error().message);
  const int w = 257, h = 67;
  Result<DmabufBuffer> buffer = (*allocator)->allocate(size_t(w) * 4, h);
  if (!buffer) return finish(SelftestCheck::Outcome::kRefused, buffer.error().message);
  DmabufMapping map(buffer->fd.get(), buffer->length);
  if (!map.data())
    return finish(SelftestCheck::Outcome::kRefused, "the GBM buffer cannot be mapped for writing");
  dma_buf_sync sync{DMA_BUF_SYNC_START | DMA_BUF_SYNC_WRITE};
  (void)::ioctl(buffer->fd.get(), DMA_BUF_IOCTL_SYNC, &sync);
  std::mt19937 rng(7);
  for (size_t i = 0; i < buffer->length; ++i) map.data()[i] = uint8_t(rng());
  sync.flags = DMA_BUF_SYNC_END | DMA_BUF_SYNC_WRITE;
  (void)::ioctl(buffer->fd.get(), DMA_BUF_IOCTL_SYNC, &sync);
  Frame frame;
  frame.format = PixelFormat::kRGBA32, frame.width = w, frame.height = h;
  frame.plane_count = 1;
  frame.planes[0] = FramePlane{map.data(), buffer->length,  int(buffer->stride), buffer->fd.get(),
                               0,          buffer->modifier};
  PipelineConfig config;
  config.backend = Backend::kGles;
  Result<std::unique_ptr<PipelineBackend>> gpu = createGpuBackend(gl, config);
  if (!gpu) return finish(SelftestCheck::Outcome::kFailed, gpu.error().message);
  config.backend = Backend::kReference;
  Result<std::unique_ptr<PipelineBackend>> ref = createReferenceBackend(config);
  if (!ref) return finish(SelftestCheck::Outcome::kFailed, ref.error().message);
  Result<Outcome> want = processFrame(**ref, frame, true);
  if (!want) return finish(SelftestCheck::Outcome::kFailed, want.error().message);
  Result<Outcome> got = processFrame(**gpu, frame, true);
  if (!got) return finish(SelftestCheck::Outcome::kFailed, got.error().message);
  for (const StageTiming& t : got->result.timings) timings.push_back(t);
  check.frames = 1;
  check.pixels = uint64_t(w) * uint64_t(h);
  if (std::string diff = firstDifference(*got, *want); !diff.empty())
    return finish(SelftestCheck::Outcome::kWrong, diff);
  if (!got->result.zero_copy)
    return finish(SelftestCheck::Outcome::kRefused,
                  "exact, but imported through a copy: the driver did not take the dmabuf");
  return finish(SelftestCheck::Outcome::kExact,
                "1 frame, imported zero-copy from " + (*allocator)->deviceName());
}

// The frames of a check: odd sizes, then the large one, then a small one again (state left by
// a larger frame). YUYV and UYVY hold only even widths.
std::vector<FrameSpec> framesOf(PixelFormat format, const SelftestOptions& o, Size large) {
  auto even = [&](int w) { return allowsOddWidth(format) ? w : w + (w & 1); };
  std::vector<FrameSpec> f;
  if (isBayer(format))  // a CFA needs 2x2 at least
    f.push_back({format, FrameContent::kRandom, 2, 2});
  else
    f.push_back({format, FrameContent::kRandom, even(1), 1});
  f.push_back({format, FrameContent::kRandom, even(257), 3});
  if (!o.quick) f.push_back({format, FrameContent::kGradient, even(127), 129});
  f.push_back({format, FrameContent::kRandom, even(large.width), large.height});
  if (!o.quick) f.push_back({format, FrameContent::kFlat, even(large.width), large.height});
  f.push_back({format, FrameContent::kFlat, even(33), 17});
  return f;
}

std::string histogramName(const HistogramConfig& h, const std::string& strategy) {
  return "histogram " + strategy + " bins=" + std::to_string(h.bins) + " " + h.channels;
}

std::vector<Case> casesFor(const GlContext& gl, const SelftestOptions& o, Size large) {
  std::vector<Case> cases;
  const std::vector<FrameSpec> rgba = framesOf(PixelFormat::kRGBA32, o, large);
  // The histogram: what strategy=auto picks for the large frame, or every strategy.
  std::vector<std::pair<int, std::string>> shapes = {{256, "rgbl"}, {1, "rgbl"}};
  if (!o.quick) shapes.insert(shapes.begin() + 1, {64, "l"});
  for (const auto& [bins, channels] : shapes) {
    Case c;
    c.config.histogram.bins = bins;
    c.config.histogram.channels = channels;
    c.frames = rgba;
    std::string why;
    HistogramParams base;
    base.bins = bins, base.channels = channels;
    const HistogramParams picked = chooseHistogramParams(gl, large.width, large.height, &why, base);
    c.name = histogramName(c.config.histogram,
                           std::string(histogramStrategyName(picked.strategy)) + " (auto)");
    cases.push_back(c);
    if (!o.all_strategies) continue;
    for (HistogramStrategy s : {HistogramStrategy::kSingle, HistogramStrategy::kGlobalAtomic,
                                HistogramStrategy::kChunkSum, HistogramStrategy::kChunkReduce,
                                HistogramStrategy::kPersistent, HistogramStrategy::kReplicated}) {
      c.config.histogram.strategy = s;
      c.name = histogramName(c.config.histogram, histogramStrategyName(s));
      cases.push_back(c);
    }
  }
  // Import of every format (the stages after it see RGBA).
  for (PixelFormat f : allPixelFormats()) {
    if (f == PixelFormat::kRGBA32 || isBayer(f)) continue;
    if (o.quick && f != PixelFormat::kYUYV && f != PixelFormat::kNV12 && f != PixelFormat::kRGB24)
      continue;
    Case c;
    c.name = std::string("import ") + formatName(f);
    c.frames = framesOf(f, o, large);
    cases.push_back(c);
  }
  {
    Case c;
    c.name = "import NV12, luma from the source's Y plane";
    c.config.luma = LumaSource::kSource;
    c.frames = framesOf(PixelFormat::kNV12, o, large);
    cases.push_back(c);
  }
  {
    Case c;
    c.name = "blur 15 taps x2";
    c.config.blur = BlurConfig{15, 2};
    c.frames = rgba;
    cases.push_back(c);
    c.name = "blur 15 taps, packed for the histogram (no image read)";
    c.config.blur = BlurConfig{15, 1};
    c.config.image_needed = false;
    c.compare_image = false;
    cases.push_back(c);
  }
  {
    // Downscale only: frames at least the target's size, one of them odd.
    Case c;
    c.name = "resize to 1/3 x 1/2";
    c.config.resize = Size{std::max(1, large.width / 3), std::max(1, large.height / 2)};
    c.frames = {{PixelFormat::kRGBA32, FrameContent::kRandom, large.width, large.height},
                {PixelFormat::kRGBA32, FrameContent::kGradient,
                 std::max(c.config.resize->width, large.width - 1),
                 std::max(c.config.resize->height, large.height - 3)}};
    if (!o.quick)
      c.frames.push_back({PixelFormat::kRGBA32, FrameContent::kFlat, large.width, large.height});
    cases.push_back(c);
  }
  {
    // Camera health: the frame difference (against a previous frame and a freeze reference kept
    // on the GPU) and the Sobel sums; runs of frames of one size, one repeated (frozen), from
    // the source's Y plane and from RGB; with a grid and rectangles (one past the frame's edge)
    // whose sums the workgroups add with shared and global atomics.
    Case c;
    c.name = "camera health: frame difference and Sobel, with regions";
    HealthConfig health;
    health.grid_columns = 5;
    health.grid_rows = 3;
    health.rois = {{3, 2, 50, 40}, {100, 0, 100000, 7}};
    c.config.health = health;
    for (PixelFormat f : {PixelFormat::kNV12, PixelFormat::kRGBA32}) {
      // Random frames differ from seed to seed; gradient frames repeat (a freeze). The quick
      // selftest keeps to a small size (its pixel budget).
      const int w = o.quick ? 127 : large.width, h = o.quick ? 129 : large.height;
      const FrameSpec random{f, FrameContent::kRandom, w, h};
      const FrameSpec gradient{f, FrameContent::kGradient, w, h};
      c.frames.insert(
          c.frames.end(),
          {random, random, gradient, gradient, gradient, {f, FrameContent::kRandom, 257, 3}});
    }
    cases.push_back(c);
  }
  {
    // The scopes: per-column counts in shared memory and the vectorscope's global atomics, on
    // RGB frames; a YUV frame's waveform from its Y plane (its vectorscope is the host's).
    Case c;
    c.name = "scopes: waveform, parade, vectorscope";
    c.config.scopes.waveform = c.config.scopes.parade = c.config.scopes.vectorscope = true;
    c.config.luma = LumaSource::kSource;
    c.frames = rgba;
    c.frames.push_back({PixelFormat::kNV12, FrameContent::kRandom, 257, 3});
    cases.push_back(c);
  }
  for (PixelFormat f : {PixelFormat::kSRGGB10, PixelFormat::kSGBRG8}) {
    if (o.quick && f != PixelFormat::kSRGGB10) continue;
    Case c;
    c.name = std::string("Bayer ") + formatName(f) + ": demosaic and raw statistics";
    c.config.histogram.bins = 64;
    c.config.raw = RawConfig{32, 0, 300, 200};
    c.frames = framesOf(f, o, large);
    cases.push_back(c);
  }
  return cases;
}

constexpr EnumName<SelftestCheck::Outcome> kOutcomeNames[] = {
    {SelftestCheck::Outcome::kExact, "exact"},
    {SelftestCheck::Outcome::kWrong, "WRONG"},
    {SelftestCheck::Outcome::kRefused, "refused"},
    {SelftestCheck::Outcome::kFailed, "FAILED"},
};

}  // namespace

const char* outcomeName(SelftestCheck::Outcome outcome) {
  return nameIn(kOutcomeNames, outcome);
}

bool SelftestReport::passed() const {
  return firstFailure().empty();
}

uint64_t SelftestReport::pixels() const {
  uint64_t n = 0;
  for (const SelftestCheck& c : checks) n += c.pixels;
  return n;
}

std::string SelftestReport::firstFailure() const {
  for (const SelftestCheck& c : checks)
    if (c.outcome == SelftestCheck::Outcome::kWrong || c.outcome == SelftestCheck::Outcome::kFailed)
      return c.name + ": " + outcomeName(c.outcome) + ", " + c.detail;
  for (const SelftestFact& f : facts)
    if (!f.ok) return f.name + ": " + f.value;
  return "";
}

SelftestReport runSelftest(GlContext& gl, const SelftestOptions& options,
                           const std::function<void(const SelftestCheck&)>& on_check) {
  const auto start = std::chrono::steady_clock::now();
  SelftestReport report;
  report.device = DeviceKey::of(gl);
  report.esframe_version = ESFRAME_VERSION_STRING;
  report.egl_platform = toString(gl.display().platform());
  report.quick = options.quick;
  report.all_strategies = options.all_strategies;
  report.spec_minimum_limits = gl.specMinimumLimits();
  report.at = utcTimestamp();
  Size large = options.large;
  if (large.width <= 0 || large.height <= 0)
    large = options.quick ? Size{640, 480} : Size{1920, 1080};
  std::vector<StageTiming> timings;
  for (const Case& c : casesFor(gl, options, large)) {
    report.checks.push_back(runCase(gl, c, timings));
    if (on_check) on_check(report.checks.back());
  }
  report.checks.push_back(dmabufImportCheck(gl, timings));
  if (on_check) on_check(report.checks.back());
  report.facts = driverFacts(gl, timings);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace esf
