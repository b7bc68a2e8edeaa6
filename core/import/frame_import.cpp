#include "core/import/frame_import.hpp"

#include <drm_fourcc.h>
#include <sys/stat.h>

#include <array>
#include <bit>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <vector>

#include "capture/pixel_format.hpp"
#include "core/import/dmabuf_texture.hpp"
#include "core/import/import_reference.hpp"
#include "core/import/mjpeg_decode.hpp"
#include "core/import/staging_copier.hpp"
#include "esframe/base/sizes.hpp"
#include "platform/gl_context.hpp"
#include "platform/gl_fence.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {

constexpr int kGroup = 16;  // 16x16 = 256 invocations: fits v3d

// How one plane becomes a texture.
struct PlaneSpec {
  GLenum internal = GL_R8;
  GLenum format = GL_RED;
  int texel_bytes = 1;
  int width = 0, height = 0;  // texels
  uint32_t drm_fourcc = DRM_FORMAT_R8;
};

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

// The textures a format needs, one per plane, one texel per sample (pixel_format.hpp). 3-byte
// samples (24-bit RGB) are an R8 texture three bytes per sample (DRM has no 24-bit format every
// driver imports, and Mesa's GBM llvmpipe mangled GL_RGB8 uploads in the vivid test); only rows
// wider than the texture limit fall back to an RGB8 texel per sample.
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

struct UploadTexture {
  GlTexture tex;
  GLenum internal = 0;
  int width = 0, height = 0;
};

// Two pixel-unpack buffers of one plane, written in turn; each fence follows the texture copy
// that last read that buffer.
struct UnpackRing {
  std::array<GlBuffer, 2> buffers;
  std::array<GlFence, 2> read_done;
  size_t bytes = 0;
  int next = 0;
  // stage(): buffers[next] already holds these bytes of the plane; import() then only copies
  // it into the texture.
  const uint8_t* staged = nullptr;
  // stage() left buffers[next] mapped while the copier fills it; unmapped by settleStaged().
  bool mapped = false;
};

struct CachedImport {
  dev_t dev;
  ino_t ino;
  DmabufPlaneDesc desc;
  std::unique_ptr<DmabufTexture> texture;
};

void ensureTexture(UploadTexture& t, GLenum internal, int w, int h) {
  if (t.tex && t.internal == internal && t.width == w && t.height == h) return;
  t.tex = makeTexture();
  glBindTexture(GL_TEXTURE_2D, t.tex.get());
  glTexStorage2D(GL_TEXTURE_2D, 1, internal, w, h);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  t.internal = internal, t.width = w, t.height = h;
}

// A caller's target texture must be GL_RGBA8 of the frame's size.
Status checkTarget(GLuint texture, int w, int h) {
  if (!texture) return {};
  GLint tw = 0, th = 0, format = 0;
  glBindTexture(GL_TEXTURE_2D, texture);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &tw);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &th);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &format);
  if (tw != w || th != h || format != GL_RGBA8)
    return fail(ErrorCode::kInvalidArgument, "import: target texture is ", std::to_string(tw), "x",
                std::to_string(th), ", the frame needs a ", std::to_string(w), "x",
                std::to_string(h), " RGBA8 one");
  return {};
}

// A caller's packed target must hold the frame: one uint per pixel.
Status checkPackedTarget(GLuint buffer, int w, int h) {
  if (!buffer) return {};
  GLint64 bytes = 0;
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer);
  glGetBufferParameteri64v(GL_SHADER_STORAGE_BUFFER, GL_BUFFER_SIZE, &bytes);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  const uint64_t needed = saturatingSize(uint64_t(w), uint64_t(h), 4);
  if (bytes < 0 || uint64_t(bytes) < needed)
    return fail(ErrorCode::kInvalidArgument, "import: target buffer holds ", std::to_string(bytes),
                " bytes, a packed ", std::to_string(w), "x", std::to_string(h), " frame needs ",
                std::to_string(needed));
  return {};
}

// Frames whose bytes already are the packed layout (R G B A, alpha present): copied as they are.
bool bytesArePackedLayout(PixelFormat f) {
  RgbOrder o{};
  return rgbOrder(f, o) && o.bpp == 4 && o.r == 0 && o.g == 1 && o.b == 2 && o.a == 3;
}

}  // namespace

