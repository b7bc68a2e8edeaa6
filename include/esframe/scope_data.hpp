#pragma once
// The exposure analyst's scopes (PipelineConfig::scopes, FrameResult::scopes): a waveform (per
// column, the distribution of luma), an RGB parade (the same per channel) and a vectorscope (the
// 2D distribution of Cb and Cr). Counts, not pictures: sinks draw them (docs/output-formats.md,
// "Scopes").
#include <cstdint>
#include <vector>

namespace esf {

// Which scopes to count. columns: the waveform's and parade's column count W'; 0 chooses
// min(width, kScopeDefaultMaxColumns) of the processed image. Pixel x of a W-wide image falls in
// column floor(x * W' / W), so every column of W' <= W holds at least one pixel column.
inline constexpr int kScopeDefaultMaxColumns = 512;
inline constexpr int kScopeMaxColumns = 4096;
struct ScopeOptions {
  bool waveform = false;
  bool parade = false;
  bool vectorscope = false;
  int columns = 0;  // 0 or 1..kScopeMaxColumns (more than the width: the width)
  bool any() const { return waveform || parade || vectorscope; }
  bool operator==(const ScopeOptions&) const = default;
};

// One frame's scope counts, on the processed image (after blur and resize), level = the 8-bit
// value the histograms count. Empty vectors for scopes not asked for.
struct ScopeCounts {
  int columns = 0;  // W'
  // columns * 256, index column * 256 + level: the L channel the histograms count (the luma of
  // PipelineConfig::luma). Summed over columns: the 256-bin L histogram.
  std::vector<uint32_t> waveform;
  // 3 * columns * 256, index (channel * columns + column) * 256 + level, channels R, G, B.
  std::vector<uint32_t> parade;
  // 256 * 256, index cr * 256 + cb. YUV sources: the source's own chroma samples (at chroma
  // resolution, before blur and resize); RGB and Bayer sources: Cb and Cr of each processed pixel
  // by BT.709's limited-range matrix in 8-bit fixed point, the matrix of the L channel
  // (docs/output-formats.md, "Scopes"). Sums to vectorscope_samples.
  std::vector<uint32_t> vectorscope;
  uint64_t vectorscope_samples = 0;
  bool operator==(const ScopeCounts&) const = default;
};

}  // namespace esf
