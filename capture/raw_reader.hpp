#pragma once
// Headerless raw video: back-to-back tight frames of a known size and format (--size, --format).
#include <cstdio>
#include <string>
#include <vector>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf {

// Reads frame `index` into `out`. false at a clean end (EOF on a frame boundary); a partial
// last frame is an error naming the file.
Result<bool> readRawFrame(FILE* in, PixelFormat format, int width, int height,
                          const std::string& name, uint64_t index, std::vector<uint8_t>& out);

}  // namespace esf
