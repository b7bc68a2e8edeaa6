#include "bench/floor_rows.hpp"

#include <array>

#include "core/image/gpu_image.hpp"
#include "core/stages/stage_gl.hpp"
#include "platform/shader_library.hpp"

namespace esf::bench {
namespace {

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

constexpr std::array<EmbeddedFile, 2> kFiles = {EmbeddedFile{"floor_empty.comp", kEmpty},
                                                EmbeddedFile{"floor_read.comp", kRead}};

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
  Result<PackedRgbaBuffer> buf = PackedRgbaBuffer::fromImage(frame);
  if (!buf) return buf.error();
  Result<GlBuffer> sink = makeStorageBuffer(1, "floor sink");
  if (!sink) return sink.error();
  const uint32_t quads = uint32_t(frame.pixelCount() / 4);
  for (int per : {4, 16}) {
    for (int groups : {512, 2048}) {
      Result<GlProgram> read =
          library.compute("floor_read.comp", ShaderDefines().set("QUADS", per));
      if (!read) return read.error();
      const GLuint program = read.value().get();
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
  return Status::success();
}

}  // namespace esf::bench
