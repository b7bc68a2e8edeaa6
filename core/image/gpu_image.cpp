#include "core/image/gpu_image.hpp"

#include <cstring>
#include <string>

#include "core/image/pixel_program.hpp"
#include "esframe/base/sizes.hpp"
#include "platform/gl_context.hpp"
#include "platform/gl_fence.hpp"

namespace esf {
namespace {

Status checkSize(const char* what, int width, int height) {
  GLint max_size = 0;
  glGetIntegerv(GL_MAX_TEXTURE_SIZE, &max_size);
  if (width < 1 || height < 1 || width > max_size || height > max_size)
    // An empty image is a bad argument; one past GL_MAX_TEXTURE_SIZE is this driver's limit.
    return fail(width < 1 || height < 1 ? ErrorCode::kInvalidArgument : ErrorCode::kUnsupported,
                what, ": size ", std::to_string(width), "x", std::to_string(height),
                " is outside 1..", std::to_string(max_size));
  // A driver may offer more than the frame limit (32768 on desktop GPUs): every byte count of
  // the image below stays within kMaxFrameBytes only inside it.
  return checkFrameSize(what, width, height);
}

Status checkSameSize(const char* what, int w, int h, const RgbaImage& image) {
  if (image.width != w || image.height != h ||
      image.pixels.size() != saturatingSize(image.width, image.height, 4))
    return fail(ErrorCode::kInvalidArgument, what, ": image is ", std::to_string(image.width), "x",
                std::to_string(image.height), ", expected ", std::to_string(w), "x",
                std::to_string(h));
  return {};
}

}  // namespace

Result<GpuImage> GpuImage::create(int width, int height) {
  if (Status s = checkSize("GPU image", width, height); !s) return s.error();
  GpuImage image;
  image.width_ = width;
  image.height_ = height;
  image.texture_ = makeTexture();
  glBindTexture(GL_TEXTURE_2D, image.texture_.get());
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, width, height);
  // texelFetch ignores filtering, but an incomplete texture would read as black.
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glBindTexture(GL_TEXTURE_2D, 0);
  if (Status s = checkGl("glTexStorage2D (GPU image)"); !s) return s.error();
  return image;
}

Result<GpuImage> GpuImage::fromImage(const RgbaImage& rgba) {
  Result<GpuImage> image = create(rgba.width, rgba.height);
  if (!image) return image.error();
  if (Status s = image->upload(rgba); !s) return s.error();
  return image;
}

Status GpuImage::upload(const RgbaImage& image) {
  if (Status s = checkSameSize("GPU image upload", width_, height_, image); !s) return s;
  // Earlier shader reads/writes of this texture must finish before it is overwritten.
  glMemoryBarrier(GL_TEXTURE_UPDATE_BARRIER_BIT);
  glBindTexture(GL_TEXTURE_2D, texture_.get());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE,
                  image.pixels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  return checkGl("glTexSubImage2D (GPU image upload)");
}

Result<RgbaImage> GpuImage::download() const {
  return downloadTexture(texture_.get(), width_, height_);
}

Result<RgbaImage> GpuImage::downloadTexture(GLuint texture, int width, int height) {
  // imageStore writes become visible to glReadPixels only after this barrier.
  glMemoryBarrier(GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT |
                  GL_PIXEL_BUFFER_BARRIER_BIT);
  // glReadPixels would wait for the GPU without a limit: a hung GPU becomes an error here.
  if (Status done = GlFence::insert("the GPU image download").wait(kGpuWatchdog); !done)
    return done.error();
  GlFramebuffer fbo = makeFramebuffer();
  glBindFramebuffer(GL_FRAMEBUFFER, fbo.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  RgbaImage out(width, height);
  if (status == GL_FRAMEBUFFER_COMPLETE) {
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, out.pixels.data());
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    return fail(ErrorCode::kGpu, "GPU image download: framebuffer incomplete (status 0x",
                std::to_string(status), ")");
  if (Status s = checkGl("glReadPixels (GPU image download)"); !s) return s.error();
  return out;
}

Result<PackedRgbaBuffer> PackedRgbaBuffer::create(int width, int height) {
  if (Status s = checkSize("packed RGBA buffer", width, height); !s) return s.error();
  GLint max_block = 0;  // what one shader may bind as a storage block
  glGetIntegerv(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &max_block);
  Result<size_t> bytes = frameBufferSize("packed RGBA buffer", width, height, 4);
  if (!bytes) return bytes.error();
  if (uint64_t(*bytes) > uint64_t(max_block))
    return fail(ErrorCode::kUnsupported, "packed RGBA buffer: ", std::to_string(width), "x",
                std::to_string(height), " needs ", std::to_string(*bytes),
                " bytes, more than GL_MAX_SHADER_STORAGE_BLOCK_SIZE ", std::to_string(max_block));
  PackedRgbaBuffer b;
  b.width_ = width;
  b.height_ = height;
  b.buffer_ = makeBuffer();
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, b.buffer_.get());
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(b.byteCount()), nullptr, GL_DYNAMIC_COPY);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  if (Status s = checkGl("glBufferData (packed RGBA buffer)"); !s) return s.error();
  return b;
}

