#include "core/stages/chunk_reduce.hpp"

#include <string>

#include "core/stages/stage_limits.hpp"
#include "platform/shader_library.hpp"

namespace esf {

std::vector<ChunkReducePass> chunkReducePlan(uint32_t chunk_count) {
  // numSteps = ceil(log2(numChunks)); pass i: stride 2^i, floor(chunksLeft / 2)
  // workgroups, chunksLeft -= that.
  std::vector<ChunkReducePass> plan;
  uint32_t left = chunk_count;
  for (uint32_t stride = 1; left > 1; stride *= 2) {
    uint32_t groups = left / 2;
    plan.push_back({stride, groups});
    left -= groups;
  }
  return plan;
}

std::vector<uint32_t> chunkReduceReference(std::vector<uint32_t> chunks, uint32_t words) {
  uint32_t count = words ? uint32_t(chunks.size() / words) : 0;
  for (const ChunkReducePass& pass : chunkReducePlan(count)) {
    for (uint32_t w = 0; w < pass.workgroups; ++w) {
      size_t c0 = size_t(w) * 2 * pass.stride, c1 = c0 + pass.stride;
      for (uint32_t i = 0; i < words; ++i) chunks[c0 * words + i] += chunks[c1 * words + i];
    }
  }
  chunks.resize(words);
  return chunks;
}

Result<ChunkReduce> ChunkReduce::create(const GlContext& gl, uint32_t words, int workgroup_size) {
  if (words < 1)
    return fail(ErrorCode::kInvalidArgument, "chunk reduce: a chunk must have at least one word");
  if (Status s = checkWorkgroup(gl.limits(), "chunk reduce", workgroup_size, 1, 0); !s)
    return s.error();
  ChunkReduce r;
  r.gl_ = &gl;
  r.words_ = words;
  Result<GlProgram> program = ShaderLibrary::builtin().compute(
      "chunk_reduce.comp", ShaderDefines().set("WORDS", words).set("WG_X", workgroup_size));
  if (!program) return program.error();
  r.program_ = std::move(program.value());
  r.stride_location_ = glGetUniformLocation(r.program_.get(), "u_stride");
  return r;
}

Status ChunkReduce::run(GLuint chunks, uint32_t chunk_count) {
  std::vector<ChunkReducePass> plan = chunkReducePlan(chunk_count);
  for (const ChunkReducePass& pass : plan)
    if (Status s = checkDispatch(gl_->limits(), "chunk reduce", pass.workgroups, 1); !s) return s;
  glUseProgram(program_.get());
  glBindBufferBase(GL_SHADER_STORAGE_BUFFER, 0, chunks);
  for (const ChunkReducePass& pass : plan) {
    // Each pass reads what the previous one wrote.
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    glUniform1ui(stride_location_, pass.stride);
    glDispatchCompute(pass.workgroups, 1, 1);
  }
  glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
  return checkGl("chunk reduce dispatch");
}

}  // namespace esf
