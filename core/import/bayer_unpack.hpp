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

// A Bayer format's unpacking at one width, read from the format table and checked once, where
// the format and size are first seen: its row layout (accepted by BayerRowLayout::validate for
// that width), a row's bytes, and the format's name for the errors of its frames.
struct BayerUnpacking {
  const char* format_name = "";
  BayerRowLayout layout;
  int width = 0;
  size_t row_bytes = 0;
};
// Fails where `format` is not a Bayer format, or its layout takes no rows of `width` values.
Result<BayerUnpacking> bayerUnpacking(PixelFormat format, int width);

// The sensor values of a Bayer frame of the format and width `unpacking` was made for, with
// CPU-visible plane 0: width * height values, the rows unpacked in the parts `split` makes.
Result<std::vector<uint16_t>> unpackBayerFrame(const Frame& frame, const BayerUnpacking& unpacking,
                                               const RowSplitter& split = {});

}  // namespace esf
