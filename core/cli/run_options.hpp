#pragma once
// The options of `esframe run` and their parsers. Every parser returns a one-line error that
// names the option; run turns it into exit 2 (bad command line).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "esframe/base/result.hpp"

namespace esf::cli {

struct HistogramSpec {
  int bins = 256;
  std::string channels = "rgbl";
  std::string strategy = "auto";  // auto | single | global-atomic | chunk-sum | chunk-reduce |
                                  // persistent
};

struct BlurSpec {
  int taps = 0;  // odd filterDim
  int iterations = 1;
};

struct RunOptions {
  std::string source = "pattern";
  std::string size;    // WxH, "" for the source's own
  std::string format;  // V4L2 name, "" for the source's own
  double fps = 0;
  long long frames = -1;  // -1: until the stream ends or a signal
  std::optional<BlurSpec> blur;
  std::optional<std::pair<int, int>> resize;
  HistogramSpec histogram;
  std::string backend = "gles";
  std::vector<std::string> outputs;  // empty: jsonl
  std::string luma = "rgb";          // rgb | source
  std::string dump_raw;
  std::string io = "auto";
  std::vector<std::string> ctrls;
};

Result<HistogramSpec> parseHistogramSpec(const std::string& text);
// Taps must be odd (an even filter shifts the picture by half a pixel per pass).
Result<BlurSpec> parseBlurSpec(const std::string& text);
Result<std::pair<int, int>> parseResizeSpec(const std::string& text);

}  // namespace esf::cli
