#pragma once
// The CPU executor's demosaic of Bayer frames: demosaicReference's integer formulas
// (core/stages/demosaic_reference.hpp), row by row on the pool's threads, equal to it bit for
// bit. Each finished row goes to `on_row` (luma null: a Bayer frame has no luma plane), as
// importCpu hands its rows on, so the pipeline's fused histogram pass works the same.
#include <cstdint>
#include <vector>

#include "core/cpu/cpu_import.hpp"
#include "core/cpu/row_pool.hpp"
#include "core/stages/demosaic_reference.hpp"
#include "core/stats/raw_histogram.hpp"

namespace esf {

// `raw`: width * height values below 2^params.bit_depth. Fails, writing nothing, on what
// DemosaicParams::validate refuses.
Status demosaicCpu(const std::vector<uint16_t>& raw, int width, int height,
                   const DemosaicParams& params, RgbaImage& out, RowPool& pool,
                   const ImportedRow& on_row = {});

// rawSiteHistograms (core/stats/raw_histogram.hpp) of the frame, its rows over the pool's threads
// and their bins in vector lanes; equal to it, and failing as it does.
Result<RawSiteHistograms> rawSiteHistogramsCpu(const std::vector<uint16_t>& raw, int width,
                                               int height, CfaOrder order, int bit_depth,
                                               RawLevels levels, int bins, RowPool& pool);

}  // namespace esf
