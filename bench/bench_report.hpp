#pragma once
// The bench's result rows: printed as Markdown tables (stdout) and kept as JSON (--out).
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/tuning/measure.hpp"
#include "core/tuning/sweep.hpp"
#include "esframe/base/result.hpp"

namespace esf::bench {

struct BenchRow {
  std::string frame;     // "1920x1080 photo"
  std::string group;     // what is compared within: "histogram", "blur 15", ...
  std::string variant;   // "esframe tuned: persistent buffer ...", "OpenCV calcHist ..."
  bool esframe = false;  // an esframe row (ratios are esframe / each peer in the group)
  TimingStats t;
  double bytes = 0;       // memory traffic per run, for GB/s
  double pixels = 0;      // pixels per run, for Mpx/s
  double fps_frames = 0;  // >0: an end-to-end row; fps = frames per median
  std::string error;      // set: the row has no time (and says why)
  std::string note;       // e.g. "counts equal esframe's R,G,B"
};

// One row: its time, or the error that took its place.
BenchRow timed(const std::string& label, const std::string& group, const std::string& variant,
               bool esframe, Result<TimingStats> t, double bytes, double pixels);

// Markdown table of rows, with GB/s, Mpx/s and "0.77x OpenCV calcHist" ratios.
std::string rowsTable(const std::vector<BenchRow>& rows);
// Markdown table of one sweep (every point, errors included).
std::string sweepTable(const Sweep& sweep);
nlohmann::json rowsJson(const std::vector<BenchRow>& rows);
nlohmann::json sweepJson(const Sweep& sweep);
Result<Sweep> sweepFromJson(const nlohmann::json& j);  // for --replot
// The esframe row's median over the named peer's median in the same frame and group, or 0.
double ratio(const std::vector<BenchRow>& rows, const std::string& frame, const std::string& group,
             const std::string& esframe_prefix, const std::string& peer_prefix);

}  // namespace esf::bench
