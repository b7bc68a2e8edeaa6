#pragma once
// MJPEG frames are decoded on the CPU with libv4lconvert, then imported as RGB24.
// Why libv4lconvert and not stb_image: many UVC cameras send MJPEG without Huffman tables
// (DHT), relying on the standard ones; libv4lconvert inserts them (as V4L2 applications expect),
// stb_image rejects such frames. It is also already a dependency and reports bad frames.
// Both decoders zero-fill truncated data, so a frame without an end-of-image marker is refused.
#include <cstdint>
#include <vector>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf {

struct DecodedFrame {
  std::vector<uint8_t> rgb;  // RGB24, tight
  Frame frame;               // an RGB24 frame pointing into rgb (moves keep it valid)
};

// Decodes a WxH MJPEG frame (frame.planes[0] = the compressed bytes).
Result<DecodedFrame> decodeMjpeg(const Frame& frame);

}  // namespace esf
