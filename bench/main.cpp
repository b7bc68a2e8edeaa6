// esframe-bench: every stage timed on the current GPU at the camera sizes, the parameter sweeps
// with an SVG plot each, and the peers (CPU reference, OpenCV, CUB) in the same run with
// ratios. Tables go to stdout (Markdown) and, with the plots and a JSON file, to --out.
#include <sys/utsname.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <thread>

#include "bench/bench_frames.hpp"
#include "bench/bench_report.hpp"
#include "bench/floor_rows.hpp"
#include "bench/packed_blur.hpp"
#include "bench/peers.hpp"
#include "bench/stage_rows.hpp"
#include "bench/svg_plot.hpp"
#include "core/tuning/auto_params.hpp"
#include "core/tuning/sweep.hpp"
#include "core/tuning/synthetic_frames.hpp"
#include "core/tuning/tuned_params.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "esframe/base/log.hpp"
#include "esframe/text_parse.hpp"
#include "platform/gpu_timer.hpp"

namespace esf::bench {
namespace {

struct Args {
  std::string egl = "auto", drm_device, egl_device;
  std::string sizes = "640x480,1280x720,1920x1080,3840x2160";
  std::string contents = "photo,random,flat,gradient";
  std::string sweep_sizes = "1920x1080";
  std::string photo = kDefaultPhoto;
  std::string sweep_content = "natural";  // the frame the sweeps tune on
  std::string out = "bench-results";
  int iterations = 20, warmup = 3, cpu_iterations = 5;
  bool no_cpu_references = false, quick = false, histogram_only = false;
  std::string histogram_variants;  // a JSON file
  std::string replot;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  size_t pos = 0;
  while (pos <= s.size()) {
    size_t c = s.find(',', pos);
    std::string part = s.substr(pos, c == std::string::npos ? std::string::npos : c - pos);
    if (!part.empty()) v.push_back(part);
    if (c == std::string::npos) break;
    pos = c + 1;
  }
  return v;
}

std::string cpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

std::string machineHeader(const GlContext& gl) {
  utsname u{};
  uname(&u);
  std::string s = "# esframe-bench " + utcTimestamp() + "\n\n";
  s += "- machine: " + cpuModel() + ", " + std::to_string(std::thread::hardware_concurrency()) +
       " threads, " + u.sysname + " " + u.release + "\n";
  s += "- EGL platform: " + std::string(toString(gl.display().platform())) + "\n";
  s += "- GL: " + gl.glVendor() + " | " + gl.renderer() + " | " + gl.version() + "\n";
  GpuTimer timer(gl);
  s += std::string("- GPU time: ") +
       (timer.usesTimerQuery() ? "GL_EXT_disjoint_timer_query"
                               : "wall clock around glFinish (no usable timer query)") +
       "\n";
  s += "- peers: " + opencvInfo() + "; " + cubInfo() + "\n";
  return s;
}

// --replot: the SVGs again from a results.json, without measuring anything.
int replot(const Args& a) {
  std::ifstream in(a.replot);
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  if (!in || j.is_discarded() || !j.contains("sweeps"))
    return logError("--replot " + a.replot + ": not a results.json with sweeps"), 1;
  std::error_code ec;
  std::filesystem::create_directories(a.out, ec);
  for (const nlohmann::json& sj : j["sweeps"]) {
    Result<Sweep> s = sweepFromJson(sj);
    if (!s) return logError(a.replot + ": " + s.error().message), 1;
    std::string size = sj.value("frame", std::string("?"));
    std::string name = "sweep-" + s.value().stage + "-" + s.value().name + "-" + size;
    std::string title = s.value().stage + " " + s.value().name + ", " + size + " " +
                        sj.value("content", std::string("natural")) + " frame, " +
                        j.value("gl_renderer", std::string());
    std::ofstream(a.out + "/" + name + ".svg") << sweepSvg(s.value(), title);
  }
  return 0;
}

// The parameters this run tuned for a w x h frame, if it did ("tuned"), else what `choose()`
// picks from the cache or the defaults ("auto"): into `out`; the origin returned.
template <class Params, class Choose>
const char* tunedOrChosen(const std::map<std::pair<int, int>, Params>& tuned, int w, int h,
                          Params& out, Choose choose) {
  if (auto it = tuned.find({w, h}); it != tuned.end()) {
    out = it->second;
    return "tuned";
  }
  out = choose();
  return "auto";
}

int run(const Args& a) {
  if (!a.replot.empty()) return replot(a);
  Result<EglPlatform> platform = parseEglPlatform(a.egl);
  if (!platform) {
    logError(platform.error().message);
    return 2;
  }
  GlContextOptions co;
  co.egl = {platform.value(), a.drm_device, a.egl_device};
  Result<std::unique_ptr<GlContext>> ctx = GlContext::create(co);
  if (!ctx) {
    logError(ctx.error().message);
    return 1;
  }
  const GlContext& gl = *ctx.value();
  std::vector<std::pair<int, int>> sizes, sweep_sizes;
  for (const std::string& s : split(a.sizes)) {
    Result<ParsedSize> p = parseSize(s, "--sizes");
    if (!p) return logError(p.error().message), 2;
    sizes.emplace_back(p->width, p->height);
  }
  if (a.sweep_sizes != "none") {
    for (const std::string& s : split(a.sweep_sizes)) {
      Result<ParsedSize> p = parseSize(s, "--sweep-sizes");
      if (!p) return logError(p.error().message), 2;
      sweep_sizes.emplace_back(p->width, p->height);
    }
  }
  std::vector<std::string> contents = split(a.contents);
  bool have_photo = std::filesystem::exists(a.photo);
  std::string report = machineHeader(gl);
  if (!have_photo)
    report += "- photo: " + a.photo + " not found (setup-debian.sh bench installs it); skipped\n";
  else
    report += "- photo: " + a.photo + " (centre-cropped, area-averaged to each size)\n";
  std::fputs(report.c_str(), stdout);
  std::fflush(stdout);
  std::error_code ec;
  std::filesystem::create_directories(a.out, ec);
  if (ec) return logError("--out " + a.out + ": " + ec.message()), 1;

  MeasureOptions gpu{a.warmup, a.iterations, a.quick ? 0.2 : 1.0, 3, a.quick ? 0 : 0.1};
  MeasureOptions cpu{1, a.cpu_iterations, a.quick ? 0.2 : 2.0, 1};
  nlohmann::json json = {{"gl_vendor", gl.glVendor()},
                         {"gl_renderer", gl.renderer()},
                         {"gl_version", gl.version()},
                         {"date", utcTimestamp()}};

  // Sweeps first: their winners are the "tuned" parameters of the tables at that size.
  std::map<std::pair<int, int>, HistogramParams> tuned_hist;
  std::map<std::pair<int, int>, BlurParams> tuned_blur, tuned_packed_blur;
  std::map<std::pair<int, int>, ReduceParams> tuned_reduce;
  for (auto [w, h] : sweep_sizes) {
    Result<RgbaImage> sweep_frame = benchFrame(a.sweep_content, w, h, a.photo);
    if (!sweep_frame) return logError(sweep_frame.error().message), 1;
    const RgbaImage& frame = sweep_frame.value();
    TuneOptions o;
    o.quick = a.quick;
    o.measure = {a.warmup, a.iterations / 2 + 1, a.quick ? 0.1 : 0.5, 3, a.quick ? 0 : 0.1};
    std::string size = std::to_string(w) + "x" + std::to_string(h);
    std::vector<Sweep> sweeps;
    {
      Progress progress("sweep histogram " + size, 0);
      o.progress = &progress;
      Result<HistogramTuneResult> r = tuneHistogram(gl, frame, HistogramParams{}, o);
      if (!r) return logError(r.error().message), 1;
      tuned_hist[{w, h}] = r.value().best;
      sweeps = r.value().sweeps;
    }
    {
      Progress progress("sweep blur " + size, 0);
      o.progress = &progress;
      BlurParams base;
      base.iterations = 1;
      Result<BlurTuneResult> r = tuneBlur(gl, frame, base, o);
      if (!r) return logError(r.error().message), 1;
      tuned_blur[{w, h}] = r.value().best;
      for (Sweep& s : r.value().sweeps) sweeps.push_back(std::move(s));
      Result<PackedBlurSweep> packed = sweepPackedBlur(gl, frame, base, o);
      if (!packed) return logError(packed.error().message), 1;
      tuned_packed_blur[{w, h}] = packed.value().best;
      sweeps.push_back(std::move(packed.value().sweep));
    }
    {
      Progress progress("sweep reduce " + size, 0);
      o.progress = &progress;
      Result<ReduceTuneResult> r = tuneReduce(gl, frame, ReduceParams{}, o);
      if (!r) return logError(r.error().message), 1;
      tuned_reduce[{w, h}] = r.value().best;
      for (Sweep& s : r.value().sweeps) sweeps.push_back(std::move(s));
    }
    for (const Sweep& s : sweeps) {
      std::string name = "sweep-" + s.stage + "-" + s.name + "-" + size;
      std::string title =
          s.stage + " " + s.name + ", " + size + " " + a.sweep_content + " frame, " + gl.renderer();
      std::ofstream(a.out + "/" + name + ".svg") << sweepSvg(s, title);
      std::string section = "\n## Sweep: " + s.stage + " " + s.name + " (" + size + ", " +
                            a.sweep_content + " frame)\n\nPlot: " + name + ".svg\n\n" +
                            sweepTable(s);
      std::fputs(section.c_str(), stdout);
      report += section;
      json["sweeps"].push_back(sweepJson(s));
      json["sweeps"].back()["frame"] = size;
      json["sweeps"].back()["content"] = a.sweep_content;
    }
    std::fflush(stdout);
  }

  std::vector<HistogramVariant> variants;
  if (!a.histogram_variants.empty()) {
    std::ifstream in(a.histogram_variants);
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!in || j.is_discarded() || !j.is_array())
      return logError("--histogram-variants " + a.histogram_variants + ": not a JSON array"), 2;
    for (const nlohmann::json& e : j) {
      if (!e.is_object() || !e.contains("name") || !e["name"].is_string())
        return logError("--histogram-variants: every entry needs a \"name\""), 2;
      variants.push_back(
          {e["name"].get<std::string>(), e.value("params", nlohmann::json::object())});
    }
  }

