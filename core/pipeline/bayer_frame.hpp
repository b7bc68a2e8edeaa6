#pragma once
// A Bayer frame's first step: on every backend its setup (configureBayer), on the GPU the unpack
// (unpackBayer), on the CPU executor the unpack and raw statistics (prepareBayer). Demosaicing is
// import for these frames, but it lives with the stages (core/stages/demosaic*) and is called from
// here, by the pipeline, rather than from core/import: it takes the run's --raw levels and gains,
// which the importer has no business knowing, and the pipeline unpacks the sensor values once and
// shares them between the raw statistics (core/stats) and the demosaic. The importers refuse Bayer
// frames.
#include <vector>

#include "core/import/bayer_unpack.hpp"
#include "core/stages/demosaic_reference.hpp"
#include "esframe/frame.hpp"
#include "esframe/histogram_data.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf {

// A Bayer format's frames at one size with the run's --raw levels and bins, read from the format
// table and checked once, where the format and size are first seen (a backend's configureFor),
// and kept for those frames.
struct BayerSetup {
  PixelFormat format{};
  int width = 0, height = 0;
  DemosaicParams demosaic;   // the format's CFA order and depth, the configured levels
  BayerUnpacking unpacking;  // the format's row layout at this width
  int bins = 256;            // the raw statistics'
};

// Fails with one line naming the level or size the frames cannot take.
Result<BayerSetup> configureBayer(PixelFormat format, int width, int height,
                                  const PipelineConfig& config);

struct BayerInput {
  std::vector<uint16_t> values;  // width * height sensor values
  RawHistogramData stats;        // at the configured bins
};

class RowPool;

// Unpacks `frame` (of the format and size `setup` was made for, planes in CPU memory) over the
// pool's threads: the GPU backend's whole host share of a Bayer frame (it uploads the values and
// counts the raw statistics on the GPU, core/stages/raw_histograms).
Result<std::vector<uint16_t>> unpackBayer(const Frame& frame, const BayerSetup& setup,
                                          RowPool& pool);

// unpackBayer, then the raw statistics counted with the CPU executor's kernels over the pool's
// threads: the CPU executor's. (The reference backend takes the plain unpackBayerFrame and
// rawSiteHistograms instead.)
Result<BayerInput> prepareBayer(const Frame& frame, const BayerSetup& setup, RowPool& pool);

}  // namespace esf
