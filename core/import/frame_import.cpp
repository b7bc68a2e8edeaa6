#include "core/import/frame_import.hpp"

#include <bit>
#include <chrono>
#include <vector>

#include "base/pixel_format.hpp"
#include "core/import/frame_import_state.hpp"
#include "core/import/import_reference.hpp"
#include "core/import/mjpeg_decode.hpp"
#include "esframe/base/sizes.hpp"
#include "platform/gl_context.hpp"
#include "platform/gl_fence.hpp"
#include "platform/shader_library.hpp"

namespace esf {
namespace {

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

}  // namespace

YuvPlaneLayout yuvPlaneLayout(PixelFormat yuv_format) {
  const PixelFormatInfo& info = pixelFormatInfo(yuv_format);
  YuvPlaneLayout l;
  if (info.packing == Packing::kPacked) {
    l.layout = info.y.byte_offset == 0 ? 2 : 3;  // Y first (YUYV) or chroma first (UYVY)
    return l;
  }
  l.layout = info.packing == Packing::kSemiPlanar ? 1 : 0;
  l.shift_x = std::countr_zero(unsigned(info.chroma_horizontal_subsampling));  // log2
  l.shift_y = std::countr_zero(unsigned(info.chroma_vertical_subsampling));
  l.swap_uv = info.packing == Packing::kSemiPlanar && info.cb.byte_offset != 0;
  return l;
}

Result<std::unique_ptr<FrameImporter>> FrameImporter::create(GlContext& gl, UploadPath upload) {
  auto state = std::make_unique<State>();
  state->gl = &gl;
  state->group = pixelWorkgroup(gl.limits());
  state->readback = makeFramebuffer();
  state->unpack_buffers =
      upload == UploadPath::kAuto ? !gl.isLlvmpipe() : upload == UploadPath::kUnpackBuffers;
  return std::unique_ptr<FrameImporter>(new FrameImporter(std::move(state)));
}

ImportFormat& FrameImporter::State::formatOf(PixelFormat format) {
  for (ImportFormat& known : formats)
    if (known.format == format) return known;
  const PixelFormatInfo& info = pixelFormatInfo(format);
  ImportFormat& f = formats.emplace_back();
  f.format = format;
  f.name = info.name;
  f.bayer = isBayer(format);
  f.compressed = isCompressed(format);
  f.yuv = isYuv(format);
  f.has_luma = f.yuv || info.colour == ColourFamily::kGrey;
  if (f.yuv) f.yuv_layout = yuvPlaneLayout(format);
  if (RgbOrder o{}; rgbOrder(format, o)) {
    f.rgb_order = o;
    f.bytes_are_packed_layout = o.bpp == 4 && o.r == 0 && o.g == 1 && o.b == 2 && o.a == 3;
  }
  return f;
}

Status FrameImporter::State::sizeFor(ImportFormat& f, int w, int h) {
  if (f.width == w && f.height == h) return f.size_verdict;
  Result<std::vector<PlaneLayout>> layout = planeLayout(f.format, w, h);
  f.size_verdict = layout ? Status::success() : Status(layout.error());
  f.specs = planeSpecs(f.format, w, h, gl->limits().max_texture_size);
  f.width = w, f.height = h;
  return f.size_verdict;
}

Status FrameImporter::State::buildProgram(const ImportFormat& f, bool packed, bool source_luma) {
  const bool luma = f.yuv && source_luma;  // MJPEG decodes to RGB24
  GlProgram& program = f.yuv ? yuv[packed ? 1 : 0][luma ? 1 : 0] : rgb[packed ? 1 : 0];
  if (program) return Status::success();
  ShaderDefines defines;
  defines.set("LOCAL_X", group.x).set("LOCAL_Y", group.y);
  defines.set("PACKED_OUT", packed ? 1 : 0);
  if (f.yuv) defines.set("WRITE_LUMA", luma ? 1 : 0);
  Result<GlProgram> built =
      ShaderLibrary::builtin().compute(f.yuv ? "import_yuv.comp" : "import_rgb.comp", defines);
  if (!built) return built.error();
  program = std::move(built.value());
  return Status::success();
}

Status FrameImporter::prepare(PixelFormat format, bool packed, bool source_luma) {
  const ImportFormat& f = state_->formatOf(format);
  if (f.bayer) return Status::success();
  return state_->buildProgram(f, packed, source_luma);
}

FrameImporter::FrameImporter(std::unique_ptr<State> state) : state_(std::move(state)) {}

Status FrameImporter::stage(const Frame& f) {
  State& s = *state_;
  s.settleStaged();  // a frame staged before and never imported
  s.staged_ms = 0;
  for (UnpackRing& ring : s.unpack) ring.staged = nullptr;
  if (!s.unpack_buffers || f.planes[0].dmabuf_fd >= 0) return {};
  ImportFormat& format = s.formatOf(f.format);
  if (format.bayer || format.compressed) return {};
  const int max_size = s.gl->limits().max_texture_size;
  (void)s.sizeFor(format, f.width, f.height);  // a size the format refuses: import() says so
  const std::vector<PlaneSpec>& specs = format.specs;
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
  ImportFormat& input_format = s.formatOf(input.format);
  if (input_format.bayer)  // they need the run's levels: core/pipeline/bayer_frame.hpp
    return fail(ErrorCode::kUnsupported, "import: ", input_format.name,
                " frames are demosaiced by the pipeline, not the importer");
  std::optional<DecodedFrame> decoded;
  const Frame* frame = &input;
  if (input_format.compressed) {
    auto d = decodeMjpeg(input);
    if (!d) return d.error();
    decoded = std::move(*d);
    frame = &decoded->frame;
  }
  const Frame& f = *frame;
  ImportFormat& format = decoded ? s.formatOf(f.format) : input_format;
  s.settleStaged();  // before any GL call touches the staged buffers
  const bool packed = options.target_packed_rgba != 0;
  if (Status st = checkPackedTarget(options.target_packed_rgba, f.width, f.height); !st)
    return st.error();
  if (Status st = checkPackedTarget(options.target_packed_luma, f.width, f.height); !st)
    return st.error();
  const bool copy_as_is = packed && format.bytes_are_packed_layout && f.planes[0].dmabuf_fd < 0;
  const bool yuv = format.yuv;
  const bool want_luma = options.source_luma && format.has_luma;
  if (!copy_as_is) {
    if (Status st = s.buildProgram(format, packed, want_luma); !st) return st.error();
  }
  if (Status st = s.sizeFor(format, f.width, f.height); !st)
    return fail(st.error().code, "import: ", st.error().message);
  const bool zero_copy = f.planes[0].dmabuf_fd >= 0;
  const int max_size = s.gl->limits().max_texture_size;
  const std::vector<PlaneSpec>& specs = format.specs;
  if (f.plane_count != int(specs.size()))
    return fail(ErrorCode::kInvalidArgument, "import: a ", format.name, " frame needs ",
                std::to_string(specs.size()), " planes, this one has ",
                std::to_string(f.plane_count));
  GLuint textures[3] = {0, 0, 0};
  const auto upload_start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].width > max_size || specs[i].height > max_size)
      return fail(ErrorCode::kUnsupported, "import: a ", std::to_string(f.width), "x",
                  std::to_string(f.height), " ", format.name, " plane exceeds GL_MAX_TEXTURE_SIZE ",
                  std::to_string(max_size));
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
  for (size_t i = 0; i < 3; ++i) out.planes[i] = textures[i];
  out.width = f.width, out.height = f.height;
  out.zero_copy = zero_copy;
  out.upload_ms = upload_ms;
  if (copy_as_is) {  // RGB: no source luma
    out.packed_rgba = options.target_packed_rgba;
    return out;
  }
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

  const GLuint program =
      (yuv ? s.yuv[packed ? 1 : 0][want_luma ? 1 : 0] : s.rgb[packed ? 1 : 0]).get();
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
    const YuvPlaneLayout& l = format.yuv_layout;
    const YuvCoefficients k = yuvCoefficients(f.colorimetry);
    glUniform1i(loc("u_layout"), l.layout);
    glUniform2i(loc("u_chroma_shift"), l.shift_x, l.shift_y);
    glUniform1i(loc("u_swap_uv"), l.swap_uv);
    glUniform4i(loc("u_k0"), k.y_offset, k.ys, k.rv, k.gu);
    glUniform2i(loc("u_k1"), k.gv, k.bu);
    if (want_luma && packed)
      glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, options.target_packed_luma);
    else if (want_luma)
      glBindImageTexture(1, luma_tex, 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
  } else {
    if (!format.rgb_order)
      return fail(ErrorCode::kUnsupported, "import: no conversion for ", format.name);
    const RgbOrder& o = *format.rgb_order;
    glUniform1i(loc("u_texel_bytes"), specs[0].texel_bytes);
    glUniform1i(loc("u_bpp"), o.bpp);
    glUniform4i(loc("u_offsets"), o.r, o.g, o.b, o.a);
  }
  glDispatchCompute(GLuint((f.width + s.group.x - 1) / s.group.x),
                    GLuint((f.height + s.group.y - 1) / s.group.y), 1);
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
