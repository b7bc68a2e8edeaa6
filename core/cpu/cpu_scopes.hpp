#pragma once
// The CPU executor's scopes, equal bit for bit to core/stages/scopes_reference.hpp. One pass
// over the image, split over the threads by scope columns: each thread owns its columns'
// waveform and parade counts (nothing to sum) and adds the vectorscope into its own 65536
// counts, summed once. A YUV frame's vectorscope (countSource) is split by rows.
#include <cstdint>
#include <vector>

#include "core/cpu/row_pool.hpp"
#include "esframe/frame.hpp"
#include "esframe/rgba_image.hpp"
#include "esframe/scope_data.hpp"

namespace esf {

class CpuScopes {
 public:
  // The waveform (L: `luma`'s red channel where given, else BT.709 of `image`), the parade and
  // the RGB vectorscope of `image`, as `scopes` asks, into `out` (columns: W', 1..width).
  // `rgb_vectorscope` false: the vectorscope is left to countSource().
  void count(const RgbaImage& image, const RgbaImage* luma, const ScopeOptions& scopes, int columns,
             bool rgb_vectorscope, RowPool& pool, ScopeCounts& out);
  // The vectorscope of a YUV frame's own chroma samples; false (out untouched) for frames
  // without them.
  bool countSource(const Frame& frame, RowPool& pool, ScopeCounts& out);

 private:
  // Each thread's 65536 counts, summed into `out`.
  void sumVectorscopes(int threads, std::vector<uint32_t>& out) const;
  std::vector<std::vector<uint32_t>> vectorscopes_;
  std::vector<uint32_t> column_words_;  // pixel column x's scope column * 256
};

}  // namespace esf
