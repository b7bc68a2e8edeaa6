#pragma once
// Bayer demosaic on the GPU (glsl_es/demosaic.comp): sensor values in an R16UI texture -> the
// RGBA8 working image, bilinear, integer maths, bit for bit demosaicReference
// (demosaic_reference.hpp has the formulas).
#include <cstdint>
#include <vector>

#include "core/image/gpu_image.hpp"
#include "core/stages/demosaic_reference.hpp"
#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"
#include "platform/workgroup_shape.hpp"

namespace esf {

class Demosaic {
 public:
  static Result<Demosaic> create(const GlContext& gl);
  // Uploads `raw` (width * height values) into the stage's R16UI texture.
  Status upload(const std::vector<uint16_t>& raw, int width, int height);
  // Writes `out_texture` (GL_RGBA8, width x height) from the last upload.
  Status run(const DemosaicParams& params, GLuint out_texture);
  Status run(const DemosaicParams& params, GpuImage& out);
  // The last upload's R16UI texture (0 before one), which the raw histograms read too.
  GLuint rawTexture() const { return width_ ? raw_.get() : 0; }

 private:
  Demosaic() = default;
  GlProgram program_;
  WorkgroupShape group_;  // from the driver's limits
  GlTexture raw_;
  int width_ = 0, height_ = 0;
};

}  // namespace esf
