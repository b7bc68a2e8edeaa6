#pragma once
// esframe.Error: esframe's errors as one Python exception class carrying the error code's stable
// name (.code: "invalid-argument", "not-found", ...) and the library's one-line message.
#include <pybind11/pybind11.h>

#include <exception>
#include <string>
#include <utility>

#include "esframe/base/result.hpp"

namespace esf::python {

// Thrown inside the bindings and translated to esframe.Error at the Python boundary.
class ErrorException : public std::exception {
 public:
  explicit ErrorException(Error error) : error_(std::move(error)) {}
  const Error& error() const { return error_; }
  const char* what() const noexcept override { return error_.message.c_str(); }

 private:
  Error error_;
};

template <typename... Parts>
[[noreturn]] void raise(ErrorCode code, Parts&&... parts) {
  throw ErrorException(fail(code, std::forward<Parts>(parts)...));
}

template <typename T>
T unwrap(Result<T>&& result) {
  if (!result) throw ErrorException(result.error());
  return std::move(result).value();
}

inline void check(const Status& status) {
  if (!status) throw ErrorException(status.error());
}

// Creates esframe.Error in `module` and the translator that raises it.
void registerErrors(pybind11::module_& module);

}  // namespace esf::python
