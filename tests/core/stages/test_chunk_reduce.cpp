// The seed's chunk reduce: the pass plan, and the GPU passes against plain sums.
#include <gtest/gtest.h>

#include <random>

#include "core/stages/chunk_reduce.hpp"
#include "core/stages/stage_gl.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf {
namespace {

TEST(ChunkReducePlan, SeedSchemeForPowerOfTwoAndOddCounts) {
  EXPECT_TRUE(chunkReducePlan(1).empty());
  EXPECT_EQ(chunkReducePlan(2), (std::vector<ChunkReducePass>{{1, 1}}));
  // 5 chunks: pairs (0,1) (2,3); then (0,2); then (0,4). ceil(log2 5) = 3 passes.
  EXPECT_EQ(chunkReducePlan(5), (std::vector<ChunkReducePass>{{1, 2}, {2, 1}, {4, 1}}));
  EXPECT_EQ(chunkReducePlan(8), (std::vector<ChunkReducePass>{{1, 4}, {2, 2}, {4, 1}}));
  for (uint32_t n = 2; n < 3000; ++n) {
    std::vector<ChunkReducePass> plan = chunkReducePlan(n);
    uint32_t log2ceil = 0;
    while ((1u << log2ceil) < n) ++log2ceil;
    ASSERT_EQ(plan.size(), log2ceil) << n;
  }
}

TEST(ChunkReducePlan, ReferenceEqualsPlainSumForAnyCount) {
  std::mt19937 rng(5);
  for (uint32_t n : {1u, 2u, 3u, 5u, 7u, 100u, 257u, 1000u}) {
    const uint32_t words = 6;
    std::vector<uint32_t> chunks(n * words);
    for (uint32_t& v : chunks) v = rng();
    std::vector<uint32_t> sum(words, 0);
    for (uint32_t c = 0; c < n; ++c)
      for (uint32_t i = 0; i < words; ++i) sum[i] += chunks[c * words + i];
    EXPECT_EQ(chunkReduceReference(chunks, words), sum) << n << " chunks";
  }
}

TEST(ChunkReduce, GpuMatchesPlainSumForNonPowerOfTwoCounts) {
  GlContext& gl = test::glContext();
  std::mt19937 rng(9);
  const uint32_t words = 300;  // not a multiple of the workgroup size
  Result<ChunkReduce> reduce = ChunkReduce::create(gl, words, 64);
  ASSERT_TRUE(reduce.ok()) << reduce.error().message;
  for (uint32_t n : {1u, 2u, 3u, 5u, 6u, 7u, 9u, 64u, 100u, 257u}) {
    std::vector<uint32_t> chunks(n * words);
    for (uint32_t& v : chunks) v = rng();  // wraps modulo 2^32, as the GPU does
    std::vector<uint32_t> sum(words, 0);
    for (uint32_t c = 0; c < n; ++c)
      for (uint32_t i = 0; i < words; ++i) sum[i] += chunks[c * words + i];
    Result<GlBuffer> buffer = makeStorageBuffer(chunks.size(), "test chunks");
    ASSERT_TRUE(buffer.ok());
    glBindBuffer(GL_SHADER_STORAGE_BUFFER, buffer->get());
    glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(chunks.size() * 4), chunks.data());
    ASSERT_TRUE(reduce->run(buffer->get(), n).ok());
    std::vector<uint32_t> got = test::readBuffer(buffer->get(), words);
    ASSERT_EQ(got, sum) << n << " chunks";
  }
}

}  // namespace
}  // namespace esf