struct FrameImporter::State {
  GlContext* gl = nullptr;
  // Built at the first frame that needs each (prepare): [0] into images, [1] packed buffers.
  GlProgram yuv[2], rgb[2];
  std::array<UploadTexture, 3> uploads;
  UploadTexture out, luma;
  std::vector<CachedImport> imports;
  std::vector<uint8_t> repack;
  GlFramebuffer readback;
  // Hardware GPUs take host planes through pixel-unpack buffers, two per plane used in turn:
  // the plane is copied into a mapped buffer (unsynchronised: the slot's fence says the GPU
  // has finished the texture copy that read it two frames ago) and the texture is filled from
  // it on the GPU, so the CPU never waits for a transfer. glTexSubImage2D from client memory
  // stalls on a slower path instead (NVIDIA, 4K RGBA: 9.0 ms against 2.1 ms for a buffer
  // copy). llvmpipe takes client memory directly: for it a buffer is one more CPU copy.
  bool unpack_buffers = false;
  std::array<UnpackRing, 3> unpack;

  Result<GLuint> uploadPlane(const FramePlane& p, const PlaneSpec& s, int index);
  // `packed`: the buffer the plane is copied into as it is, instead of the plane's texture.
  Result<GLuint> uploadThroughBuffer(const FramePlane& p, const PlaneSpec& s, int index,
                                     GLuint packed = 0);
  // A host plane whose bytes are the packed layout, into `target` (tight rows).
  Status copyPlaneIntoBuffer(const FramePlane& p, const PlaneSpec& s, GLuint target);
  // Fills the ring's next buffer of plane `index` with the plane (tight rows), here and now.
  Status fillUnpackBuffer(const FramePlane& p, const PlaneSpec& s, int index);
  // Maps the ring's next buffer of plane `index` (`bytes` long) for writing, once the GPU has
  // finished reading it; nullptr with the error on failure.
  Result<uint8_t*> mapNextBuffer(size_t bytes, int index);
  // Unmaps the ring's next buffer of plane `index`; a mapping the driver lost is an error.
  Status unmapNextBuffer(int index);
  // Waits for stage()'s copies and unmaps their buffers; a plane whose buffer was lost is no
  // longer staged (import() copies it again).
  void settleStaged();
  // stage()'s wall time on the calling thread (the mapping; the copy runs on the copier),
  // reported as part of the upload
  double staged_ms = 0;
  // stage()'s copies into the mapped buffers; declared after `unpack`, so it is destroyed (and
  // its copies finished) before the buffers are.
  StagingCopier copier;
  Result<GLuint> importPlane(const FramePlane& p, const PlaneSpec& s);
};

Result<GLuint> FrameImporter::State::uploadPlane(const FramePlane& p, const PlaneSpec& s, int i) {
  const size_t row_bytes = size_t(s.width) * s.texel_bytes;
  if (!p.data)
    return fail(ErrorCode::kInvalidArgument, "frame plane ", std::to_string(i),
                " has neither CPU data nor a dmabuf");
  if (!stridedRowsFit(p.size, p.stride, row_bytes, s.height))
    return fail(ErrorCode::kInvalidArgument, "frame plane ", std::to_string(i),
                " is smaller than its format needs");
  ensureTexture(uploads[i], s.internal, s.width, s.height);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glBindTexture(GL_TEXTURE_2D, uploads[i].tex.get());
  if (unpack_buffers) return uploadThroughBuffer(p, s, i);
  const uint8_t* src = p.data;
  int row_length = 0;
  if (p.stride % s.texel_bytes == 0) {
    row_length = p.stride / s.texel_bytes;
  } else {  // a stride that is not a whole number of texels: repack the rows
    repack.resize(saturatingSize(row_bytes, s.height));
    for (int y = 0; y < s.height; ++y)
      std::memcpy(&repack[row_bytes * y], p.data + size_t(y) * p.stride, row_bytes);
    src = repack.data();
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
  const size_t row_bytes = size_t(s.width) * s.texel_bytes;
  if (!p.data)
    return fail(ErrorCode::kInvalidArgument, "frame plane 0 has neither CPU data nor a dmabuf");
  if (!stridedRowsFit(p.size, p.stride, row_bytes, s.height))
    return fail(ErrorCode::kInvalidArgument, "frame plane 0 is smaller than its format needs");
  // A shader may have written the buffer last (an earlier frame's conversion).
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  if (unpack_buffers) {
    Result<GLuint> copied = uploadThroughBuffer(p, s, 0, target);
    return copied ? Status::success() : Status(copied.error());
  }
  // Client memory (llvmpipe): straight from the frame, in one piece where the rows are tight.
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, target);
  if (size_t(p.stride) == row_bytes) {
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(row_bytes * size_t(s.height)), p.data);
  } else {
    for (int y = 0; y < s.height; ++y)
      glBufferSubData(GL_SHADER_STORAGE_BUFFER, GLintptr(row_bytes * size_t(y)),
                      GLsizeiptr(row_bytes), p.data + size_t(y) * size_t(p.stride));
  }
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

