#include "platform/gpu_timer.hpp"

#include <EGL/egl.h>
#include <GLES2/gl2ext.h>

#include <chrono>
#include <utility>

#include "platform/gl_fence.hpp"

namespace esf {
namespace {

double nowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// glFinish with the watchdog: a hung GPU becomes kGpuHang after kGpuWatchdog instead of a
// process blocked forever. Only the first failure is kept (and waited for): once the GPU is
// known to hang, the frame's read-back reports it too, without another wait per stage.
void finishGpu(const char* what, Status& first_failure) {
  if (!first_failure) return;
  first_failure = GlFence::insert(what).wait(kGpuWatchdog);
}

}  // namespace

// GL_EXT_disjoint_timer_query's 64-bit getter is not in core GLES 3.1: it comes from the
// display's proc table.
GpuTimer::GpuTimer(const GlContext& gl)
    : query_result64_(gl.display().procs().getQueryObjectui64v) {
  // llvmpipe (Mesa 22.3) lists the extension, but GL_TIME_ELAPSED around compute dispatches
  // reads 0 ns: its "GPU" is the CPU, so the wall time after glFinish is the real measure.
  if (gl.hasTimerQuery() && !gl.isLlvmpipe() && query_result64_) query_ = makeQuery();
}

void GpuTimer::begin() {
  if (query_) {
    GLint disjoint = 0;
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);  // reading clears the flag
    glBeginQuery(GL_TIME_ELAPSED_EXT, query_.get());
    return;
  }
  finishGpu("the GPU work before a timed span", wait_status_);
  wall_start_s_ = nowSeconds();
}

void GpuTimer::end() {
  if (query_) {
    glEndQuery(GL_TIME_ELAPSED_EXT);
    return;
  }
  finishGpu("the timed GPU work", wait_status_);
  wall_end_s_ = nowSeconds();
}

Result<double> GpuTimer::elapsedMs() {
  if (Status waited = std::exchange(wait_status_, Status::success()); !waited)
    return waited.error();
  if (!query_) return (wall_end_s_ - wall_start_s_) * 1e3;
  // GL_QUERY_RESULT would wait for the GPU without a limit: the fence bounds the wait.
  if (Status done = GlFence::insert("the timed GPU work").wait(kGpuWatchdog); !done)
    return done.error();
  GLuint64 ns = 0;
  query_result64_(query_.get(), GL_QUERY_RESULT, &ns);
  GLint disjoint = 0;
  glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
  if (disjoint)
    return fail(ErrorCode::kTryAgain,
                "GPU timer: disjoint event during the measurement (measure again)");
  if (Status s = checkGl("GPU timer query"); !s) return s.error();
  return double(ns) / 1e6;
}

Result<double> timeGpuMs(GpuTimer& timer, const std::function<Status()>& work) {
  timer.begin();
  Status s = work();
  timer.end();
  if (!s) return s.error();
  return timer.elapsedMs();
}

FrameTimer::FrameTimer(const GlContext& gl) {
  // The same rule as GpuTimer: llvmpipe's elapsed-time queries read 0 around compute.
  if (gl.hasTimerQuery() && !gl.isLlvmpipe())
    query_result64_ = gl.display().procs().getQueryObjectui64v;
}

void FrameTimer::startFrame() {
  spans_.clear();
  wait_status_ = Status::success();
  if (query_result64_) {
    GLint disjoint = 0;
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);  // reading clears the flag
  }
}

void FrameTimer::begin(const char* stage) {
  spans_.push_back({stage, 0});
  if (query_result64_) {
    if (queries_.size() < spans_.size()) queries_.push_back(makeQuery());
    glBeginQuery(GL_TIME_ELAPSED_EXT, queries_[spans_.size() - 1].get());
    return;
  }
  finishGpu("the GPU work before a timed stage", wait_status_);
  wall_start_s_ = nowSeconds();
}

void FrameTimer::end() {
  if (query_result64_) {
    glEndQuery(GL_TIME_ELAPSED_EXT);
    return;
  }
  finishGpu(spans_.back().stage, wait_status_);
  spans_.back().ms = (nowSeconds() - wall_start_s_) * 1e3;
}

Result<std::vector<FrameTimer::Span>> FrameTimer::collect() {
  if (!wait_status_) return wait_status_.error();
  if (query_result64_) {
    for (size_t i = 0; i < spans_.size(); ++i) {
      GLuint64 ns = 0;
      query_result64_(queries_[i].get(), GL_QUERY_RESULT, &ns);  // done already: no wait
      spans_[i].ms = double(ns) / 1e6;
    }
    GLint disjoint = 0;
    glGetIntegerv(GL_GPU_DISJOINT_EXT, &disjoint);
    if (disjoint)
      return fail(ErrorCode::kTryAgain, "GPU timer: disjoint event during the frame's stages");
    if (Status s = checkGl("GPU timer queries"); !s) return s.error();
  }
  return spans_;
}

}  // namespace esf
