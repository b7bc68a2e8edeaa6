#pragma once
// The clips the ffmpeg-oracle tests make with ffmpeg and give to both ffmpeg and esframe.
#include <ostream>

namespace esf::test {

struct FfmpegClip {
  const char* name;
  const char* ffmpeg_format;   // the pixel format ffmpeg writes (and reads, for raw files)
  const char* esframe_format;  // raw files: --format; "" for Y4M
  bool full_range;
  bool odd_size;       // 97x55 (Y4M only: the raw formats' planes are read at even sizes)
  bool mjpeg = false;  // made as MJPEG at the lowest quality, then decoded to raw planes
};

inline void PrintTo(const FfmpegClip& c, std::ostream* os) {
  *os << c.name;
}

}  // namespace esf::test
