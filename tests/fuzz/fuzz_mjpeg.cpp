// libFuzzer: the MJPEG path (end-of-image check, then libv4lconvert's decoder) on arbitrary
// bytes. The first two bytes pick a frame size up to 64x64, as a camera's format would.
#include "core/import/mjpeg_decode.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  esf::Frame frame;
  frame.format = esf::PixelFormat::kMJPEG;
  frame.width = 1 + data[0] % 64;
  frame.height = 1 + data[1] % 64;
  frame.planes[0] = esf::FramePlane{data + 2, size - 2, 0};
  frame.plane_count = 1;
  frame.source = "fuzz.mjpeg";
  (void)esf::decodeMjpeg(frame);
  return 0;
}
