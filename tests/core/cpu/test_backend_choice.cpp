// Backend::kAuto's rule on its own: software renderers and a failed GLES 3.1 context take the
// CPU executor; a tuning-cache record of this GPU, chain and size class overrides it.
#include <gtest/gtest.h>

#include "core/pipeline/backend_choice.hpp"
#include "core/tuning/backend_comparison.hpp"

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

TEST(BackendChoice, TunedRecordDecidesPerChainAndSizeClassElseTheRuleStands) {
  const DeviceKey gpu{"Mesa", "llvmpipe (LLVM 15)", "OpenGL ES 3.2 Mesa 22.3.6"};
  TuningCache cache;
  BackendRecord gles_won{"gles", 2.0, 5.0, "", ""};
  cache.put(backendEntry(gpu, "blur+histogram", 1920, 1080, gles_won));
  CacheEntry malformed = backendEntry(gpu, "histogram", 1920, 1080, gles_won);
  malformed.params["backend"] = "vulkan";  // not a backend: no record
  cache.put(malformed);
  const BackendChoice rule{Backend::kCpu, "the GL renderer llvmpipe is software"};
  PipelineConfig blur;
  blur.blur = BlurConfig{15, 1};
  EXPECT_EQ(stageChainOf(blur), "blur+histogram");

  BackendChoice c = chooseTunedBackend(rule, cache, gpu, blur, 1920, 1080);
  EXPECT_EQ(c.backend, Backend::kGles);
  EXPECT_NE(c.reason.find("cpu 5.00 ms, gles 2.00 ms"), std::string::npos) << c.reason;
  // 1600x900 is in the same size class (1920x1080); 640x480 is not.
  EXPECT_EQ(chooseTunedBackend(rule, cache, gpu, blur, 1600, 900).backend, Backend::kGles);
  c = chooseTunedBackend(rule, cache, gpu, blur, 640, 480);
  EXPECT_EQ(c.backend, Backend::kCpu);
  EXPECT_EQ(c.reason, rule.reason +
                          " (the tuning cache has no blur+histogram record for 640x480's size "
                          "class 640x480)");
  // Another chain, another GPU, a malformed record: the rule.
  EXPECT_EQ(chooseTunedBackend(rule, cache, gpu, PipelineConfig{}, 1920, 1080).backend,
            Backend::kCpu);
  const DeviceKey other{"Broadcom", "V3D 4.2", "OpenGL ES 3.1 Mesa 22.3.6"};
  EXPECT_EQ(chooseTunedBackend(rule, cache, other, blur, 1920, 1080).backend, Backend::kCpu);
  // The scopes are a chain of their own: a record made without them does not choose for them.
  PipelineConfig blur_scopes = blur;
  blur_scopes.scopes.vectorscope = true;
  EXPECT_EQ(stageChainOf(blur_scopes), "blur+histogram+scopes");
  c = chooseTunedBackend(rule, cache, gpu, blur_scopes, 1920, 1080);
  EXPECT_EQ(c.backend, Backend::kCpu);
  EXPECT_NE(c.reason.find("no blur+histogram+scopes record"), std::string::npos) << c.reason;
  EXPECT_TRUE(hasBackendRecords(cache, gpu, "blur+histogram"));
  EXPECT_FALSE(hasBackendRecords(cache, other, "blur+histogram"));
}

}  // namespace
}  // namespace esf
