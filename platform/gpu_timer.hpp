#pragma once
// GPU time of a piece of work: GL_EXT_disjoint_timer_query (GL_TIME_ELAPSED_EXT) where the
// context has it, else a wait for the GPU before and after (a fence with the kGpuWatchdog
// limit, platform/gl_fence.hpp: glFinish's effect without its unbounded wait) and the wall
// time between (an upper bound that includes driver overhead). llvmpipe always takes the second
// way: it lists the extension, but its elapsed-time queries read 0 around compute dispatches. Used
// by `esframe run` for per-stage timings and by bench/.
#include <functional>
#include <vector>

#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

class GpuTimer {
 public:
  explicit GpuTimer(const GlContext& gl);
  GpuTimer(const GpuTimer&) = delete;
  GpuTimer& operator=(const GpuTimer&) = delete;

  bool usesTimerQuery() const { return bool(query_); }
  // Brackets the GL commands to time. Only one begin/end pair at a time.
  void begin();
  void end();
  // Milliseconds between begin() and end(); waits for the GPU. Fails when the timer query
  // reports a disjoint event (the measurement is invalid; measure again), and with kGpuHang or
  // kGpuLost when a wait for the GPU in begin(), end() or here failed.
  Result<double> elapsedMs();

 private:
  PFNGLGETQUERYOBJECTUI64VEXTPROC query_result64_ = nullptr;
  GlQuery query_;  // empty without the extension
  double wall_start_s_ = 0, wall_end_s_ = 0;
  Status wait_status_;  // the first failed wait for the GPU since the last elapsedMs()
};

// Runs `work` between begin() and end() and returns its GPU time in ms, or work's error.
Result<double> timeGpuMs(GpuTimer& timer, const std::function<Status()>& work);

// The GPU time of each stage of one frame. With timer queries every stage gets its own query
// and nothing waits until collect(), which the frame calls once after its read-back (the GPU
// is done by then): one CPU-GPU round trip per frame instead of one per stage. Without them it
// falls back to GpuTimer's wait-bracketed wall clock per stage.
class FrameTimer {
 public:
  struct Span {
    const char* stage = "";
    double ms = 0;
  };

  explicit FrameTimer(const GlContext& gl);
  FrameTimer(const FrameTimer&) = delete;
  FrameTimer& operator=(const FrameTimer&) = delete;

  bool usesTimerQuery() const { return query_result64_ != nullptr; }
  // Starts a frame: forgets the previous one's stages.
  void startFrame();
  // Brackets one stage; `stage` must outlive collect() (a string literal).
  void begin(const char* stage);
  void end();
  // The stages in order. Fails with kTryAgain on a disjoint event (the times are invalid), and
  // with kGpuHang or kGpuLost when a wait for the GPU between stages failed.
  Result<std::vector<Span>> collect();

 private:
  PFNGLGETQUERYOBJECTUI64VEXTPROC query_result64_ = nullptr;  // null: wall clock
  std::vector<GlQuery> queries_;  // grows to the most stages a frame has had
  std::vector<Span> spans_;
  double wall_start_s_ = 0;
  Status wait_status_;  // the first failed wait for the GPU in this frame
};

}  // namespace esf
