#pragma once
// Bayer import's first step: the sensor values of rows stored in any of V4L2's Bayer layouts
// (base/bayer_layout.hpp), as 16-bit values the demosaic and the raw statistics read.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "base/bayer_layout.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf {

// Reads one row's `width` values into `out` (a layout that validate accepts). Unpacked words are
// masked to bit_depth (V4L2 zero fills the unused high bits).
void unpackBayerRow(const uint8_t* row, int width, const BayerRowLayout& layout, uint16_t* out);

// Calls rows(begin, end) for ranges covering [0, count) once, perhaps concurrently (a thread
// pool's bands); empty: one call over them all.
using RowSplitter =
    std::function<void(int count, const std::function<void(int begin, int end)>& rows)>;

// A whole frame: `height` rows `stride` bytes apart -> width * height values, the rows unpacked
// in the parts `split` makes.
Result<std::vector<uint16_t>> unpackBayer(const uint8_t* data, size_t size, int stride, int width,
                                          int height, const BayerRowLayout& layout,
                                          const RowSplitter& split = {});

// The sensor values of a Bayer frame with CPU-visible plane 0: width * height values, the rows
// unpacked in the parts `split` makes.
Result<std::vector<uint16_t>> unpackBayerFrame(const Frame& frame, const RowSplitter& split = {});

}  // namespace esf
