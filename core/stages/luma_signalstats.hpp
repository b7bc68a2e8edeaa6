#pragma once
// signalstats' TOUT and VREP on the GPU (glsl_es/luma_signalstats.comp): the outlier pixels and
// the repeated rows of a YUV frame's Y plane, counted from the plane texture the import read
// (zero-copy frames too), equal to core/stats/signalstats.hpp's lumaOutliers and repeatedRows
// (the CPU reference; the executor counts them on the host).
//
// Shape: a workgroup covers workgroup_rows whole rows with row_invocations invocations along
// each, an invocation a run of consecutive pixels of its row (each column's outlier test made
// once for the run; the row's VREP sum added in shared memory). The two counts are added with
// one global atomic per workgroup into a two-word buffer the host zeroes before each dispatch
// and never maps (a frame's read-back copies it; read() into a buffer of its own).
#include <GLES3/gl31.h>

#include <cstdint>
#include <span>

#include "base/pixel_format.hpp"
#include "core/import/frame_import.hpp"
#include "core/stages/stage_gl.hpp"
#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct LumaSignalstatsParams {
  int row_invocations = 64;  // along a row
  int workgroup_rows = 4;    // rows a workgroup covers
  // 64 invocations along a row (or the driver's maximum), as many rows as 256 invocations (v3d's)
  // or the driver's maximum leave.
  static LumaSignalstatsParams defaultsFor(const GlContext& gl);
  Status validate(const ComputeLimits& limits) const;
};

// A YUV frame's Y plane on the GPU as the import reads it: pixel (x, y)'s Y is texel (x, y) of
// plane texture 0, in its red channel (planar, semi-planar, YUYV) or its green one (UYVY).
struct LumaPlane {
  GLuint texture = 0;
  bool y_in_green = false;
  int width = 0, height = 0;  // pixels
};

// Whether `yuv_format`'s Y is the green channel of its plane texture (lumaPlaneOf's argument,
// found once per format).
bool lumaInGreen(PixelFormat yuv_format);
// The Y plane of a YUV frame the import has just converted.
LumaPlane lumaPlaneOf(const ImportedFrame& imported, bool y_in_green);

// The last run's counts: TOUT's outlier pixels, VREP's repeated rows (0 where not counted).
struct LumaSignalstatsCounts {
  uint64_t outlier_pixels = 0;
  uint64_t repeated_rows = 0;
};

class LumaSignalstats {
 public:
  // `tout`, `vrep`: which are counted (at least one).
  static Result<LumaSignalstats> create(const GlContext& gl, const LumaSignalstatsParams& params,
                                        bool tout, bool vrep);
  Status run(const LumaPlane& plane);
  Result<LumaSignalstatsCounts> read() const;
  // For a frame's one read-back: where read() reads the last run's words, and the counts from
  // those words.
  GpuWords resultWords() const { return {counts_.get(), 0, kWords}; }
  Result<LumaSignalstatsCounts> countsOf(std::span<const uint32_t> words) const;
  const LumaSignalstatsParams& params() const { return params_; }
  Status poison(uint32_t pattern);  // testing aid: fills the output buffer

 private:
  static constexpr size_t kWords = 2;  // outlier pixels, repeated rows
  LumaSignalstats(const GlContext& gl, const LumaSignalstatsParams& params, bool tout, bool vrep)
      : gl_(&gl), params_(params), tout_(tout), vrep_(vrep) {}
  const GlContext* gl_ = nullptr;
  LumaSignalstatsParams params_;
  bool tout_ = false, vrep_ = false;
  GlProgram program_;
  GlBuffer counts_;
  bool ran_ = false;
};

}  // namespace esf
