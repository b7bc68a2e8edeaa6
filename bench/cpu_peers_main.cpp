// esframe-bench-cpu: the CPU executor (core/cpu) against OpenCV in the same run, on the same
// frame (the bench photo): histogram R+G+B+L vs calcHist R, G, B + cvtColor + calcHist gray,
// blur 15 vs cv::blur 15x15, resize to half size (area) vs INTER_AREA. Each executor stage is
// checked once against its plain reference before it is timed. bench/cpu-vs-peers.sh runs it.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/bench_frames.hpp"
#include "bench/bench_report.hpp"
#include "bench/peers.hpp"
#include "core/cpu/cpu_blur.hpp"
#include "core/cpu/cpu_histogram.hpp"
#include "core/cpu/cpu_resize.hpp"
#include "core/stages/blur_reference.hpp"
#include "core/stages/histogram_reference.hpp"
#include "core/stages/resize_reference.hpp"
#include "esframe/base/log.hpp"

namespace esf::bench {
namespace {

struct Args {
  std::string photo = kDefaultPhoto;
  int width = 1920, height = 1080, threads = 0, iterations = 30, blur_taps = 15;
};

// "exact" when the executor equals the reference, else the row becomes an error.
template <typename Run, typename Reference>
BenchRow executorRow(const std::string& label, const std::string& group, RowPool& pool,
                     const MeasureOptions& m, double bytes, double px, Run run,
                     Reference reference) {
  const std::string variant =
      "esframe CPU executor (" + std::to_string(pool.threads()) + " threads)";
  if (!(run() == reference()))
    return timed(label, group, variant, true,
                 fail(ErrorCode::kInternal, "WRONG: differs from the CPU reference"), 0, 0);
  BenchRow r = timed(label, group, variant, true,
                     measureWall(m,
                                 [&]() -> Status {
                                   run();
                                   return {};
                                 }),
                     bytes, px);
  r.note = "exact";
  return r;
}

int benchMain(const Args& a) {
  Result<RgbaImage> frame = benchFrame("photo", a.width, a.height, a.photo);
  if (!frame) return logError(frame.error().message), 1;
  const std::string label = std::to_string(a.width) + "x" + std::to_string(a.height) + " photo";
  const double px = double(frame->pixelCount()), bytes = px * 4;
  const MeasureOptions m{3, a.iterations, 3.0, 5};
  RowPool pool(a.threads);
  std::vector<BenchRow> rows;

  const std::string hist = "histogram rgbl 256";
  rows.push_back(executorRow(
      label, hist, pool, m, bytes, px,
      [&] { return histogramCpu(*frame, 256, "rgbl", LumaWeights::kBt709, pool); },
      [&] { return histogramReference(*frame, 256, "rgbl", LumaWeights::kBt709); }));
  rows.push_back(timed(label, hist, "OpenCV calcHist R,G,B + cvtColor+calcHist gray", false,
                       opencvHistogram(*frame, m, nullptr), bytes, px));

  // Into images kept across runs, as OpenCV's dst is (and the pipeline's are across frames).
  RgbaImage blurred, scratch, resized;
  const std::string k = std::to_string(a.blur_taps);
  const std::string blur = "blur " + k + " H+V";
  rows.push_back(executorRow(
      label, blur, pool, m, bytes * 2, px,
      [&]() -> const RgbaImage& {
        blurCpu(*frame, a.blur_taps, 1, pool, blurred, scratch);
        return blurred;
      },
      [&] { return blurReference(*frame, a.blur_taps, 1); }));
  rows.push_back(timed(label, blur, "OpenCV blur " + k + "x" + k + " (box, replicate)", false,
                       opencvBlur(*frame, a.blur_taps, m), bytes * 2, px));

  const int rw = a.width / 2, rh = a.height / 2;
  const std::string resize = "resize area to " + std::to_string(rw) + "x" + std::to_string(rh);
  rows.push_back(executorRow(
      label, resize, pool, m, bytes * 1.25, px,
      [&]() -> const RgbaImage& {
        resizeCpu(*frame, rw, rh, pool, resized);
        return resized;
      },
      [&] { return resizeReference(*frame, rw, rh); }));
  rows.push_back(timed(label, resize, "OpenCV resize INTER_AREA", false,
                       opencvResizeArea(*frame, rw, rh, m), bytes * 1.25, px));

  std::printf("- peers: %s\n\n%s", opencvInfo().c_str(), rowsTable(rows).c_str());
  return 0;
}

}  // namespace
}  // namespace esf::bench

int main(int argc, char** argv) {
  esf::bench::Args a;
  CLI::App app{"esframe-bench-cpu: the CPU executor against OpenCV on one frame"};
  app.add_option("--photo", a.photo, "The photo the frame is cut from")->capture_default_str();
  app.add_option("--size", a.width, "Frame width (the height keeps 16:9)")->capture_default_str();
  app.add_option("--threads", a.threads, "Executor threads (0: one per core)")
      ->capture_default_str();
  app.add_option("--iterations", a.iterations, "Timed runs per row")->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  a.height = a.width * 9 / 16;
  return esf::bench::benchMain(a);
}
