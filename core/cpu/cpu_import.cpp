#include "core/cpu/cpu_import.hpp"

#include <cstring>
#include <vector>

#include "base/pixel_format.hpp"
#include "core/cpu/simd_kernels.hpp"
#include "core/import/import_reference.hpp"
#include "core/import/mjpeg_decode.hpp"

namespace esf {
namespace {

// One component of a frame, read a row at a time as one byte per pixel. The table's column
// offsets take one of three shapes in practice (a plane of bytes, a packed sample stride, a
// subsampled chroma stride); each has its own loop, anything else reads through the table.
class ComponentRows {
 public:
  ComponentRows(const Frame& f, const PixelFormatInfo& info, const ComponentLocation& c) {
    const FramePlane& plane = f.planes[size_t(c.plane)];
    data_ = plane.data;
    table_ = componentOffsets(info, c, f.width, f.height, plane.stride);
    const std::vector<size_t>& col = table_.column;
    first_ = col[0];
    step_ = col.size() > 1 ? col[1] - col[0] : 1;
    half_step_ = col.size() > 2 ? col[2] - col[0] : 0;
    bool strided = true, halved = half_step_ > 0;
    for (size_t x = 0; x < col.size(); ++x) {
      strided = strided && col[x] == first_ + x * step_;
      halved = halved && col[x] == first_ + (x / 2) * half_step_;
    }
    shape_ = strided  ? (step_ == 1 ? Shape::kBytes : Shape::kStrided)
             : halved ? Shape::kHalved
                      : Shape::kTable;
  }

  // The row's bytes: a pointer into the frame, or `scratch` (width bytes) filled.
  const uint8_t* row(int y, uint8_t* scratch) const {
    const uint8_t* base = data_ + table_.row[size_t(y)];
    const size_t width = table_.column.size();
    switch (shape_) {
      case Shape::kBytes:
        return base + first_;
      case Shape::kStrided:
        simd::pickBytes(base + first_, int(step_), int(width), scratch);
        break;
      case Shape::kHalved:
        simd::repeatHalvedBytes(base + first_, int(half_step_), int(width), scratch);
        break;
      case Shape::kTable:
        for (size_t x = 0; x < width; ++x) scratch[x] = base[table_.column[x]];
        break;
    }
    return scratch;
  }

 private:
  enum class Shape { kBytes, kStrided, kHalved, kTable };
  const uint8_t* data_ = nullptr;
  ComponentOffsetTable table_;
  size_t first_ = 0, step_ = 1, half_step_ = 0;
  Shape shape_ = Shape::kTable;
};

// `out` null: each row is converted into a row of scratch, handed on and not kept.
void importYuv(const Frame& f, const PixelFormatInfo& info, RgbaImage* out, RowPool& pool,
               const ImportedRow& on_row) {
  const YuvCoefficients k = yuvCoefficients(f.colorimetry);
  const ComponentRows y(f, info, info.y), cb(f, info, info.cb), cr(f, info, info.cr);
  pool.forEachStripe(f.height, RowPool::kStripeRows, [&](int begin, int end, int band) {
    // The Y, Cb and Cr rows unpacked, then (without `out`) the RGBA row.
    const size_t w = size_t(f.width);
    std::vector<uint8_t> scratch(3 * w + (out ? 0 : 4 * w));
    uint8_t* const ys = scratch.data();
    for (int row = begin; row < end; ++row) {
      const uint8_t* luma = y.row(row, ys);
      uint8_t* rgba = out ? out->at(0, row) : ys + 3 * w;
      simd::yuvRowToRgba(k, luma, cb.row(row, ys + w), cr.row(row, ys + 2 * w), f.width, rgba);
      if (on_row) on_row(row, rgba, luma, band);
    }
  });
}

// Packed RGB and GREY: one plane, every component in the pixel's own bytes.
// `out` null: each row goes into a row of scratch, handed on and not kept.
void importPacked(const Frame& f, const RgbOrder& o, bool grey, RgbaImage* out, RowPool& pool,
                  const ImportedRow& on_row) {
  const FramePlane& plane = f.planes[0];
  const bool rgba_order = o.bpp == 4 && o.r == 0 && o.g == 1 && o.b == 2 && o.a == 3;
  pool.forEachStripe(f.height, RowPool::kStripeRows, [&](int begin, int end, int band) {
    std::vector<uint8_t> scratch(out ? 0 : size_t(f.width) * 4);
    for (int row = begin; row < end; ++row) {
      const uint8_t* in = plane.data + size_t(row) * size_t(plane.stride);
      const uint8_t* luma = grey ? in : nullptr;
      // RGBA rows are copied too: memcpy streams a row from memory faster than the counting
      // loop reads it in place.
      uint8_t* rgba = out ? out->at(0, row) : scratch.data();
      if (rgba_order)
        std::memcpy(rgba, in, size_t(f.width) * 4);
      else
        simd::packedRowToRgba(in, o, f.width, rgba);
      if (on_row) on_row(row, rgba, luma, band);
    }
  });
}

// Into `out` (sized to the frame), or with `out` null only to `on_row`.
Status importInto(const Frame& frame, RgbaImage* out, RowPool& pool, const ImportedRow& on_row) {
  if (isCompressed(frame.format)) {
    Result<DecodedFrame> decoded = decodeMjpeg(frame);
    if (!decoded) return decoded.error();
    // The decoded RGB has no luma plane of its own: rows go on with luma = null.
    return importInto(decoded->frame, out, pool, on_row);
  }
  if (Status s = checkCpuFrame(frame); !s) return s;
  if (out && (out->width != frame.width || out->height != frame.height))
    *out = RgbaImage(frame.width, frame.height);
  const PixelFormatInfo& info = pixelFormatInfo(frame.format);
  RgbOrder order;
  if (info.colour != ColourFamily::kYuv && rgbOrder(frame.format, order))
    importPacked(frame, order, info.colour == ColourFamily::kGrey, out, pool, on_row);
  else
    importYuv(frame, info, out, pool, on_row);
  return Status::success();
}

}  // namespace

Status importLumaCpu(const Frame& frame, RowPool& pool, const ImportedRow& on_row) {
  const PixelFormatInfo& info = pixelFormatInfo(frame.format);
  if (isCompressed(frame.format) || !info.y.present())
    return fail(ErrorCode::kInvalidArgument, "cpu import: ", formatName(frame.format),
                " frames have no luma plane to read alone");
  if (Status s = checkCpuFrame(frame); !s) return s;
  const ComponentRows y(frame, info, info.y);
  pool.forEachStripe(frame.height, RowPool::kStripeRows, [&](int begin, int end, int band) {
    std::vector<uint8_t> scratch(size_t(frame.width));
    for (int row = begin; row < end; ++row) on_row(row, nullptr, y.row(row, scratch.data()), band);
  });
  return Status::success();
}

Status importCpu(const Frame& frame, RgbaImage& out, RowPool& pool, const ImportedRow& on_row) {
  return importInto(frame, &out, pool, on_row);
}

Status importRowsCpu(const Frame& frame, RowPool& pool, const ImportedRow& on_row) {
  return importInto(frame, nullptr, pool, on_row);
}

}  // namespace esf
