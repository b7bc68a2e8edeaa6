// The synthetic source: a deterministic moving pattern in any size and format, so that
// `esframe run` works on any machine and tests have known frames.
#include "capture/pattern_source.hpp"

#include <time.h>

#include <cerrno>
#include <chrono>

#include "base/pixel_format.hpp"
#include "capture/frame_encode.hpp"
#include "esframe/base/sizes.hpp"
#include "esframe/text_parse.hpp"

namespace esf {
namespace {

// splitmix64: a seeded, platform-independent noise value per (seed, frame, pixel).
uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

constexpr uint64_t kMaxPatternLoop = 1000;

constexpr uint8_t kBars[8][3] = {{255, 255, 255}, {255, 255, 0}, {0, 255, 255}, {0, 255, 0},
                                 {255, 0, 255},   {255, 0, 0},   {0, 0, 255},   {0, 0, 0}};

}  // namespace

RgbaImage renderPattern(int width, int height, uint64_t index, uint64_t seed) {
  RgbaImage img(width, height);
  renderPattern(img, index, seed);
  return img;
}

void renderPattern(RgbaImage& img, uint64_t index, uint64_t seed) {
  const int width = img.width, height = img.height;
  const int bars_end = height / 2, gradient_end = height * 3 / 4;
  const uint64_t noise_key = mix(seed ^ mix(index));
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      uint8_t* p = img.at(x, y);
      if (y < bars_end) {
        // Eight bars, scrolling left 4 pixels a frame.
        const int64_t xs = (int64_t(x) + int64_t(index % 1000000) * 4) % width;
        const uint8_t* c = kBars[xs * 8 / width];
        p[0] = c[0], p[1] = c[1], p[2] = c[2];
      } else if (y < gradient_end) {
        // Ramps: R rises with x, G with y (within the band), B falls with x; moves 2 px a frame.
        const int gx = int((int64_t(x) + int64_t(index % 1000000) * 2) % width);
        const int span_x = width > 1 ? width - 1 : 1;
        const int band = gradient_end - bars_end;
        p[0] = uint8_t(gx * 255 / span_x);
        p[1] = uint8_t(band > 1 ? (y - bars_end) * 255 / (band - 1) : 0);
        p[2] = uint8_t(255 - p[0]);
      } else {
        const uint64_t n = mix(noise_key ^ (uint64_t(y) << 32 | uint32_t(x)));
        p[0] = uint8_t(n), p[1] = uint8_t(n >> 8), p[2] = uint8_t(n >> 16);
      }
      p[3] = 255;
    }
  }
  // Frame counter: 16 cells of 8x8 pixels, top left, white for a 1 bit (LSB first).
  for (int bit = 0; bit < 16; ++bit) {
    const uint8_t v = (index >> bit) & 1 ? 255 : 0;
    for (int y = 0; y < 8 && y < height; ++y)
      for (int x = bit * 8; x < bit * 8 + 8 && x < width; ++x) {
        uint8_t* p = img.at(x, y);
        p[0] = p[1] = p[2] = v;
      }
  }
}

namespace {

class PatternSource : public FrameSource {
 public:
  PatternSource(int w, int h, PixelFormat f, const SourceOptions& o, uint64_t loop)
      : width_(w), height_(h), format_(f), options_(o), loop_(loop) {
    colorimetry_ = o.colorimetry.value_or(Colorimetry{});
    fps_ = o.fps > 0 ? o.fps : 30.0;
  }

  // loop > 0: the first `loop` frames, rendered and encoded once, then handed out in turn.
  Status prerender() {
    for (uint64_t i = 0; i < loop_; ++i) {
      renderPattern(image_, i, options_.seed);
      std::vector<uint8_t> bytes;
      if (Status s = encodeRgbaInto(image_, format_, colorimetry_, bytes); !s) return s;
      rendered_.push_back(std::move(bytes));
    }
    return Status::success();
  }

