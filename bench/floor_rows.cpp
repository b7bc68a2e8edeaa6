#include "bench/floor_rows.hpp"

#include <array>

#include "core/image/gpu_image.hpp"
#include "core/stages/stage_gl.hpp"
#include "platform/shader_library.hpp"

namespace esf::bench {
namespace {

using Work = std::function<Status()>;

// Bench-only shaders: they measure the machine, they are no stage.
constexpr std::string_view kEmpty = R"(layout(local_size_x = 1) in;
void main() {}
)";

// Every invocation reads QUADS 16-byte quads of the frame, all loads first, and folds them with
// xor; a result nobody can predict is stored only if it equals u_never, so the reads cannot be
// dropped and nothing is written.
constexpr std::string_view kRead = R"(layout(local_size_x = 256) in;
layout(std430, binding = 1) readonly buffer Quads { uvec4 quads[]; };
layout(std430, binding = 0) writeonly buffer Sink { uint sink[]; };
uniform uint u_quads;
uniform uint u_never;
void main() {
  uint threads = gl_NumWorkGroups.x * 256u, gid = gl_GlobalInvocationID.x;
  uvec4 acc = uvec4(0u);
  for (uint base = gid; base < u_quads; base += threads * uint(QUADS)) {
    uvec4 v[QUADS];
    for (int k = 0; k < QUADS; ++k) v[k] = quads[min(base + uint(k) * threads, u_quads - 1u)];
    for (int k = 0; k < QUADS; ++k) acc ^= v[k];
  }
  uint r = acc.x ^ acc.y ^ acc.z ^ acc.w;
  if (r == u_never) sink[gid] = r;
}
)";

// One RGBA8 image into another of its size, 16x16 workgroups: through the sampler and an rgba8
// image (unorm conversions both ways, as the stages do), or as raw 32-bit texels through r32ui
// images (GLES 3.1 binds an RGBA8 texture to an r32ui image unit: same size class).
constexpr std::string_view kCopy = R"(layout(local_size_x = 16, local_size_y = 16) in;
#if RAW
layout(r32ui, binding = 1) readonly uniform highp uimage2D u_in;
layout(r32ui, binding = 0) writeonly uniform highp uimage2D u_out;
#else
uniform highp sampler2D u_image;
layout(rgba8, binding = 0) writeonly uniform highp image2D u_out;
#endif
uniform ivec2 u_size;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  if (p.x >= u_size.x || p.y >= u_size.y) return;
#if RAW
  imageStore(u_out, p, imageLoad(u_in, p));
#else
  uvec4 c = uvec4(texelFetch(u_image, p, 0) * 255.0 + 0.5);
  imageStore(u_out, p, vec4(c) / 255.0);
#endif
}
)";

constexpr std::array<EmbeddedFile, 3> kFiles = {EmbeddedFile{"floor_empty.comp", kEmpty},
                                                EmbeddedFile{"floor_read.comp", kRead},
                                                EmbeddedFile{"floor_copy.comp", kCopy}};

}  // namespace

