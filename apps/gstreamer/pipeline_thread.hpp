#pragma once
// One thread that owns the element's esf::Pipeline: its GL context is made current there and
// nowhere else, whichever GStreamer thread streams, renegotiates or stops the element (a context
// current on the streaming thread could not be destroyed from the application's thread).
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace esf::gst {

class PipelineThread {
 public:
  PipelineThread();
  ~PipelineThread();
  PipelineThread(const PipelineThread&) = delete;
  PipelineThread& operator=(const PipelineThread&) = delete;

  // Runs `job` on the thread and returns when it is done (one job at a time).
  void run(const std::function<void()>& job);

 private:
  void loop();

  std::mutex mutex_;
  std::condition_variable wake_;
  const std::function<void()>* job_ = nullptr;
  bool done_ = false;
  bool quit_ = false;
  std::mutex run_mutex_;  // serialises callers
  std::thread thread_;    // last: starts after the members above exist
};

}  // namespace esf::gst
