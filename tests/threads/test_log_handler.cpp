// setLogHandler while other threads log: every call of a handler gets the user data it was set
// with, never the other handler's (the two change together).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "esframe/base/log.hpp"

namespace esf {
namespace {

struct Tag {
  std::atomic<uint64_t> calls{0}, mismatched{0};
};
Tag g_a, g_b;

void handlerA(LogLevel, std::string_view, void* user_data) {
  g_a.calls.fetch_add(1, std::memory_order_relaxed);
  if (user_data != &g_a) g_a.mismatched.fetch_add(1, std::memory_order_relaxed);
}
void handlerB(LogLevel, std::string_view, void* user_data) {
  g_b.calls.fetch_add(1, std::memory_order_relaxed);
  if (user_data != &g_b) g_b.mismatched.fetch_add(1, std::memory_order_relaxed);
}

TEST(LogHandler, HandlerAndUserDataNeverTear) {
  setLogHandler(handlerA, &g_a);
  std::atomic<bool> stop{false};
  std::vector<std::thread> loggers;
  for (int t = 0; t < 2; ++t)
    loggers.emplace_back([&] {
      while (!stop.load(std::memory_order_relaxed)) logWarning("line");
    });
  // Switches between the two pairs until each has had a fixed number of calls and a second has
  // passed (so the loggers ran alongside the switches, however busy the machine): a reader that
  // loads the handler and the user data apart sees a mixed pair in some of them.
  constexpr uint64_t kCalls = 300000;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (g_a.calls.load(std::memory_order_relaxed) < kCalls ||
         g_b.calls.load(std::memory_order_relaxed) < kCalls ||
         std::chrono::steady_clock::now() < until) {
    setLogHandler(handlerB, &g_b);
    setLogHandler(handlerA, &g_a);
  }
  stop = true;
  for (std::thread& t : loggers) t.join();
  setLogHandler(nullptr);
  EXPECT_EQ(g_a.mismatched.load(), 0u);
  EXPECT_EQ(g_b.mismatched.load(), 0u);
}

}  // namespace
}  // namespace esf
