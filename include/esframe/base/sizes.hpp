#pragma once
// The largest frame esframe takes, and the one checked arithmetic for every byte count derived
// from a size (width * height * bytes per pixel, stride * rows, words * 4). Products are taken in
// 64 bits with overflow checks and then narrowed, checked, to size_t, which is 32 bits on armhf:
// an unchecked size_t product there wraps to a small buffer that the frame's writer overruns.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "esframe/base/result.hpp"

namespace esf {

// Every entry point (the size option, Y4M/raw/still-image headers, V4L2 and libcamera formats,
// GStreamer caps, graph and resize sizes) refuses a frame wider or taller than kMaxFrameSide, or
// one whose buffer (the RGBA8 working image, a plane, a whole packed frame) needs more than
// kMaxFrameBytes, before it allocates anything. 16384 is the largest texture side GLES 3.1 drivers
// commonly offer; its RGBA8 image is exactly 1 GiB, which still leaves room for the source's own
// buffers in the 3 GiB address space of a 32-bit process, and keeps every frame byte count below
// 2^31, so that it fits size_t, int64_t and GLsizeiptr on 32-bit targets too.
inline constexpr int kMaxFrameSide = 16384;
inline constexpr uint64_t kMaxFrameBytes = uint64_t(1) << 30;

// The product of non-negative integers in 64 bits, or nothing when a factor is negative or the
// product does not fit in uint64_t.
template <typename... Ints>
requires(std::is_integral_v<Ints>&&...) constexpr std::optional<uint64_t> checkedProduct(
    Ints... factors) {
  uint64_t product = 1;
  bool ok = true;
  auto multiply = [&](auto f) {
    if (std::cmp_less(f, 0) || std::cmp_greater(f, std::numeric_limits<uint64_t>::max()) ||
        __builtin_mul_overflow(product, uint64_t(f), &product))
      ok = false;
  };
  (multiply(factors), ...);
  if (!ok) return std::nullopt;
  return product;
}

// a + b, or nothing when it does not fit in uint64_t.
constexpr std::optional<uint64_t> checkedSum(uint64_t a, uint64_t b) {
  uint64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return std::nullopt;
  return sum;
}

// A 64-bit count as a size_t, or nothing when this process's size_t cannot hold it.
constexpr std::optional<size_t> toSize(uint64_t v) {
  if (v > std::numeric_limits<size_t>::max()) return std::nullopt;
  return size_t(v);
}

// The product as a size_t, or an error (kInvalidArgument) naming `what` when it overflows 64 bits
// or this process's size_t: "what: 70000 x 70000 x 4 bytes do not fit in memory".
template <typename... Ints>
Result<size_t> checkedSize(std::string_view what, Ints... factors) {
  const std::optional<uint64_t> p = checkedProduct(factors...);
  if (p)
    if (std::optional<size_t> s = toSize(*p)) return *s;
  std::string shown;
  ((shown += (shown.empty() ? "" : " x ") + std::to_string(factors)), ...);
  return fail(ErrorCode::kInvalidArgument, what, ": ", shown, " bytes do not fit in memory");
}

// checkedSize, and at most kMaxFrameBytes: for the buffers of one frame.
template <typename... Ints>
Result<size_t> frameBufferSize(std::string_view what, Ints... factors) {
  const std::optional<uint64_t> p = checkedProduct(factors...);
  if (!p || *p > kMaxFrameBytes) {
    std::string shown;
    ((shown += (shown.empty() ? "" : " x ") + std::to_string(factors)), ...);
    return fail(ErrorCode::kInvalidArgument, what, ": ", shown, " bytes is over the ",
                std::to_string(kMaxFrameBytes >> 20), " MiB frame buffer limit");
  }
  return size_t(*p);  // below 2^31: fits every size_t
}

// The product as a size_t where the sizes were checked at the entry points (frame limits), or
// SIZE_MAX where they were not and it overflows: an allocation of that size is refused
// (std::length_error, std::bad_alloc), never made short and then overrun.
template <typename... Ints>
constexpr size_t saturatingSize(Ints... factors) {
  const std::optional<uint64_t> p = checkedProduct(factors...);
  const std::optional<size_t> s = p ? toSize(*p) : std::nullopt;
  return s ? *s : std::numeric_limits<size_t>::max();
}

// Whether `size` bytes hold `rows` rows of `row_bytes` bytes each, `stride` bytes apart (the last
// row unpadded), in 64 bits: a stride from a driver or a caller cannot wrap the check.
template <typename Size, typename Stride, typename RowBytes, typename Rows>
constexpr bool stridedRowsFit(Size size, Stride stride, RowBytes row_bytes, Rows rows) {
  if (std::cmp_less(rows, 1)) return std::cmp_greater_equal(size, 0);
  if (std::cmp_less(stride, row_bytes) || std::cmp_less(row_bytes, 0)) return false;
  const std::optional<uint64_t> span = checkedProduct(stride, uint64_t(rows) - 1);
  const std::optional<uint64_t> needed = span ? checkedSum(*span, uint64_t(row_bytes)) : span;
  return needed && std::cmp_less_equal(*needed, size);
}

// Whether a width x height frame is within the limits: 1..kMaxFrameSide on each side, so that its
// RGBA8 image needs at most kMaxFrameBytes.
constexpr bool frameSizeAllowed(int64_t width, int64_t height) {
  return width >= 1 && height >= 1 && width <= kMaxFrameSide && height <= kMaxFrameSide;
}

// frameSizeAllowed, or an error naming `what` (a file, a device, "pattern", "resize target"):
// "what: frame size 65536x65536 is outside 1x1..16384x16384" (without "what: " when empty).
inline Status checkFrameSize(std::string_view what, int64_t width, int64_t height,
                             ErrorCode code = ErrorCode::kInvalidArgument) {
  if (frameSizeAllowed(width, height)) return {};
  const std::string max = std::to_string(kMaxFrameSide);
  return fail(code, what, what.empty() ? "" : ": ", "frame size ", std::to_string(width), "x",
              std::to_string(height), " is outside 1x1..", max, "x", max);
}

}  // namespace esf
