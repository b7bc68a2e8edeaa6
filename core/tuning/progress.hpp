#pragma once
// A one-line progress display on stderr ("[ 12/48] histogram: persistent buffer wg=64 ..."),
// redrawn in place when stderr is a terminal and silent otherwise (logs and pipes stay clean).
#include <string>

namespace esf {

class Progress {
 public:
  Progress(std::string title, int total);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  void setTotal(int total) { total_ = total; }
  void addToTotal(int more) { total_ += more; }
  // Announces the next step.
  void step(const std::string& what);
  // Clears the line.
  void done();
  static bool enabled();  // stderr is a TTY

 private:
  std::string title_;
  int total_ = 0;
  int current_ = 0;
  bool active_ = false;
};

}  // namespace esf
