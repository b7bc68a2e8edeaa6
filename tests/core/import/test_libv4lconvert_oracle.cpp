// The CPU reference against libv4lconvert, an independent converter that V4L2 applications use,
// on random frames of every format it reads. libv4lconvert converts Y'CbCr as full-range BT.601
// with coarse fixed-point coefficients (YUYV: Cr * 1.5, Cb * 2.02), so Y'CbCr agrees within a
// few levels; RGB and GREY byte shuffles agree exactly.
#include <gtest/gtest.h>
#include <libv4lconvert.h>
#include <linux/videodev2.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "base/pixel_format.hpp"
#include "core/import/import_reference.hpp"
#include "core/import/v4lconvert_memory.hpp"

namespace esf {
namespace {

// libv4lconvert's RGB24 for a tight w x h frame of `fourcc`, or empty when it cannot convert it.
std::vector<uint8_t> v4lconvertToRgb24(uint32_t fourcc, int w, int h, int bytes_per_line,
                                       std::vector<uint8_t>& bytes) {
  const V4lconvert conv = v4lconvertInMemory();
  if (!conv) return {};
  v4l2_format src{}, dst{};
  src.type = dst.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  src.fmt.pix.width = uint32_t(w), src.fmt.pix.height = uint32_t(h);
  src.fmt.pix.pixelformat = fourcc;
  src.fmt.pix.field = V4L2_FIELD_NONE;
  src.fmt.pix.bytesperline = uint32_t(bytes_per_line);
  src.fmt.pix.sizeimage = uint32_t(bytes.size());
  dst.fmt.pix = src.fmt.pix;
  dst.fmt.pix.pixelformat = V4L2_PIX_FMT_RGB24;
  dst.fmt.pix.bytesperline = uint32_t(w * 3);
  dst.fmt.pix.sizeimage = uint32_t(w * h * 3);
  std::vector<uint8_t> rgb(size_t(w) * h * 3);
  const int n = v4lconvert_convert(conv.get(), &src, &dst, bytes.data(), int(bytes.size()),
                                   rgb.data(), int(rgb.size()));
  if (n != int(rgb.size())) return {};
  return rgb;
}

// Converts one w x h frame of `f` both ways; false when libv4lconvert cannot read `f`. Returns
// the largest and the mean absolute difference over R, G, B.
bool compare(PixelFormat f, int w, int h, const std::vector<uint8_t>& bytes, int& worst,
             double& mean) {
  std::vector<uint8_t> copy = bytes;  // libv4lconvert takes a non-const source
  const std::vector<uint8_t> theirs =
      v4lconvertToRgb24(v4l2Fourcc(f), w, h, planeLayout(f, w, h)->front().bytes_per_row, copy);
  if (theirs.empty()) return false;
  Frame frame;
  frame.format = f, frame.width = w, frame.height = h;
  frame.colorimetry = {YcbcrEncoding::kBt601, true};
  EXPECT_TRUE(attachTightPlanes(frame, bytes.data(), bytes.size()).ok());
  auto ours = convertToRgbaCpu(frame);
  EXPECT_TRUE(ours.ok()) << ours.error().message;
  if (!ours.ok()) return false;
  worst = 0;
  long sum = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        const int d = std::abs(int(ours->at(x, y)[c]) - int(theirs[size_t((y * w + x) * 3 + c)]));
        worst = std::max(worst, d), sum += d;
      }
  mean = double(sum) / (w * h * 3);
  return true;
}

TEST(LibV4lConvertOracle, CpuReferenceAgreesOnEveryFormatItReads) {
  const int w = 10, h = 6;  // libv4lconvert assumes whole 2x2 chroma blocks
  std::mt19937 rng(7);
  std::vector<std::string> compared;
  for (PixelFormat f : allPixelFormats()) {
    if (isCompressed(f)) continue;  // MJPEG: test_import_reference compares with stb_image
    if (isBayer(f)) continue;       // demosaiced by the pipeline: test_bayer_import
    SCOPED_TRACE(formatName(f));
    // Bytes within 128 +- 32: libv4lconvert's coarse Y'CbCr coefficients then stay within a few
    // levels of ours (measured: 8 at most), while a misplaced or swapped chroma byte moves a
    // pixel by tens of levels (a wrong stride: mean 30, worst 126).
    std::vector<uint8_t> bytes(frameSize(f, w, h).value());
    for (auto& b : bytes) b = uint8_t(96 + int(rng() % 64));
    int worst = 0;
    double mean = 0;
    if (!compare(f, w, h, bytes, worst, mean)) continue;
    compared.push_back(formatName(f));
    EXPECT_LE(worst, isYuv(f) ? 10 : 0) << "mean difference " << mean;
  }
  std::string list;
  for (const auto& n : compared) list += n + " ";
  // What this libv4lconvert reads of ours (v4l-utils 1.22); if it stops reading one, say so.
  for (const char* must : {"YUYV", "UYVY", "NV12", "YU12", "RGB24", "BGR24", "XRGB32", "ARGB32",
                           "XBGR32", "ABGR32", "GREY"})
    EXPECT_NE(std::find(compared.begin(), compared.end(), must), compared.end())
        << must << " was not compared; compared: " << list;
}

}  // namespace
}  // namespace esf
