#include "core/import/bayer_unpack.hpp"

#include <string>
#include <utility>

#include "base/pixel_format.hpp"
#include "esframe/base/sizes.hpp"

namespace esf {

namespace {

// CSI-2 packing: each group's kPixels high bytes, then one byte of their kLowBits low bits, pixel
// 0 in the lowest bits. The group's shape as template arguments and its pixels unrolled: read
// from the layout at run time, the unpacking cost a 10P or 12P frame a tenth to a fifth more
// (bench/results/zen5-2core-cpu-import.md).
template <int kPixels, int kLowBits>
void unpackCsi2Row(const uint8_t* row, int width, uint16_t* out) {
  constexpr unsigned kLowMask = (1u << kLowBits) - 1;
  for (int g = 0; g < width / kPixels; ++g) {
    const uint8_t* s = row + size_t(g) * (kPixels + 1);
    const unsigned lows = s[kPixels];
    uint16_t* o = out + size_t(g) * kPixels;
    // Unrolled: GCC keeps a loop of 4 at -O2, and its counter took a third of the time.
    [&]<int... kI>(std::integer_sequence<int, kI...>) {
      ((o[kI] = uint16_t(unsigned(s[kI]) << kLowBits | ((lows >> (kI * kLowBits)) & kLowMask))),
       ...);
    }
    (std::make_integer_sequence<int, kPixels>());
  }
}

// Byte and word rows in blocks of 16 values, a loop of a fixed count over pointers that cannot
// alias, which GCC turns into vector lanes at -O2. (Without __restrict it would have to check
// the two rows for overlap, which its -O2 cost model does not do: the loop stayed scalar.)
constexpr int kBlock = 16;
void widenBytes(const uint8_t* __restrict row, int width, uint16_t* __restrict out) {
  int x = 0;
  for (; x + kBlock <= width; x += kBlock)
    for (int i = 0; i < kBlock; ++i) out[x + i] = row[x + i];
  for (; x < width; ++x) out[x] = row[x];
}
void maskWords(const uint8_t* __restrict row, int width, uint32_t mask, uint16_t* __restrict out) {
  auto value = [&](int at) { return uint16_t((row[2 * at] | row[2 * at + 1] << 8) & mask); };
  int x = 0;
  for (; x + kBlock <= width; x += kBlock)
    for (int i = 0; i < kBlock; ++i) out[x + i] = value(x + i);
  for (; x < width; ++x) out[x] = value(x);
}

}  // namespace

void unpackBayerRow(const uint8_t* row, int width, const BayerRowLayout& l, uint16_t* out) {
  if (l.bytes_per_sample == 1)
    widenBytes(row, width, out);
  else if (l.bytes_per_sample == 2)
    maskWords(row, width, (1u << l.bit_depth) - 1, out);
  else if (l.bit_depth == 10)
    unpackCsi2Row<4, 2>(row, width, out);
  else
    unpackCsi2Row<2, 4>(row, width, out);
}

namespace {

// unpackBayer past its layout's check; row_bytes: layout.rowBytes(width).
Result<std::vector<uint16_t>> unpackRows(const uint8_t* data, size_t size, int stride, int width,
                                         int height, const BayerRowLayout& layout, size_t row_bytes,
                                         const RowSplitter& split) {
  if (height < 1 || !stridedRowsFit(size, stride, row_bytes, height))
    return fail(ErrorCode::kInvalidArgument, "a ", std::to_string(width), "x",
                std::to_string(height), " Bayer frame does not fit ", std::to_string(size),
                " bytes at stride ", std::to_string(stride));
  // The frame fits `size` bytes in memory, so width x height values fit size_t too.
  std::vector<uint16_t> out(saturatingSize(width, height));
  auto rows = [&](int begin, int end) {
    for (int y = begin; y < end; ++y)
      unpackBayerRow(data + size_t(y) * size_t(stride), width, layout, &out[size_t(y) * width]);
  };
  if (split)
    split(height, rows);
  else
    rows(0, height);
  return out;
}

}  // namespace

Result<std::vector<uint16_t>> unpackBayer(const uint8_t* data, size_t size, int stride, int width,
                                          int height, const BayerRowLayout& layout,
                                          const RowSplitter& split) {
  if (Status s = layout.validate(width); !s) return s.error();
  return unpackRows(data, size, stride, width, height, layout, layout.rowBytes(width), split);
}

Result<BayerUnpacking> bayerUnpacking(PixelFormat format, int width) {
  const PixelFormatInfo& info = pixelFormatInfo(format);
  if (info.colour != ColourFamily::kBayer)
    return fail(ErrorCode::kInvalidArgument, info.name, " is not a Bayer format");
  BayerUnpacking u;
  u.format_name = info.name;
  u.layout = bayerRowLayout(info);
  if (Status s = u.layout.validate(width); !s) return s.error();
  u.width = width;
  u.row_bytes = u.layout.rowBytes(width);
  return u;
}

Result<std::vector<uint16_t>> unpackBayerFrame(const Frame& frame, const BayerUnpacking& unpacking,
                                               const RowSplitter& split) {
  if (frame.width != unpacking.width)
    return fail(ErrorCode::kInternal, "a ", std::to_string(frame.width), " pixels wide ",
                unpacking.format_name, " frame unpacked as ", std::to_string(unpacking.width),
                " wide");
  const FramePlane& p = frame.planes[0];
  if (frame.plane_count < 1 || !p.data)
    return fail(ErrorCode::kInvalidArgument, "a ", unpacking.format_name,
                " frame needs its values in CPU memory (no zero-copy for Bayer)");
  return unpackRows(p.data, p.size, p.stride, frame.width, frame.height, unpacking.layout,
                    unpacking.row_bytes, split);
}

}  // namespace esf
