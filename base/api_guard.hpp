#pragma once
// The edge of libesframe's public API: no exception leaves it (errors cross as values,
// esframe/base/result.hpp). Each public entry point that allocates, or calls code that may throw
// (the standard library, an application's own source or sink), runs its body through guard():
// std::bad_alloc becomes ErrorCode::kOutOfMemory naming the operation, any other exception
// ErrorCode::kInternal with its what(). Sources and sinks the API hands out are wrapped in
// GuardedSource / GuardedSink, so their virtual calls hold the same promise.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/forwarding_source.hpp"
#include "esframe/base/result.hpp"
#include "esframe/sink.hpp"
#include "esframe/source.hpp"

namespace esf {

// The Error the exception in flight stands for: call it only inside a catch block. Never throws:
// when even the message cannot be built (memory is that short) the Error has the code alone.
Error errorFromCurrentException(std::string_view operation) noexcept;

// fn() (returning a Result<T> or a Status), or the Error an exception out of it stands for.
template <typename Fn>
auto guard(std::string_view operation, Fn&& fn) noexcept -> decltype(std::forward<Fn>(fn)()) {
  try {
    return std::forward<Fn>(fn)();
  } catch (...) {
    return errorFromCurrentException(operation);
  }
}

// A sink whose calls are guarded: what the sink factories of the API return.
class GuardedSink final : public FrameSink {
 public:
  GuardedSink(std::unique_ptr<FrameSink> inner, std::string name)
      : inner_(std::move(inner)), name_(std::move(name)) {}
  Status write(const FrameResult& frame) override;
  Status annotate(FrameResult& frame) override;
  Status writeEvents(const std::vector<HealthEvent>& events) override;
  Status finish() override;

 private:
  std::unique_ptr<FrameSink> inner_;
  std::string name_;  // "PNG sink": the operation an exception's Error names
};

// The sink a factory made, wrapped; an error stays the error.
Result<std::unique_ptr<FrameSink>> guardedSink(Result<std::unique_ptr<FrameSink>> sink,
                                               std::string name);

// A source whose next() is guarded: what Pipeline::openSource returns.
class GuardedSource final : public ForwardingSource {
 public:
  explicit GuardedSource(std::unique_ptr<FrameSource> inner)
      : ForwardingSource(std::move(inner)), operation_("frame source " + name()) {}
  Result<std::optional<Frame>> next() override;

 private:
  std::string operation_;  // "frame source pattern": what an exception's Error names
};

}  // namespace esf
