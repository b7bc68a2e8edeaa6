#include "base/shared_module.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <utility>
#include <vector>

namespace esf {

std::string moduleDirectory() {
  if (const char* dir = std::getenv("ESFRAME_MODULE_DIR"); dir && *dir) return dir;
  // dladdr on a function of libesframe names the file it was mapped from: libesframe.so, or an
  // executable with the library's objects linked in (the CLI, tests and bench link the static
  // esframe_internal; a static libesframe links the modules' code in and this is not asked).
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&moduleDirectory), &info) == 0 || !info.dli_fname) return ".";
  std::string self = info.dli_fname;
  // For the executable, dladdr names it as it was started: without a folder when the shell found
  // it on PATH (`esframe info`). /proc/self/exe names its file.
  std::error_code error;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", error);
  const bool is_exe = !error && (self.find('/') == std::string::npos ||
                                 std::filesystem::equivalent(self, exe, error));
  if (is_exe) self = exe.string();
  const size_t slash = self.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : self.substr(0, slash);
  // Installed, the modules lie in libdir's private folder ESF_MODULE_SUBDIR; an installed
  // executable lies in bindir (ESF_MODULE_DIR_FROM_BINDIR: "../lib", CMake's GNUInstallDirs),
  // libdir known by the runtime library (ESF_LIBRARY_SONAME; libesframe.so comes only with the
  // -dev package). In the build tree, and in a copy of it, the modules lie beside libesframe.so
  // and the executables.
  std::string lib_dir = dir;
  if (is_exe) {
    const std::string installed = dir + "/" + ESF_MODULE_DIR_FROM_BINDIR;
    if (std::filesystem::exists(installed + "/" ESF_LIBRARY_SONAME, error)) lib_dir = installed;
  }
  const std::string private_dir = lib_dir + "/" ESF_MODULE_SUBDIR;
  if (std::filesystem::is_directory(private_dir, error)) return private_dir;
  return lib_dir;
}

Result<SharedModule> SharedModule::open(const std::string& file_name, ErrorCode code_if_missing) {
  std::string path = moduleDirectory() + "/" + file_name;
  // RTLD_NODELETE: a module's libraries (libcamera) start threads and register atexit handlers
  // that may outlive the handle; its code stays mapped until the process ends.
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (!handle) {
    // dlerror() usually starts with the path itself: said once.
    const char* error = dlerror();
    std::string why = error ? error : "dlopen failed";
    if (why.starts_with(path + ": ")) why.erase(0, path.size() + 2);
    return fail(code_if_missing, "cannot load ", path, ": ", why);
  }
  return SharedModule(handle, std::move(path), code_if_missing);
}

SharedModule::SharedModule(SharedModule&& other) noexcept
    : handle_(std::exchange(other.handle_, nullptr)),
      path_(std::move(other.path_)),
      code_(other.code_) {}

SharedModule& SharedModule::operator=(SharedModule&& other) noexcept {
  if (this != &other) {
    if (handle_) dlclose(handle_);
    handle_ = std::exchange(other.handle_, nullptr);
    path_ = std::move(other.path_);
    code_ = other.code_;
  }
  return *this;
}

SharedModule::~SharedModule() {
  if (handle_) dlclose(handle_);
}

Result<void*> SharedModule::symbol(const char* name) const {
  dlerror();  // clear a stale error: a symbol's address may legitimately be null
  void* address = dlsym(handle_, name);
  if (const char* why = dlerror()) return fail(code_, "cannot load ", path_, ": ", why);
  if (!address) return fail(code_, "cannot load ", path_, ": ", name, " is null");
  return address;
}

Result<const void*> loadModuleEntry(const std::string& file_name, const char* entry,
                                    const void* host, ErrorCode code_if_missing) {
  auto module = SharedModule::open(file_name, code_if_missing);
  if (!module) return module.error();
  auto address = module->symbol(entry);
  if (!address) return address.error();
  const void* table = reinterpret_cast<const void* (*)(const void*)>(*address)(host);
  if (!table) return fail(code_if_missing, "cannot load ", module->path(), ": ", entry, " failed");
  static std::mutex mutex;
  static std::vector<SharedModule> loaded;  // closed at exit (RTLD_NODELETE: still mapped)
  std::lock_guard lock(mutex);
  loaded.push_back(std::move(module.value()));
  return table;
}

Status moduleNotBuilt(std::string_view feature, std::string_view packages,
                      std::string_view option) {
  return fail(ErrorCode::kUnsupported, feature, " support not built (install ", packages,
              " and configure with -D", option, "=ON)");
}

}  // namespace esf
