#pragma once
// Headerless raw video: back-to-back tight frames of a known size and format (--size, --format).
#include <cstdio>
#include <string>
#include <vector>

#include "capture/read_bytes.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf {

// Reads frame `index` into `out`. false at a clean end (EOF on a frame boundary); a partial
// last frame is ErrorCode::kTruncated, naming the file.
Result<bool> readRawFrame(FILE* in, PixelFormat format, int width, int height,
                          const std::string& name, uint64_t index, std::vector<uint8_t>& out);
// The same, taking the frame's first bytes from `consumed` (bytes already read from a stream that
// cannot be rewound) and removing them from it; the rest through `payload` (default: fread).
Result<bool> readRawFrame(FILE* in, PixelFormat format, int width, int height,
                          const std::string& name, uint64_t index, std::vector<uint8_t>& out,
                          std::string& consumed, const ReadBytes& payload = {});

}  // namespace esf
