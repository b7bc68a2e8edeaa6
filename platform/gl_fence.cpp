#include "platform/gl_fence.hpp"

#include <algorithm>
#include <utility>

#include "platform/code_names.hpp"
#include "platform/egl_procs.hpp"

namespace esf {
namespace {

// Long enough that waiting costs nothing, short enough that a reset is noticed promptly.
constexpr std::chrono::milliseconds kSlice{100};

const char* resetStatusName(GLenum status) {
  static constexpr CodeName kStatuses[] = {
      {GL_GUILTY_CONTEXT_RESET_EXT, "a GPU reset caused by this context"},
      {GL_INNOCENT_CONTEXT_RESET_EXT, "a GPU reset caused by another context"}};
  return codeName(status, kStatuses, "a GPU reset");
}

}  // namespace

Status checkGpuReset(const std::string& what) {
  if (auto reset_status = eglClientProcs().getGraphicsResetStatus) {
    GLenum status = reset_status();
    if (status != GL_NO_ERROR)
      return fail(ErrorCode::kGpuLost, "GPU context lost while waiting for ", what, " (",
                  resetStatusName(status), ")");
  }
  return {};
}

Status waitWithWatchdog(const std::function<FencePoll(std::chrono::milliseconds)>& poll,
                        std::chrono::milliseconds timeout, const std::string& what) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline = Clock::now() + timeout;
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    FencePoll state = poll(std::clamp(left, std::chrono::milliseconds(0), kSlice));
    if (state == FencePoll::kSignaled) return {};
    if (state == FencePoll::kLost)
      return fail(ErrorCode::kGpuLost, "GPU context lost while waiting for ", what);
    if (left.count() <= 0)
      return fail(ErrorCode::kGpuHang, "GPU did not finish ", what, " within ",
                  std::to_string(timeout.count()), " ms (a GPU hang)");
  }
}

GlFence GlFence::insert(std::string what) {
  GlFence f;
  f.what_ = std::move(what);
  f.sync_ = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  f.insert_failed_ = f.sync_ == nullptr;
  return f;
}

GlFence::GlFence(GlFence&& o) noexcept
    : sync_(std::exchange(o.sync_, nullptr)),
      insert_failed_(std::exchange(o.insert_failed_, false)),
      what_(std::move(o.what_)) {}

GlFence& GlFence::operator=(GlFence&& o) noexcept {
  if (this != &o) {
    reset();
    sync_ = std::exchange(o.sync_, nullptr);
    insert_failed_ = std::exchange(o.insert_failed_, false);
    what_ = std::move(o.what_);
  }
  return *this;
}

void GlFence::reset() {
  if (sync_) glDeleteSync(sync_);
  sync_ = nullptr;
  insert_failed_ = false;
}

Status GlFence::wait(std::chrono::milliseconds timeout) const {
  if (insert_failed_) {
    if (Status lost = checkGpuReset(what_); !lost) return lost;
    return fail(ErrorCode::kGpu, "glFenceSync failed for ", what_);
  }
  if (!sync_) return {};
  Status waited = waitWithWatchdog(
      [this](std::chrono::milliseconds slice) {
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(slice).count();
        GLenum r = glClientWaitSync(sync_, GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(ns));
        if (r == GL_ALREADY_SIGNALED || r == GL_CONDITION_SATISFIED) return FencePoll::kSignaled;
        if (r == GL_WAIT_FAILED) return FencePoll::kLost;
        return FencePoll::kPending;
      },
      timeout, what_);
  // A robust context answers waits at once after a reset ("signalled"): the reset status says.
  if (Status lost = checkGpuReset(what_); !lost) return lost;
  return waited;
}

bool GlFence::signaled() const {
  if (!sync_) return true;
  GLint value = GL_UNSIGNALED;
  glGetSynciv(sync_, GL_SYNC_STATUS, 1, nullptr, &value);
  return value == GL_SIGNALED;
}

}  // namespace esf
