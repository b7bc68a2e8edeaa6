#pragma once
// --output bin: one little-endian record per frame, for low overhead. Layout (all offsets in
// bytes, integers little-endian, floats IEEE-754 binary64; docs/output-formats.md):
//
//   header, 64 bytes
//     0  char[4]  magic "ESF1"
//     4  u32      record size in bytes, this header included
//     8  u64      seq
//    16  u64      ts_ns
//    24  u64      dropped
//    32  u32      width
//    36  u32      height
//    40  u16      bins (B)
//    42  u8       channel count (C)
//    43  u8       timing count (T)
//    44  char[4]  channel letters ("rgbl"), unused ones 0
//    48  char[8]  pixel format name ("YUYV"), zero padded
//    56  u32      source name length (S)
//    60  u32      0
//   64            source name, S bytes, not terminated
//   64+S          counts: u32[B * C], interleaved per bin (counts[bin * C + c])
//   then C x 80   per channel: u64 pixels, u64 sum, u32 min, max, p1, p10, p50, p90, p99,
//                 u32 0, f64 mean, clip_low, clip_high, msv
//   then 8        f64 ev_hint (NaN when there is no luma channel)
//   then T x 24   per stage: char[15] name zero padded, u8 clock (1 = GPU timer query,
//                 0 = CPU wall clock), f64 milliseconds
#include <string>

#include "esframe/sink.hpp"

namespace esf {

inline constexpr char kBinMagic[4] = {'E', 'S', 'F', '1'};
inline constexpr size_t kBinHeaderSize = 64;
inline constexpr size_t kBinChannelStatsSize = 80;
inline constexpr size_t kBinTimingSize = 24;

std::string binRecord(const FrameResult& frame);

class BinOutput : public FrameSink {
 public:
  explicit BinOutput(int fd) : fd_(fd) {}
  Status write(const FrameResult& frame) override;

 private:
  int fd_;
};

}  // namespace esf
