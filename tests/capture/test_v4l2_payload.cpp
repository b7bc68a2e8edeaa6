// A V4L2 buffer whose bytesused falls short of the frame is no whole frame: the sizes here are
// worked out by hand from each format's layout (V4L2's plane order and pitches).
#include <gtest/gtest.h>

#include "capture/v4l2_payload.hpp"

namespace esf {
namespace {

V4l2StreamFormat singlePlanar(uint32_t width, uint32_t height, uint32_t bytesperline) {
  V4l2StreamFormat f;
  f.width = width, f.height = height;
  f.bytesperline[0] = bytesperline;
  return f;
}

TEST(V4l2Payload, PackedFrameNeedsEveryRow) {
  const V4l2StreamFormat f = singlePlanar(320, 180, 640);  // YUYV: 640 x 180 = 115200 bytes
  EXPECT_EQ(v4l2ShortPayload(f, PixelFormat::kYUYV, {115200}), std::nullopt);
  EXPECT_EQ(v4l2ShortPayload(f, PixelFormat::kYUYV, {120000}), std::nullopt);  // sizeimage pad
  EXPECT_EQ(v4l2ShortPayload(f, PixelFormat::kYUYV, {115199}),
            "plane 0 holds 115199 of 115200 bytes");
  EXPECT_EQ(v4l2ShortPayload(f, PixelFormat::kYUYV, {0}), "plane 0 holds 0 of 115200 bytes");
}

TEST(V4l2Payload, PlanarFrameInOneBufferNeedsItsLastPlane) {
  // NV12 640x480 at 640: Y 307200 + CbCr 640 x 240 = 153600.
  const V4l2StreamFormat nv12 = singlePlanar(640, 480, 640);
  EXPECT_EQ(v4l2ShortPayload(nv12, PixelFormat::kNV12, {460800}), std::nullopt);
  EXPECT_EQ(v4l2ShortPayload(nv12, PixelFormat::kNV12, {307200}),
            "plane 0 holds 307200 of 460800 bytes");
  // YU12 640x480 at 704 (padded): Y 704 x 480 = 337920, U and V 352 x 240 = 84480 each.
  const V4l2StreamFormat yu12 = singlePlanar(640, 480, 704);
  EXPECT_EQ(v4l2ShortPayload(yu12, PixelFormat::kYU12, {506880}), std::nullopt);
  EXPECT_EQ(v4l2ShortPayload(yu12, PixelFormat::kYU12, {506879}),
            "plane 0 holds 506879 of 506880 bytes");
}

TEST(V4l2Payload, MultiPlanarFrameNeedsEachPlane) {
  V4l2StreamFormat nv12m = singlePlanar(640, 480, 640);
  nv12m.multi_planar = true;
  nv12m.memory_planes = 2;
  nv12m.bytesperline[1] = 640;  // CbCr: 640 x 240 = 153600
  EXPECT_EQ(v4l2ShortPayload(nv12m, PixelFormat::kNV12, {307200, 153600}), std::nullopt);
  EXPECT_EQ(v4l2ShortPayload(nv12m, PixelFormat::kNV12, {307200, 153599}),
            "plane 1 holds 153599 of 153600 bytes");
  EXPECT_EQ(v4l2ShortPayload(nv12m, PixelFormat::kNV12, {100, 153600}),
            "plane 0 holds 100 of 307200 bytes");
}

TEST(V4l2Payload, CompressedFramesVaryInSize) {
  const V4l2StreamFormat f = singlePlanar(640, 480, 0);
  EXPECT_EQ(v4l2ShortPayload(f, PixelFormat::kMJPEG, {1000}), std::nullopt);
}

}  // namespace
}  // namespace esf
