// Worker threads start with every signal blocked (base/signal_free_thread.hpp), so SIGINT and
// SIGTERM reach the thread that waits on frames: the CPU executor's row pool and the MQTT
// output's worker. A thread's blocked mask is read from the kernel (/proc/self/task/<tid>/status,
// SigBlk), not from the code that set it.
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <thread>

#include "core/cpu/row_pool.hpp"
#include "core/outputs/mqtt_output.hpp"

namespace esf {
namespace {

std::set<int> threadIds() {
  std::set<int> ids;
  DIR* dir = ::opendir("/proc/self/task");
  if (!dir) return ids;
  while (dirent* e = ::readdir(dir))
    if (e->d_name[0] != '.') ids.insert(std::stoi(e->d_name));
  ::closedir(dir);
  return ids;
}

// SigBlk of thread `tid` as the kernel shows it: bit (n - 1) is signal n.
uint64_t blockedMask(int tid) {
  std::ifstream status("/proc/self/task/" + std::to_string(tid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("SigBlk:", 0) == 0) return std::stoull(line.substr(7), nullptr, 16);
  ADD_FAILURE() << "no SigBlk for thread " << tid;
  return 0;
}

// The thread's own mask. glibc creates a thread with every signal blocked, its internal ones
// (32 and 33, which pthread_sigmask never blocks) too, and sets the mask the thread inherits
// only once the thread runs: until then /proc shows that transient mask, which blocks
// everything. Waits (at most 5 s) for the thread to have left it.
uint64_t settledMask(int tid) {
  constexpr uint64_t kGlibcInternal = 3ull << 31;  // signals 32 and 33
  uint64_t mask = blockedMask(tid);
  for (int i = 0; i < 5000 && (mask & kGlibcInternal); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    mask = blockedMask(tid);
  }
  EXPECT_EQ(mask & kGlibcInternal, 0u) << "thread " << tid << " never left glibc's start-up";
  return mask;
}

bool blocks(uint64_t mask, int signal) {
  return (mask >> (signal - 1)) & 1;
}

// The test's own thread blocks nothing, so a worker that merely inherits its mask blocks
// nothing either.
class SignalFreeWorkers : public ::testing::Test {
 protected:
  void SetUp() override {
    // Under qemu-user the kernel sees qemu's threads, not the program's masks: calibrate on
    // this thread first.
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    ASSERT_EQ(pthread_sigmask(SIG_SETMASK, &usr2, &saved_), 0);
    const bool visible = blocks(blockedMask(int(::gettid())), SIGUSR2);
    sigset_t none;
    sigemptyset(&none);
    ASSERT_EQ(pthread_sigmask(SIG_SETMASK, &none, nullptr), 0);
    if (!visible) GTEST_SKIP() << "/proc does not show this thread's blocked signals (qemu-user)";
    // A runtime that starts a helper with the process's first thread (ThreadSanitizer's
    // background thread) does so here, before the count, not among the workers.
    std::thread([] {}).join();
    before_ = threadIds();
  }
  void TearDown() override { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }
  // The threads started since SetUp.
  std::set<int> started() const {
    std::set<int> now = threadIds();
    for (int id : before_) now.erase(id);
    return now;
  }
  void expectSignalFree(const std::set<int>& threads) {
    for (int tid : threads) {
      const uint64_t mask = settledMask(tid);
      for (int signal : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGUSR1})
        EXPECT_TRUE(blocks(mask, signal)) << "thread " << tid << " SigBlk " << std::hex << mask
                                          << " lets signal " << std::dec << signal << " in";
    }
  }
  sigset_t saved_;
  std::set<int> before_;
};

TEST_F(SignalFreeWorkers, RowPoolWorkers) {
  RowPool pool(3);
  ASSERT_TRUE(pool.status().ok()) << pool.status().error().message;
  const std::set<int> workers = started();
  ASSERT_EQ(workers.size(), 2u);  // the caller is the third
  expectSignalFree(workers);
  // The caller's mask is its own again.
  sigset_t mine;
  ASSERT_EQ(pthread_sigmask(SIG_SETMASK, nullptr, &mine), 0);
  EXPECT_FALSE(sigismember(&mine, SIGINT));
}

TEST_F(SignalFreeWorkers, MqttWorker) {
  MqttSinkOptions o;
  o.host = "127.0.0.1";
  o.port = 9;  // discard: nothing listens, the worker keeps trying in the background
  o.topic = "esframe-test";
  Result<std::unique_ptr<FrameSink>> sink = openMqttOutput(o);
  if (!sink && sink.error().code == ErrorCode::kUnsupported) GTEST_SKIP() << sink.error().message;
  ASSERT_TRUE(sink.ok()) << sink.error().message;
  const std::set<int> workers = started();
  ASSERT_GE(workers.size(), 1u);
  expectSignalFree(workers);
}

}  // namespace
}  // namespace esf
