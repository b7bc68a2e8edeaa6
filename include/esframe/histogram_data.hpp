#pragma once
// A histogram as read back from the GPU (or from the CPU reference): `bins` bins for each of
// the channels named in `channels` ("rgbl", "l", "rg"...), counts interleaved per bin as the
// histogram stage writes them: counts[bin * channels.size() + c].
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace esf {

struct HistogramData {
  int bins = 0;
  std::string channels;          // letters from "rgbl", in the order the counts interleave them
  std::vector<uint32_t> counts;  // bins * channels.size()

  int channelCount() const { return int(channels.size()); }
  uint32_t at(int bin, int channel) const {
    return counts[size_t(bin) * channels.size() + size_t(channel)];
  }
  // One channel's counts, bin 0 first.
  std::vector<uint32_t> channel(int c) const {
    std::vector<uint32_t> out(static_cast<size_t>(bins));
    for (int b = 0; b < bins; ++b) out[size_t(b)] = at(b, c);
    return out;
  }
  bool operator==(const HistogramData&) const = default;
};

// Raw statistics of a Bayer frame, straight from the sensor values before demosaicing: one
// histogram per CFA site (core/stats/raw_histogram.hpp has the binning), with the levels used.
struct RawHistogramData {
  int bins = 0;
  int bit_depth = 0;
  uint32_t black = 0, white = 0;
  std::array<std::vector<uint32_t>, 4> counts;  // R, Gr, Gb, B (CfaSite order), bins each
  std::array<uint64_t, 4> pixels{};             // sites of each kind
  std::array<uint64_t, 4> crushed{};            // values <= black
  std::array<uint64_t, 4> clipped{};            // values >= white
  bool operator==(const RawHistogramData&) const = default;
};

}  // namespace esf
