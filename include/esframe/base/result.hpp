#pragma once
// Errors cross library boundaries as values, never as exceptions (the libcamera rule). Every
// Error carries a code that callers branch on, and a one-line message for people that names the
// thing that failed (a device, a file, a stage, a parameter), never a command-line flag: only the
// CLI speaks of flags. Callers never match message text.
#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "esframe/base/export.hpp"

namespace esf {

// What kind of failure, for callers to act on (the CLI maps these to its exit codes).
enum class ErrorCode {
  kInvalidArgument,  // a parameter out of range or malformed (a size, a bin count, a spec)
  kUnsupported,      // well-formed, but this build, device or driver cannot do it
  kNotFound,         // a file, device, camera, control, connector or plane that is not there
  kBusy,             // held by someone else (a DRM master, a camera already streaming)
  kPermission,       // the OS refused access (EACCES, EPERM)
  kCorruptData,      // input whose bytes do not parse (an image, a Y4M header, a frame)
  kTruncated,        // input that ended inside a frame (a cut pipe or file); whole frames before it
                     // were delivered
  kIo,               // reading or writing a file, pipe or device failed
  kDeviceLost,       // a device that vanished while in use (unplug, ENODEV)
  kTimeout,          // a device or peer that stopped answering
  kTryAgain,         // transient (EAGAIN, a disjoint GPU timer): the same call may succeed
  kGpu,              // EGL/GL/GBM failed or refused
  kGpuHang,          // the GPU did not finish work within its watchdog time
  kGpuLost,          // the GL context was lost (a GPU reset): nothing more can run on it
  kOutputClosed,     // the reader of an output went away (a closed stdout): not a failure
  kInternal,         // a broken invariant inside esframe (an exception caught at the API)
  kOutOfMemory,      // an allocation failed (std::bad_alloc caught at the API); last: the values
                     // before it are part of the ABI
};
// "invalid-argument", "unsupported", ...: stable names for logs and tests.
ESF_API const char* errorCodeName(ErrorCode code);

// A failure: its kind, and a one-line, user-facing message that names the thing that failed.
struct Error {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

// A value or an Error. value() (and ->, *) on an error, and error() on a value, break a
// precondition: callers check ok() first. They assert it, and never throw (std::get would throw
// std::bad_variant_access across the API, which promises no exceptions).
template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return *valuePtr(); }
  const T& value() const& { return *valuePtr(); }
  T&& value() && { return std::move(*valuePtr()); }
  T* operator->() { return valuePtr(); }
  const T* operator->() const { return valuePtr(); }
  T& operator*() & { return value(); }

  const Error& error() const {
    const Error* e = std::get_if<1>(&v_);
    assert(e && "Result::error() on a value");
    return *e;
  }

 private:
  T* valuePtr() {
    T* v = std::get_if<0>(&v_);
    assert(v && "Result::value() on an error");
    return v;
  }
  const T* valuePtr() const {
    const T* v = std::get_if<0>(&v_);
    assert(v && "Result::value() on an error");
    return v;
  }
  std::variant<T, Error> v_;
};

// Result<void>: success or an Error.
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Error error) : error_(std::move(error)) {}
  static Status success() { return {}; }

  bool ok() const { return !error_.has_value(); }
  explicit operator bool() const { return ok(); }
  // A precondition, as for Result: only on a failure (asserted, never thrown).
  const Error& error() const {
    assert(error_.has_value() && "Status::error() on success");
    return *error_;
  }

 private:
  std::optional<Error> error_;
};

// Builds an Error from pieces: fail(ErrorCode::kIo, "cannot open ", path, ": ", strerror(errno)).
template <typename... Parts>
Error fail(ErrorCode code, Parts&&... parts) {
  std::string s;
  (s.append(std::string_view(parts)), ...);
  return Error{code, std::move(s)};
}

// The same message under another code (a lower layer's error seen from above).
inline Error recode(Error error, ErrorCode code) {
  error.code = code;
  return error;
}

// The code that fits an errno from a failed open/ioctl/read/write.
ESF_API ErrorCode errorCodeFromErrno(int err);

}  // namespace esf
