// Real-driver check for the QEMU harness (tests/vm/cases/vivid_*.sh): captures N frames from a
// V4L2 device through openSource() (mmap or zero-copy dmabuf), imports each on the GPU into a
// stage image, runs the histogram stage on it, and compares with a CPU histogram of the raw bytes
// that --dump-raw kept for the same frame:
//   R, G, B: RGB formats count the raw bytes directly; YUV formats count the CPU reference
//            conversion of the raw bytes (core/import/import_reference.hpp);
//   L:       YUV and GREY count the raw Y bytes directly against the GPU source-luma image.
// Prints one line per frame; a lost device ends with one stderr line and exit code 3 (as
// esframe's kExitDeviceLost).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "capture/pixel_format.hpp"
#include "capture/source.hpp"
#include "core/image/gpu_image.hpp"
#include "core/import/frame_import.hpp"
#include "core/import/gbm_dmabuf_allocator.hpp"
#include "core/import/import_reference.hpp"
#include "core/stages/histogram.hpp"
#include "core/stages/histogram_reference.hpp"
#include "platform/gl_context.hpp"

namespace esf {
namespace {

constexpr int kExitDeviceLost = 3;  // core/cli/cli_common.hpp

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

int run(const Args& a) {
  GlContextOptions go;
  auto platform = parseEglPlatform(a.egl);
  if (!platform) return std::fprintf(stderr, "%s\n", platform.error().message.c_str()), 2;
  go.egl.platform = *platform;
  go.egl.drm_device = a.drm_device;
  auto gl = GlContext::create(go);
  if (!gl) return std::fprintf(stderr, "%s\n", gl.error().message.c_str()), 1;
  SourceOptions so;
  auto size = parseSize(a.size);
  auto format = parsePixelFormat(a.format);
  auto io = parseIoMode(a.io);
  if (!size || !format || !io) return std::fprintf(stderr, "bad --size/--format/--io\n"), 2;
  so.width = size->first, so.height = size->second, so.format = *format, so.io = *io;
  so.dump_raw_dir = a.dump;
  auto dmabuf_allocator = createGbmDmabufAllocator(**gl);
  if (dmabuf_allocator.ok()) so.dmabuf_allocator = dmabuf_allocator->get();
  auto source = openSource(a.device, so);
  if (!source) return std::fprintf(stderr, "%s\n", source.error().message.c_str()), 1;
  std::fprintf(stderr, "%s: %dx%d %s, io %s, GL %s\n", (*source)->name().c_str(),
               (*source)->width(), (*source)->height(), formatName((*source)->format()),
               (*source)->ioDescription().c_str(), (*gl)->renderer().c_str());
  auto importer = FrameImporter::create(**gl);
  if (!importer) return std::fprintf(stderr, "%s\n", importer.error().message.c_str()), 1;
  HistogramParams hp = HistogramParams::defaultsFor(**gl);
  hp.bins = 256, hp.channels = "rgb";
  // chunk-sum: fits llvmpipe's loop limit at every size and is quick enough under QEMU's TCG.
  hp.strategy = HistogramStrategy::kChunkSum;
  auto rgb_hist = Histogram::create(**gl, hp);
  hp.channels = "l";
  auto luma_hist = Histogram::create(**gl, hp);
  if (!rgb_hist || !luma_hist) return std::fprintf(stderr, "histogram stage unavailable\n"), 1;
  const int w = (*source)->width(), h = (*source)->height();
  auto rgb_image = GpuImage::create(w, h), luma_image = GpuImage::create(w, h);
  if (!rgb_image || !luma_image) return std::fprintf(stderr, "cannot create stage images\n"), 1;

  int failures = 0;
  uint64_t last_seq = 0;
  for (int n = 0; n < a.frames; ++n) {
    auto next = (*source)->next();
    if (!next) {
      std::fprintf(stderr, "%s\n", next.error().message.c_str());
      return (*source)->deviceLost() ? kExitDeviceLost : 1;
    }
    if (!next->has_value()) break;
    const Frame& f = **next;
    const bool yuv = isYuv(f.format) || f.format == PixelFormat::kGREY;
    ImportOptions io_opts;
    io_opts.source_luma = yuv;
    io_opts.target_rgba = rgb_image->texture();
    io_opts.target_luma = isYuv(f.format) ? luma_image->texture() : 0;
    auto imported = (*importer)->import(f, io_opts);
    if (!imported) return std::fprintf(stderr, "%s\n", imported.error().message.c_str()), 1;
    const bool zero_copy = imported->zero_copy;
    if (!rgb_hist->run(*rgb_image).ok()) return std::fprintf(stderr, "histogram failed\n"), 1;
    auto gpu_rgb = rgb_hist->read();
    std::vector<uint32_t> gpu_l;
    if (yuv) {
      if (!luma_hist->run(f.format == PixelFormat::kGREY ? *rgb_image : *luma_image).ok())
        return std::fprintf(stderr, "luma histogram failed\n"), 1;
      gpu_l = luma_hist->read().value();
    }
    // The same frame's raw bytes, as --dump-raw kept them.
    char name[96];
    std::snprintf(name, sizeof name, "/%06llu-%dx%d-%s.raw",
                  static_cast<unsigned long long>(f.sequence), f.width, f.height,
                  formatName(f.format));
    const std::vector<uint8_t> raw = readAll(a.dump + name);
    Frame rf;
    rf.format = f.format, rf.width = f.width, rf.height = f.height, rf.colorimetry = f.colorimetry;
    bool match = gpu_rgb.ok() && attachTightPlanes(rf, raw.data(), raw.size()).ok() &&
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
      std::vector<uint8_t> gpu(size_t(w) * h * 4);
      auto cpu = convertToRgbaCpu(rf);
      if ((*importer)->readRgbaTexture(rgb_image->texture(), w, h, gpu.data()).ok() && cpu.ok()) {
        for (size_t i = 0; i < gpu.size(); ++i)
          if (gpu[i] != cpu->pixels[i]) {
            std::fprintf(stderr, "first difference at pixel %zu,%zu channel %zu: GPU %d, CPU %d\n",
                         i / 4 % size_t(w), i / 4 / size_t(w), i % 4, gpu[i], cpu->pixels[i]);
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
  return esf::run(a);
}
