#pragma once
// A Bayer frame's first step on every backend. Demosaicing is import for these frames, but it
// lives with the stages (core/stages/demosaic*) and is called from here, by the pipeline, rather
// than from core/import: it takes the run's --raw levels and gains, which the importer has no
// business knowing, and the pipeline unpacks the sensor values once and shares them between the
// raw statistics (core/stats) and the demosaic. The importers refuse Bayer frames.
#include <vector>

#include "core/stages/demosaic_reference.hpp"
#include "esframe/frame.hpp"
#include "esframe/histogram_data.hpp"
#include "esframe/pipeline_config.hpp"

namespace esf {

struct BayerInput {
  std::vector<uint16_t> values;  // width * height sensor values
  DemosaicParams demosaic;       // the frame's CFA order and depth, the configured levels
  RawHistogramData stats;        // at the configured bins
};

class RowPool;

// Unpacks `frame` (a Bayer format, planes in CPU memory) and counts its raw statistics, over the
// pool's threads where there is a pool. Fails with one line naming the level or size the frame
// cannot take.
Result<BayerInput> prepareBayer(const Frame& frame, const PipelineConfig& config,
                                RowPool* pool = nullptr);

}  // namespace esf
