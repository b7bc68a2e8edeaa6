#include "capture/still_image.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "esframe/base/sizes.hpp"

#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_ONLY_BMP
#define STBI_ONLY_PNM
#define STBI_NO_STDIO
// stb_image's default: its header reader (stbi_info) then reports a larger size instead of
// failing "too large", and decodeStillImage refuses it against kMaxFrameSide, naming the size,
// before stbi_load allocates anything.
#define STBI_MAX_DIMENSIONS (1 << 24)
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
  const uint32_t header_size = le32(&b[14]);
  const uint32_t compression = b.size() >= 34 ? le32(&b[30]) : 0;
  // stb_image decodes uncompressed and bit-field BMPs only; it refuses RLE, but took any other
  // value as uncompressed, so a fuzzed 59-byte file declaring 15104x14591 and compression
  // 0xDBFFFFFF made it allocate and fill 880 MB: refuse what it cannot decode.
  if (header_size >= 40 && compression != 0 && compression != 3) return false;
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

// stb_image grows its IDAT buffer to the length a chunk declares before it reads the chunk: a
// fuzzed 130-byte file declared 1.2 GB and made it allocate 2 GiB. Walked as stb walks them
// (length, type, data, CRC, one after another up to IEND), every chunk must fit in the file.
bool pngChunksFit(std::span<const uint8_t> b) {
  for (size_t pos = 8; pos + 12 <= b.size();) {
    const size_t length =
        size_t(b[pos]) << 24 | size_t(b[pos + 1]) << 16 | size_t(b[pos + 2]) << 8 | b[pos + 3];
    if (length > b.size() - pos - 12) return false;
    if (std::memcmp(&b[pos + 4], "IEND", 4) == 0) return true;
    pos += 12 + length;
  }
  return false;
}

// The size a PNG's IHDR declares (it must be the first chunk), read here because stb_image's
// header reader refuses some large sizes itself ("too large") without saying which.
std::optional<std::pair<uint32_t, uint32_t>> pngHeaderSize(std::span<const uint8_t> b) {
  if (b.size() < 24 || std::memcmp(&b[12], "IHDR", 4) != 0) return std::nullopt;
  auto be32 = [&](size_t i) {
    return uint32_t(b[i]) << 24 | uint32_t(b[i + 1]) << 16 | uint32_t(b[i + 2]) << 8 | b[i + 3];
  };
  return std::pair{be32(16), be32(20)};
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
// 256 codes (found by fuzzing; undefined behaviour inside stb): refuse those tables first.
// `at(i)` reads zero past the end of the file, as stb does. A table is walked as stb's DHT reader
// walks it: tables while the declared length lasts, past the end of the file too (a fuzzed file
// ended in a table cut short whose visible counts alone came to 392).
template <class ByteAt>
bool dhtTablesValid(const ByteAt& at, size_t pos, size_t length) {
  long left = long(length) - 2;
  for (size_t t = pos + 2; left > 0;) {
    const size_t table_class = at(t) >> 4, table_id = at(t) & 15;
    if (table_class > 1 || table_id > 3) break;  // stb stops there ("bad DHT header")
    size_t codes = 0;
    for (size_t k = 1; k <= 16; ++k) codes += at(t + k);
    if (codes > 256) return false;
    t += 17 + codes;
    left -= long(17 + codes);
  }
  return true;
}

// Where entropy-coded data from `pos` ends: at the first FF (after any FF fill) followed by a
// code other than a stuffed 00 or a restart marker, where stb's bit reader stops.
size_t entropyCodedEnd(std::span<const uint8_t> b, size_t pos) {
  while (pos < b.size()) {
    if (b[pos] != 0xFF) {
      ++pos;
      continue;
    }
    size_t code = pos + 1;
    while (code < b.size() && b[code] == 0xFF) ++code;
    if (code >= b.size()) return b.size();
    if (b[code] != 0x00 && !(b[code] >= 0xD0 && b[code] <= 0xD7)) return pos;
    pos = code + 1;
  }
  return pos;
}

// Every DHT segment that stb_image reads, found as its marker reader finds them: segment after
// segment by their declared lengths (stb reads each exactly so, or fails), padding between
// segments and FF fill bytes before a marker code skipped, and after a scan header the
// entropy-coded data up to the next marker. An FF C4 inside another segment (an EXIF block, an
// ICC profile) is no DHT: stb never reads it as one. Markers stb would refuse are stepped over
// rather than trusted to end the file, so the walk sees at least every DHT that stb sees.
bool jpegHuffmanTablesValid(std::span<const uint8_t> b, size_t soi) {
  auto at = [&b](size_t i) -> size_t { return i < b.size() ? b[i] : 0; };
  size_t pos = soi + 1;
  while (pos < b.size()) {
    while (pos < b.size() && b[pos] != 0xFF) ++pos;
    while (pos < b.size() && b[pos] == 0xFF) ++pos;
    if (pos >= b.size()) break;
    const uint8_t marker = b[pos++];
    if (marker == 0xD9) break;  // end of image
    if (marker == 0x00 || marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7)) continue;
    const size_t length = at(pos) << 8 | at(pos + 1);
    if (marker == 0xC4 && !dhtTablesValid(at, pos, length)) return false;
    pos += length;
    if (marker == 0xDA) pos = entropyCodedEnd(b, pos);
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
  if (png && !pngChunksFit(bytes))
    return fail(ErrorCode::kCorruptData, name, ": corrupt PNG (a chunk longer than the file)");
  if (jpeg && !jpegComplete(bytes))
    return fail(ErrorCode::kCorruptData, name, ": truncated JPEG (no end-of-image marker)");
  if (jpeg && !jpegHuffmanTablesValid(bytes, soi))
    return fail(ErrorCode::kCorruptData, name,
                ": corrupt JPEG (a Huffman table of over 256 codes)");
  if (bmp && !bmpComplete(bytes))
    return fail(ErrorCode::kCorruptData, name, ": truncated or corrupt BMP");
  int w = 0, h = 0, channels = 0;
  // The header's size against the frame limits before stb allocates anything.
  if (png)
    if (auto size = pngHeaderSize(bytes))
      if (Status s = checkFrameSize(name + ": image header", size->first, size->second,
                                    ErrorCode::kUnsupported);
          !s)
        return s.error();
  if (!stbi_info_from_memory(bytes.data(), int(bytes.size()), &w, &h, &channels)) {
    const char* why = stbi_failure_reason();
    return fail(ErrorCode::kCorruptData, name, ": cannot decode image (",
                why ? why : "unknown error", ")");
  }
  if (Status s = checkFrameSize(name + ": image header", w, h, ErrorCode::kUnsupported); !s)
    return s.error();
  const int header_w = w, header_h = h;
  const std::unique_ptr<stbi_uc, decltype(&stbi_image_free)> pixels(
      stbi_load_from_memory(bytes.data(), int(bytes.size()), &w, &h, &channels, 4),
      &stbi_image_free);
  if (!pixels) {
    const char* why = stbi_failure_reason();
    return fail(ErrorCode::kCorruptData, name, ": cannot decode image (",
                why ? why : "unknown error", ")");
  }
  if (w <= 0 || h <= 0) return fail(ErrorCode::kCorruptData, name, ": image has no pixels");
  if (w != header_w || h != header_h)  // the decoder read another header than stbi_info
    return fail(ErrorCode::kCorruptData, name, ": image header and decoded size differ");
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
