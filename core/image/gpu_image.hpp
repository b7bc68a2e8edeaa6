#pragma once
// The RGBA8 working image on the GPU, in the two forms the stages read:
//   GpuImage          an immutable GL_RGBA8 texture (glTexStorage2D): texelFetch / imageStore.
//   PackedRgbaBuffer  an SSBO with one uint per pixel, rows packed, R in bits 0-7, G 8-15,
//                     B 16-23, A 24-31 (the byte order of RgbaImage on a little-endian host,
//                     so upload is a plain copy). Faster to walk linearly than a texture on
//                     some GPUs (NVIDIA: bench/results/h200-stages.md).
// RgbaPacker converts the first into the second on the GPU.
#include <GLES3/gl31.h>

#include "esframe/base/result.hpp"
#include "esframe/rgba_image.hpp"
#include "platform/gl_objects.hpp"
#include "platform/workgroup_shape.hpp"

namespace esf {

class GlContext;

class GpuImage {
 public:
  // Refuses sizes outside 1..GL_MAX_TEXTURE_SIZE.
  static Result<GpuImage> create(int width, int height);
  static Result<GpuImage> fromImage(const RgbaImage& image);

  // Same size as this image only.
  Status upload(const RgbaImage& image);
  // Reads the texture back through a framebuffer (GLES has no glGetTexImage). Issues the
  // barrier that makes earlier imageStore writes visible to the read.
  Result<RgbaImage> download() const;
  // Any RGBA8 texture of that size (a GpuFrameView's image, which the view does not own).
  static Result<RgbaImage> downloadTexture(GLuint texture, int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }
  GLuint texture() const { return texture_.get(); }

 private:
  int width_ = 0, height_ = 0;
  GlTexture texture_;
};

class PackedRgbaBuffer {
 public:
  static Result<PackedRgbaBuffer> create(int width, int height);
  static Result<PackedRgbaBuffer> fromImage(const RgbaImage& image);

  Status upload(const RgbaImage& image);
  Result<RgbaImage> download() const;

  int width() const { return width_; }
  int height() const { return height_; }
  size_t pixelCount() const { return size_t(width_) * size_t(height_); }
  GLuint buffer() const { return buffer_.get(); }

 private:
  // create() checked width x height x 4 against kMaxFrameBytes: it fits size_t and GLsizeiptr.
  size_t byteCount() const { return pixelCount() * 4; }

  int width_ = 0, height_ = 0;
  GlBuffer buffer_;
};

// GPU copy texture -> packed buffer (glsl_es/pack_rgba.comp).
class RgbaPacker {
 public:
  static Result<RgbaPacker> create(const GlContext& gl);
  // Sizes must match.
  Status run(const GpuImage& image, PackedRgbaBuffer& out);

  // `image` as a packed buffer written by this pass, as the pipeline's stages meet it. Where a
  // stage is timed (bench, tuning) use this, not PackedRgbaBuffer::fromImage: a buffer filled
  // by glBufferSubData stayed in host memory on an H200 and was read at PCIe speed (a blur and
  // a histogram much slower than on a buffer written on the GPU: bench/results/h200-stages.md).
  static Result<PackedRgbaBuffer> packOnGpu(const GlContext& gl, const RgbaImage& image);

 private:
  RgbaPacker() = default;
  GlProgram program_;
  WorkgroupShape group_;  // from the driver's limits
};

// Copies an RGBA8 texture into `to`, of its size (an exact 1:1 blit).
Status copyTexture(GLuint from, const GpuImage& to);

}  // namespace esf
