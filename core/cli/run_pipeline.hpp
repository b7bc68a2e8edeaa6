#pragma once
// The pipeline of `esframe run`, per frame:
//   import (frame -> RGBA working image) -> blur -> resize -> histogram at the user's bins
//   -> value histogram (256 bins, for exact stats; the same pass when bins = 256) -> scale
// and the stats computed from the value histogram (core/stats). Two backends with one
// interface: gles (the GPU stages) and cpu (their plain CPU references, a real backend for
// comparison and for machines with no usable GPU).
//
// --luma source: for YUV and GREY frames the L channel is counted on an image with R = G = B =
// the source's Y byte (the importer's luma image), which goes through the same blur and resize.
// RGB frames have no source luma; L then comes from RGB (logged once).
#include <memory>
#include <string>

#include "core/cli/run_options.hpp"
#include "core/outputs/frame_output.hpp"
#include "esframe/frame.hpp"
#include "platform/gl_context.hpp"

namespace esf::cli {

class Pipeline {
 public:
  virtual ~Pipeline() = default;
  // Processes one frame. The result's GPU view (gles) stays valid until the next process().
  virtual Result<FrameResult> process(const Frame& frame) = 0;
};

// Validates the stage options against the backend (and the GPU's limits for gles).
Result<std::unique_ptr<Pipeline>> createGpuPipeline(GlContext& gl, const RunOptions& options);
Result<std::unique_ptr<Pipeline>> createCpuPipeline(const RunOptions& options);

}  // namespace esf::cli
