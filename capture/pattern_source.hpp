#pragma once
// The synthetic pattern, top to bottom: eight colour bars scrolling left 4 px a frame (top half),
// R/G/B ramps scrolling 2 px a frame (third quarter), seeded noise that changes every frame
// (last quarter), and a 16-bit frame counter block (16 cells of 8x8, LSB first) at top left.
#include <memory>
#include <string_view>

#include "capture/open_source.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

RgbaImage renderPattern(int width, int height, uint64_t index, uint64_t seed);
// The same into `image` (its width and height; every byte written), reusing its pixels.
void renderPattern(RgbaImage& image, uint64_t index, uint64_t seed);
// capture/source_kinds.hpp says what the spec holds.
bool isPatternSpec(std::string_view spec);
Result<std::unique_ptr<FrameSource>> openPatternSource(std::string_view spec,
                                                       const SourceOptions& options);

}  // namespace esf
