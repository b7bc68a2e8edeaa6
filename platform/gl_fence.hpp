#pragma once
// The owner of one GL fence (glFenceSync/glDeleteSync), and a watchdog wait on it: a GPU that
// hangs (v3d hangs on long dispatches are real) or a context that is lost turns into an Error
// after a stated time instead of a process that blocks forever.
#include <GLES3/gl31.h>

#include <chrono>
#include <functional>
#include <string>

#include "esframe/base/result.hpp"

namespace esf {

// How long esframe waits for GPU work of one frame before calling it a hang: far above any
// frame's work on a Raspberry Pi v3d, far below a watchdog's patience.
constexpr std::chrono::milliseconds kGpuWatchdog{5000};

class GlFence {
 public:
  GlFence() = default;  // no fence: wait() and signaled() see it done
  // Fences the GL commands issued so far on the current context. `what` names the work the
  // fence waits for in error messages ("histogram read-back of frame 12").
  static GlFence insert(std::string what);
  ~GlFence() { reset(); }
  GlFence(GlFence&& o) noexcept;
  GlFence& operator=(GlFence&& o) noexcept;
  GlFence(const GlFence&) = delete;
  GlFence& operator=(const GlFence&) = delete;

  // Waits until the GPU has passed the fence. Errors: kGpuHang when it has not after `timeout`,
  // kGpuLost when the context was lost or the GPU reset, kGpu when no fence could be made.
  Status wait(std::chrono::milliseconds timeout) const;
  // Whether the GPU has passed the fence, without blocking (a lost context counts as passed:
  // the next wait() reports it).
  bool signaled() const;
  void reset();

 private:
  GLsync sync_ = nullptr;
  bool insert_failed_ = false;
  std::string what_;
};

// The watchdog behind GlFence::wait, apart from GL so that a unit test can drive a fence that
// never signals: `poll(slice)` waits at most `slice` and says where the fence is.
enum class FencePoll { kSignaled, kPending, kLost };
Status waitWithWatchdog(const std::function<FencePoll(std::chrono::milliseconds slice)>& poll,
                        std::chrono::milliseconds timeout, const std::string& what);

// Whether the current context was lost or its GPU reset (the KHR/EXT robustness reset status;
// glGetError is left alone so that no caller's error is swallowed): kGpuLost naming `what`.
Status checkGpuReset(const std::string& what);

}  // namespace esf
