#pragma once
// RGBA8 -> any PixelFormat, tightly packed: how the synthetic pattern produces every format, and
// how tests build input frames. The forward Y'CbCr matrix is integer (16.16, rounded); it is the
// inverse of import's matrix up to rounding, so a round trip is close but not exact.
#include <cstdint>
#include <vector>

#include "base/bayer_layout.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

// Tight planes (pixel_format.hpp planeLayout), or a baseline JPEG for MJPEG (stb_image_write,
// quality 90). 4:2:x chroma is the rounded mean of each 2x1 / 2x2 block.
Result<std::vector<uint8_t>> encodeRgba(const RgbaImage& image, PixelFormat format,
                                        const Colorimetry& colorimetry);
// The same into `out`, reusing its capacity: a source that encodes every frame keeps one buffer
// instead of a fresh frame-sized allocation per frame (which fragments malloc's heap over a long
// run: docs/reliability.md, Soak).
Status encodeRgbaInto(const RgbaImage& image, PixelFormat format, const Colorimetry& colorimetry,
                      std::vector<uint8_t>& out);

// `width` values (each below 2^bit_depth) into one row of a Bayer layout, the inverse of import's
// unpackBayerRow (core/import/bayer_unpack.hpp). Unused high bits of 16-bit words are zero, as
// V4L2 has them.
void packBayerRow(const uint16_t* values, int width, const BayerRowLayout& layout, uint8_t* row);

}  // namespace esf