  std::vector<BenchRow> rows;
  Progress progress("bench", int(sizes.size() * (contents.size() + 1)));
  for (auto [w, h] : sizes) {
    FrameBenchOptions o;
    o.gpu = gpu;
    o.cpu = cpu;
    o.cpu_references = !a.no_cpu_references;
    o.histogram_variants = variants;
    o.histogram_only = a.histogram_only;
    std::string why;
    o.histogram_origin = tunedOrChosen(tuned_hist, w, h, o.histogram,
                                       [&] { return chooseHistogramParams(gl, w, h, &why); });
    BlurParams one_iteration;
    one_iteration.iterations = 1;
    o.blur_origin = tunedOrChosen(tuned_blur, w, h, o.blur,
                                  [&] { return chooseBlurParams(gl, w, h, &why, one_iteration); });
    o.reduce_origin = tunedOrChosen(tuned_reduce, w, h, o.reduce,
                                    [&] { return chooseReduceParams(gl, w, h, &why); });
    std::string size = std::to_string(w) + "x" + std::to_string(h);
    size_t first = rows.size();
    bool others_done = false;
    for (const std::string& content : contents) {
      if (content == "photo" && !have_photo) continue;
      Result<RgbaImage> frame = benchFrame(content, w, h, a.photo);
      if (!frame) return logError(frame.error().message), 1;
      std::string label = size + " " + content;
      progress.step(label + " histogram");
      if (Status s = histogramRows(gl, frame.value(), label, o, &rows); !s)
        return logError(label + ": " + s.error().message), 1;
      if (a.histogram_only && !others_done) {
        if (Status s = floorRows(gl, frame.value(), label, o.gpu, &rows); !s)
          return logError(label + ": " + s.error().message), 1;
        others_done = true;
      }
      if (!others_done) {  // the other stages barely depend on content: once per size
        progress.step(label + " blur, resize, reduce, transfers");
        if (Status s = otherStageRows(gl, frame.value(), label, o, &rows); !s)
          return logError(label + ": " + s.error().message), 1;
        // The packed forms: swept at this size, or the automatic choice where it is one.
        const auto packed = tuned_packed_blur.find({w, h});
        if (packed != tuned_packed_blur.end() ||
            (o.blur.strategy == BlurStrategy::kSplit && o.blur.buffer_intermediate)) {
          const bool tuned = packed != tuned_packed_blur.end();
          if (Status s =
                  packedBlurRows(gl, frame.value(), label, o, tuned ? packed->second : o.blur,
                                 tuned ? "tuned" : "auto", &rows);
              !s)
            return logError(label + ": " + s.error().message), 1;
        }
        if (Status s = floorRows(gl, frame.value(), label, o.gpu, &rows); !s)
          return logError(label + ": " + s.error().message), 1;
        others_done = true;
      }
    }
    progress.done();
    std::vector<BenchRow> these(rows.begin() + long(first), rows.end());
    std::string section = "\n## " + size + "\n\n" + rowsTable(these);
    std::fputs(section.c_str(), stdout);
    std::fflush(stdout);
    report += section;
  }
  json["rows"] = rowsJson(rows);

