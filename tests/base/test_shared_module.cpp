// base/shared_module: where modules are looked for, and each way opening one or finding its entry
// point fails naming the file and the reason. The CLI's view (one line, exit codes, a copied
// tree) is tests/modules/test_modules.py.
#include "base/shared_module.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace esf {
namespace {

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() { old_.empty() ? unsetenv(name_) : setenv(name_, old_.c_str(), 1); }

 private:
  const char* name_;
  std::string old_;
};

// This test links the library's objects in (esframe_internal), as the CLI does: it looks beside
// itself, the executable (not installed: no ../lib/libesframe.so).
TEST(SharedModule, LooksBesideTheLibrarysCodeUnlessTheEnvironmentSaysElsewhere) {
  ScopedEnv unset("ESFRAME_MODULE_DIR", "");
  const std::string self = std::filesystem::canonical("/proc/self/exe").string();
  EXPECT_EQ(std::filesystem::canonical(moduleDirectory()).string(),
            self.substr(0, self.rfind('/')));
  ScopedEnv elsewhere("ESFRAME_MODULE_DIR", "/opt/modules");
  EXPECT_EQ(moduleDirectory(), "/opt/modules");
}

TEST(SharedModule, AMissingFileIsTheGivenCodeNamingThePathAndTheReason) {
  ScopedEnv dir("ESFRAME_MODULE_DIR", "/nonexistent-esframe-modules");
  const auto module = SharedModule::open("libesframe-none.so", ErrorCode::kNotFound);
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(module.error().message,
            "cannot load /nonexistent-esframe-modules/libesframe-none.so: cannot open shared "
            "object file: No such file or directory");
  const auto entry =
      loadModuleEntry("libesframe-none.so", "entry", nullptr, ErrorCode::kUnsupported);
  ASSERT_FALSE(entry.ok());
  EXPECT_EQ(entry.error().code, ErrorCode::kUnsupported);
}

TEST(SharedModule, ASymbolThatIsNotThereNamesTheModuleAndTheSymbol) {
  // libesframe.so, opened as a module: always there in a shared build.
  ScopedEnv dir("ESFRAME_MODULE_DIR", ESF_TEST_LIBESFRAME_DIR);
  const auto module = SharedModule::open("libesframe.so", ErrorCode::kUnsupported);
  ASSERT_TRUE(module.ok()) << module.error().message;
  EXPECT_EQ(module->path(), std::string(ESF_TEST_LIBESFRAME_DIR) + "/libesframe.so");
  const auto missing = module->symbol("esf_no_such_entry_point");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(missing.error().message.find("cannot load " + module->path()), std::string::npos)
      << missing.error().message;
  EXPECT_NE(missing.error().message.find("undefined symbol: esf_no_such_entry_point"),
            std::string::npos)
      << missing.error().message;
  const auto entry =
      loadModuleEntry("libesframe.so", "esf_no_such_entry_point", nullptr, ErrorCode::kUnsupported);
  ASSERT_FALSE(entry.ok());
  EXPECT_NE(entry.error().message.find("esf_no_such_entry_point"), std::string::npos);
}

// A module and its host as a loader declares them, for loadOptionalModule.
struct TestHost {
  int value;
};
struct TestModule {
  const TestHost* host;
};
const TestModule* testEntry(const TestHost* host) {
  static TestModule module{nullptr};
  module.host = host;
  return &module;
}

TEST(SharedModule, AnOptionalModuleLinkedInIsItsEntryPointCalledWithTheHost) {
  ScopedEnv dir("ESFRAME_MODULE_DIR", "/nonexistent-esframe-modules");  // never looked in
  const TestHost host{7};
  const auto module = loadOptionalModule(
      OptionalModule<TestModule, TestHost>{"libesframe-none.so", "entry", &testEntry}, host);
  ASSERT_TRUE(module.ok()) << module.error().message;
  EXPECT_EQ(module.value()->host, &host);
}

TEST(SharedModule, AnOptionalModuleThatCannotLoadIsUnsupportedNamingTheFileAndTheReason) {
  ScopedEnv dir("ESFRAME_MODULE_DIR", "/nonexistent-esframe-modules");
  const auto module = loadOptionalModule(
      OptionalModule<TestModule, TestHost>{"libesframe-none.so", "entry", nullptr}, TestHost{7});
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(module.error().message,
            "cannot load /nonexistent-esframe-modules/libesframe-none.so: cannot open shared "
            "object file: No such file or directory");
}

TEST(SharedModule, NotBuiltIsUnsupportedNamingThePackagesAndTheOption) {
  const Status s = moduleNotBuilt("MQTT", "libmosquitto-dev", "ESFRAME_MQTT");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(s.error().message,
            "MQTT support not built (install libmosquitto-dev and configure with "
            "-DESFRAME_MQTT=ON)");
}

#ifdef ESF_TEST_MQTT_MODULE
TEST(SharedModule, ARealModulesEntryPointGivesItsTable) {
  ScopedEnv dir("ESFRAME_MODULE_DIR", ESF_TEST_LIBESFRAME_DIR);
  auto module = SharedModule::open("libesframe-mqtt.so", ErrorCode::kUnsupported);
  ASSERT_TRUE(module.ok()) << module.error().message;
  const auto entry = module->symbol("esf_mqtt_module_v5");
  ASSERT_TRUE(entry.ok()) << entry.error().message;
  EXPECT_NE(entry.value(), nullptr);
  SharedModule moved = std::move(module.value());
  EXPECT_EQ(moved.path(), std::string(ESF_TEST_LIBESFRAME_DIR) + "/libesframe-mqtt.so");
  EXPECT_TRUE(moved.symbol("esf_mqtt_module_v5").ok());
}
#endif

}  // namespace
}  // namespace esf
