#pragma once
// YUV4MPEG2 (Y4M) parsing: the stream header, then "FRAME[ params]\n" + one planar frame each.
// Chroma: 420jpeg, 420paldv, 420mpeg2 and 420 (all 4:2:0; their siting differences are ignored,
// import takes the nearest sample), 422, 444, mono. Colorimetry: BT.601, limited range unless
// the FFmpeg extension XCOLORRANGE=FULL says otherwise.
#include <cstdio>
#include <string>
#include <vector>

#include "capture/read_bytes.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf {

struct Y4mHeader {
  int width = 0;
  int height = 0;
  int fps_num = 30, fps_den = 1;
  PixelFormat format = PixelFormat::kYU12;
  Colorimetry colorimetry;
  std::string chroma = "420jpeg";
};

// Reads from a FILE* it does not own (a file, or fmemopen() for the fuzzer and tests).
class Y4mReader {
 public:
  // Parses the stream header; errors name `name`. `consumed`: the header's first bytes, already
  // read by a caller that had to look at them (a pipe cannot be rewound).
  static Result<Y4mHeader> readHeader(FILE* in, const std::string& name,
                                      const std::string& consumed = "");
  // Reads the next frame's tight planes into `out`. false at a clean end of stream; a stream that
  // ends inside a frame is ErrorCode::kTruncated. `payload`: reads the planes (default: fread).
  static Result<bool> readFrame(FILE* in, const Y4mHeader& header, const std::string& name,
                                uint64_t index, std::vector<uint8_t>& out,
                                const ReadBytes& payload = {});
  // After readHeader, with `fd` at the first frame (an unbuffered stream's fd): a regular file
  // (not a pipe) whose bytes left are fewer than one frame is ErrorCode::kTruncated before any
  // frame is allocated; no bytes at all is an empty video.
  static Status checkFileHoldsAFrame(int fd, const Y4mHeader& header, const std::string& name);
};

}  // namespace esf