  Result<std::optional<Frame>> next() override {
    if (isLive()) paceFrame();
    const uint64_t ts = uint64_t(double(index_) * 1e9 / fps_);
    if (loop_) {
      const std::vector<uint8_t>& bytes = rendered_[size_t(index_ % loop_)];
      return makeTightFrame(format_, width_, height_, colorimetry_, bytes, index_++, ts, "pattern");
    }
    // One image and one frame buffer for the whole run, rewritten in place (the frame is valid
    // only until the next call): two fresh frame-sized allocations a frame fragmented the heap,
    // about 1 MB of RSS per 30,000 frames at 640x480 (docs/reliability.md, Soak).
    renderPattern(image_, index_, options_.seed);
    if (Status s = encodeRgbaInto(image_, format_, colorimetry_, bytes_); !s) return s.error();
    return makeTightFrame(format_, width_, height_, colorimetry_, bytes_, index_++, ts, "pattern");
  }
  std::string name() const override { return "pattern"; }
  // With an asked frame rate it behaves like a camera: frame i is ready i / fps seconds after the
  // first, never sooner (timestamps stay the exact i * 1e9 / fps).
  bool isLive() const override { return options_.fps > 0; }
  int width() const override { return width_; }
  int height() const override { return height_; }
  PixelFormat format() const override { return format_; }

 private:
  int width_, height_;
  PixelFormat format_;
  SourceOptions options_;
  uint64_t loop_;
  Colorimetry colorimetry_;
  double fps_;
  uint64_t index_ = 0;
  RgbaImage image_{width_, height_};
  std::vector<uint8_t> bytes_;
  std::vector<std::vector<uint8_t>> rendered_;
  std::chrono::steady_clock::time_point first_frame_;

  void paceFrame() {
    const auto now = std::chrono::steady_clock::now();
    if (index_ == 0) first_frame_ = now;
    const auto due = first_frame_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                        std::chrono::duration<double>(double(index_) / fps_));
    // A stop signal interrupts nanosleep with EINTR; sleep_until would sleep on, so loop here.
    while (std::chrono::steady_clock::now() < due) {
      const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(
          due - std::chrono::steady_clock::now());
      if (left.count() <= 0) break;
      timespec ts{time_t(left.count() / 1000000000), long(left.count() % 1000000000)};
      if (::nanosleep(&ts, nullptr) != 0 && errno == EINTR) break;
    }
  }
};

// "pattern" or "pattern:loop=N": the number of frames to render before the run (0: each frame
// rendered when it is read).
Result<uint64_t> patternLoop(std::string_view spec) {
  if (spec.empty() || spec == "pattern") return uint64_t(0);
  constexpr std::string_view kLoop = "pattern:loop=";
  if (spec.substr(0, kLoop.size()) != kLoop)
    return fail(ErrorCode::kInvalidArgument, "pattern source '", std::string(spec),
                "': the one option is loop=N (frames rendered before the run, then repeated)");
  return parseUnsigned(spec.substr(kLoop.size()), "pattern loop", 1, kMaxPatternLoop);
}

}  // namespace

bool isPatternSpec(std::string_view spec) {
  return spec.empty() || spec == "pattern" || spec.substr(0, 8) == "pattern:";
}

Result<std::unique_ptr<FrameSource>> openPatternSource(std::string_view spec,
                                                       const SourceOptions& o) {
  Result<uint64_t> loop = patternLoop(spec);
  if (!loop) return loop.error();
  const int w = o.width > 0 ? o.width : 640, h = o.height > 0 ? o.height : 480;
  const PixelFormat f = o.format.value_or(PixelFormat::kRGBA32);
  // The RGBA image is made before the first frame: refuse a size outside the frame limits first.
  if (Status s = checkFrameSize("pattern", w, h); !s) return s.error();
  if (f != PixelFormat::kMJPEG)
    if (auto s = planeLayout(f, w, h); !s)
      return fail(s.error().code, "pattern: ", s.error().message);
  // The looped frames stay in memory: at most kMaxFrameBytes of them in all.
  if (Result<size_t> all = checkedSize("pattern loop", loop.value(), uint64_t(w), uint64_t(h), 4u);
      !all || all.value() > kMaxFrameBytes)
    return fail(ErrorCode::kInvalidArgument, "pattern source: ", std::to_string(loop.value()),
                " looped frames of ", std::to_string(w), "x", std::to_string(h),
                " would hold more than 1 GiB");
  auto source = std::make_unique<PatternSource>(w, h, f, o, loop.value());
  if (Status s = source->prerender(); !s) return s.error();
  return std::unique_ptr<FrameSource>(std::move(source));
}

}  // namespace esf
