#pragma once
// The plain CPU scopes (esframe/scope_data.hpp: the definitions), the oracle the GPU stage and the
// executor's kernel are compared with bit for bit. Layouts are ScopeCounts'.
#include <cstdint>
#include <vector>

#include "base/pixel_format.hpp"
#include "esframe/frame.hpp"
#include "esframe/rgba_image.hpp"
#include "esframe/scope_data.hpp"

namespace esf {

// BT.709 limited-range Cb and Cr of 8-bit RGB in 16-bit fixed point (docs/output-formats.md,
// "Scopes"): round(65536 * 224/255 * BT.709's weights), the B weight of Cb and the G weight of
// Cr taken so each row sums to 0: grey is 128 exactly, and every result lies in 16..240.
//   Cb = (-6596 R - 22189 G + 28785 B + 128 * 65536 + 32768) >> 16
//   Cr = (28784 R - 26145 G - 2639 B + 128 * 65536 + 32768) >> 16
inline constexpr int32_t kScopeCbR = -6596, kScopeCbG = -22189, kScopeCbB = 28785;
inline constexpr int32_t kScopeCrR = 28784, kScopeCrG = -26145, kScopeCrB = -2639;
constexpr uint32_t scopeCb(int32_t r, int32_t g, int32_t b) {
  return uint32_t((kScopeCbR * r + kScopeCbG * g + kScopeCbB * b + (128 << 16) + 32768) >> 16);
}
constexpr uint32_t scopeCr(int32_t r, int32_t g, int32_t b) {
  return uint32_t((kScopeCrR * r + kScopeCrG * g + kScopeCrB * b + (128 << 16) + 32768) >> 16);
}

// W' for a `width`-wide image: options.columns, or min(width, kScopeDefaultMaxColumns) for 0,
// at most the width.
int scopeColumns(const ScopeOptions& options, int width);
// The column of pixel x: floor(x * columns / width).
inline int scopeColumnOf(int x, int columns, int width) {
  return int(uint64_t(x) * uint64_t(columns) / uint64_t(width));
}

// Waveform of the L channel: `luma`'s red channel where given (the source's luma lane), else
// the BT.709 integer luma of `image` (lumaBt709).
std::vector<uint32_t> waveformReference(const RgbaImage& image, const RgbaImage* luma, int columns);
// Parade: R, G, B of `image`.
std::vector<uint32_t> paradeReference(const RgbaImage& image, int columns);
// Vectorscope of `image`'s pixels through scopeCb / scopeCr.
std::vector<uint32_t> vectorscopeRgbReference(const RgbaImage& image);
// Where a YUV frame's chroma samples lie: sample (x, y) of `width` x `height` is the one of
// pixel (x * hsub, y * vsub), its Cb at cb + cb_at.row[y * vsub] + cb_at.column[x * hsub].
struct ChromaSamples {
  const uint8_t* cb = nullptr;
  const uint8_t* cr = nullptr;
  ComponentOffsetTable cb_at, cr_at;
  int hsub = 1, vsub = 1;
  int width = 0, height = 0;
};
// False for frames without chroma (RGB, GREY, Bayer, MJPEG) or without CPU-visible planes.
bool chromaSamplesOf(const Frame& frame, ChromaSamples& out);

// Vectorscope of a YUV frame's own chroma samples at chroma resolution (sample (x, y) is the
// one of pixel (x * hsub, y * vsub)); false where the frame has no chroma planes in CPU memory.
bool vectorscopeSourceReference(const Frame& frame, std::vector<uint32_t>& counts,
                                uint64_t& samples);

}  // namespace esf
