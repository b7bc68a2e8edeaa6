// Backend::kAuto's rule on its own: software renderers and a failed GLES 3.1 context take the
// CPU executor.
#include <gtest/gtest.h>

#include "core/pipeline/backend_choice.hpp"

namespace esf {
namespace {

TEST(BackendChoice, SoftwareRenderersByName) {
  EXPECT_TRUE(isSoftwareRenderer("llvmpipe (LLVM 15.0.6, 256 bits)"));
  EXPECT_TRUE(isSoftwareRenderer("softpipe"));
  EXPECT_TRUE(isSoftwareRenderer("Software Rasterizer (swrast)"));
  EXPECT_FALSE(isSoftwareRenderer("V3D 4.2"));
  EXPECT_FALSE(isSoftwareRenderer("Mali-G52 (Panfrost)"));
  EXPECT_FALSE(isSoftwareRenderer("NVIDIA H100 80GB HBM3/PCIe/SSE2"));
}

TEST(BackendChoice, NoContextTakesTheExecutorAndSaysWhy) {
  const Result<std::unique_ptr<GlContext>> none =
      fail(ErrorCode::kUnsupported, "VC4 V3D 2.1: GLES 3.0, no compute");
  const BackendChoice choice = chooseAutoBackend(none);
  EXPECT_EQ(choice.backend, Backend::kCpu);
  EXPECT_EQ(choice.reason, "no GLES 3.1 compute context: VC4 V3D 2.1: GLES 3.0, no compute");
}

}  // namespace
}  // namespace esf
