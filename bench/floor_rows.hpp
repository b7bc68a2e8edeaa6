#pragma once
// Floors for the GPU rows of one frame size, timed exactly as the stages are (timer query
// around one dispatch, GPU idle before it): an empty dispatch (what the timer and a launch cost
// on their own) and one read of the packed frame with 16-byte loads and almost no arithmetic
// (the least a stage that reads the frame once can take here). A stage's time minus the first
// is its work; the second is the bar for reduce and the histogram.
#include <string>
#include <vector>

#include "bench/bench_report.hpp"
#include "esframe/rgba_image.hpp"
#include "platform/gl_context.hpp"

namespace esf::bench {

Status floorRows(const GlContext& gl, const RgbaImage& frame, const std::string& label,
                 const MeasureOptions& gpu, std::vector<BenchRow>* rows);

}  // namespace esf::bench
