#include "bench/packed_blur.hpp"

#include "core/image/gpu_image.hpp"
#include "core/stages/blur_reference.hpp"
#include "core/tuning/tuned_params.hpp"

namespace esf::bench {
namespace {

// The blur of a form into the given output buffer.
using BlurInto = std::function<Status(PackedRgbaBuffer&)>;

// Runs `blur` into a poisoned `out` and compares the result with `want`. `out` is read back
// here, so it is not the buffer that is timed: the NVIDIA driver moved a buffer mapped for
// reading into host memory, and the next blurs into it wrote at PCIe speed (687 us, not 82).
Status checkExact(const BlurInto& blur, PackedRgbaBuffer& out, const RgbaImage& want) {
  RgbaImage poison(want.width, want.height);
  std::fill(poison.pixels.begin(), poison.pixels.end(), uint8_t(0xA5));
  if (Status s = out.upload(poison); !s) return s;
  if (Status s = blur(out); !s) return s;
  Result<RgbaImage> got = out.download();
  if (!got) return got.error();
  if (!(got.value() == want))
    return fail(ErrorCode::kInternal, "WRONG: differs from the CPU reference");
  return {};
}

// The packed buffers a blur of `frame` writes: one timed, one checked against the reference.
struct PackedOutputs {
  PackedRgbaBuffer timed, checked;
};
Result<PackedOutputs> packedOutputs(const RgbaImage& frame) {
  Result<PackedRgbaBuffer> timed = PackedRgbaBuffer::create(frame.width, frame.height);
  if (!timed) return timed.error();
  Result<PackedRgbaBuffer> checked = PackedRgbaBuffer::create(frame.width, frame.height);
  if (!checked) return checked.error();
  return PackedOutputs{std::move(timed.value()), std::move(checked.value())};
}

}  // namespace

Result<PackedBlurSweep> sweepPackedBlur(const GlContext& gl, const RgbaImage& frame,
                                        const BlurParams& base, const TuneOptions& o) {
  Result<PackedRgbaBuffer> src = RgbaPacker::packOnGpu(gl, frame);
  if (!src) return src.error();
  Result<PackedOutputs> outputs = packedOutputs(frame);
  if (!outputs) return outputs.error();
  const RgbaImage want = blurReference(frame, base.filter_dim, base.iterations);
  PackedBlurSweep result;
  result.sweep.stage = "blur";
  result.sweep.name = "packed-tile";
  result.sweep.x_axis = "configuration (tile width x rows, workgroup, vertical segment)";
  result.sweep.categorical = true;
  const std::vector<int> widths =
      o.quick ? std::vector<int>{16, 64} : std::vector<int>{32, 64, 128};
  const std::vector<int> heights =
      o.quick ? std::vector<int>{4, 64} : std::vector<int>{8, 16, 32, 64};
  const std::vector<int> groups = o.quick ? std::vector<int>{256} : std::vector<int>{128, 256};
  const std::vector<int> segments = o.quick ? std::vector<int>{8} : std::vector<int>{8, 16, 32};
  const std::vector<bool> quad_forms =
      o.quick ? std::vector<bool>{true} : std::vector<bool>{false, true};
  const std::vector<int> prefetches = o.quick ? std::vector<int>{8} : std::vector<int>{1, 8};
  double best_ms = 0;
  auto measure = [&](const BlurParams& p, const std::string& series) {
    SweepPoint pt;
    pt.series = series;
    pt.x = double(result.sweep.points.size());
    pt.label = describe(p);
    pt.params = tunedFieldsToJson(p);
    if (o.progress) o.progress->step(pt.label);
    Result<Blur> blur = Blur::create(gl, p);
    Status s = blur ? Status::success() : Status(blur.error());
    BlurInto work = [&](PackedRgbaBuffer& into) { return blur.value().run(src.value(), into); };
    if (s && o.verify) s = checkExact(work, outputs->checked, want);
    if (s) {
      Result<TimingStats> t = measureGpu(gl, o.measure, [&]() { return work(outputs->timed); });
      if (t)
        pt.stats = t.value();
      else
        s = t.error();
    }
    if (!s) pt.error = s.error().message;
    if (s && (best_ms == 0 || pt.stats.median_ms < best_ms)) {
      best_ms = pt.stats.median_ms;
      result.best = p;
    }
    result.sweep.points.push_back(std::move(pt));
  };
  BlurParams split = base;
  split.strategy = BlurStrategy::kSplit;
  split.buffer_intermediate = true;
  // The horizontal pass as a shared-memory tile.
  for (int tw : widths)
    for (int th : heights)
      for (int wg : groups)
        for (int seg : segments)
          for (bool quads : quad_forms)
            for (int prefetch : prefetches) {
              BlurParams p = split;
              p.column_quads = quads;
              p.prefetch = prefetch;
              p.tile_width = tw;
              p.tile_rows = th;
              p.workgroup_size = wg;
              p.segment = seg;
              if (!p.validate(gl.limits())) continue;  // past the shared memory or workgroup limit
              measure(p, "wg=" + std::to_string(wg));
            }
  // The horizontal pass from registers, 4 pixels per invocation (no tile).
  for (int wg : o.quick ? std::vector<int>{64} : std::vector<int>{64, 128, 256})
    for (int seg : segments)
      for (bool quads : quad_forms)
        for (int prefetch : o.quick ? std::vector<int>{8} : std::vector<int>{1, 4, 8}) {
          BlurParams p = split;
          p.row_quads = true;
          p.column_quads = quads;
          p.prefetch = prefetch;
          p.tile_width = 64;
          p.tile_rows = 16;
          p.workgroup_size = wg;
          p.segment = seg;
          if (!p.validate(gl.limits())) continue;
          measure(p, "row-quads wg=" + std::to_string(wg));
        }
  if (best_ms == 0) return fail(ErrorCode::kInternal, "blur packed sweep: no configuration ran");
  return result;
}

Status packedBlurRows(const GlContext& gl, const RgbaImage& frame, const std::string& label,
                      const FrameBenchOptions& o, const BlurParams& p, const std::string& origin,
                      std::vector<BenchRow>* rows) {
  const double px = double(frame.pixelCount()), bytes = px * 4;
  const std::string group = "blur " + std::to_string(p.filter_dim) + " H+V";
  Result<Blur> blur = Blur::create(gl, p);
  if (!blur) return blur.error();
  Result<PackedRgbaBuffer> src = RgbaPacker::packOnGpu(gl, frame);
  if (!src) return src.error();
  Result<GpuImage> tex = GpuImage::fromImage(frame);
  if (!tex) return tex.error();
  Result<PackedOutputs> outputs = packedOutputs(frame);
  if (!outputs) return outputs.error();
  const RgbaImage want = blurReference(frame, p.filter_dim, p.iterations);
  struct Form {
    const char* name;
    BlurInto work;
  };
  const Form forms[] = {
      {"packed buffer -> packed buffer",
       [&](PackedRgbaBuffer& into) { return blur.value().run(src.value(), into); }},
      {"image -> packed buffer",
       [&](PackedRgbaBuffer& into) { return blur.value().run(tex.value(), into); }}};
  for (const Form& f : forms) {
    const std::string variant = "esframe " + origin + " (" + f.name + "): " + describe(p);
    Status s = checkExact(f.work, outputs->checked, want);
    const std::function<Status()> timed_work = [&]() { return f.work(outputs->timed); };
    BenchRow r = s ? timed(label, group, variant, true, measureGpu(gl, o.gpu, timed_work),
                           bytes * 4 * p.iterations, px)
                   : timed(label, group, variant, true, s.error(), 0, 0);
    if (s) r.note = "exact";
    rows->push_back(r);
  }
  return {};
}

}  // namespace esf::bench