  // The targets of issue 7, where this run measured them.
  std::string targets = "\n## Targets\n\n";
  for (auto [w, h] : sizes) {
    std::string size = std::to_string(w) + "x" + std::to_string(h);
    std::string frame = size + " " + (have_photo ? "photo" : contents.front());
    double cv_h = ratio(rows, frame, "histogram rgbl 256", "esframe", "OpenCV");
    double cv_b = ratio(rows, frame, "blur 15 H+V", "esframe", "OpenCV");
    char line[256];
    if (cv_h > 0) {
      std::snprintf(line, sizeof line, "- %s: histogram %.2fx OpenCV (target <= 1.0x)\n",
                    frame.c_str(), cv_h);
      targets += line;
    }
    if (cv_b > 0) {
      std::snprintf(line, sizeof line,
                    "- %s: blur 15 H+V %.2fx OpenCV blur 15x15 (target <= 1.5x)\n", frame.c_str(),
                    cv_b);
      targets += line;
    }
    for (const std::string& content : contents) {
      std::string f = size + " " + content;
      double c = ratio(rows, f, "histogram rgbl 256", "esframe", "CUB");
      if (c <= 0) continue;
      std::snprintf(line, sizeof line,
                    "- %s: histogram %.2fx CUB MultiHistogramEven<4,4> (target <= %s)\n", f.c_str(),
                    c, content == "flat" ? "1.0x" : "0.8x");
      targets += line;
    }
    for (const BenchRow& r : rows)
      if (r.frame == frame && r.group == "reduce min/max/sum rgbl" && r.esframe &&
          r.error.empty() && r.t.timer_query && r.variant.rfind("esframe v3d", 0) != 0) {
        std::snprintf(line, sizeof line,
                      "- %s: reduce min/max/sum rgbl %.1f us GPU time (target <= 25 us at "
                      "3840x2160)\n",
                      frame.c_str(), r.t.median_ms * 1000);
        targets += line;
      }
    for (const BenchRow& r : rows)
      if (r.frame == frame && r.group == "blur 15 H+V" && r.esframe && r.error.empty() &&
          r.t.timer_query) {
        std::snprintf(line, sizeof line,
                      "- %s: blur 15 H+V %.1f us GPU time, %s (target <= 70 us at 3840x2160)\n",
                      frame.c_str(), r.t.median_ms * 1000,
                      r.variant.substr(0, r.variant.find(':')).c_str());
        targets += line;
      }
  }
  std::fputs(targets.c_str(), stdout);
  report += targets;
  std::ofstream(a.out + "/report.md") << report;
  std::ofstream(a.out + "/results.json") << json.dump(2) << "\n";
  std::fprintf(stderr, "esframe-bench: wrote %s/report.md, results.json and the sweep plots\n",
               a.out.c_str());
  return 0;
}

}  // namespace
}  // namespace esf::bench

