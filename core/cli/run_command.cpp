// `esframe run`: frames from a source through the stages to the outputs. Logs go to stderr,
// data to stdout. SIGINT/SIGTERM finish the current frame and exit 0; a closed stdout exits 0
// quietly; a vanished camera exits 3 after delivering every frame it produced.
#include <signal.h>

#include <csignal>
#include <cstring>
#include <memory>
#include <vector>

#include "capture/pixel_format.hpp"
#include "capture/source.hpp"
#include "core/cli/cli_common.hpp"
#include "core/cli/commands.hpp"
#include "core/cli/run_options.hpp"
#include "core/cli/run_pipeline.hpp"
#include "core/import/gbm_dmabuf_allocator.hpp"
#include "core/outputs/output_factory.hpp"
#include "esframe/base/log.hpp"

namespace esf::cli {
namespace {

volatile std::sig_atomic_t g_stop_signal = 0;

void onStopSignal(int sig) {
  g_stop_signal = sig;
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

[[noreturn]] void runtimeError(const std::string& message, int code = kExitFailure) {
  logError(message);
  throw CLI::RuntimeError(code);
}

// Everything checkable before opening anything; errors are usage errors (exit 2).
void resolveOptions(RunOptions& o, const std::string& histogram, const std::string& blur,
                    const std::string& resize, SourceOptions& so) {
  Result<HistogramSpec> h = parseHistogramSpec(histogram);
  if (!h) usageError(h.error().message);
  o.histogram = h.value();
  if (!blur.empty()) {
    Result<BlurSpec> b = parseBlurSpec(blur);
    if (!b) usageError(b.error().message);
    o.blur = b.value();
  }
  if (!resize.empty()) {
    Result<std::pair<int, int>> r = parseResizeSpec(resize);
    if (!r) usageError(r.error().message);
    o.resize = r.value();
  }
  if (o.outputs.empty()) o.outputs.push_back("jsonl");
  int to_stdout = 0;
  for (const std::string& spec : o.outputs) {
    if (Status s = checkOutputSpec(spec); !s) usageError(s.error().message);
    if (writesStdout(spec)) ++to_stdout;
    if (spec.rfind("drm", 0) == 0 && o.backend == "cpu")
      usageError("--output drm draws with GLES: it needs --backend gles");
  }
  if (to_stdout > 1) usageError("--output: only one of jsonl, csv and bin can write to stdout");
  if (!o.size.empty()) {
    Result<std::pair<int, int>> s = parseSize(o.size);
    if (!s) usageError("--size: " + s.error().message);
    so.width = s->first;
    so.height = s->second;
  }
  if (!o.format.empty()) {
    Result<PixelFormat> f = parsePixelFormat(o.format);
    if (!f) usageError("--format: " + f.error().message);
    so.format = f.value();
  }
  so.fps = o.fps;
  so.dump_raw_dir = o.dump_raw;
  Result<IoMode> io = parseIoMode(o.io);
  if (!io) usageError("--io: " + io.error().message);
  so.io = io.value();
  for (const std::string& c : o.ctrls) {
    Result<std::pair<std::string, std::string>> ctrl = parseCtrl(c);
    if (!ctrl) usageError("--ctrl: " + ctrl.error().message);
    so.ctrls.push_back(ctrl.value());
  }
}

void runPipeline(const GlobalOptions& global, RunOptions o, const std::string& histogram,
                 const std::string& blur, const std::string& resize) {
  SourceOptions so;
  resolveOptions(o, histogram, blur, resize, so);
  installSignalHandlers();

  std::unique_ptr<GlContext> gl;
  std::unique_ptr<DmabufAllocator> dmabuf_allocator;  // outlives the source
  if (o.backend == "gles") {
    Result<std::unique_ptr<GlContext>> ctx = createContext(global);
    if (!ctx) runtimeError(ctx.error().message);
    gl = std::move(ctx.value());
    if (auto allocator = createGbmDmabufAllocator(*gl); allocator.ok())
      dmabuf_allocator = std::move(allocator.value());  // else mmap: no DRM device under EGL
    so.dmabuf_allocator = dmabuf_allocator.get();
  }
  Result<std::unique_ptr<Pipeline>> pipeline =
      gl ? createGpuPipeline(*gl, o) : createCpuPipeline(o);
  if (!pipeline) runtimeError(pipeline.error().message);

  OutputContext oc;
  oc.gl = gl.get();
  oc.drm_device = global.drm_device;
  std::vector<std::unique_ptr<FrameOutput>> outputs;
  for (const std::string& spec : o.outputs) {
    Result<std::unique_ptr<FrameOutput>> out = createOutput(spec, oc);
    if (!out) runtimeError(out.error().message);
    outputs.push_back(std::move(out.value()));
  }
  Result<std::unique_ptr<FrameSource>> source = openSource(o.source, so);
  if (!source) runtimeError(source.error().message);
  logInfo("source " + source.value()->name() + ": " + std::to_string(source.value()->width()) +
          "x" + std::to_string(source.value()->height()) + " " +
          formatName(source.value()->format()) + " (" + source.value()->ioDescription() + ")");

  // Outputs are finished (displays restored) on every way out below.
  auto finishOutputs = [&outputs]() {
    for (auto& out : outputs)
      if (Status s = out->finish(); !s && s.error().message != kStdoutClosed)
        logError(s.error().message);
  };
  int exit_code = kExitOk;
  std::string error;
  for (long long n = 0; o.frames < 0 || n < o.frames; ++n) {
    if (g_stop_signal) break;
    Result<std::optional<Frame>> frame = source.value()->next();
    if (!frame) {
      if (g_stop_signal) break;  // interrupted while waiting for a frame
      error = frame.error().message;
      exit_code = source.value()->deviceLost() ? kExitDeviceLost : kExitFailure;
      break;
    }
    if (!frame->has_value()) break;  // end of a file or sequence
    Result<FrameResult> result = pipeline.value()->process(**frame);
    if (!result) {
      error = result.error().message;
      exit_code = kExitFailure;
      break;
    }
    bool stdout_closed = false;
    for (auto& out : outputs) {
      Status s = out->write(result.value());
      if (s) continue;
      if (s.error().message == kStdoutClosed) {
        stdout_closed = true;
        continue;
      }
      error = s.error().message;
      exit_code = kExitFailure;
      break;
    }
    if (exit_code != kExitOk || stdout_closed) break;
  }
  if (g_stop_signal) logInfo(std::string("stopping on ") + strsignal(g_stop_signal));
  finishOutputs();
  outputs.clear();
  source.value().reset();  // stop capture before the GL context goes
  if (exit_code != kExitOk) runtimeError(error, exit_code);
}

}  // namespace

void addRunCommand(CLI::App& app, GlobalOptions& global) {
  auto* cmd =
      app.add_subcommand("run", "Run frames through the stages to stdout, PNG or a display");
  auto o = std::make_shared<RunOptions>();
  auto histogram = std::make_shared<std::string>("bins=256,channels=rgbl,strategy=auto");
  auto blur = std::make_shared<std::string>();
  auto resize = std::make_shared<std::string>();
  cmd->add_option("--source", o->source,
                  "pattern (default), /dev/videoN or a camera name, an image, a Y4M or raw file, "
                  "a folder or a glob")
      ->capture_default_str();
  cmd->add_option("--size", o->size, "Frame size WxH (source default when absent)");
  cmd->add_option("--format", o->format, "Pixel format: YUYV, NV12, RGB24, ... (V4L2 names)");
  cmd->add_option("--fps", o->fps, "Frames per second to ask the source for")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--frames", o->frames, "Stop after N frames (default: until the stream ends)")
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--blur", *blur, "Separable box blur: TAPS[:ITERATIONS], TAPS odd");
  cmd->add_option("--resize", *resize, "Area-average downscale to WxH");
  cmd->add_option("--histogram", *histogram,
                  "bins=1..256,channels=rgbl,strategy=auto|single|global-atomic|chunk-sum|"
                  "chunk-reduce|persistent")
      ->capture_default_str();
  cmd->add_option("--backend", o->backend, "gles (GPU) or cpu (the CPU references)")
      ->check(CLI::IsMember({"gles", "cpu"}))
      ->capture_default_str();
  cmd->add_option("--output", o->outputs,
                  "Repeatable: jsonl (default), csv[:bins], bin, png:DIR[,every=N], "
                  "drm[:connector=NAME,plane=ID,zpos=N,rect=X,Y,W,H]");
  cmd->add_option("--luma", o->luma,
                  "L channel from the converted RGB (rgb, default) or the source's Y plane "
                  "(source; YUV and GREY formats)")
      ->check(CLI::IsMember({"rgb", "source"}))
      ->capture_default_str();
  cmd->add_option("--dump-raw", o->dump_raw, "Keep each frame's raw bytes in this folder");
  cmd->add_option("--io", o->io, "V4L2 streaming: auto, mmap, dmabuf or expbuf")
      ->capture_default_str();
  cmd->add_option("--ctrl", o->ctrls, "V4L2 control NAME=VALUE (repeatable)");
  cmd->callback([&global, o, histogram, blur, resize]() {
    runPipeline(global, *o, *histogram, *blur, *resize);
  });
}

}  // namespace esf::cli
