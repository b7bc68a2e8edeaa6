#include "capture/still_image.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <vector>

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_PNM
#define STBI_NO_STDIO
#define STBI_MAX_DIMENSIONS 16384
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"
#include <stb_image.h>
#pragma GCC diagnostic pop

namespace esf {
namespace {

uint32_t le32(const uint8_t* p) {
  return p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24;
}

// stb_image also zero-fills truncated uncompressed BMPs: check the pixel array fits the file.
bool bmpComplete(std::span<const uint8_t> b) {
  if (b.size() < 30) return false;
  const uint32_t offset = le32(&b[10]);
  const int32_t width = int32_t(le32(&b[18]));
  int32_t height = int32_t(le32(&b[22]));
  const int bpp = b[28] | b[29] << 8;
  const uint32_t compression = b.size() >= 34 ? le32(&b[30]) : 0;
  if (compression != 0 && compression != 3) return true;  // RLE: stb checks as it decodes
  if (width <= 0 || height == 0 || height == std::numeric_limits<int32_t>::min()) return false;
  if (height < 0) height = -height;
  const uint64_t row = (uint64_t(width) * uint64_t(bpp) + 31) / 32 * 4;
  return uint64_t(offset) + row * uint64_t(height) <= b.size();
}

// stb_image stops at the image data and ignores a missing or cut IEND chunk.
bool pngComplete(std::span<const uint8_t> b) {
  static const uint8_t kIend[] = {'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
  for (size_t i = b.size() >= 8 ? b.size() - 8 : 0; i + 8 <= b.size() && i + 16 > b.size(); --i) {
    if (std::memcmp(&b[i], kIend, 8) == 0) return true;
    if (i == 0) break;
  }
  return false;
}

// Older stb_image versions zero-fill a short binary PGM/PPM: check the raster fits the file.
// 8-bit samples only (maxval 1..255).
bool pnmComplete(std::span<const uint8_t> b) {
  size_t pos = 2;
  uint64_t fields[3] = {0, 0, 0};  // width, height, maxval
  for (auto& field : fields) {
    for (;;) {  // whitespace and comments
      while (pos < b.size() && std::isspace(b[pos])) ++pos;
      if (pos < b.size() && b[pos] == '#') {
        // A comment ends at CR too (Netpbm, and stb_image): read the header as stb will.
        while (pos < b.size() && b[pos] != '\n' && b[pos] != '\r') ++pos;
      } else {
        break;
      }
    }
    if (pos >= b.size() || !std::isdigit(b[pos])) return false;
    while (pos < b.size() && std::isdigit(b[pos]) && field < (1u << 24))
      field = field * 10 + (b[pos++] - '0');
    // A longer number overflows stb_image's int parser (found by fuzzing): refuse it here.
    if (pos < b.size() && std::isdigit(b[pos])) return false;
  }
  if (fields[0] == 0 || fields[1] == 0 || fields[2] == 0 || fields[2] > 255) return false;
  ++pos;  // the single whitespace byte before the raster
  const uint64_t channels = b[1] == '6' ? 3 : 1;
  return pos + fields[0] * fields[1] * channels <= b.size();
}

// stb_image writes past its 257-entry Huffman size table when a DHT table declares more than
// 256 codes (found by fuzzing; undefined behaviour inside stb): refuse those tables first. A
// DHT marker (FF C4, after any FF fill bytes) cannot occur inside entropy-coded data (FF is
// followed by 00 or RSTn there), so checking every FF C4 in the file covers every DHT segment
// stb reads. Each is walked as stb_image's DHT reader walks it: tables while the declared
// length lasts, even past the end of the file, where stb reads zeros (a fuzzed file ended in a
// table cut short whose visible counts alone came to 392).
bool jpegHuffmanTablesValid(std::span<const uint8_t> b) {
  auto byteAt = [&b](size_t i) -> size_t { return i < b.size() ? b[i] : 0; };
  for (size_t i = 2; i + 1 < b.size(); ++i) {
    if (b[i] != 0xFF || b[i + 1] != 0xC4) continue;
    long left = long(byteAt(i + 2) << 8 | byteAt(i + 3)) - 2;
    for (size_t t = i + 4; left > 0;) {
      const size_t table_class = byteAt(t) >> 4, table_id = byteAt(t) & 15;
      if (table_class > 1 || table_id > 3) break;  // stb stops there ("bad DHT header")
      size_t codes = 0;
      for (size_t k = 1; k <= 16; ++k) codes += byteAt(t + k);
      if (codes > 256) return false;
      t += 17 + codes;
      left -= long(17 + codes);
    }
  }
  return true;
}

}  // namespace

bool jpegComplete(std::span<const uint8_t> b) {
  size_t last_sos = 0;
  for (size_t i = 2; i + 1 < b.size(); ++i)
    if (b[i] == 0xFF && b[i + 1] == 0xDA) last_sos = i;
  if (last_sos == 0) return false;
  for (size_t i = b.size() - 1; i > last_sos + 1; --i)
    if (b[i - 1] == 0xFF && b[i] == 0xD9) return true;
  return false;
}

bool isStillImageExtension(const std::string& ext) {
  for (const char* e : {".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".ppm", ".pnm"})
    if (ext == e) return true;
  return false;
}

Result<RgbaImage> decodeStillImage(std::span<const uint8_t> bytes, const std::string& name) {
  if (bytes.empty()) return fail(ErrorCode::kCorruptData, name, ": empty file");
  if (bytes.size() > size_t(std::numeric_limits<int>::max()))
    return fail(ErrorCode::kUnsupported, name, ": too large");
  // stb_image takes any run of 0xFF fill bytes before the start-of-image marker: so do we.
  const size_t soi =
      std::find_if(bytes.begin(), bytes.end(), [](uint8_t v) { return v != 0xFF; }) - bytes.begin();
  const bool jpeg =
      soi >= 1 && soi + 1 < bytes.size() && bytes[soi] == 0xD8 && bytes[soi + 1] == 0xFF;
  const bool bmp = bytes.size() >= 2 && bytes[0] == 'B' && bytes[1] == 'M';
  const bool png = bytes.size() >= 4 && bytes[0] == 0x89 && bytes[1] == 'P' && bytes[2] == 'N';
  const bool pnm = bytes.size() >= 2 && bytes[0] == 'P' && (bytes[1] == '5' || bytes[1] == '6');
  if (pnm && !pnmComplete(bytes))
    return fail(ErrorCode::kCorruptData, name, ": truncated or unsupported PGM/PPM");
  if (png && !pngComplete(bytes))
    return fail(ErrorCode::kCorruptData, name, ": truncated PNG (no IEND chunk at the end)");
  if (jpeg && !jpegComplete(bytes))
    return fail(ErrorCode::kCorruptData, name, ": truncated JPEG (no end-of-image marker)");
  if (jpeg && !jpegHuffmanTablesValid(bytes))
    return fail(ErrorCode::kCorruptData, name,
                ": corrupt JPEG (a Huffman table of over 256 codes)");
  if (bmp && !bmpComplete(bytes))
    return fail(ErrorCode::kCorruptData, name, ": truncated or corrupt BMP");
  int w = 0, h = 0, channels = 0;
  const std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> pixels(
      stbi_load_from_memory(bytes.data(), int(bytes.size()), &w, &h, &channels, 4),
      &stbi_image_free);
  if (!pixels) {
    const char* why = stbi_failure_reason();
    return fail(ErrorCode::kCorruptData, name, ": cannot decode image (",
                why ? why : "unknown error", ")");
  }
  if (w <= 0 || h <= 0) return fail(ErrorCode::kCorruptData, name, ": image has no pixels");
  RgbaImage img(w, h);
  std::memcpy(img.pixels.data(), pixels.get(), img.pixels.size());
  return img;
}

Result<RgbaImage> loadStillImage(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail(errorCodeFromErrno(errno), "cannot open image ", path, ": ", std::strerror(errno));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) return fail(ErrorCode::kIo, "cannot read image ", path);
  return decodeStillImage(bytes, path);
}

}  // namespace esf
