#pragma once
// The text options of `esframe run` and their parsers into the library's typed configuration.
// Every parser returns a one-line error that names the option; run turns it into exit 2.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "esframe/pipeline_config.hpp"

namespace esf::cli {

struct RunOptions {
  std::string source = "pattern";
  std::string size;    // WxH, "" for the source's own
  std::string format;  // V4L2 name, "" for the source's own
  double fps = 0;
  long long frames = -1;  // -1: until the stream ends or a signal
  std::string histogram = "bins=256,channels=rgbl,strategy=auto";
  std::string blur;    // TAPS[:ITERATIONS], "" for none
  std::string resize;  // WxH, "" for none
  std::string backend = "auto";
  int threads = 0;                   // --threads: the CPU executor's, 0 = one per core
  std::vector<std::string> outputs;  // empty: jsonl
  bool output_required = false;      // an MQTT broker that cannot be reached fails the run
  std::string luma = "rgb";          // rgb | source
  std::string dump_raw;
  std::string io = "auto";
  std::vector<std::string> ctrls;
  std::optional<std::string> auto_exposure;  // --auto-exposure[=KEY=VALUE,...]
  std::optional<std::string> health;         // --health[=KEY=VALUE,...]
  bool signalstats = false;           // --signalstats: ffmpeg signalstats' chroma figures (YUV)
  std::optional<std::string> scopes;  // --scopes waveform,parade,vectorscope[,columns=N]
  bool overwrite = false;             // png and dump-raw files may replace files already there
  double timeout_s = 2;               // a camera that delivers no frame for this long is an error
  bool timeout_given = false;         // a network source then gives up after it too
  std::string transport = "auto";     // --transport: RTSP over tcp, udp or auto
  std::string credentials;            // --credentials FILE: USER:PASSWORD for a network source
  bool reconnect = false;             // a V4L2 camera lost is an outage, not the end
  std::string raw;                    // --raw black=N,white=N,wb=R,B ("" for the defaults)
  bool no_selftest = false;  // --backend auto trusts a GPU never checked (GpuConfig::selftest)

  // ffmpeg's signalstats stat= flags and detectors (docs/output-formats.md).
  std::string signalstats_stat;  // --signalstats-stat tout+vrep
  std::string detect;            // --detect crop[,KEY=VALUE...],blur[,...],block[,...]
};

// "bins=N,channels=rgbl,strategy=NAME|auto" into `config` (keys not given keep their values).
Status parseHistogramOption(const std::string& text, HistogramConfig& config);
// "TAPS[:ITERATIONS]"; taps must be odd (an even filter shifts the picture by half a pixel).
Result<BlurConfig> parseBlurOption(const std::string& text);
Result<Size> parseResizeOption(const std::string& text);
// --source's spec where the spec alone shows it cannot work: "libcamera" in a build without
// libcamera support, "libcamera:" without a camera id.
Status checkSourceSpec(const std::string& spec);

// "waveform,parade,vectorscope[,columns=N]" (at least one scope, each once) into `scopes`.
Status parseScopesOption(const std::string& text, ScopeOptions& scopes);

// "black=N,white=N,wb=R,B" (any subset, integers; gains in 1/256: 256 = 1.0) into `config`.
Status parseRawOption(const std::string& text, RawConfig& config);

// --signalstats-stat's "tout+vrep" (ffmpeg's stat= flags, '+' or ','; brng is always counted)
// into `config`, which then has signalstats on.
Status parseSignalstatsStat(const std::string& text, PipelineConfig& config);

}  // namespace esf::cli