int main(int argc, char** argv) {
  esf::bench::Args a;
  CLI::App app{"esframe-bench: stage timings, sweeps and peers on this GPU"};
  app.add_option("--egl", a.egl, "EGL platform: auto, gbm, device, surfaceless")
      ->capture_default_str();
  app.add_option("--drm-device", a.drm_device, "DRM node for gbm (path or driver name)");
  app.add_option("--egl-device", a.egl_device, "EGL device for the device platform");
  app.add_option("--sizes", a.sizes, "Frame sizes, comma separated")->capture_default_str();
  app.add_option("--contents", a.contents, "photo, random, flat, gradient, natural")
      ->capture_default_str();
  app.add_option("--sweep-sizes", a.sweep_sizes, "Sizes to sweep parameters at, or none")
      ->capture_default_str();
  app.add_option("--photo", a.photo, "The photograph")->capture_default_str();
  app.add_option("--sweep-content", a.sweep_content,
                 "The frame the sweeps tune on: natural, photo, random, flat, gradient")
      ->capture_default_str();
  app.add_option("--out", a.out, "Directory for report.md, results.json, sweep SVGs")
      ->capture_default_str();
  app.add_option("--iterations", a.iterations, "Timed GPU runs")
      ->check(CLI::Range(1, 10000))
      ->capture_default_str();
  app.add_option("--warmup", a.warmup, "Untimed runs first")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  app.add_option("--cpu-iterations", a.cpu_iterations, "Timed CPU/peer runs")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_flag("--no-cpu-references", a.no_cpu_references, "Skip timing the CPU references");
  app.add_option("--histogram-variants", a.histogram_variants,
                 "JSON file: [{\"name\", \"params\": {tuned fields}}]: extra histogram "
                 "rows, each checked exact (bench/README.md)");
  app.add_flag("--histogram-only", a.histogram_only,
               "Only the histogram rows (no OpenCV) and the floor rows");
  app.add_flag("--quick", a.quick, "Smoke run: one small size, few runs, quick sweeps");
  app.add_option("--replot", a.replot, "Only redraw the sweep SVGs of a results.json into --out");
  CLI11_PARSE(app, argc, argv);
  if (a.quick) {
    a.sizes = "160x120";
    a.sweep_sizes = "160x120";
    a.contents = "photo,random,flat";
    a.iterations = 3;
    a.warmup = 1;
    a.cpu_iterations = 1;
  }
  return esf::bench::run(a);
}
