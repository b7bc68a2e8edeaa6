#pragma once
// The scopes on the GPU (glsl_es/scopes.comp): the waveform, RGB parade and vectorscope counts
// of an RGBA8 image in one pass, equal bit for bit to core/stages/scopes_reference.hpp.
//
// Shape: a workgroup covers a tile of tile_columns pixel columns by rows_per_workgroup rows.
// Its pixel columns fall into at most tile_columns scope columns (W' <= W), whose waveform and
// parade counts it adds in shared memory (tile_columns * 256 words a plane: the waveform and
// the parade's three), then into the output buffer with global atomics, only the words it
// counted. The vectorscope's 65536 bins are added with global atomics, one per run of equal bins
// down an invocation's column (a flat frame's pixels would all add to one word). The output is
// one storage buffer in ScopeCounts' layouts: the waveform, then the parade, then the
// vectorscope, each only where counted; the host zeroes it before each dispatch.
#include <optional>

#include "core/image/gpu_image.hpp"
#include "esframe/base/result.hpp"
#include "esframe/scopes.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct ScopesParams {
  int tile_columns = 8;          // a power of two, 1..16
  int workgroup_rows = 32;       // invocations per column of the tile
  int rows_per_workgroup = 256;  // a multiple of workgroup_rows
  // The widest tile whose shared counts fit the driver's shared memory, with at most 256
  // invocations (v3d's) or the driver's maximum.
  static ScopesParams defaultsFor(const GlContext& gl, const ScopeOptions& scopes);
  Status validate(const ComputeLimits& limits, const ScopeOptions& scopes) const;
};

class Scopes {
 public:
  // `scopes` says which are counted (its columns are chosen per image by run()).
  static Result<Scopes> create(const GlContext& gl, const ScopesParams& params,
                               const ScopeOptions& scopes);
  // Counts `image`; the waveform's L is `luma`'s red channel where given (the same size),
  // else BT.709 of `image`. `columns`: W', 1..image.width().
  Status run(const GpuImage& image, const GpuImage* luma, int columns);
  // The last run's counts: waveform, parade and (RGB) vectorscope where counted.
  Result<ScopeCounts> read() const;
  const ScopesParams& params() const { return params_; }
  Status poison(uint32_t pattern);  // testing aid: fills the output buffer

 private:
  Scopes() = default;
  Result<GlProgram> build(bool luma_image) const;
  const GlContext* gl_ = nullptr;
  ScopesParams params_;
  ScopeOptions scopes_;
  GlProgram program_, luma_program_;  // luma_program_: LUMA_IMAGE, made at its first run
  GlBuffer counts_;
  size_t words_ = 0;
  int columns_ = 0;
  uint64_t pixels_ = 0;
};

}  // namespace esf
