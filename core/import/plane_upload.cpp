// FrameImporter's upload half (frame_import_state.hpp): each plane of a frame to the GPU.
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/import/frame_import_state.hpp"
#include "esframe/base/sizes.hpp"
#include "platform/gl_context.hpp"

namespace esf {
namespace {

// The texture for samples of `bytes` bytes: one texel per sample, one byte per channel.
PlaneSpec spec(int bytes, int w, int h) {
  switch (bytes) {
    case 2:
      return {GL_RG8, GL_RG, 2, w, h, DRM_FORMAT_GR88};
    case 3:
      return {GL_RGB8, GL_RGB, 3, w, h, 0};
    case 4:
      return {GL_RGBA8, GL_RGBA, 4, w, h, DRM_FORMAT_ABGR8888};
    default:
      return {GL_R8, GL_RED, 1, w, h, DRM_FORMAT_R8};
  }
}

}  // namespace

std::vector<PlaneSpec> planeSpecs(PixelFormat f, int w, int h, int max_texture_size) {
  const PixelFormatInfo& info = pixelFormatInfo(f);
  std::vector<PlaneSpec> specs;
  for (int i = 0; i < info.plane_count; ++i) {
    const int bytes = info.planes[size_t(i)].bytes_per_sample;
    const int samples = planeSamplesPerRow(info, i, w), rows = planeRows(info, i, h);
    if (bytes == 3 && samples * 3 <= max_texture_size)
      specs.push_back(spec(1, samples * 3, rows));
    else
      specs.push_back(spec(bytes, samples, rows));
  }
  return specs;
}

void ensureTexture(UploadTexture& t, GLenum internal, int w, int h) {
  if (t.tex && t.internal == internal && t.width == w && t.height == h) return;
  t.tex = makeTexture();
  glBindTexture(GL_TEXTURE_2D, t.tex.get());
  glTexStorage2D(GL_TEXTURE_2D, 1, internal, w, h);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  t.internal = internal, t.width = w, t.height = h;
}

Status FrameImporter::State::checkHostPlane(const FramePlane& p, const PlaneSpec& s, int i) {
  if (!p.data)
    return fail(ErrorCode::kInvalidArgument, "frame plane ", std::to_string(i),
                " has neither CPU data nor a dmabuf");
  if (!stridedRowsFit(p.size, p.stride, size_t(s.width) * s.texel_bytes, s.height))
    return fail(ErrorCode::kInvalidArgument, "frame plane ", std::to_string(i),
                " is smaller than its format needs");
  return Status::success();
}

const uint8_t* FrameImporter::State::tightRows(const FramePlane& p, const PlaneSpec& s) {
  const size_t row_bytes = size_t(s.width) * s.texel_bytes;
  repack.resize(saturatingSize(row_bytes, s.height));
  for (int y = 0; y < s.height; ++y)
    std::memcpy(&repack[row_bytes * y], p.data + size_t(y) * p.stride, row_bytes);
  return repack.data();
}

Result<GLuint> FrameImporter::State::uploadPlane(const FramePlane& p, const PlaneSpec& s, int i) {
  if (Status st = checkHostPlane(p, s, i); !st) return st.error();
  ensureTexture(uploads[i], s.internal, s.width, s.height);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glBindTexture(GL_TEXTURE_2D, uploads[i].tex.get());
  if (unpack_buffers) return uploadThroughBuffer(p, s, i);
  const uint8_t* src = p.data;
  int row_length = 0;
  if (p.stride % s.texel_bytes == 0) {
    row_length = p.stride / s.texel_bytes;
  } else {  // a stride that is not a whole number of texels: repack the rows
    src = tightRows(p, s);
  }
  glPixelStorei(GL_UNPACK_ROW_LENGTH, row_length);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, s.width, s.height, s.format, GL_UNSIGNED_BYTE, src);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  if (auto st = checkGl("import: plane upload"); !st) return st.error();
  return uploads[i].tex.get();
}

Result<uint8_t*> FrameImporter::State::mapNextBuffer(size_t bytes, int i) {
  UnpackRing& ring = unpack[size_t(i)];
  ring.staged = nullptr;
  if (ring.bytes != bytes) {
    for (size_t k = 0; k < ring.buffers.size(); ++k) {
      ring.buffers[k] = makeBuffer();
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, ring.buffers[k].get());
      glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_DRAW);
      ring.read_done[k].reset();
    }
    ring.bytes = bytes;
  }
  const size_t k = size_t(ring.next);
  if (Status done = ring.read_done[k].wait(kGpuWatchdog); !done) return done.error();
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, ring.buffers[k].get());
  void* dst =
      glMapBufferRange(GL_PIXEL_UNPACK_BUFFER, 0, GLsizeiptr(bytes),
                       GL_MAP_WRITE_BIT | GL_MAP_INVALIDATE_BUFFER_BIT | GL_MAP_UNSYNCHRONIZED_BIT);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  if (!dst)
    return fail(ErrorCode::kGpu, "import: cannot map the upload buffer of plane ",
                std::to_string(i), " (", std::to_string(bytes), " bytes)");
  return static_cast<uint8_t*>(dst);
}

