#pragma once
// Optional parts of libesframe that pull in heavy libraries (libcamera, libmosquitto) live in
// modules beside libesframe.so and are loaded on first use, so a run that needs neither does not
// pay their dynamic loading. SharedModule owns one dlopen() handle.
#include <string>
#include <utility>

#include "esframe/base/result.hpp"

// A module's entry point: exported from the module although everything is compiled with
// -fvisibility=hidden. Where the module's code is linked into libesframe (a static or sanitizer
// build: ESF_MODULES_LINKED) it stays hidden like any other internal symbol.
#if defined(ESF_MODULES_LINKED)
#define ESF_MODULE_ENTRY
#else
#define ESF_MODULE_ENTRY __attribute__((visibility("default")))
#endif

namespace esf {

class SharedModule {
 public:
  // `file_name` ("libesframe-mqtt.so") from moduleDirectory(). Fails with `code_if_missing`
  // naming the file and dlerror()'s text.
  static Result<SharedModule> open(const std::string& file_name, ErrorCode code_if_missing);

  SharedModule(SharedModule&& other) noexcept;
  SharedModule& operator=(SharedModule&& other) noexcept;
  SharedModule(const SharedModule&) = delete;
  SharedModule& operator=(const SharedModule&) = delete;
  ~SharedModule();

  // The address of `name` in the module, or a failure naming the module and the symbol.
  Result<void*> symbol(const char* name) const;
  const std::string& path() const { return path_; }

 private:
  SharedModule(void* handle, std::string path, ErrorCode code)
      : handle_(handle), path_(std::move(path)), code_(code) {}
  void* handle_ = nullptr;
  std::string path_;
  ErrorCode code_ = ErrorCode::kUnsupported;
};

// Opens `file_name` and returns what its entry point `entry` (extern "C" const T* entry(const
// Host* host)) returns for `host`. The module stays loaded for the rest of the process: objects it
// made may live until exit. Each caller keeps the result (a function-local static) so the module is
// opened once.
Result<const void*> loadModuleEntry(const std::string& file_name, const char* entry,
                                    const void* host, ErrorCode code_if_missing);

// Where modules are looked for: $ESFRAME_MODULE_DIR when set and not empty, else the folder
// libesframe itself was loaded from (the build tree, a cross build's tree), or its subfolder
// esframe-MAJOR.MINOR where there is one (an install's libdir).
std::string moduleDirectory();

}  // namespace esf
