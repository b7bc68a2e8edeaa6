#pragma once
// Fresh paths under the system's temporary directory, one per test process (and per test where
// asked), so that parallel ctest runs and earlier failed runs never share files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace esf::test {

// temp/PREFIX-PID, with -TEST (the running test's name) when per_test; whatever an earlier run
// left there is removed, and nothing is created.
inline std::filesystem::path freshTempPath(const std::string& prefix, bool per_test = false) {
  std::string name = prefix + "-" + std::to_string(getpid());
  if (per_test)
    name += std::string("-") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::path p = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(p);
  return p;
}

}  // namespace esf::test
