#pragma once
// Still images through stb_image: PNG, JPEG, BMP, PGM, PPM. Decoded to RGBA8 (grey images get
// R = G = B, images without alpha get A = 255).
#include <cstdint>
#include <span>
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

// ".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".ppm", ".pnm" (lower case, with the dot).
bool isStillImageExtension(const std::string& ext);

// A JPEG whose end-of-image marker follows its last start-of-scan (decoders zero-fill the rest
// of a truncated one and report success).
bool jpegComplete(std::span<const uint8_t> bytes);

// Decodes an image held in memory; `name` (the file) is named in every error. Truncated files
// fail even where stb_image would fill the missing pixels with zeros (JPEG, BMP).
Result<RgbaImage> decodeStillImage(std::span<const uint8_t> bytes, const std::string& name);
Result<RgbaImage> loadStillImage(const std::string& path);

}  // namespace esf
