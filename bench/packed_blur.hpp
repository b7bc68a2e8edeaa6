#pragma once
// The blur's packed forms (core/stages/blur.hpp: split through a buffer, packed buffer in and
// out, or image in and packed buffer out): a sweep of their tile shapes, and their rows. A frame
// the pipeline hands to the histogram or reduce is a packed buffer, so the packed forms are what
// a blur before them costs; the image form's sweep (tuneBlur) is kept for image outputs.
#include <string>
#include <vector>

#include "bench/bench_report.hpp"
#include "bench/stage_rows.hpp"
#include "core/tuning/sweep.hpp"

namespace esf::bench {

struct PackedBlurSweep {
  BlurParams best;  // of the packed buffer -> packed buffer form
  Sweep sweep;
};
// Tile width x rows x workgroup size x vertical segment of `base` (filter_dim, iterations stay),
// each checked against the CPU reference once, then timed packed buffer -> packed buffer.
Result<PackedBlurSweep> sweepPackedBlur(const GlContext& gl, const RgbaImage& frame,
                                        const BlurParams& base, const TuneOptions& o);

// Rows of the "blur N H+V" group for `p` (split through a buffer): packed buffer -> packed
// buffer and image -> packed buffer, each checked exact before it is timed.
Status packedBlurRows(const GlContext& gl, const RgbaImage& frame, const std::string& label,
                      const FrameBenchOptions& o, const BlurParams& p, const std::string& origin,
                      std::vector<BenchRow>* rows);

}  // namespace esf::bench
