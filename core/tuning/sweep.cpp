#include "core/tuning/sweep.hpp"

#include <cmath>

#include "core/stages/blur_reference.hpp"
#include "core/stages/histogram_reference.hpp"
#include "core/stages/reduce_reference.hpp"
#include "core/tuning/tuned_params.hpp"
#include "platform/shader_library.hpp"

namespace esf {

namespace {

// A candidate whose program the driver compiled only with its last-resort scheduler (v3d's
// fallback: optimisations off, 2 threads) is never chosen: it is slow wherever it runs.
Status compiledWell(size_t mark) {
  if (std::optional<ProgramReport> r = ShaderLibrary::fallbackSince(mark))
    return fail(ErrorCode::kUnsupported, "glsl_es/", r->name,
                ": the driver compiles it only with its fallback scheduler");
  return Status::success();
}

// The fastest point of all the sweeps of one stage (each sweep starts from the previous winner).
const SweepPoint* fastestOf(const std::vector<Sweep>& sweeps) {
  const SweepPoint* winner = nullptr;
  for (const Sweep& s : sweeps) {
    const SweepPoint* b = s.best();
    if (b && (!winner || b->stats.median_ms < winner->stats.median_ms)) winner = b;
  }
  return winner;
}

constexpr uint32_t kPoisonPattern = 0xDEADBEEFu;

// Measures one configuration of a stage into `point`: its label and tuned fields, then, where
// the stage builds and its programs compiled well, `check(stage)` once (against the CPU
// reference) and the timing of `once(stage)`. A refusal, failure or wrong result is the point's
// error, and the point is never chosen.
template <class Stage, class Params, class Check, class Once>
void measurePoint(const GlContext& gl, const TuneOptions& o, const Params& p, SweepPoint& point,
                  Check check, Once once) {
  point.label = describe(p);
  point.params = tunedFieldsToJson(p);
  if (o.progress) o.progress->step(point.label);
  const size_t mark = ShaderLibrary::reportCount();
  Result<Stage> made = Stage::create(gl, p);
  Status s = made ? compiledWell(mark) : Status(made.error());
  if (s) s = check(made.value());
  if (s) {
    Result<TimingStats> t = measureGpu(gl, o.measure, [&]() { return once(made.value()); });
    if (t) {
      point.stats = t.value();
      return;
    }
    s = t.error();
  }
  point.error = s.error().message;
}

// `result` with the fastest point of all its sweeps as its best: that point's tuned fields read
// onto `base` by `fromJson`.
template <class Params, class FromJson>
Result<TuneResult<Params>> withTheFastest(TuneResult<Params> result, const Params& base,
                                          FromJson fromJson) {
  const SweepPoint* winner = fastestOf(result.sweeps);
  Result<Params> best = fromJson(winner->params, base);
  if (!best) return best.error();
  result.best = best.value();
  result.best_stats = winner->stats;
  return result;
}

// Each of `ps` as a point of `s`: placed on the plot by `place(p, point)`, then measured by
// `run(p, point)`; the progress counts them.
template <class Params, class Place, class Run>
void sweepPoints(Sweep& s, const std::vector<Params>& ps, const TuneOptions& o, Place place,
                 Run run) {
  if (o.progress) o.progress->addToTotal(int(ps.size()));
  for (const Params& p : ps) {
    SweepPoint point;
    place(p, point);
    run(p, point);
    s.points.push_back(std::move(point));
  }
}

// The frame in both source forms the stages take.
struct FrameForms {
  GpuImage texture;
  PackedRgbaBuffer buffer;
};
Result<FrameForms> frameForms(const GlContext& gl, const RgbaImage& frame) {
  Result<GpuImage> texture = GpuImage::fromImage(frame);
  if (!texture) return texture.error();
  Result<PackedRgbaBuffer> buffer = RgbaPacker::packOnGpu(gl, frame);
  if (!buffer) return buffer.error();
  return FrameForms{std::move(texture.value()), std::move(buffer.value())};
}

// Everything a histogram candidate needs: the frame in both forms and the expected counts.
struct HistogramBench {
  const GlContext& gl;
  const RgbaImage& frame;
  GpuImage texture;
  PackedRgbaBuffer buffer;
  std::vector<uint32_t> expected;  // empty when not verifying
  const TuneOptions& o;

