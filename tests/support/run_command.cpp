#include "tests/support/run_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include <nlohmann/json.hpp>

namespace esf::test {
namespace {

CommandResult run(const std::vector<std::string>& argv, const std::string& input, int timeout_s) {
  int in[2], out[2], err[2];
  if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC)) return {};
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(err[1], 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(err[1]);
  // Write stdin in one go (tests pass small inputs), then close it.
  signal(SIGPIPE, SIG_IGN);
  if (!input.empty()) [[maybe_unused]]
    auto n = write(in[1], input.data(), input.size());
  close(in[1]);
  CommandResult r;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
  pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  std::string* sinks[2] = {&r.out, &r.err};
  int open_fds = 2;
  bool killed = false;
  while (open_fds > 0) {
    int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(
                       deadline - std::chrono::steady_clock::now())
                       .count());
    if (left <= 0 && !killed) {
      kill(pid, SIGKILL);
      killed = true;
    }
    if (poll(fds, 2, std::max(left, 100)) < 0) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP))) continue;
      char buf[65536];
      ssize_t k = read(fds[i].fd, buf, sizeof buf);
      if (k > 0) {
        sinks[i]->append(buf, size_t(k));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  r.peak_rss_kb = usage.ru_maxrss;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

}  // namespace

std::string esframeBinary() {
  const char* bin = std::getenv("ESFRAME_BIN");
  return bin ? bin : ESFRAME_BIN_DEFAULT;
}

CommandResult runEsframe(const std::vector<std::string>& args, const std::string& stdin_text,
                         int timeout_s) {
  std::vector<std::string> argv{esframeBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return run(argv, stdin_text, timeout_s);
}

CommandResult runShell(const std::string& command_line, int timeout_s) {
  return run({"/bin/sh", "-c", command_line}, "", timeout_s);
}

int lineCount(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  if (!text.empty() && text.back() != '\n') ++n;
  return n;
}

std::string withoutTimings(const std::string& jsonl) {
  std::string out;
  std::istringstream in(jsonl);
  for (std::string line; std::getline(in, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    j.erase("timing_ms");
    j.erase("timing_clock");
    out += j.dump() + "\n";
  }
  return out;
}

}  // namespace esf::test
