#pragma once
// The CPU executor's import: any frame whose planes are in CPU memory -> the RGBA8 working image,
// on the pool's threads, equal to convertToRgbaCpu (core/import/import_reference.hpp) for every
// format of the pixel-format table. Rows are unpacked to one byte per pixel and component, then
// converted with the vector kernel (simd_kernels.hpp).
//
// Each converted row can be handed to a callback on the thread that converted it, while it is
// still in cache: the pipeline counts the histogram there (the fused convert + histogram pass).
#include <functional>

#include "core/cpu/row_pool.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

// Row `y` of the image, `rgba` its converted pixels, `luma` the source's own Y bytes of that
// row (YUV and GREY frames; null for RGB and MJPEG frames), `band` the pool's band index. The
// rows come in stripes of RowPool::kStripeRows (RowPool::forEachStripe), each stripe's rows in
// order on one thread.
using ImportedRow = std::function<void(int y, const uint8_t* rgba, const uint8_t* luma, int band)>;

// Converts `frame` into `out` (given the frame's size). Fails, writing nothing, on frames the
// reference refuses (missing planes, planes not in CPU memory, undecodable MJPEG).
Status importCpu(const Frame& frame, RgbaImage& out, RowPool& pool, const ImportedRow& on_row = {});

// The same rows handed to `on_row` only, for a pipeline that keeps no image: each row converted
// into a scratch row, valid during the call. Saves writing the whole image (8 MB a 1080p frame)
// where the rows are only counted.
Status importRowsCpu(const Frame& frame, RowPool& pool, const ImportedRow& on_row);

// Hands each row's own Y bytes to `on_row` (rgba = null) without converting anything: for a
// pipeline whose only work is on the source luma. The frame must be YUV or GREY, uncompressed;
// refused like importCpu otherwise.
Status importLumaCpu(const Frame& frame, RowPool& pool, const ImportedRow& on_row);

}  // namespace esf
