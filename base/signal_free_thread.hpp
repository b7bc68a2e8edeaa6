#pragma once
// A worker thread that no signal reaches: it is started with every signal blocked (a thread
// inherits the mask it is created with), so that SIGINT and SIGTERM go to the thread that waits
// on the camera, the GPU or the frames, and end that wait. The caller's mask is restored on every
// way out, also when the thread cannot be started (std::system_error, as std::thread throws).
#include <pthread.h>
#include <signal.h>

#include <thread>
#include <utility>

namespace esf {

template <class Function>
std::thread startSignalFreeThread(Function&& function) {
  sigset_t all, previous;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &previous);
  struct Restore {
    const sigset_t& mask;
    ~Restore() { pthread_sigmask(SIG_SETMASK, &mask, nullptr); }
  } restore{previous};
  return std::thread(std::forward<Function>(function));
}

}  // namespace esf
