#pragma once
// Errors cross library boundaries as values, never as exceptions (the libcamera rule).
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace esf {

// A one-line, user-facing message that names the thing that failed.
struct Error {
  std::string message;
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }

  const Error& error() const { return std::get<1>(v_); }

 private:
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
  const Error& error() const { return *error_; }

 private:
  std::optional<Error> error_;
};

// Builds an Error from pieces: fail("cannot open ", path, ": ", strerror(errno)).
template <typename... Parts>
Error fail(Parts&&... parts) {
  std::string s;
  (s.append(std::string_view(parts)), ...);
  return Error{std::move(s)};
}

}  // namespace esf
