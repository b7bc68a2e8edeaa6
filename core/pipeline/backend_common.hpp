#pragma once
// Pieces both backends share: the channel split of LumaSource::kSource and the stage timer.
#include <chrono>
#include <string>
#include <vector>

#include "base/channels.hpp"
#include "esframe/frame.hpp"
#include "esframe/histogram_data.hpp"
#include "esframe/sink.hpp"

namespace esf {

// The luma weights of every backend's L channel and stats.
inline constexpr LumaWeights kPipelineLuma = LumaWeights::kBt709;

// The user's channel list without 'l' (counted on the RGB image when L comes from the source).
std::string withoutLuma(const std::string& channels);

// Interleaves counts of `rgb_channels` (bins x rgb_channels.size()) and of L (bins) into the
// order of `channels`.
HistogramData mergeLuma(const std::string& channels, int bins, const std::string& rgb_channels,
                        const std::vector<uint32_t>& rgb_counts,
                        const std::vector<uint32_t>& l_counts);

// Fills the frame's identity (seq, ts_ns, source, format...), the processed size, and the stats
// from the 256-value histogram `values` and r.hist (timed as stage "stats").
void finishFrameResult(FrameResult& r, const Frame& frame, const HistogramData& values, int width,
                       int height);

// The CPU backends' end of a frame: the scale stage (its reference: a few hundred counts) on
// r.hist, then finishFrameResult, with r.image = &image.
void finishHostFrameResult(FrameResult& r, const Frame& frame, const HistogramData& values,
                           const RgbaImage& image);
// The same for a frame processed without an image (r.image null): the counts are of
// width x height pixels.
void finishHostFrameResult(FrameResult& r, const Frame& frame, const HistogramData& values,
                           int width, int height);

// Milliseconds of CPU wall time since construction.
class WallTimer {
 public:
  WallTimer() : start_(std::chrono::steady_clock::now()) {}
  double ms() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace esf
