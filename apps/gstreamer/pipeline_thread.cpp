#include "apps/gstreamer/pipeline_thread.hpp"

namespace esf::gst {

PipelineThread::PipelineThread() : thread_([this] { loop(); }) {}

PipelineThread::~PipelineThread() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void PipelineThread::run(const std::function<void()>& job) {
  std::lock_guard caller(run_mutex_);
  std::unique_lock lock(mutex_);
  job_ = &job;
  done_ = false;
  wake_.notify_all();
  wake_.wait(lock, [&] { return done_; });
}

void PipelineThread::loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return job_ != nullptr || quit_; });
    if (!job_) return;  // quit, nothing pending
    const std::function<void()>* job = job_;
    lock.unlock();
    (*job)();
    lock.lock();
    job_ = nullptr;
    done_ = true;
    wake_.notify_all();
  }
}

}  // namespace esf::gst
