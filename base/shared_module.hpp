#pragma once
// Optional parts of libesframe that pull in heavy libraries (libcamera, libmosquitto,
// libmicrohttpd) live in modules beside libesframe.so and are loaded on first use, so a run that
// needs none does not pay their dynamic loading. SharedModule owns one dlopen() handle;
// loadOptionalModule is what each module's loader calls.
#include <string>
#include <string_view>
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

// In a loader: the entry point itself where the module's code is linked into libesframe (called
// directly), null where the module is a file to load (its entry point is not in libesframe).
#if defined(ESF_MODULES_LINKED)
#define ESF_LINKED_ENTRY(entry) (&entry)
#else
#define ESF_LINKED_ENTRY(entry) nullptr
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

// One optional module as its loader names it: the file, its entry point (extern "C" const
// Module* entry(const Host* host)) by name, and ESF_LINKED_ENTRY(entry).
template <typename Module, typename Host>
struct OptionalModule {
  const char* file_name;  // "libesframe-mqtt.so", looked for in moduleDirectory()
  const char* entry_name;
  const Module* (*linked_entry)(const Host* host);
};

// The module's table for `host`: its entry point called directly where it is linked in, else the
// file loaded (loadModuleEntry). Fails with kUnsupported, as a build without the module does
// (this esframe cannot use it): "cannot load PATH: REASON", REASON dlerror()'s text. Each loader
// keeps the result in a function-local static, so the module loads once, on first use.
template <typename Module, typename Host>
Result<const Module*> loadOptionalModule(const OptionalModule<Module, Host>& module,
                                         const Host& host) {
  if (module.linked_entry) return module.linked_entry(&host);
  Result<const void*> table =
      loadModuleEntry(module.file_name, module.entry_name, &host, ErrorCode::kUnsupported);
  if (!table) return table.error();
  return static_cast<const Module*>(table.value());
}

// What a build without an optional module's libraries answers each use of it, kUnsupported:
// "FEATURE support not built (install PACKAGES and configure with -DOPTION=ON)".
Status moduleNotBuilt(std::string_view feature, std::string_view packages, std::string_view option);

// Where modules are looked for: $ESFRAME_MODULE_DIR when set and not empty, else the folder
// libesframe itself was loaded from (the build tree, a cross build's tree), or its subfolder
// esframe-MAJOR.MINOR where there is one (an install's libdir).
std::string moduleDirectory();

}  // namespace esf