  // Verifies (once) then times one configuration; the result goes into `point`.
  // Each of `ps` as a point of `s`, placed by `place(p, point)`.
  template <class Place>
  void sweep(Sweep& s, const std::vector<HistogramParams>& ps, Place place) {
    sweepPoints(s, ps, o, place,
                [&](const HistogramParams& p, SweepPoint& point) { run(p, point); });
  }

  void run(const HistogramParams& p, SweepPoint& point) {
    auto once = [&](Histogram& hist) {
      return p.source == ImageSource::kTexture ? hist.run(texture) : hist.run(buffer);
    };
    auto check = [&](Histogram& hist) -> Status {
      if (expected.empty()) return Status::success();
      if (Status s = hist.poison(frame.width, frame.height, kPoisonPattern); !s) return s;
      if (Status s = once(hist); !s) return s;
      Result<std::vector<uint32_t>> counts = hist.read();
      if (!counts) return counts.error();
      if (counts.value() != expected)
        return fail(ErrorCode::kGpu, "counts differ from the CPU reference");
      return Status::success();
    };
    measurePoint<Histogram>(gl, o, p, point, check, once);
  }
};

// `base` at each workgroup size x workgroup count of a shape sweep, where `keep` takes it: a few
// when quick, on llvmpipe the counts `llvmpipe_counts` (its workgroups run one after another).
template <class Params, class Keep>
std::vector<Params> shapeGrid(const Params& base, const GlContext& gl, bool quick,
                              std::vector<int> llvmpipe_counts, Keep keep) {
  const ComputeLimits& limits = gl.limits();
  int max_wg = std::min({limits.work_group_invocations, limits.work_group_size[0], 1024});
  std::vector<int> counts = quick ? std::vector<int>{1, 4}
                            : gl.isLlvmpipe()
                                ? std::move(llvmpipe_counts)
                                : std::vector<int>{64, 128, 256, 512, 1024, 2048, 4096};
  std::vector<Params> grid;
  for (int wg : quick ? std::vector<int>{16, 64} : powersOfTwo(64, max_wg)) {
    for (int n : counts) {
      Params p = base;
      p.workgroup_size = wg;
      p.workgroups = n;
      if (keep(p)) grid.push_back(p);
    }
  }
  return grid;
}

// `best` at each pixels per step of `steps` (4 and 8 when quick), its loads in turn and, on a
// packed buffer past one quad a step, batched; where `keep` takes it.
template <class Params, class Keep>
std::vector<Params> stepCandidates(const Params& best, bool quick, std::vector<int> steps,
                                   Keep keep) {
  std::vector<Params> out;
  for (int n : quick ? std::vector<int>{4, 8} : steps) {
    for (bool batch : {false, true}) {
      Params p = best;
      p.pixels_per_invocation = n;
      p.batch_loads = batch;
      if (batch && (p.source != ImageSource::kPackedBuffer || n == 4)) continue;
      if (keep(p)) out.push_back(p);
    }
  }
  return out;
}

// Where the points of a shape sweep stand on its plot: at their workgroup count, a line per
// workgroup size.
template <class Params>
void placeByShape(const Params& p, SweepPoint& point) {
  point.series = "wg=" + std::to_string(p.workgroup_size);
  point.x = p.workgroups;
}

// Where the points of a step sweep stand: at their pixels per step, a line per load form.
template <class Params>
void placeByStep(const Params& p, SweepPoint& point) {
  point.x = p.pixels_per_invocation;
  point.series = p.batch_loads ? "batched loads" : "loads in turn";
}

// A persistent shape whose invocations each walk more than 32768 grid-stride steps: seconds
// of GPU time for a big frame even on a fast GPU (bench/results/h200-stages.md), past the
// half second that hangs a Pi 5. Real GPUs skip them; llvmpipe's own loop limit is the
// stage's check.
bool tooSerial(const HistogramParams& p, const RgbaImage& frame) {
  int64_t per_step = int64_t(p.workgroups) * p.workgroup_size * p.pixels_per_invocation;
  return int64_t(frame.pixelCount()) / per_step > 32768;
}

// Index of the best point, or -1.
int bestIndex(const Sweep& s) {
  int best = -1;
  for (size_t i = 0; i < s.points.size(); ++i) {
    const SweepPoint& p = s.points[i];
    if (p.ok() && (best < 0 || p.stats.median_ms < s.points[best].stats.median_ms)) best = int(i);
  }
  return best;
}

}  // namespace

const SweepPoint* Sweep::best() const {
  int i = bestIndex(*this);
  return i < 0 ? nullptr : &points[i];
}

Result<HistogramTuneResult> tuneHistogram(const GlContext& gl, const RgbaImage& frame,
                                          const HistogramParams& base, const TuneOptions& o) {
  Result<FrameForms> frame_forms = frameForms(gl, frame);
  if (!frame_forms) return frame_forms.error();
  HistogramBench bench{gl, frame, std::move(frame_forms->texture), std::move(frame_forms->buffer),
                       {}, o};
  if (o.verify) bench.expected = histogramReference(frame, base.bins, base.channels, base.luma);
  const ComputeLimits& limits = gl.limits();
  bool big = frame.pixelCount() > 1280u * 720u;

  // 1. strategy x source, each with its defaults.
  Sweep strategies{"histogram", "strategy", "strategy and source", false, true, {}};
  std::vector<HistogramParams> firsts;
  HistogramParams defaults = base;
  for (HistogramStrategy s : {HistogramStrategy::kSingle, HistogramStrategy::kGlobalAtomic,
                              HistogramStrategy::kChunkSum, HistogramStrategy::kChunkReduce,
                              HistogramStrategy::kPersistent, HistogramStrategy::kReplicated}) {
    // One invocation over a big frame runs for seconds on a real GPU, long enough for a
    // watchdog (a Pi 5 hangs past half a second): only where the GPU is the CPU.
    if (s == HistogramStrategy::kSingle && big && !gl.isLlvmpipe()) continue;
    HistogramParams p = defaults;
    p.strategy = s;
    firsts.push_back(p);
  }
  // One invocation looping over the frame with plain shared counts: the form one might expect
  // to suit a software GPU, swept for comparison (llvmpipe's loop limit refuses it on big frames).
  HistogramParams one = defaults;
  one.strategy = HistogramStrategy::kPersistent;
  one.workgroup_size = 1;
  one.workgroups = 1;
  one.shared_atomics = false;
  if (gl.isLlvmpipe() || !tooSerial(one, frame)) firsts.push_back(one);
  int total = int(firsts.size()) * 2;
  std::vector<HistogramParams> grid;
  for (const HistogramParams& p :
       persistentCandidates(base, limits, o.quick, gl.isLlvmpipe() ? 256 : 4096)) {
    bool fills = int64_t(p.workgroups) * p.workgroup_size <= int64_t(frame.pixelCount()) ||
                 p.workgroups == 1;
    if (fills && (gl.isLlvmpipe() || !tooSerial(p, frame))) grid.push_back(p);
  }
  if (o.progress) o.progress->setTotal(total + int(grid.size()));
  for (const HistogramParams& f : firsts) {
    for (ImageSource src : {ImageSource::kTexture, ImageSource::kPackedBuffer}) {
      HistogramParams p = f;
      p.source = src;
      SweepPoint point;
      point.x = double(strategies.points.size());
      bench.run(p, point);
      strategies.points.push_back(std::move(point));
    }
  }
  HistogramTuneResult result;
  int b1 = bestIndex(strategies);
  if (b1 < 0)
    return fail(ErrorCode::kUnsupported, "histogram tuning: no configuration worked (first: ",
                strategies.points.front().error, ")");
  Result<HistogramParams> best1 = histogramFromJson(strategies.points[b1].params, base);
  if (!best1) return best1.error();
  ImageSource source = best1.value().source;
  result.sweeps.push_back(std::move(strategies));

  // 2. persistent: workgroup size x workgroup count, on the faster source.
  Sweep wgs{"histogram", "persistent", "workgroup count (one line per workgroup size)",
            true,        false,        {}};
  for (HistogramParams p : grid) {
    p.source = source;
    SweepPoint point;
    placeByShape(p, point);
    bench.run(p, point);
    wgs.points.push_back(std::move(point));
  }
  const SweepPoint* b2 = wgs.best();
  result.sweeps.push_back(std::move(wgs));

  // 3. pixels per invocation at the best persistent point.
  if (b2) {
    Result<HistogramParams> at = histogramFromJson(result.sweeps.back().best()->params, base);
    if (!at) return at.error();
    Sweep ppi{"histogram", "pixels_per_invocation", "pixels per invocation", true, false, {}};
    std::vector<HistogramParams> ppis;
    for (int n : o.quick ? std::vector<int>{1, 4} : powersOfTwo(1, 32)) {
      HistogramParams p = at.value();
      p.pixels_per_invocation = n;
      if (p.validate(limits)) ppis.push_back(p);
    }
    bench.sweep(ppi, ppis, [&](const HistogramParams& p, SweepPoint& point) {
      point.x = p.pixels_per_invocation;
    });
    result.sweeps.push_back(std::move(ppi));
  }

  // 4-6. replicated: replicas x run length at the best persistent shape, then its shape, then
  // pixels per step.
  {
    HistogramParams at = base;
    at.strategy = HistogramStrategy::kReplicated;
    at.source = source;
    if (b2) {
      Result<HistogramParams> p2 = histogramFromJson(b2->params, base);
      if (!p2) return p2.error();
      at.workgroups = p2.value().workgroups;
      at.workgroup_size = std::max(16, p2.value().workgroup_size);
    }
    at.pixels_per_invocation = 4;
    std::vector<HistogramParams> reps = replicatedCandidates(at, limits, o.quick);
    Sweep rs{"histogram", "replicas", "sub-histograms per workgroup (one line per run length)",
             false,       false,      {}};
    bench.sweep(rs, reps, [](const HistogramParams& p, SweepPoint& point) {
      point.series =
          std::string(p.run_length ? "run length" : "no run length") + (p.planar ? ", planar" : "");
      point.x = p.replicas;
    });
    const SweepPoint* b4 = rs.best();
    result.sweeps.push_back(std::move(rs));
    if (b4) {
      Result<HistogramParams> best4 = histogramFromJson(b4->params, base);
      if (!best4) return best4.error();
      Sweep shapes{"histogram", "replicated", "workgroup count (one line per workgroup size)",
                   true,        false,        {}};
      std::vector<HistogramParams> grid =
          shapeGrid(best4.value(), gl, o.quick, {4, 16, 64, 256}, [&](const HistogramParams& p) {
            const bool fills =
                int64_t(p.workgroups) * p.workgroup_size * 4 <= int64_t(frame.pixelCount()) ||
                p.workgroups == 1;
            return fills && p.validate(limits).ok();
          });
      bench.sweep(shapes, grid, placeByShape<HistogramParams>);
      const SweepPoint* b5 = shapes.best();
      Result<HistogramParams> best5 = histogramFromJson(b5 ? b5->params : b4->params, base);
      if (!best5) return best5.error();
      result.sweeps.push_back(std::move(shapes));
      Sweep ppi{
          "histogram", "replicated-ppi", "pixels per invocation and step (quads x 4)", true, false,
          {}};
      const std::vector<HistogramParams> ppis =
          stepCandidates(best5.value(), o.quick, {4, 8, 16, 32},
                         [&](const HistogramParams& p) { return p.validate(limits).ok(); });
      bench.sweep(ppi, ppis, placeByStep<HistogramParams>);
      result.sweeps.push_back(std::move(ppi));
    }
  }

  // 7. chunk tile shapes, when a chunk strategy won the first sweep.
  HistogramStrategy s1 = best1.value().strategy;
  if (s1 == HistogramStrategy::kGlobalAtomic || s1 == HistogramStrategy::kChunkSum ||
      s1 == HistogramStrategy::kChunkReduce) {
    Sweep tiles{"histogram", "tile", "tile shape", false, true, {}};
    std::vector<HistogramParams> shapes;
    for (int inv : {64, 128, 256, 512, 1024}) {
      for (int w : powersOfTwo(16, inv)) {
        HistogramParams p = best1.value();
        p.tile_width = w;
        p.tile_height = inv / w;
        if (p.validate(limits)) shapes.push_back(p);
      }
    }
    bench.sweep(tiles, shapes, [&](const HistogramParams&, SweepPoint& point) {
      point.x = double(tiles.points.size());
    });
    result.sweeps.push_back(std::move(tiles));
  }

  return withTheFastest(std::move(result), base, histogramFromJson);
}

Result<BlurTuneResult> tuneBlur(const GlContext& gl, const RgbaImage& frame, const BlurParams& base,
                                const TuneOptions& o) {
  Result<GpuImage> in = GpuImage::fromImage(frame);
  if (!in) return in.error();
  Result<GpuImage> out = GpuImage::create(frame.width, frame.height);
  if (!out) return out.error();
  RgbaImage expected;
  if (o.verify) expected = blurReference(frame, base.filter_dim, base.iterations);
  std::vector<BlurParams> candidates = blurCandidates(base, gl.limits(), o.quick);
  if (o.progress) o.progress->setTotal(int(candidates.size()));
  Sweep tiles{"blur", "tile", "strategy, tile shape or segment, workgroup size", false, true, {}};
  for (const BlurParams& p : candidates) {
    SweepPoint point;
    point.x = double(tiles.points.size());
    if (p.strategy == BlurStrategy::kSliding)
      point.series = "sliding seg=" + std::to_string(p.segment) +
                     (p.prefetch > 1 ? " prefetch=" + std::to_string(p.prefetch) : "");
    else if (p.strategy == BlurStrategy::kStream)
      point.series = "stream rows=" + std::to_string(p.tile_rows);
    else if (p.strategy == BlurStrategy::kTiled)
      point.series = "rows=" + std::to_string(p.tile_rows);
    else
      point.series = std::string(blurStrategyName(p.strategy)) + " " + std::to_string(p.tile_rows) +
                     "x" + std::to_string(p.tile_width);
    auto once = [&](Blur& blur) { return blur.run(in.value(), out.value()); };
    auto check = [&](Blur& blur) -> Status {
      Status s = once(blur);
      if (!s || !o.verify) return s;
      Result<RgbaImage> got = out.value().download();
      if (!got) return got.error();
      if (!(got.value() == expected))
        return fail(ErrorCode::kGpu, "output differs from the CPU reference");
      return Status::success();
    };
    measurePoint<Blur>(gl, o, p, point, check, once);
    tiles.points.push_back(std::move(point));
  }
  const SweepPoint* winner = tiles.best();
  if (!winner) return fail(ErrorCode::kUnsupported, "blur tuning: no configuration worked");
  BlurTuneResult result;
  Result<BlurParams> best = blurFromJson(winner->params, base);
  if (!best) return best.error();
  result.best = best.value();
  result.best_stats = winner->stats;
  result.sweeps.push_back(std::move(tiles));
  return result;
}

Result<ReduceTuneResult> tuneReduce(const GlContext& gl, const RgbaImage& frame,
                                    const ReduceParams& base, const TuneOptions& o) {
  Result<FrameForms> frame_forms = frameForms(gl, frame);
  if (!frame_forms) return frame_forms.error();
  std::vector<ChannelReduce> expected;
  if (o.verify) expected = reduceReference(frame, base.channels, base.luma);
  const ComputeLimits& limits = gl.limits();
  auto run = [&](const ReduceParams& p, SweepPoint& point) {
    auto once = [&](ImageReduce& r) {
      return p.source == ImageSource::kTexture ? r.run(frame_forms->texture)
                                               : r.run(frame_forms->buffer);
    };
    auto check = [&](ImageReduce& r) -> Status {
      if (!o.verify) return Status::success();
      Status s = r.poison(kPoisonPattern);
      if (s) s = once(r);
      Result<std::vector<ChannelReduce>> got = r.read();
      if (s && (!got || got.value() != expected))
        s = fail(ErrorCode::kGpu, "result differs from the CPU reference");
      return s;
    };
    measurePoint<ImageReduce>(gl, o, p, point, check, once);
  };
  auto sweep = [&](Sweep& s, const std::vector<ReduceParams>& ps,
                   const std::function<void(const ReduceParams&, SweepPoint&)>& place) {
    sweepPoints(s, ps, o, place, run);
  };
  auto fits = [&](const ReduceParams& p) {
    int64_t threads = int64_t(p.workgroups) * p.workgroup_size;
    return p.validate(limits).ok() && (threads * 4 <= int64_t(frame.pixelCount()) || threads <= 64);
  };
  ReduceTuneResult result;
  if (o.progress) o.progress->setTotal(0);

  // 1. source x subgroups.
  Sweep forms{"reduce", "form", "source and workgroup combine", false, true, {}};
  std::vector<ReduceParams> ps;
  for (ImageSource src : {ImageSource::kTexture, ImageSource::kPackedBuffer}) {
    for (bool sub : {false, true})
      for (int acc : {0, 4, 16}) {
        if (sub && !ReduceParams::subgroupsAvailable()) continue;
        ReduceParams p = base;
        p.source = src;
        p.subgroups = sub;
        p.accumulators = acc;
        p.workgroup_size = std::min(256, limits.work_group_invocations);
        p.workgroups = o.quick ? 2 : gl.isLlvmpipe() ? 16 : 256;
        p.pixels_per_invocation = 4;
        if (p.validate(limits)) ps.push_back(p);
      }
  }
  sweep(forms, ps,
        [&](const ReduceParams&, SweepPoint& pt) { pt.x = double(forms.points.size()); });
  const SweepPoint* b1 = forms.best();
  if (!b1)
    return fail(ErrorCode::kUnsupported, "reduce tuning: no configuration worked (first: ",
                forms.points.empty() ? "none" : forms.points.front().error, ")");
  Result<ReduceParams> best1 = reduceFromJson(b1->params, base);
  if (!best1) return best1.error();
  result.sweeps.push_back(std::move(forms));

  // 2. workgroup size x count.
  Sweep shapes{"reduce", "shape", "workgroup count (one line per workgroup size)", true, false, {}};
  ps = shapeGrid(best1.value(), gl, o.quick, {2, 8, 32, 128}, fits);
  sweep(shapes, ps, placeByShape<ReduceParams>);
  const SweepPoint* b2 = shapes.best();
  Result<ReduceParams> best2 = reduceFromJson(b2 ? b2->params : b1->params, base);
  if (!best2) return best2.error();
  result.sweeps.push_back(std::move(shapes));

  // 3. pixels per invocation and step.
  Sweep ppis{"reduce", "ppi", "pixels per invocation and step (quads x 4)", true, false, {}};
  ps = stepCandidates(best2.value(), o.quick, {4, 8, 16, 32, 64}, fits);
  sweep(ppis, ps, placeByStep<ReduceParams>);
  result.sweeps.push_back(std::move(ppis));

  return withTheFastest(std::move(result), base, reduceFromJson);
}

}  // namespace esf