Result<std::unique_ptr<FrameImporter>> FrameImporter::create(GlContext& gl, UploadPath upload) {
  auto state = std::make_unique<State>();
  state->gl = &gl;
  state->readback = makeFramebuffer();
  state->unpack_buffers =
      upload == UploadPath::kAuto ? !gl.isLlvmpipe() : upload == UploadPath::kUnpackBuffers;
  return std::unique_ptr<FrameImporter>(new FrameImporter(std::move(state)));
}

Status FrameImporter::prepare(PixelFormat format, bool packed) {
  if (isBayer(format)) return Status::success();
  const bool yuv = isYuv(format);  // MJPEG decodes to RGB24
  GlProgram& program = (yuv ? state_->yuv : state_->rgb)[packed ? 1 : 0];
  if (program) return Status::success();
  ShaderDefines defines;
  defines.set("LOCAL_X", kGroup).set("LOCAL_Y", kGroup).set("PACKED_OUT", packed ? 1 : 0);
  Result<GlProgram> built =
      ShaderLibrary::builtin().compute(yuv ? "import_yuv.comp" : "import_rgb.comp", defines);
  if (!built) return built.error();
  program = std::move(built.value());
  return Status::success();
}

FrameImporter::FrameImporter(std::unique_ptr<State> state) : state_(std::move(state)) {}

Status FrameImporter::stage(const Frame& f) {
  State& s = *state_;
  s.settleStaged();  // a frame staged before and never imported
  s.staged_ms = 0;
  for (UnpackRing& ring : s.unpack) ring.staged = nullptr;
  if (!s.unpack_buffers || f.planes[0].dmabuf_fd >= 0 || isBayer(f.format) ||
      isCompressed(f.format))
    return {};
  const int max_size = s.gl->limits().max_texture_size;
  const auto specs = planeSpecs(f.format, f.width, f.height, max_size);
  if (f.plane_count != int(specs.size())) return {};  // import() names what is wrong
  const auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < specs.size(); ++i) {
    const FramePlane& p = f.planes[i];
    const size_t row_bytes = size_t(specs[i].width) * specs[i].texel_bytes;
    // What import() refuses is left to it, so the error is its own (uploadPlane's checks).
    if (!p.data || specs[i].width > max_size || specs[i].height > max_size ||
        !stridedRowsFit(p.size, p.stride, row_bytes, specs[i].height))
      return {};
  }
  // Every buffer mapped here; the copies run on the copier's thread while this one goes on
  // (esf::run collects the frame before), and import() waits for them and unmaps.
  std::vector<StagingCopier::Copy> copies;
  for (size_t i = 0; i < specs.size(); ++i) {
    const size_t row_bytes = size_t(specs[i].width) * specs[i].texel_bytes;
    Result<uint8_t*> dst = s.mapNextBuffer(saturatingSize(row_bytes, specs[i].height), int(i));
    if (!dst) {
      for (size_t j = 0; j < i; ++j) {
        s.unpack[j].mapped = false;
        s.unpack[j].staged = nullptr;
        (void)s.unmapNextBuffer(int(j));  // nothing written, nothing staged
      }
      return dst.error();
    }
    s.unpack[i].mapped = true;
    s.unpack[i].staged = f.planes[i].data;
    copies.push_back(
        {*dst, f.planes[i].data, row_bytes, size_t(f.planes[i].stride), specs[i].height});
  }
  s.copier.start(std::move(copies));
  s.staged_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return {};
}

void FrameImporter::settle() {
  state_->settleStaged();
}

FrameImporter::~FrameImporter() = default;