Status FrameImporter::State::unmapNextBuffer(int i) {
  UnpackRing& ring = unpack[size_t(i)];
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, ring.buffers[size_t(ring.next)].get());
  const bool intact = glUnmapBuffer(GL_PIXEL_UNPACK_BUFFER) == GL_TRUE;
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  if (!intact)  // the driver lost the mapping's contents (GLES 3: a mode switch, a reset)
    return fail(ErrorCode::kGpu, "import: the upload buffer of plane ", std::to_string(i),
                " was lost while mapped");
  return checkGl("import: filling an upload buffer");
}

void FrameImporter::State::settleStaged() {
  copier.wait();
  for (size_t i = 0; i < unpack.size(); ++i) {
    UnpackRing& ring = unpack[i];
    if (!ring.mapped) continue;
    ring.mapped = false;
    if (Status st = unmapNextBuffer(int(i)); !st) ring.staged = nullptr;
  }
}

Status FrameImporter::State::fillUnpackBuffer(const FramePlane& p, const PlaneSpec& s, int i) {
  const size_t row_bytes = size_t(s.width) * s.texel_bytes;
  // Tight rows: no UNPACK_ROW_LENGTH. The plane fits its texture (uploadPlane), far below 2^32.
  const size_t bytes = saturatingSize(row_bytes, s.height);
  Result<uint8_t*> dst = mapNextBuffer(bytes, i);
  if (!dst) return dst.error();
  StagingCopier::Copy copy{*dst, p.data, row_bytes, size_t(p.stride), s.height};
  StagingCopier::run(std::vector<StagingCopier::Copy>{copy});
  return unmapNextBuffer(i);
}

Result<GLuint> FrameImporter::State::uploadThroughBuffer(const FramePlane& p, const PlaneSpec& s,
                                                         int i, GLuint packed) {
  UnpackRing& ring = unpack[size_t(i)];
  const size_t bytes = saturatingSize(s.width, s.texel_bytes, s.height);
  // Staged: the buffer already holds this plane (the same memory, which the source keeps
  // unchanged until its next frame).
  if (ring.staged != p.data || ring.bytes != bytes) {
    if (Status st = fillUnpackBuffer(p, s, i); !st) return st.error();
  }
  ring.staged = nullptr;
  const size_t k = size_t(ring.next);
  ring.next ^= 1;
  if (packed) {
    glBindBuffer(GL_COPY_READ_BUFFER, ring.buffers[k].get());
    glBindBuffer(GL_COPY_WRITE_BUFFER, packed);
    glCopyBufferSubData(GL_COPY_READ_BUFFER, GL_COPY_WRITE_BUFFER, 0, 0, GLsizeiptr(bytes));
    glBindBuffer(GL_COPY_READ_BUFFER, 0);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
  } else {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, ring.buffers[k].get());
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, s.width, s.height, s.format, GL_UNSIGNED_BYTE, nullptr);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  }
  ring.read_done[k] = GlFence::insert("the copy of upload buffer " + std::to_string(k) +
                                      " of plane " + std::to_string(i) + " into its target");
  if (auto st = checkGl("import: plane upload through a buffer"); !st) return st.error();
  return packed ? packed : uploads[i].tex.get();
}

Status FrameImporter::State::copyPlaneIntoBuffer(const FramePlane& p, const PlaneSpec& s,
                                                 GLuint target) {
  if (Status st = checkHostPlane(p, s, 0); !st) return st;
  // A shader may have written the buffer last (an earlier frame's conversion).
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (unpack_buffers) {
    Result<GLuint> copied = uploadThroughBuffer(p, s, 0, target);
    return copied ? Status::success() : Status(copied.error());
  }
  // Client memory (llvmpipe): straight from the frame where the rows are tight.
  const size_t row_bytes = size_t(s.width) * s.texel_bytes;
  const uint8_t* src = size_t(p.stride) == row_bytes ? p.data : tightRows(p, s);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, target);
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(row_bytes * size_t(s.height)), src);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return checkGl("import: copying the frame into its packed buffer");
}

Result<GLuint> FrameImporter::State::importPlane(const FramePlane& p, const PlaneSpec& s) {
  struct stat st {};
  if (::fstat(p.dmabuf_fd, &st) != 0)
    return fail(errorCodeFromErrno(errno), "cannot stat dmabuf fd ", std::to_string(p.dmabuf_fd),
                ": ", std::strerror(errno));
  DmabufPlaneDesc d{p.dmabuf_fd, s.drm_fourcc,       s.width,   s.height,
                    p.offset,    uint32_t(p.stride), p.modifier};
  // The source cycles through a few buffers: keep their imports (keyed by the dmabuf's inode,
  // which, unlike the fd number, is never reused while the buffer lives).
  for (auto& c : imports)
    if (c.dev == st.st_dev && c.ino == st.st_ino && c.desc.drm_fourcc == d.drm_fourcc &&
        c.desc.width == d.width && c.desc.height == d.height && c.desc.offset == d.offset &&
        c.desc.pitch == d.pitch)
      return c.texture->texture();
  if (imports.size() >= 96) imports.clear();
  auto t = DmabufTexture::create(gl->display(), d);
  if (!t) return t.error();
  imports.push_back({st.st_dev, st.st_ino, d, std::move(*t)});
  return imports.back().texture->texture();
}

}  // namespace esf
