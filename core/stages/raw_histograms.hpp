#pragma once
// A Bayer frame's raw site histograms on the GPU (glsl_es/raw_histograms.comp), counted from the
// sensor values in the R16UI texture the demosaic reads (Demosaic::rawTexture), equal to
// core/stats/raw_histogram.hpp's rawSiteHistograms (the CPU reference; the CPU executor counts
// them on the host with rawSiteHistogramsCpu).
//
// Shape: a workgroup covers whole rows (the driver's pixel workgroup, pixelWorkgroup: its x along
// a row, its y rows), each invocation the row's pixel pairs at a stride; shared-memory histograms
// per workgroup, then one global atomic per non-zero word into a buffer the host zeroes before
// each dispatch and never maps (a frame's read-back copies it; read() into a buffer of its own).
#include <GLES3/gl31.h>

#include <cstdint>
#include <optional>
#include <span>

#include "base/bayer_layout.hpp"
#include "core/stages/stage_gl.hpp"
#include "core/stats/raw_histogram.hpp"
#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"
#include "platform/workgroup_shape.hpp"

namespace esf {

struct RawHistogramsParams {
  WorkgroupShape group;  // x invocations along a row, y rows
  // The driver's pixel workgroup (pixelWorkgroup).
  static RawHistogramsParams defaultsFor(const GlContext& gl);
  Status validate(const ComputeLimits& limits, int bins) const;
};

// What the values are and how they are binned: the frames' CFA order, bit depth, levels, bins.
struct RawHistogramsSetup {
  CfaOrder order = CfaOrder::kRGGB;
  int bit_depth = 8;
  RawLevels levels;  // white 0: 2^bit_depth - 1
  int bins = 256;
};

class RawHistograms {
 public:
  // `bins`: 1..256, a form of the program each.
  static Result<RawHistograms> create(const GlContext& gl, const RawHistogramsParams& params,
                                      int bins);
  // Counts the width x height values of `raw_texture` (R16UI) as `setup` says (its bins this
  // stage's).
  Status run(GLuint raw_texture, int width, int height, const RawHistogramsSetup& setup);
  Result<RawSiteHistograms> read() const;
  // For a frame's one read-back: where read() reads the last run's words, and the histograms
  // from those words.
  GpuWords resultWords() const { return {counts_.get(), 0, words()}; }
  Result<RawSiteHistograms> histogramsOf(std::span<const uint32_t> words) const;
  const RawHistogramsParams& params() const { return params_; }
  int bins() const { return bins_; }
  Status poison(uint32_t pattern);  // testing aid: fills the output buffer

 private:
  RawHistograms(const GlContext& gl, const RawHistogramsParams& params, int bins)
      : gl_(&gl), params_(params), bins_(bins) {}
  size_t words() const { return 4 * size_t(bins_) + 8; }  // the histograms, crushed, clipped
  const GlContext* gl_ = nullptr;
  RawHistogramsParams params_;
  int bins_ = 256;
  GlProgram program_;
  GlBuffer counts_;
  // The last run's frame: its histograms with no counts yet, and its sites' pixels.
  std::optional<RawSiteHistograms> last_;
};

}  // namespace esf
