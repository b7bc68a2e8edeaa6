// `esframe run`: frames from a source through the stages to the outputs. Logs go to stderr,
// data to stdout. SIGINT/SIGTERM finish the current frame and exit 0; a closed stdout exits 0
// quietly; a vanished camera exits 3 after delivering every frame it produced; input that ends
// inside a frame exits 5 after the whole frames.
#include <signal.h>
#include <time.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "apps/esframe/auto_exposure_option.hpp"
#include "apps/esframe/cli_common.hpp"
#include "apps/esframe/commands.hpp"
#include "apps/esframe/health_option.hpp"
#include "apps/esframe/output_specs.hpp"
#include "apps/esframe/run_options.hpp"
#include "esframe/base/log.hpp"
#include "esframe/pipeline.hpp"
#include "esframe/text_parse.hpp"

namespace esf::cli {
namespace {

StopToken g_stop;
volatile std::sig_atomic_t g_stop_signal = 0;

void onStopSignal(int sig) {
  g_stop_signal = sig;
  g_stop.requestStop();
}

// No SA_RESTART: a blocking poll() in a camera source returns EINTR, so a stop is prompt.
// SIGPIPE is ignored so that a closed stdout shows up as EPIPE on the write.
void installSignalHandlers() {
  struct sigaction sa = {};
  sa.sa_handler = onStopSignal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);
}

[[noreturn]] void usageError(const std::string& message) {
  throw CLI::ValidationError(message);
}

ExitCode exitCodeFor(ErrorCode code) {
  if (code == ErrorCode::kDeviceLost) return kExitDeviceLost;
  if (code == ErrorCode::kGpuHang || code == ErrorCode::kGpuLost) return kExitGpuLost;
  if (code == ErrorCode::kTruncated) return kExitTruncated;
  return kExitFailure;
}

// The library speaks of its own fields; where the way out is a flag, the CLI names the flag.
std::string inCliTerms(std::string message) {
  static constexpr std::pair<std::string_view, std::string_view> kFlags[] = {
      {"io mode mmap", "--io mmap"},
      {"the histogram's channels", "--histogram channels"},
      {"a Bayer pixel format", "a --format"},
      {"set the source's frame rate", "use --fps"},
      {"need a frame size and a pixel format", "need --size and --format"},
  };
  for (const auto& [field, flag] : kFlags)
    for (size_t at = message.find(field); at != std::string::npos;
         at = message.find(field, at + flag.size()))
      message.replace(at, field.size(), flag);
  return message;
}

// A compressed video taken for raw frames: what decodes it, on the same line.
Error withVideoHint(Error error, const std::string& source) {
  static constexpr std::string_view kVideos[] = {".mp4", ".mkv",  ".mov",  ".avi", ".webm",
                                                 ".ts",  ".h264", ".h265", ".hevc"};
  const std::string extension = std::filesystem::path(source).extension().string();
  const bool video = std::any_of(std::begin(kVideos), std::end(kVideos), [&](std::string_view v) {
    return std::equal(v.begin(), v.end(), extension.begin(), extension.end(),
                      [](char a, char b) { return a == std::tolower(uint8_t(b)); });
  });
  if (video && error.message.find("a frame size and a pixel format") != std::string::npos)
    error.message += "; a compressed video goes through ffmpeg: ffmpeg -i " + source +
                     " -f yuv4mpegpipe - | esframe run --source -";
  return error;
}

[[noreturn]] void runtimeError(const Error& error) {
  logError(inCliTerms(error.message));
  throw CLI::RuntimeError(exitCodeFor(error.code));
}

// The library's configuration from the text options. Everything checkable before opening
// anything; errors are usage errors (exit 2).
struct RunPlan {
  PipelineConfig pipeline;
  SourceConfig source;
  std::vector<OutputSpec> outputs;
  std::optional<AutoExposureOptions> auto_exposure;
};

RunPlan plan(const GlobalOptions& global, const RunOptions& o) {
  RunPlan p;
  Result<Backend> backend = parseBackend(o.backend);
  if (!backend) usageError("--backend: " + backend.error().message);
  p.pipeline.backend = backend.value();
  p.pipeline.threads = o.threads;
  Result<GpuConfig> gpu = gpuConfig(global);
  if (!gpu) usageError(gpu.error().message);
  p.pipeline.gpu = gpu.value();
  p.pipeline.gpu.selftest = !o.no_selftest;
  if (Status s = parseHistogramOption(o.histogram, p.pipeline.histogram); !s)
    usageError(s.error().message);
  if (!o.blur.empty()) {
    Result<BlurConfig> b = parseBlurOption(o.blur);
    if (!b) usageError(b.error().message);
    p.pipeline.blur = b.value();
  }
  if (!o.resize.empty()) {
    Result<Size> r = parseResizeOption(o.resize);
    if (!r) usageError(r.error().message);
    p.pipeline.resize = r.value();
  }
  p.pipeline.luma = o.luma == "source" ? LumaSource::kSource : LumaSource::kRgb;
  if (!o.raw.empty()) {
    if (Status s = parseRawOption(o.raw, p.pipeline.raw); !s) usageError(s.error().message);
  }
  if (o.health) {
    Result<HealthConfig> h = parseHealthOption(*o.health);
    if (!h) usageError(h.error().message);
    p.pipeline.health = h.value();
  }
  p.pipeline.signalstats = o.signalstats;
  if (o.scopes) {
    if (Status s = parseScopesOption(*o.scopes, p.pipeline.scopes); !s)
      usageError(s.error().message);
  }
  const std::vector<std::string> specs =
      o.outputs.empty() ? std::vector<std::string>{"jsonl"} : o.outputs;
  int to_stdout = 0;
  std::vector<std::string> written;  // the folders and files of the outputs so far
  for (const std::string& text : specs) {
    Result<OutputSpec> spec = parseOutputSpec(text);
    if (!spec) usageError(spec.error().message);
    // Two outputs writing the same files would fail on (or overwrite) each other's.
    const std::string target = spec->kind == OutputSpec::Kind::kPng    ? spec->png.dir
                               : spec->kind == OutputSpec::Kind::kProm ? spec->prom.path
                                                                       : "";
    if (!target.empty()) {
      std::string key = std::filesystem::path(target).lexically_normal().string();
      if (key.size() > 1 && key.ends_with('/')) key.pop_back();  // shots/ is shots
      key = (spec->kind == OutputSpec::Kind::kPng ? "png:" : "prom:") + key;
      if (std::find(written.begin(), written.end(), key) != written.end())
        usageError("--output " + text + ": given twice (both would write the same files)");
      written.push_back(key);
    }
    if (spec->writesStdout()) ++to_stdout;
    if (spec->kind == OutputSpec::Kind::kDrm) {
      // auto: the plane needs the GPU whatever it is; cpu/reference: the sink uploads each frame
      if (p.pipeline.backend == Backend::kAuto) p.pipeline.backend = Backend::kGles;
    }
    spec->mqtt.required = o.output_required;
    p.outputs.push_back(spec.value());
  }
  // PNG frames, the DRM plane and the HTTP snapshots read the processed image: without them the
  // CPU executor and the GPU's packed import may skip it.
  p.pipeline.image_needed =
      std::any_of(p.outputs.begin(), p.outputs.end(), [](const OutputSpec& s) {
        return s.kind == OutputSpec::Kind::kPng || s.kind == OutputSpec::Kind::kDrm ||
               (s.kind == OutputSpec::Kind::kHttp && s.http.snapshot_every > 0);
      });
  if (to_stdout > 1) usageError("--output: only one of jsonl, csv and bin can write to stdout");
  if (!o.size.empty()) {
    Result<ParsedSize> s = parseSize(o.size, "--size");
    if (!s) usageError(s.error().message);
    p.source.width = s->width;
    p.source.height = s->height;
  }
  if (!o.format.empty()) {
    Result<PixelFormat> f = parsePixelFormat(o.format);
    if (!f) usageError("--format: " + f.error().message);
    p.source.format = f.value();
  }
  if (Status s = checkSourceSpec(o.source); !s) usageError(s.error().message);
  p.source.fps = o.fps;
  if (!(o.timeout_s >= 0.001 && o.timeout_s <= 3600))
    usageError("--timeout: must be between 0.001 and 3600 seconds");
  p.source.poll_timeout_ms = int(o.timeout_s * 1000 + 0.5);
  if (o.timeout_given) p.source.network_give_up_ms = p.source.poll_timeout_ms;
  p.source.network_transport = o.transport == "tcp"   ? NetworkTransport::kTcp
                               : o.transport == "udp" ? NetworkTransport::kUdp
                                                      : NetworkTransport::kAuto;
  p.source.credentials_file = o.credentials;
  p.source.reconnect = o.reconnect;
  p.source.dump_raw_dir = o.dump_raw;
  p.source.dump_raw_overwrite = o.overwrite;
  for (OutputSpec& spec : p.outputs) spec.png.overwrite = o.overwrite;
  // A scope graph (png:, drm: or http: scope=) counts the scope it draws, --scopes or not.
  for (const OutputSpec& spec : p.outputs) {
    const GraphScope scope = spec.kind == OutputSpec::Kind::kPng    ? spec.png.graph.scope
                             : spec.kind == OutputSpec::Kind::kDrm  ? spec.drm.graph.scope
                             : spec.kind == OutputSpec::Kind::kHttp ? spec.http.graph.scope
                                                                    : GraphScope::kNone;
    p.pipeline.scopes.waveform |= scope == GraphScope::kWaveform;
    p.pipeline.scopes.parade |= scope == GraphScope::kParade;
    p.pipeline.scopes.vectorscope |= scope == GraphScope::kVectorscope;
  }
  Result<IoMode> io = parseIoMode(o.io);
  if (!io) usageError("--io: " + io.error().message);
  p.source.io = io.value();
  if (p.source.io == IoMode::kDmabuf || p.source.io == IoMode::kExpbuf) {
    // Zero-copy capture imports the camera's buffers into EGL: only the GLES backend can.
    if (p.pipeline.backend != Backend::kGles && p.pipeline.backend != Backend::kAuto)
      usageError("--io " + o.io + " imports into GLES: it needs --backend gles");
    p.pipeline.backend = Backend::kGles;
  }
  for (const std::string& c : o.ctrls) {
    Result<KeyValue> ctrl = parseKeyValue(c, "control");
    if (!ctrl) usageError("--ctrl: " + ctrl.error().message);
    p.source.controls.emplace_back(ctrl->key, ctrl->value);
  }
  if (o.auto_exposure) {
    Result<AutoExposureOptions> ae = parseAutoExposureOption(*o.auto_exposure);
    if (!ae) usageError(ae.error().message);
    if (p.pipeline.histogram.channels.find('l') == std::string::npos)
      usageError("--auto-exposure measures the l channel: add l to --histogram channels");
    p.auto_exposure = ae.value();
  }
  if (!o.signalstats_stat.empty()) {
    if (Status s = parseSignalstatsStat(o.signalstats_stat, p.pipeline); !s)
      usageError(s.error().message);
  }
  if (!o.detect.empty()) {
    Result<DetectConfig> d = parseDetectConfig(o.detect, "--detect");
    if (!d) usageError(d.error().message);
    p.pipeline.detect = d.value();
  }
  return p;
}

// The last sink of the run: the process's user + system CPU time (every thread: the GPU
// driver's, the sinks', the source's) from the first frame's delivery to the last's, the span of
// RunReport::steady_seconds.
// The process's CPU time, and that of the thread running the pipeline (sinks are written on
// it), at each frame: from the first frame to the last, what the steady state costs.
class SteadyCpuClock : public FrameSink {
 public:
  Status write(const FrameResult&) override {
    // The process's span holds the thread's: its clock is read before the thread's at the first
    // frame and after it at the last. Read in one order both times, the thread's share could come
    // out above the whole by the time between two reads.
    if (!first_) {
      const double process = seconds(CLOCK_PROCESS_CPUTIME_ID);
      first_ = {process, seconds(CLOCK_THREAD_CPUTIME_ID)};
    }
    const double thread = seconds(CLOCK_THREAD_CPUTIME_ID);
    last_ = {seconds(CLOCK_PROCESS_CPUTIME_ID), thread};
    return Status::success();
  }
  double steadyCpuSeconds() const { return first_ ? last_[0] - (*first_)[0] : 0; }
  double steadyThreadCpuSeconds() const { return first_ ? last_[1] - (*first_)[1] : 0; }