Result<ImportedFrame> FrameImporter::import(const Frame& input, const ImportOptions& options) {
  State& s = *state_;
  if (isBayer(input.format))  // they need the run's levels: core/pipeline/bayer_frame.hpp
    return fail(ErrorCode::kUnsupported, "import: ", formatName(input.format),
                " frames are demosaiced by the pipeline, not the importer");
  std::optional<DecodedFrame> decoded;
  const Frame* frame = &input;
  if (isCompressed(input.format)) {
    auto d = decodeMjpeg(input);
    if (!d) return d.error();
    decoded = std::move(*d);
    frame = &decoded->frame;
  }
  const Frame& f = *frame;
  s.settleStaged();  // before any GL call touches the staged buffers
  const bool packed = options.target_packed_rgba != 0;
  if (Status st = checkPackedTarget(options.target_packed_rgba, f.width, f.height); !st)
    return st.error();
  if (Status st = checkPackedTarget(options.target_packed_luma, f.width, f.height); !st)
    return st.error();
  const bool copy_as_is = packed && bytesArePackedLayout(f.format) && f.planes[0].dmabuf_fd < 0;
  if (!copy_as_is) {
    if (Status st = prepare(f.format, packed); !st) return st.error();
  }
  auto layout = planeLayout(f.format, f.width, f.height);
  if (!layout) return fail(layout.error().code, "import: ", layout.error().message);
  const bool zero_copy = f.planes[0].dmabuf_fd >= 0;
  const int max_size = s.gl->limits().max_texture_size;
  const auto specs = planeSpecs(f.format, f.width, f.height, max_size);
  if (f.plane_count != int(specs.size()))
    return fail(ErrorCode::kInvalidArgument, "import: a ", formatName(f.format), " frame needs ",
                std::to_string(specs.size()), " planes, this one has ",
                std::to_string(f.plane_count));
  GLuint textures[3] = {0, 0, 0};
  const auto upload_start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].width > max_size || specs[i].height > max_size)
      return fail(ErrorCode::kUnsupported, "import: a ", std::to_string(f.width), "x",
                  std::to_string(f.height), " ", formatName(f.format),
                  " plane exceeds GL_MAX_TEXTURE_SIZE ", std::to_string(max_size));
    if (copy_as_is) {
      if (Status st = s.copyPlaneIntoBuffer(f.planes[i], specs[i], options.target_packed_rgba); !st)
        return st.error();
      continue;
    }
    auto t = zero_copy ? s.importPlane(f.planes[i], specs[i])
                       : s.uploadPlane(f.planes[i], specs[i], int(i));
    if (!t) return t.error();
    textures[i] = *t;
  }
  const double upload_ms = zero_copy
                               ? 0
                               : s.staged_ms + std::chrono::duration<double, std::milli>(
                                                   std::chrono::steady_clock::now() - upload_start)
                                                   .count();
  s.staged_ms = 0;
  ImportedFrame out;
  out.width = f.width, out.height = f.height;
  out.zero_copy = zero_copy;
  out.upload_ms = upload_ms;
  if (copy_as_is) {  // RGB: no source luma
    out.packed_rgba = options.target_packed_rgba;
    return out;
  }
  const bool yuv = isYuv(f.format);
  const bool want_luma =
      options.source_luma && (yuv || pixelFormatInfo(f.format).colour == ColourFamily::kGrey);
  if (packed && want_luma && yuv && !options.target_packed_luma)
    return fail(ErrorCode::kInvalidArgument,
                "import: a packed import of the source luma needs a luma target buffer");
  GLuint out_tex = 0, luma_tex = 0;
  if (!packed) {
    if (auto st = checkTarget(options.target_rgba, f.width, f.height); !st) return st.error();
    if (!options.target_rgba) ensureTexture(s.out, GL_RGBA8, f.width, f.height);
    out_tex = options.target_rgba ? options.target_rgba : s.out.tex.get();
    if (auto st = checkTarget(options.target_luma, f.width, f.height); !st) return st.error();
    if (want_luma && yuv && !options.target_luma)
      ensureTexture(s.luma, GL_RGBA8, f.width, f.height);
    luma_tex = options.target_luma ? options.target_luma : s.luma.tex.get();
  }

  const GLuint program = (yuv ? s.yuv : s.rgb)[packed ? 1 : 0].get();
  glUseProgram(program);
  auto loc = [&](const char* name) { return glGetUniformLocation(program, name); };
  for (int i = 0; i < 3; ++i) {
    glActiveTexture(GLenum(GL_TEXTURE0 + i));
    glBindTexture(GL_TEXTURE_2D, textures[i]);
    const char* names[3] = {"u_plane0", "u_plane1", "u_plane2"};
    glUniform1i(loc(names[i]), i);
  }
  glActiveTexture(GL_TEXTURE0);
  glUniform2i(loc("u_size"), f.width, f.height);
  if (packed)
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, options.target_packed_rgba);
  else
    glBindImageTexture(0, out_tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  if (yuv) {
    // The shader's layouts (import_yuv.comp u_layout): 0 planar, 1 semi-planar, 2 YUYV, 3 UYVY.
    const PixelFormatInfo& info = pixelFormatInfo(f.format);
    int layout_id = 0, sx = 0, sy = 0;
    if (info.packing == Packing::kPacked) {
      layout_id = info.y.byte_offset == 0 ? 2 : 3;  // Y first (YUYV) or chroma first (UYVY)
    } else {
      layout_id = info.packing == Packing::kSemiPlanar ? 1 : 0;
      sx = std::countr_zero(unsigned(info.chroma_horizontal_subsampling));  // log2
      sy = std::countr_zero(unsigned(info.chroma_vertical_subsampling));
    }
    const YuvCoefficients k = yuvCoefficients(f.colorimetry);
    glUniform1i(loc("u_layout"), layout_id);
    glUniform2i(loc("u_chroma_shift"), sx, sy);
    glUniform1i(loc("u_swap_uv"), info.packing == Packing::kSemiPlanar && info.cb.byte_offset != 0);
    glUniform4i(loc("u_k0"), k.y_offset, k.ys, k.rv, k.gu);
    glUniform2i(loc("u_k1"), k.gv, k.bu);
    glUniform1i(loc("u_write_luma"), want_luma);
    if (want_luma && packed)
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, options.target_packed_luma);
    else if (want_luma)
      glBindImageTexture(1, luma_tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  } else {
    RgbOrder o{};
    if (!rgbOrder(f.format, o))
      return fail(ErrorCode::kUnsupported, "import: no conversion for ", formatName(f.format));
    glUniform1i(loc("u_texel_bytes"), specs[0].texel_bytes);
    glUniform1i(loc("u_bpp"), o.bpp);
    glUniform4i(loc("u_offsets"), o.r, o.g, o.b, o.a);
  }
  glDispatchCompute(GLuint((f.width + kGroup - 1) / kGroup),
                    GLuint((f.height + kGroup - 1) / kGroup), 1);
  glMemoryBarrier(packed ? GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT
                         : GL_TEXTURE_FETCH_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT |
                               GL_FRAMEBUFFER_BARRIER_BIT | GL_TEXTURE_UPDATE_BARRIER_BIT);
  if (auto st = checkGl("import dispatch"); !st) return st.error();
  if (zero_copy && options.wait_for_reads) {
    // The source requeues the buffer on its next frame: the GPU must be done reading it.
    if (Status done = GlFence::insert("the import of a zero-copy frame").wait(kGpuWatchdog); !done)
      return done.error();
  }
  if (packed) {
    out.packed_rgba = options.target_packed_rgba;
    out.packed_luma = !want_luma ? 0 : yuv ? options.target_packed_luma : out.packed_rgba;
  } else {
    out.rgba = out_tex;
    out.luma = !want_luma ? 0 : yuv ? luma_tex : out_tex;
  }
  return out;
}

Status FrameImporter::readRgba(const ImportedFrame& frame, uint8_t* out) const {
  return readRgbaTexture(frame.rgba, frame.width, frame.height, out);
}

Status FrameImporter::readRgbaTexture(GLuint texture, int width, int height, uint8_t* out) const {
  glBindFramebuffer(GL_FRAMEBUFFER, state_->readback.get());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
  if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return fail(ErrorCode::kGpu,
                "import: cannot read the RGBA image back (framebuffer incomplete)");
  }
  // glReadPixels would wait for the GPU without a limit: a hung GPU becomes an error here.
  if (Status done = GlFence::insert("the import's RGBA read-back").wait(kGpuWatchdog); !done) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    return done;
  }
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, out);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return checkGl("import: glReadPixels");
}

}  // namespace esf
