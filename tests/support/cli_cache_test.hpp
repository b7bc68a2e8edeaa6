#pragma once
// A fixture for tests of the esframe CLI that read or write its tuning cache: each test gets an
// XDG_CACHE_HOME of its own (fresh, removed after), so no test sees another's or the user's.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tests/support/run_command.hpp"
#include "tests/support/temp_path.hpp"

namespace esf::test {

class CliWithOwnCache : public ::testing::Test {
 protected:
  // temp/esf-SUITE-PID, SUITE the running test's suite.
  void SetUp() override {
    xdg_ = freshTempPath(std::string("esf-") +
                         ::testing::UnitTest::GetInstance()->current_test_suite()->name());
    std::filesystem::create_directories(xdg_);
    cache_ = xdg_ / "esframe" / "tuning.json";
  }
  void TearDown() override { std::filesystem::remove_all(xdg_); }
  // esframe with `args`, after the environment assignments `env`, on this test's cache.
  CommandResult esframe(const std::string& args, const std::string& env = "") {
    return runShell(env + " XDG_CACHE_HOME='" + xdg_.string() + "' '" + esframeBinary() + "' " +
                    args);
  }

  std::filesystem::path xdg_;    // XDG_CACHE_HOME
  std::filesystem::path cache_;  // the tuning cache esframe uses under it
};

}  // namespace esf::test