 private:
  static double seconds(clockid_t clock) {
    timespec t{};
    clock_gettime(clock, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
  }
  std::optional<std::array<double, 2>> first_;
  std::array<double, 2> last_{};
};

void runPipeline(const GlobalOptions& global, const RunOptions& o) {
  const RunPlan p = plan(global, o);
  installSignalHandlers();

  Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(p.pipeline);
  if (!pipeline) runtimeError(pipeline.error());
  std::vector<std::unique_ptr<FrameSink>> sinks;
  for (const OutputSpec& spec : p.outputs) {
    Result<std::unique_ptr<FrameSink>> sink = createSink(spec, **pipeline);
    if (!sink) runtimeError(sink.error());
    sinks.push_back(std::move(sink.value()));
  }
  Result<std::unique_ptr<FrameSource>> source = (*pipeline)->openSource(o.source, p.source);
  if (!source && g_stop_signal) return;  // stopped while waiting for a stream's first bytes
  if (!source) runtimeError(withVideoHint(source.error(), o.source));
  FrameSource& src = **source;
  // --resize is a downscale: past the source's size it is the command line that is wrong (exit 2),
  // said before any frame, though the size is known only now.
  if (const std::optional<Size>& r = p.pipeline.resize;
      r && (r->width > src.width() || r->height > src.height()))
    usageError("--resize " + o.resize + ": larger than the source's " +
               std::to_string(src.width()) + "x" + std::to_string(src.height()) +
               " frames (a downscale only)");
  logInfo("source " + src.name() + ": " + std::to_string(src.width()) + "x" +
          std::to_string(src.height()) + " " + formatName(src.format()) + " (" +
          src.ioDescription() + ")");

  if (p.auto_exposure) {
    if (src.name().rfind("/dev/video", 0) != 0)
      usageError("--auto-exposure drives a V4L2 camera's controls; the source is " + src.name());
    Result<std::unique_ptr<FrameSink>> ae = createAutoExposure(src.name(), *p.auto_exposure);
    if (!ae) runtimeError(ae.error());
    sinks.insert(sinks.begin(), std::move(ae.value()));
  }
  std::vector<FrameSink*> sink_list;
  for (auto& sink : sinks) sink_list.push_back(sink.get());
  SteadyCpuClock cpu_clock;
  sink_list.push_back(&cpu_clock);
  Result<RunReport> report = run(**pipeline, src, sink_list, g_stop, RunLimits{o.frames});
  if (g_stop_signal) logInfo(std::string("stopping on ") + strsignal(g_stop_signal));
  sinks.clear();
  source.value().reset();  // stop capture before the GL context goes
  if (!report) runtimeError(report.error());
  if (report->frames > 1 && report->steady_seconds > 0) {  // -v: the frame loop's own rate
    const double steady_frames = double(report->frames - 1);
    char cpu[64], thread_cpu[64];
    std::snprintf(cpu, sizeof cpu, "%.3f", cpu_clock.steadyCpuSeconds() * 1e3 / steady_frames);
    std::snprintf(thread_cpu, sizeof thread_cpu, "%.3f",
                  cpu_clock.steadyThreadCpuSeconds() * 1e3 / steady_frames);
    // The pipeline's own thread apart: a software GPU (llvmpipe) runs its shaders on threads of
    // its own, work a board's GPU does without its CPU.
    logInfo("run: " + std::to_string(report->frames) + " frames in " +
            std::to_string(report->seconds) + " s; " +
            std::to_string(int(steady_frames / report->steady_seconds + 0.5)) +
            " frames per second and " + cpu +
            " ms of CPU per frame (the process's user + system, every thread), " + thread_cpu +
            " ms of it on the thread that runs the pipeline, after the first (start-up and "
            "first-frame setup excluded)");
  }
  pipeline.value().reset();
  logDebug("run: the pipeline released");  // -vv's timeline: teardown, to the process's exit
}

// CLI11's NonNegativeNumber names its upper bound, the largest double, in 309 digits.
CLI::Validator nonNegative(bool whole) {
  return CLI::Validator(
      [whole](std::string& text) -> std::string {
        const char* what = whole ? "a whole number >= 0" : "a number >= 0";
        errno = 0;
        char* end = nullptr;
        const double value = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || errno != 0 || !std::isfinite(value) || value < 0 ||
            (whole && value != std::floor(value)))
          return "'" + text + "': expected " + what;
        return {};
      },
      whole ? "N>=0" : "X>=0");
}

}  // namespace

