#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "tests/support/run_command.hpp"

namespace esf {
namespace {

using test::runEsframe;

TEST(CliInfo, GbmOnMissingDeviceIsOneLineError) {
  auto r = runEsframe({"--egl", "gbm", "--drm-device", "/nonexistent", "info"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "esframe: error: cannot open DRM device '/nonexistent': No such file or directory\n");
}

TEST(CliInfo, GbmOnDevNullIsOneLineError) {
  auto r = runEsframe({"--egl", "gbm", "--drm-device", "/dev/null", "info"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "esframe: error: '/dev/null' is not a DRM device\n");
}

TEST(CliInfo, SurfacelessJsonHasRendererAndLimits) {
  auto r = runEsframe({"--egl", "surfaceless", "info", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["gpu"]["platform"], "surfaceless");
  EXPECT_FALSE(j["gpu"]["gl_renderer"].get<std::string>().empty());
  EXPECT_GE(j["gpu"]["compute"]["max_work_group_invocations"].get<int>(), 128);
  EXPECT_TRUE(j["gpu"]["extensions"].contains("GL_EXT_disjoint_timer_query"));
  EXPECT_TRUE(j["drm_devices"].is_array());
}

TEST(CliInfo, TextNamesPlatformAndRenderer) {
  auto r = runEsframe({"--egl", "surfaceless", "info"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("EGL platform: surfaceless"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GL_RENDERER: "), std::string::npos) << r.out;
}

TEST(Cli, BadOptionIsUsageError) {
  auto r = runEsframe({"--egl", "x11", "info"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--egl"), std::string::npos) << r.err;
  EXPECT_EQ(test::lineCount(r.err), 1) << r.err;
}

TEST(Cli, VersionAndHelp) {
  auto v = runEsframe({"--version"});
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.out.rfind("esframe ", 0), 0u) << v.out;
  auto h = runEsframe({"--help"});
  EXPECT_EQ(h.exit_code, 0);
  EXPECT_NE(h.out.find("Exit codes"), std::string::npos);
}

}  // namespace
}  // namespace esf
