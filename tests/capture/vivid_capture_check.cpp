// Real-driver check for the QEMU harness (tests/vm/cases/vivid_*.sh): captures N frames from a
// V4L2 device through the library's public API (Pipeline::openSource, mmap or zero-copy dmabuf;
// Pipeline::process on the GPU with R, G, B and source luma at 256 bins), and compares each
// frame's histograms with CPU histograms of the raw bytes the source's dump folder kept for the
// same frame:
//   R, G, B: RGB formats count the raw bytes directly; YUV formats count the CPU reference
//            conversion of the raw bytes (core/import/import_reference.hpp);
//   L:       YUV and GREY count the raw Y bytes directly against the GPU source-luma image.
// Prints one line per frame; a lost device ends with one stderr line and exit code 3 (as
// esframe's kExitDeviceLost).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/pixel_format.hpp"
#include "capture/open_source.hpp"
#include "core/import/import_reference.hpp"
#include "core/outputs/graph_renderer.hpp"
#include "core/stages/histogram_reference.hpp"
#include "esframe/pipeline.hpp"
#include "esframe/text_parse.hpp"
#include "platform/gl_context.hpp"

namespace esf {
namespace {

constexpr int kExitDeviceLost = 3;  // apps/esframe/cli_common.hpp

struct Args {
  std::string device = "/dev/video0", format = "YUYV", size = "640x480", io = "mmap", dump;
  std::string egl = "auto", drm_device;
  int frames = 30;
};

bool parseArgs(int argc, char** argv, Args& a) {
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--device")
      a.device = v;
    else if (k == "--format")
      a.format = v;
    else if (k == "--size")
      a.size = v;
    else if (k == "--io")
      a.io = v;
    else if (k == "--dump-raw")
      a.dump = v;
    else if (k == "--frames")
      a.frames = std::atoi(v.c_str());
    else if (k == "--egl")
      a.egl = v;
    else if (k == "--drm-device")
      a.drm_device = v;
    else
      return false;
  }
  return argc % 2 == 1 && !a.dump.empty();
}

std::vector<uint8_t> readAll(const std::string& path) {
  std::vector<uint8_t> out;
  if (FILE* f = std::fopen(path.c_str(), "rb")) {
    uint8_t buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.insert(out.end(), buf, buf + n);
    std::fclose(f);
  }
  return out;
}

// 256-bin counts of one channel out of an interleaved histogram.
std::vector<uint32_t> channelOf(const std::vector<uint32_t>& h, int channels, int c) {
  std::vector<uint32_t> out(256);
  for (int b = 0; b < 256; ++b) out[b] = h[size_t(b) * channels + c];
  return out;
}

std::vector<uint32_t> countBytes(const std::vector<uint8_t>& bytes, size_t offset, size_t step) {
  std::vector<uint32_t> out(256);
  for (size_t i = offset; i < bytes.size(); i += step) ++out[bytes[i]];
  return out;
}

int checkCapture(const Args& a) {
  PipelineConfig config;
  config.backend = Backend::kGles;  // the GPU import is what this checks, llvmpipe or not
  auto platform = parseEglPlatform(a.egl);
  if (!platform) return std::fprintf(stderr, "%s\n", platform.error().message.c_str()), 2;
  config.gpu.platform = *platform;
  config.gpu.drm_device = a.drm_device;
  config.histogram.bins = 256;
  config.histogram.channels = "rgbl";
  // chunk-sum: fits llvmpipe's loop limit at every size and is quick enough under QEMU's TCG.
  config.histogram.strategy = HistogramStrategy::kChunkSum;
  config.luma = LumaSource::kSource;
  auto pipeline = Pipeline::create(config);
  if (!pipeline) return std::fprintf(stderr, "%s\n", pipeline.error().message.c_str()), 1;
  SourceConfig so;
  auto size = parseSize(a.size, "--size");
  auto format = parsePixelFormat(a.format);
  auto io = parseIoMode(a.io);
  if (!size || !format || !io) return std::fprintf(stderr, "bad --size/--format/--io\n"), 2;
  so.width = size->width, so.height = size->height, so.format = *format, so.io = *io;
  so.dump_raw_dir = a.dump;
  auto source = (*pipeline)->openSource(a.device, so);
  if (!source) return std::fprintf(stderr, "%s\n", source.error().message.c_str()), 1;
  std::fprintf(stderr, "%s: %dx%d %s, io %s, %s\n", (*source)->name().c_str(), (*source)->width(),
               (*source)->height(), formatName((*source)->format()),
               (*source)->ioDescription().c_str(), (*pipeline)->deviceDescription().c_str());
  const int w = (*source)->width();

  int failures = 0;
  uint64_t last_seq = 0;
  for (int n = 0; n < a.frames; ++n) {
    auto next = (*source)->next();
    if (!next) {
      std::fprintf(stderr, "%s\n", next.error().message.c_str());
      return next.error().code == ErrorCode::kDeviceLost || (*source)->deviceLost()
                 ? kExitDeviceLost
                 : 1;
    }
    if (!next->has_value()) break;
    const Frame& f = **next;
    const bool yuv = isYuv(f.format) || f.format == PixelFormat::kGREY;
    auto result = (*pipeline)->process(f);
    if (!result) return std::fprintf(stderr, "%s\n", result.error().message.c_str()), 1;
    const bool zero_copy = result->zero_copy;
    // R, G, B of the pipeline's "rgbl" histogram; L counts the source's Y plane (YUV, GREY).
    std::vector<uint32_t> gpu_rgb_counts(256 * 3), gpu_l = result->hist.channel(3);
    for (int b = 0; b < 256; ++b)
      for (int c = 0; c < 3; ++c) gpu_rgb_counts[size_t(b) * 3 + c] = result->hist.at(b, c);
    const std::optional<std::vector<uint32_t>> gpu_rgb = gpu_rgb_counts;
    // The same frame's raw bytes, as --dump-raw kept them.
    char name[96];
    std::snprintf(name, sizeof name, "/%06llu-%dx%d-%s.raw",
                  static_cast<unsigned long long>(f.sequence), f.width, f.height,
                  formatName(f.format));
    const std::vector<uint8_t> raw = readAll(a.dump + name);
    Frame rf;
    rf.format = f.format, rf.width = f.width, rf.height = f.height, rf.colorimetry = f.colorimetry;
    bool match = attachTightPlanes(rf, raw.data(), raw.size()).ok() &&
                 raw.size() == frameSize(f.format, f.width, f.height).value();
    std::string why;
    bool rgb_differs = false;
    std::vector<uint32_t> want_rgb[3];
    if (match) {
      RgbOrder order{};
      std::vector<uint32_t> want[3];
      if (rgbOrder(f.format, order)) {
        const int offs[3] = {order.r, order.g, order.b};
        for (int c = 0; c < 3; ++c) want[c] = countBytes(raw, size_t(offs[c]), size_t(order.bpp));
      } else {
        auto ref =
            histogramReference(convertToRgbaCpu(rf).value(), 256, "rgb", LumaWeights::kBt709);
        for (int c = 0; c < 3; ++c) want[c] = channelOf(ref, 3, c);
      }
      for (int c = 0; c < 3; ++c) want_rgb[c] = want[c];
      for (int c = 0; c < 3; ++c)
        if (channelOf(*gpu_rgb, 3, c) != want[c])
          match = false, rgb_differs = true, why += std::string(" ") + "rgb"[c];
      if (yuv) {
        auto y = extractLumaPlane(rf).value();
        if (gpu_l != countBytes(y, 0, 1)) match = false, why += " luma";
      }
    } else {
      why = " raw dump missing or short";
    }
    if (f.sequence < last_seq) match = false, why += " sequence went back";
    last_seq = f.sequence;
    if (a.io == "dmabuf" && !zero_copy) match = false, why += " not zero-copy";
    std::printf("{\"seq\":%llu,\"ts_ns\":%llu,\"dropped\":%llu,\"zero_copy\":%s,\"match\":%s}\n",
                static_cast<unsigned long long>(f.sequence),
                static_cast<unsigned long long>(f.timestamp_ns),
                static_cast<unsigned long long>(f.dropped), zero_copy ? "true" : "false",
                match ? "true" : "false");
    std::fflush(stdout);
    if (!match) {
      std::fprintf(stderr, "frame %llu differs:%s\n", static_cast<unsigned long long>(f.sequence),
                   why.c_str());
      ++failures;
    }
    if (rgb_differs) {
      // Say where: the stage's first differing bin, and the first pixel where the imported
      // image and the CPU reference of the raw bytes differ (none: the import is right).
      for (int c = 0; c < 3; ++c)
        for (int b = 0; b < 256; ++b)
          if (channelOf(*gpu_rgb, 3, c)[b] != want_rgb[c][b]) {
            std::fprintf(stderr, "channel %d bin %d: stage %u, raw bytes %u\n", c, b,
                         channelOf(*gpu_rgb, 3, c)[b], want_rgb[c][b]);
            break;
          }
      auto cpu = convertToRgbaCpu(rf);
      auto gpu = readTexture(result->gpu->image_texture, result->gpu->width, result->gpu->height);
      if (gpu.ok() && cpu.ok()) {
        for (size_t i = 0; i < gpu->pixels.size(); ++i)
          if (gpu->pixels[i] != cpu->pixels[i]) {
            std::fprintf(stderr, "first difference at pixel %zu,%zu channel %zu: GPU %d, CPU %d\n",
                         i / 4 % size_t(w), i / 4 / size_t(w), i % 4, gpu->pixels[i],
                         cpu->pixels[i]);
            break;
          }
      }
    }
  }
  return failures ? 1 : 0;
}

}  // namespace
}  // namespace esf

int main(int argc, char** argv) {
  esf::Args a;
  if (!esf::parseArgs(argc, argv, a)) {
    std::fprintf(
        stderr,
        "usage: vivid_capture_check --dump-raw DIR [--device PATH] [--format F] [--size WxH]"
        " [--io mmap|dmabuf] [--frames N] [--egl P] [--drm-device D]\n");
    return 2;
  }
  return esf::checkCapture(a);
}