void addRunCommand(CLI::App& app, GlobalOptions& global) {
  auto* cmd =
      app.add_subcommand("run", "Run frames through the stages to stdout, PNG or a display");
  auto o = std::make_shared<RunOptions>();
  cmd->add_option("--source", o->source,
                  "pattern (default; pattern:loop=N renders N frames before the run and repeats "
                  "them), /dev/videoN or a camera name, libcamera[:ID], an image, a Y4M or raw "
                  "file, a folder or a glob; - for Y4M or raw frames on stdin; rtsp://, "
                  "http(s):// (MJPEG, Y4M) or any URI GStreamer opens")
      ->capture_default_str();
  cmd->add_option("--size", o->size, "Frame size WxH (source default when absent)");
  cmd->add_option("--format", o->format, "Pixel format: YUYV, NV12, RGB24, ... (V4L2 names)");
  cmd->add_option("--fps", o->fps,
                  "Frames per second to ask the source for; the pattern is then paced like a "
                  "live camera")
      ->check(nonNegative(false));
  cmd->add_option("--frames", o->frames, "Stop after N frames (default: until the stream ends)")
      ->check(nonNegative(true));
  cmd->add_option("--blur", o->blur, "Separable box blur: TAPS[:ITERATIONS], TAPS odd");
  cmd->add_option("--resize", o->resize, "Area-average downscale to WxH");
  cmd->add_option("--histogram", o->histogram,
                  "bins=1..256,channels=rgbl,strategy=auto|single|global-atomic|chunk-sum|"
                  "chunk-reduce|persistent|replicated")
      ->capture_default_str();
  cmd->add_option("--backend", o->backend,
                  "auto (GPU if hardware GLES 3.1, else the CPU executor), gles, cpu (the CPU "
                  "executor) or reference (the plain CPU references)")
      ->check(CLI::IsMember({"auto", "gles", "cpu", "reference"}))
      ->capture_default_str();
  cmd->add_option(
         "--threads", o->threads,
         "CPU executor threads, and the host threads of Bayer frames on the GPU (0: one per core)")
      ->check(CLI::Range(0, 256))
      ->capture_default_str();
  cmd->add_option("--output", o->outputs,
                  "Repeatable: jsonl (default), csv[:bins], bin, "
                  "png:DIR[,every=N,mode=M,scale=S,decor=D,scope=waveform|parade|vectorscope], "
                  "drm[:frame=on|off,connector=NAME,plane=ID,zpos=N,rect=X,Y,W,H,scope=S], "
                  "mqtt://HOST[:PORT]/TOPIC[,qos=0|1,every=N,retain,...], "
                  "prom:PATH[,every=SECONDS], "
                  "http:[ADDR:]PORT[,clients=N,every=N,user=U,password-file=F,...]");
  cmd->add_flag("--output-required", o->output_required,
                "Fail (exit 1) when an mqtt:// output cannot reach its broker at start; without "
                "it, a warning and the run goes on while the sink retries");
  cmd->add_option("--luma", o->luma,
                  "L channel from the converted RGB (rgb, default) or the source's Y plane "
                  "(source; YUV and GREY formats)")
      ->check(CLI::IsMember({"rgb", "source"}))
      ->capture_default_str();
  cmd->add_option("--dump-raw", o->dump_raw, "Keep each frame's raw bytes in this folder");
  cmd->add_option("--io", o->io,
                  "V4L2 streaming, and a network stream's V4L2 decoder: auto, mmap, dmabuf or "
                  "expbuf")
      ->capture_default_str();
  cmd->add_option("--ctrl", o->ctrls, "V4L2 control NAME=VALUE (repeatable)");
  cmd->add_option_function<std::string>(
         "--auto-exposure", [o](const std::string& v) { o->auto_exposure = v; },
         "Drive the camera's exposure/gain (or control=NAME) toward a target: "
         "[metric=msv|mean,target=X,band=X,damping=X,settle=N,control=NAME]")
      ->expected(0, 1);
  cmd->add_option_function<std::string>(
         "--health", [o](const std::string& v) { o->health = v; },
         "Camera health figures and events, as ffmpeg's filters define them: "
         "[pix_th=X,pic_th=X,black_min_duration=S,noise=X|XdB,freeze_duration=S,threshold=X,"
         "grid=CxR,roi=X,Y,W,H[,...],change=N,flat=X,detail_loss=X,covered=X,covered_min_duration="
         "S]")
      ->expected(0, 1);
  cmd->add_option("--signalstats-stat", o->signalstats_stat,
                  "signalstats' stat= flags beside BRNG: tout+vrep (TOUT, VREP; implies "
                  "--signalstats)");
  cmd->add_option("--detect", o->detect,
                  "ffmpeg's detectors, each with its ffmpeg keys: crop[,limit=X,round=N,reset=N,"
                  "skip=N,max_outliers=N],blur[,high=X,low=X,radius=N,block_pct=N,block_width=N,"
                  "block_height=N,planes=N],block[,period_min=N,period_max=N,planes=N]");
  cmd->add_flag("--signalstats", o->signalstats,
                "ffmpeg signalstats' figures of YUV sources beside YMIN..YMAX: UMIN..VMAX, "
                "UDIF, VDIF, BRNG, SATMIN..SATMAX, HUEMED, HUEAVG");
  cmd->add_option_function<std::string>(
      "--scopes", [o](const std::string& v) { o->scopes = v; },
      "Count the exposure scopes: waveform,parade,vectorscope[,columns=N] (any of "
      "them; columns: the waveform's and parade's, default the width up to 512)");
  cmd->add_flag("--overwrite", o->overwrite,
                "Let PNG and --dump-raw files replace files already there (default: an error)");
  cmd->add_option("--raw", o->raw,
                  "Bayer sensors: black=N,white=N,wb=R,B (integers; gains in 1/256, 256 = 1.0)");
  cmd->add_flag("--no-selftest", o->no_selftest,
                "--backend auto: use a GPU this version has never checked without the quick "
                "selftest first (a few seconds once per driver; esframe selftest)");
  cmd->add_option("--timeout", o->timeout_s,
                  "Seconds without a camera frame before giving up (a network source, or a "
                  "camera with --reconnect: without it, outages are retried for ever)")
      ->capture_default_str();
  cmd->add_option("--transport", o->transport, "A network source's RTSP transport")
      ->check(CLI::IsMember({"auto", "tcp", "udp"}))
      ->capture_default_str();
  cmd->add_option("--credentials", o->credentials,
                  "A network source's USER:PASSWORD, the first line of this file (instead of "
                  "the URI's)");
  cmd->add_flag("--reconnect", o->reconnect,
                "A V4L2 camera that goes away (unplugged) is an outage as a network source's: "
                "camera_offline, opened again with backoff, camera_online (without it: exit 3)");
  cmd->callback([&global, o, cmd]() {
    o->timeout_given = cmd->count("--timeout") > 0;
    runPipeline(global, *o);
  });
}

}  // namespace esf::cli
