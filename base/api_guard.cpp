#include "base/api_guard.hpp"

#include <exception>
#include <new>

namespace esf {

Error errorFromCurrentException(std::string_view operation) noexcept {
  try {
    try {
      throw;
    } catch (const std::bad_alloc&) {
      return fail(ErrorCode::kOutOfMemory, operation, ": out of memory");
    } catch (const std::exception& e) {
      return fail(ErrorCode::kInternal, operation, ": unexpected exception: ", e.what());
    } catch (...) {
      return fail(ErrorCode::kInternal, operation, ": unexpected exception of an unknown type");
    }
  } catch (...) {
    // The message itself could not be built: an empty string never allocates.
    return Error{ErrorCode::kOutOfMemory, std::string()};
  }
}

Status GuardedSink::write(const FrameResult& frame) {
  return guard(name_, [&] { return inner_->write(frame); });
}

Status GuardedSink::annotate(FrameResult& frame) {
  return guard(name_, [&] { return inner_->annotate(frame); });
}

Status GuardedSink::writeEvents(const std::vector<HealthEvent>& events) {
  return guard(name_, [&] { return inner_->writeEvents(events); });
}

Status GuardedSink::finish() {
  return guard(name_, [&] { return inner_->finish(); });
}

Result<std::unique_ptr<FrameSink>> guardedSink(Result<std::unique_ptr<FrameSink>> sink,
                                               std::string name) {
  if (!sink) return sink;
  return guard(name, [&]() -> Result<std::unique_ptr<FrameSink>> {
    return std::unique_ptr<FrameSink>(std::make_unique<GuardedSink>(std::move(sink.value()), name));
  });
}

Result<std::optional<Frame>> GuardedSource::next() {
  return guard(operation_, [&] { return inner().next(); });
}

}  // namespace esf