Status floorRows(const GlContext& gl, const RgbaImage& frame, const std::string& label,
                 const MeasureOptions& gpu, std::vector<BenchRow>* rows) {
  const double px = double(frame.pixelCount()), bytes = px * 4;
  const ShaderLibrary library(kFiles);
  Result<GlProgram> empty = library.compute("floor_empty.comp");
  if (!empty) return empty.error();
  rows->push_back(timed(label, "floor", "empty dispatch (1 invocation): timer and launch", true,
                        measureGpu(gl, gpu,
                                   [&]() -> Status {
                                     glUseProgram(empty.value().get());
                                     glDispatchCompute(1, 1, 1);
                                     glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
                                     return checkGl("empty dispatch");
                                   }),
                        0, 0));
  Result<PackedRgbaBuffer> buf = RgbaPacker::packOnGpu(gl, frame);
  if (!buf) return buf.error();
  Result<GlBuffer> sink = makeStorageBuffer(1, "floor sink");
  if (!sink) return sink.error();
  const uint32_t quads = uint32_t(frame.pixelCount() / 4);
  for (int per : {4, 16}) {
    Result<GlProgram> read = library.compute("floor_read.comp", ShaderDefines().set("QUADS", per));
    if (!read) return read.error();
    const GLuint program = read.value().get();
    for (int groups : {512, 2048}) {
      std::string variant = "read the packed frame once: " + std::to_string(groups) + " x 256, " +
                            std::to_string(per) + " quads per step";
      rows->push_back(
          timed(label, "floor", variant, true,
                measureGpu(gl, gpu,
                           [&]() -> Status {
                             glUseProgram(program);
                             glUniform1ui(glGetUniformLocation(program, "u_quads"), quads);
                             glUniform1ui(glGetUniformLocation(program, "u_never"), 0x5eed1e55u);
                             glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, buf.value().buffer());
                             glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, sink.value().get());
                             glDispatchCompute(GLuint(groups), 1, 1);
                             glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
                             return checkGl("read floor");
                           }),
                bytes, px));
    }
  }
  Result<GpuImage> src = GpuImage::fromImage(frame);
  if (!src) return src.error();
  Result<GpuImage> dst = GpuImage::create(frame.width, frame.height);
  if (!dst) return dst.error();
  for (int raw : {0, 1}) {
    Result<GlProgram> copy = library.compute("floor_copy.comp", ShaderDefines().set("RAW", raw));
    if (!copy) return copy.error();
    const GLuint program = copy.value().get();
    Work once = [&]() -> Status {
      glUseProgram(program);
      glUniform2i(glGetUniformLocation(program, "u_size"), frame.width, frame.height);
      if (raw) {
        glBindImageTexture(1, src.value().texture(), 0, GL_FALSE, 0, GL_READ_ONLY, GL_R32UI);
        glBindImageTexture(0, dst.value().texture(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32UI);
      } else {
        bindSourceImage(program, src.value().texture(), 0);
        glBindImageTexture(0, dst.value().texture(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_RGBA8);
      }
      glDispatchCompute(GLuint((frame.width + 15) / 16), GLuint((frame.height + 15) / 16), 1);
      glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT | GL_TEXTURE_FETCH_BARRIER_BIT);
      return checkGl("image copy");
    };
    // Checked like a stage: the copy must be the frame, bit for bit.
    Status s = once();
    if (s) {
      Result<RgbaImage> got = dst.value().download();
      if (!got) return got.error();
      if (!(got.value().pixels == frame.pixels))
        s = fail(ErrorCode::kGpu, "image copy (raw ", std::to_string(raw), ") is not the frame");
    }
    std::string variant = raw ? "copy an RGBA8 image as raw r32ui texels (imageLoad/imageStore)"
                              : "copy an RGBA8 image through the sampler and an rgba8 image";
    rows->push_back(
        s ? timed(label, "floor", variant, true, measureGpu(gl, gpu, once), bytes * 2, px)
          : timed(label, "floor", variant, true, s.error(), 0, 0));
  }
  // The two passes of the blur's split-through-a-buffer form (16 x 64 tiles, runs of 4, 256
  // invocations, or 4 pixels per invocation from registers; columns of 8 rows, 64 per
  // workgroup, rows read one or 8 at a time), each alone: which one bounds the blur.
  Result<GlBuffer> rows_buf = makeStorageBuffer(frame.pixelCount(), "floor blur rows");
  if (!rows_buf) return rows_buf.error();
  Result<GlProgram> horizontal =
      ShaderLibrary::builtin().compute("blur_fused.comp", ShaderDefines()
                                                              .set("TW", 64)
                                                              .set("TH", 16)
                                                              .set("SEG", 4)
                                                              .set("WG_X", 256)
                                                              .set("FILTER_DIM", 15)
                                                              .set("H_ONLY", 1)
                                                              .set("OUT_BUFFER", 1));
  if (!horizontal) return horizontal.error();
  rows->push_back(timed(
      label, "floor", "blur 15 horizontal pass alone (split: texture tile -> packed buffer)", true,
      measureGpu(gl, gpu,
                 [&]() -> Status {
                   glUseProgram(horizontal.value().get());
                   bindSourceImage(horizontal.value().get(), src.value().texture(), 0);
                   glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, rows_buf.value().get());
                   glDispatchCompute(GLuint((frame.width + 63) / 64),
                                     GLuint((frame.height + 15) / 16), 1);
                   glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
                   return checkGl("blur horizontal pass");
                 }),
      bytes * 2, px));
  if (frame.width % 4 == 0) {
    // The horizontal pass from registers (row_quads): no tile, no shared memory.
    Result<GlProgram> rows_pass = ShaderLibrary::builtin().compute(
        "blur_rows.comp", ShaderDefines().set("WG_X", 64).set("FILTER_DIM", 15));
    if (!rows_pass) return rows_pass.error();
    const GLuint program = rows_pass.value().get();
    rows->push_back(timed(
        label, "floor",
        "blur 15 horizontal pass alone (split row-quads: packed buffer -> packed buffer)", true,
        measureGpu(
            gl, gpu,
            [&]() -> Status {
              glUseProgram(program);
              glUniform2i(glGetUniformLocation(program, "u_size"), frame.width, frame.height);
              glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 2, buf.value().buffer());
              glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, rows_buf.value().get());
              glDispatchCompute(GLuint((frame.width / 4 + 63) / 64), GLuint(frame.height), 1);
              glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
              return checkGl("blur rows pass");
            }),
        bytes * 2, px));
  }
  struct ColumnsForm {
    int wg, prefetch;
  };
  for (ColumnsForm form : {ColumnsForm{64, 1}, ColumnsForm{256, 1}, ColumnsForm{64, 8}}) {
    const int wg = form.wg;
    Result<GlProgram> vertical =
        ShaderLibrary::builtin().compute("blur_columns.comp", ShaderDefines()
                                                                  .set("SEGMENT", 8)
                                                                  .set("WG_X", wg)
                                                                  .set("FILTER_DIM", 15)
                                                                  .set("PREFETCH", form.prefetch));
    if (!vertical) return vertical.error();
    const GLuint program = vertical.value().get();
    rows->push_back(timed(
        label, "floor",
        "blur 15 vertical pass alone (split: packed buffer -> r32ui image), " + std::to_string(wg) +
            " columns per workgroup" +
            (form.prefetch > 1 ? ", rows read " + std::to_string(form.prefetch) + " at a time"
                               : std::string()),
        true,
        measureGpu(
            gl, gpu,
            [&]() -> Status {
              glUseProgram(program);
              glUniform2i(glGetUniformLocation(program, "u_size"), frame.width, frame.height);
              glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 1, rows_buf.value().get());
              glBindImageTexture(0, dst.value().texture(), 0, GL_FALSE, 0, GL_WRITE_ONLY, GL_R32UI);
              glDispatchCompute(GLuint((frame.width + wg - 1) / wg), GLuint((frame.height + 7) / 8),
                                1);
              glMemoryBarrier(GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
              return checkGl("blur vertical pass");
            }),
        bytes * 2, px));
  }
  return Status::success();
}

}  // namespace esf::bench
