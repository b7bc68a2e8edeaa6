#include "bench/stage_rows.hpp"

#include "bench/peers.hpp"
#include "core/stages/blur_reference.hpp"
#include "core/stages/histogram_reference.hpp"
#include "core/stages/reduce.hpp"
#include "core/stages/reduce_reference.hpp"
#include "core/stages/resize.hpp"
#include "core/stages/resize_reference.hpp"
#include "core/stages/scale.hpp"
#include "core/tuning/tuned_params.hpp"
#include "esframe/pipeline.hpp"

namespace esf::bench {
namespace {

using Work = std::function<Status()>;

// R, G, B (and A when `with_alpha`) columns of the reference, counts[bin * n + c].
std::vector<uint32_t> referenceColumns(const RgbaImage& f, bool with_alpha) {
  int n = with_alpha ? 4 : 3;
  std::vector<uint32_t> c(256 * size_t(n), 0);
  for (size_t i = 0; i < f.pixelCount(); ++i)
    for (int k = 0; k < n; ++k) ++c[size_t(f.pixels[i * 4 + k]) * n + k];
  return c;
}

}  // namespace

Status histogramRows(const GlContext& gl, const RgbaImage& frame, const std::string& label,
                     const FrameBenchOptions& o, std::vector<BenchRow>* rows) {
  const double px = double(frame.pixelCount()), bytes = px * 4;
  const std::string group = "histogram rgbl 256";
  Result<GpuImage> tex = GpuImage::fromImage(frame);
  if (!tex) return tex.error();
  Result<PackedRgbaBuffer> buf = RgbaPacker::packOnGpu(gl, frame);
  if (!buf) return buf.error();
  std::vector<uint32_t> expected = histogramReference(frame, 256, "rgbl", o.histogram.luma);

  // One esframe row: created, poisoned, run once and checked against the reference, then timed.
  auto esframeRow = [&](const std::string& row_group, const HistogramParams& params,
                        const std::string& variant) {
    Result<Histogram> h = Histogram::create(gl, params);
    if (!h) {
      rows->push_back(timed(label, row_group, variant, true, h.error(), 0, 0));
      return;
    }
    Work once = [&]() {
      return params.source == ImageSource::kTexture ? h.value().run(tex.value())
                                                    : h.value().run(buf.value());
    };
    Status s = h.value().poison(frame.width, frame.height, 0xDEADBEEFu);
    if (s) s = once();
    Result<std::vector<uint32_t>> counts = h.value().read();
    if (s && (!counts || counts.value() != expected))
      s = fail(ErrorCode::kInternal, "WRONG: counts differ from the CPU reference");
    BenchRow r = s ? timed(label, row_group, variant, true, measureGpu(gl, o.gpu, once), bytes, px)
                   : timed(label, row_group, variant, true, s.error(), 0, 0);
    if (s) r.note = "exact";
    rows->push_back(r);
  };
  HistogramParams v3d = HistogramParams::defaultsFor(gl);
  for (auto [params, name] : {std::pair{o.histogram, "esframe " + o.histogram_origin},
                              std::pair{v3d, std::string("esframe v3d-safe default")}})
    esframeRow(group, params, name + ": " + describe(params));
  // --histogram-variants: each its parameters over the tuned (or auto) ones.
  for (const HistogramVariant& v : o.histogram_variants) {
    nlohmann::json fields = tunedFieldsToJson(o.histogram);
    fields.update(v.params);
    Result<HistogramParams> params = histogramFromJson(fields, o.histogram);
    if (!params)
      rows->push_back(timed(label, "histogram variants", v.name, true, params.error(), 0, 0));
    else
      esframeRow("histogram variants", params.value(), v.name + ": " + describe(params.value()));
  }
  if (o.cpu_references) {
    rows->push_back(timed(label, group, "CPU reference (1 thread)", false,
                          measureWall(o.cpu,
                                      [&]() -> Status {
                                        histogramReference(frame, 256, "rgbl", o.histogram.luma);
                                        return {};
                                      }),
                          bytes, px));
  }
  // A peer's row, noted (where it ran) with whether its counts equal the reference's.
  auto push_checked = [&](BenchRow row, const std::vector<uint32_t>& counts, bool with_alpha,
                          const char* equal, const char* differ) {
    if (row.error.empty())
      row.note = counts == referenceColumns(frame, with_alpha) ? equal : differ;
    rows->push_back(std::move(row));
  };
  if (!o.histogram_only) {
    std::vector<uint32_t> rgb;
    push_checked(timed(label, group, "OpenCV calcHist R,G,B + cvtColor+calcHist gray", false,
                       opencvHistogram(frame, o.cpu, &rgb), bytes, px),
                 rgb, false, "R,G,B counts equal esframe's", "R,G,B counts DIFFER from esframe's");
  }
  std::vector<uint32_t> rgba;
  push_checked(timed(label, group, "CUB MultiHistogramEven<4,4> (R,G,B,A, no luma)", false,
                     cubHistogram(frame, o.gpu, &rgba), bytes, px),
               rgba, true, "counts equal the reference", "counts DIFFER from the reference");
  return {};
}

Status otherStageRows(const GlContext& gl, const RgbaImage& frame, const std::string& label,
                      const FrameBenchOptions& o, std::vector<BenchRow>* rows) {
  const double px = double(frame.pixelCount()), bytes = px * 4;
  const int w = frame.width, h = frame.height;
  Result<GpuImage> tex = GpuImage::fromImage(frame);
  if (!tex) return tex.error();
  Result<GpuImage> out = GpuImage::create(w, h);
  if (!out) return out.error();
  Result<PackedRgbaBuffer> buf = PackedRgbaBuffer::create(w, h);
  if (!buf) return buf.error();

  // Blur: 15 taps, one horizontal and one vertical pass (each reads and writes the frame).
  const std::string blur_group = "blur " + std::to_string(o.blur.filter_dim) + " H+V";
  Result<Blur> blur = Blur::create(gl, o.blur);
  if (!blur) return blur.error();
  Work blur_once = [&]() { return blur.value().run(tex.value(), out.value()); };
  {
    std::string variant = "esframe " + o.blur_origin + ": " + describe(o.blur);
    Status s = blur_once();
    std::string note;
    if (s && o.cpu_references) {
      Result<RgbaImage> got = out.value().download();
      if (!got)
        s = got.error();
      else if (!(got.value() == blurReference(frame, o.blur.filter_dim, o.blur.iterations)))
        s = fail(ErrorCode::kInternal, "WRONG: differs from the CPU reference");
      else
        note = "exact";
    }
    BenchRow r = s ? timed(label, blur_group, variant, true, measureGpu(gl, o.gpu, blur_once),
                           bytes * 4 * o.blur.iterations, px)
                   : timed(label, blur_group, variant, true, s.error(), 0, 0);
    r.note = note;
    rows->push_back(r);
  }
  std::string k = std::to_string(o.blur.filter_dim);
  rows->push_back(timed(label, blur_group, "OpenCV blur " + k + "x" + k + " (box, replicate)",
                        false, opencvBlur(frame, o.blur.filter_dim, o.cpu), bytes * 2, px));
  if (o.cpu_references)
    rows->push_back(timed(label, blur_group, "CPU reference (1 thread)", false,
                          measureWall(o.cpu,
                                      [&]() -> Status {
                                        blurReference(frame, o.blur.filter_dim, o.blur.iterations);
                                        return {};
                                      }),
                          bytes * 2, px));

  // Resize to half size, area average.
  int rw = std::max(w / 2, 1), rh = std::max(h / 2, 1);
  const std::string resize_group =
      "resize area to " + std::to_string(rw) + "x" + std::to_string(rh);
  Result<Resize> resize = Resize::create(gl, ResizeParams::defaultsFor(gl));
  if (!resize) return resize.error();
  Result<GpuImage> small = GpuImage::create(rw, rh);
  if (!small) return small.error();
  Work resize_once = [&]() { return resize.value().run(tex.value(), small.value()); };
  {
    Status s = resize_once();
    Result<RgbaImage> got = small.value().download();
    if (s && (!got || !(got.value() == resizeReference(frame, rw, rh))))
      s = fail(ErrorCode::kInternal, "WRONG: differs from the CPU reference");
    BenchRow r = s ? timed(label, resize_group, "esframe 16x16", true,
                           measureGpu(gl, o.gpu, resize_once), bytes * 1.25, px)
                   : timed(label, resize_group, "esframe 16x16", true, s.error(), 0, 0);
    if (s) r.note = "exact";
    rows->push_back(r);
  }
  rows->push_back(timed(label, resize_group, "OpenCV resize INTER_AREA", false,
                        opencvResizeArea(frame, rw, rh, o.cpu), bytes * 1.25, px));
  if (o.cpu_references)
    rows->push_back(timed(label, resize_group, "CPU reference (1 thread)", false,
                          measureWall(o.cpu,
                                      [&]() -> Status {
                                        resizeReference(frame, rw, rh);
                                        return {};
                                      }),
                          bytes * 1.25, px));

  // Reduce (min, max, sum of R, G, B, luma): tuned (or auto) and the v3d-safe default; then the
  // histogram scale pass.
  Result<PackedRgbaBuffer> packed = RgbaPacker::packOnGpu(gl, frame);  // as the pipeline has it
  if (!packed) return packed.error();
  const ReduceParams& rp = o.reduce;
  Result<ImageReduce> reduce = ImageReduce::create(gl, rp);
  if (!reduce) return reduce.error();
  const std::vector<ChannelReduce> reduce_want = reduceReference(frame, rp.channels, rp.luma);
  for (auto [params, name] :
       {std::pair{rp, "esframe " + o.reduce_origin},
        std::pair{ReduceParams::defaultsFor(gl), std::string("esframe v3d-safe default")}}) {
    std::string variant = name + ": " + describe(params);
    Result<ImageReduce> r = ImageReduce::create(gl, params);
    if (!r) {
      rows->push_back(timed(label, "reduce min/max/sum rgbl", variant, true, r.error(), 0, 0));
      continue;
    }
    Work once = [&]() {
      return params.source == ImageSource::kTexture ? r.value().run(tex.value())
                                                    : r.value().run(packed.value());
    };
    Status s = r.value().poison(0xDEADBEEFu);
    if (s) s = once();
    Result<std::vector<ChannelReduce>> got = r.value().read();
    if (s && (!got || got.value() != reduce_want))
      s = fail(ErrorCode::kInternal, "WRONG: differs from the CPU reference");
    BenchRow row = s ? timed(label, "reduce min/max/sum rgbl", variant, true,
                             measureGpu(gl, o.gpu, once), bytes, px)
                     : timed(label, "reduce min/max/sum rgbl", variant, true, s.error(), 0, 0);
    if (s) row.note = "exact";
    rows->push_back(row);
  }
  if (o.cpu_references)
    rows->push_back(timed(label, "reduce min/max/sum rgbl", "CPU reference (1 thread)", false,
                          measureWall(o.cpu,
                                      [&]() -> Status {
                                        reduceReference(frame, rp.channels, rp.luma);
                                        return {};
                                      }),
                          bytes, px));
  Result<Histogram> hist = Histogram::create(gl, o.histogram);
  if (!hist) return hist.error();
  Result<HistogramScale> scale = HistogramScale::create(gl);
  if (!scale) return scale.error();
  rows->push_back(
      timed(label, "scale (part 2)", "esframe", true,
            measureGpu(gl, o.gpu, [&]() { return scale.value().run(hist.value(), uint64_t(px)); }),
            0, 0));

  // Transfers: CPU -> texture, CPU -> packed buffer, texture -> buffer on the GPU, read-back.
  Result<RgbaPacker> packer = RgbaPacker::create(gl);
  if (!packer) return packer.error();
  auto finished = [](Status s) {
    glFinish();
    return s;
  };
  rows->push_back(timed(label, "transfers", "upload to texture (glTexSubImage2D)", true,
                        measureWall(o.gpu, [&]() { return finished(tex.value().upload(frame)); }),
                        bytes, px));
  rows->push_back(timed(label, "transfers", "upload to packed buffer (glBufferSubData)", true,
                        measureWall(o.gpu, [&]() { return finished(buf.value().upload(frame)); }),
                        bytes, px));
  rows->push_back(
      timed(label, "transfers", "pack texture -> buffer (GPU)", true,
            measureGpu(gl, o.gpu, [&]() { return packer.value().run(tex.value(), buf.value()); }),
            bytes * 2, px));
  rows->push_back(timed(label, "transfers", "download texture (glReadPixels)", true,
                        measureWall(o.gpu,
                                    [&]() -> Status {
                                      Result<RgbaImage> r = out.value().download();
                                      return r ? Status() : Status(r.error());
                                    }),
                        bytes, px));

  // End to end, wall clock, one frame per run.
  // The frame goes up once per form the stages read (texture, packed buffer or both).
  const bool hist_tex = o.histogram.source == ImageSource::kTexture;
  const bool red_tex = rp.source == ImageSource::kTexture;
  Work stats_frame = [&]() -> Status {
    Status s;
    if (hist_tex || red_tex) s = tex.value().upload(frame);
    if (s && (!hist_tex || !red_tex)) s = buf.value().upload(frame);
    if (s) s = hist_tex ? hist.value().run(tex.value()) : hist.value().run(buf.value());
    if (s) s = red_tex ? reduce.value().run(tex.value()) : reduce.value().run(buf.value());
    if (s) s = scale.value().run(hist.value(), uint64_t(px));
    if (!s) return s;
    Result<std::vector<uint32_t>> c = hist.value().read();
    if (!c) return c.error();
    Result<std::vector<ChannelReduce>> r = reduce.value().read();
    return r ? Status() : Status(r.error());
  };
  BenchRow e1 = timed(label, "end to end", "upload + histogram + reduce + scale + read back", true,
                      measureWall(o.cpu, stats_frame), 0, px);
  e1.fps_frames = 1;
  if (hist_tex != red_tex)
    e1.note = "uploads the frame twice: texture and packed buffer (the stages read both)";
  rows->push_back(e1);
  // The statistics path as an application runs it: the library's Pipeline (its own GL context
  // on the same GPU), one RGBA32 frame from host memory per run: import, R+G+B+L histogram at
  // 256 bins (strategy auto), stats, scale, read back. Checked exact before it is timed.
  {
    const char* variant = "library Pipeline::process (import + histogram + stats + scale)";
    Frame f;
    f.format = PixelFormat::kRGBA32;
    f.width = frame.width;
    f.height = frame.height;
    f.planes[0].data = frame.pixels.data();
    f.planes[0].size = frame.pixels.size();
    f.planes[0].stride = frame.width * 4;
    f.plane_count = 1;
    const std::vector<uint32_t> expected_rgbl =
        histogramReference(frame, 256, "rgbl", LumaWeights::kBt709);
    Result<std::unique_ptr<Pipeline>> pipeline = Pipeline::create(PipelineConfig{});
    Status s = pipeline ? Status() : Status(pipeline.error());
    if (s) {
      Result<FrameResult> r = (*pipeline)->process(f);
      if (!r)
        s = r.error();
      else if (r->hist.counts != expected_rgbl)
        s = fail(ErrorCode::kInternal, "WRONG: counts differ from the CPU reference");
    }
    BenchRow row = s ? timed(label, "end to end", variant, true,
                             measureWall(o.cpu,
                                         [&]() -> Status {
                                           Result<FrameResult> r = (*pipeline)->process(f);
                                           return r ? Status() : Status(r.error());
                                         }),
                             0, px)
                     : timed(label, "end to end", variant, true, s.error(), 0, 0);
    if (s) row.note = "exact";
    row.fps_frames = 1;
    rows->push_back(row);
    pipeline = Result<std::unique_ptr<Pipeline>>(nullptr);  // its context goes first
    if (Status c = gl.makeCurrent(); !c) return c;          // back to the bench's context
  }
  Work filter_frame = [&]() -> Status {
    Status s = tex.value().upload(frame);
    if (s) s = blur_once();
    if (!s) return s;
    Result<RgbaImage> r = out.value().download();
    return r ? Status() : Status(r.error());
  };
  BenchRow e2 = timed(label, "end to end", "upload + blur + download", true,
                      measureWall(o.cpu, filter_frame), 0, px);
  e2.fps_frames = 1;
  rows->push_back(e2);
  BenchRow zc;
  zc.frame = label;
  zc.group = "end to end";
  zc.variant = "zero-copy (dmabuf import)";
  zc.esframe = true;
  zc.error = "not measured: no dmabuf import on this EGL platform (see tests/vm for vkms/vgem)";
  rows->push_back(zc);
  return {};
}

}  // namespace esf::bench