Result<PackedRgbaBuffer> PackedRgbaBuffer::fromImage(const RgbaImage& image) {
  Result<PackedRgbaBuffer> b = create(image.width, image.height);
  if (!b) return b.error();
  if (Status s = b->upload(image); !s) return s.error();
  return b;
}

Status PackedRgbaBuffer::upload(const RgbaImage& image) {
  if (Status s = checkSameSize("packed RGBA upload", width_, height_, image); !s) return s;
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer_.get());
  // RgbaImage's bytes R G B A are the packed word's bytes 0..3 on a little-endian host.
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "packed RGBA assumes little-endian");
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(byteCount()), image.pixels.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return checkGl("glBufferSubData (packed RGBA upload)");
}

Result<RgbaImage> PackedRgbaBuffer::download() const {
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (Status done = GlFence::insert("the packed RGBA download").wait(kGpuWatchdog); !done)
    return done.error();
  RgbaImage out(width_, height_);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer_.get());
  const void* p =
      glMapBufferRange(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(byteCount()), GL_MAP_READ_BIT);
  if (!p) {
    // Nothing is mapped, so nothing to unmap; the GL error the map left is this failure's.
    const Status why = checkGl("glMapBufferRange");
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
    return fail(ErrorCode::kGpu, "packed RGBA download", ": ",
                why ? "glMapBufferRange failed" : why.error().message);
  }
  std::memcpy(out.pixels.data(), p, byteCount());
  const bool intact = glUnmapBuffer(GL_SHADER_STORAGE_BUFFER) == GL_TRUE;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  if (!intact)  // GLES 3: the driver lost the mapping's contents (a reset)
    return fail(ErrorCode::kGpu, "packed RGBA download: the buffer was lost while mapped");
  return out;
}

Result<RgbaPacker> RgbaPacker::create(const GlContext& gl) {
  RgbaPacker packer;
  if (Status s = compilePixelProgram(gl, "pack_rgba.comp", packer.group_, packer.program_); !s)
    return s.error();
  return packer;
}

Status RgbaPacker::run(const GpuImage& image, PackedRgbaBuffer& out) {
  if (image.width() != out.width() || image.height() != out.height())
    return fail(ErrorCode::kInvalidArgument, "pack RGBA: texture is ",
                std::to_string(image.width()), "x", std::to_string(image.height()),
                " but the buffer is ", std::to_string(out.width()), "x",
                std::to_string(out.height()));
  glUseProgram(program_.get());
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, image.texture());
  glUniform1i(glGetUniformLocation(program_.get(), "u_image"), 0);
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, out.buffer());
  // Earlier imageStore writes into the texture must be visible to texelFetch.
  glMemoryBarrier(GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
  glDispatchCompute(GLuint((image.width() + group_.x - 1) / group_.x),
                    GLuint((image.height() + group_.y - 1) / group_.y), 1);
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  return checkGl("pack RGBA dispatch");
}

Result<PackedRgbaBuffer> RgbaPacker::packOnGpu(const GlContext& gl, const RgbaImage& image) {
  Result<GpuImage> texture = GpuImage::fromImage(image);
  if (!texture) return texture.error();
  Result<RgbaPacker> packer = create(gl);
  if (!packer) return packer.error();
  Result<PackedRgbaBuffer> packed = PackedRgbaBuffer::create(image.width, image.height);
  if (!packed) return packed.error();
  if (Status s = packer.value().run(texture.value(), packed.value()); !s) return s.error();
  return packed;
}

Status copyTexture(GLuint from, const GpuImage& to) {
  GlFramebuffer read = makeFramebuffer(), draw = makeFramebuffer();
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read.get());
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, from, 0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, draw.get());
  glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, to.texture(), 0);
  glBlitFramebuffer(0, 0, to.width(), to.height(), 0, 0, to.width(), to.height(),
                    GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  return checkGl("copying the imported frame");
}

}  // namespace esf
