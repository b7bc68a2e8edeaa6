#pragma once
// The chunk-reduce histogram's reduce (HistogramStrategy::kChunkReduce): `chunk_count` chunks
// of `words` uint32 each, laid out back to back in one SSBO, are summed pairwise into chunk 0.
// Pass i uses stride 2^i and dispatches floor(chunksLeft / 2) workgroups, each adding chunk
// (w * 2 * stride + stride) into chunk (w * 2 * stride); chunksLeft -= dispatched. After
// ceil(log2(chunk_count)) passes chunk 0 holds the sum, for any chunk count (not only powers
// of two: an odd chunk out waits for a later, wider pass). Counts wrap modulo 2^32.
#include <cstdint>
#include <vector>

#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

struct ChunkReducePass {
  uint32_t stride = 0;
  uint32_t workgroups = 0;
  bool operator==(const ChunkReducePass&) const = default;
};
// The pass list above, the same on CPU and GPU.
std::vector<ChunkReducePass> chunkReducePlan(uint32_t chunk_count);
// CPU reference: applies the plan to chunks (chunk_count * words) in place; returns chunk 0.
std::vector<uint32_t> chunkReduceReference(std::vector<uint32_t> chunks, uint32_t words);

class ChunkReduce {
 public:
  // workgroup_size invocations per workgroup, each looping over the chunk's words.
  static Result<ChunkReduce> create(const GlContext& gl, uint32_t words, int workgroup_size);
  // Reduces `chunks` (an SSBO) in place; waits on earlier shader writes to it with a barrier
  // and leaves one after its last pass.
  Status run(GLuint chunks, uint32_t chunk_count);
  uint32_t words() const { return words_; }

 private:
  ChunkReduce() = default;
  const GlContext* gl_ = nullptr;
  uint32_t words_ = 0;
  GlProgram program_;
  GLint stride_location_ = -1;
};

}  // namespace esf
