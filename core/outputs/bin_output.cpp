#include "core/outputs/bin_output.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/outputs/frame_summary.hpp"
#include "core/outputs/stdout_writer.hpp"

namespace esf {
namespace {

// Little-endian appends, byte by byte, so the format does not depend on the host.
void putU(std::string& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out += char((v >> (8 * i)) & 0xff);
}
void putF64(std::string& out, double v) {
  uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  putU(out, bits, 8);
}
void putFixed(std::string& out, const std::string& s, size_t width) {
  for (size_t i = 0; i < width; ++i) out += i < s.size() ? s[i] : '\0';
}

}  // namespace

std::string binRecord(const FrameResult& f) {
  std::string r;
  r.append(kBinMagic, 4);
  putU(r, 0, 4);  // record size, patched below
  putU(r, f.seq, 8);
  putU(r, f.ts_ns, 8);
  putU(r, f.dropped, 8);
  putU(r, uint32_t(f.width), 4);
  putU(r, uint32_t(f.height), 4);
  putU(r, uint16_t(f.hist.bins), 2);
  putU(r, uint8_t(f.hist.channelCount()), 1);
  putU(r, uint8_t(f.timings.size()), 1);
  putFixed(r, f.hist.channels, 4);
  putFixed(r, f.format, 8);
  putU(r, uint32_t(f.source.size()), 4);
  putU(r, 0, 4);
  r += f.source;
  for (uint32_t c : f.hist.counts) putU(r, c, 4);
  for (const ChannelStats& s : f.stats) {
    putU(r, s.count, 8);
    putU(r, s.sum, 8);
    for (uint32_t v : {s.min, s.max, s.p1, s.p10, s.p50, s.p90, s.p99, 0u}) putU(r, v, 4);
    for (double v : {s.mean, s.clip_low, s.clip_high, s.msv}) putF64(r, v);
  }
  const std::optional<double> ev = frameEvHint(f);
  putF64(r, ev ? *ev : std::numeric_limits<double>::quiet_NaN());
  for (const StageTiming& t : f.timings) {
    putFixed(r, t.stage, 15);
    putU(r, t.gpu ? 1 : 0, 1);
    putF64(r, t.ms);
  }
  const uint32_t size = uint32_t(r.size());
  for (int i = 0; i < 4; ++i) r[size_t(4 + i)] = char((size >> (8 * i)) & 0xff);
  return r;
}

Status BinOutput::write(const FrameResult& frame) {
  return writeRecord(fd_, binRecord(frame));
}

}  // namespace esf
