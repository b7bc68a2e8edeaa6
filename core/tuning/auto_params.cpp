#include "core/tuning/auto_params.hpp"

#include "core/tuning/tuned_params.hpp"
#include "core/tuning/tuning_cache.hpp"
#include "esframe/base/log.hpp"

namespace esf {

namespace {

// The tuned fields of `stage` from the cache, validated against this GPU's limits; or null
// with nothing logged when there is no entry, or a warning when the entry is unusable.
template <typename Params, typename FromJson>
bool fromCache(const GlContext& gl, int width, int height, const std::string& stage,
               const std::string& cache_path, const Params& base, FromJson from_json, Params* out,
               std::string* why) {
  std::string path = cache_path.empty() ? TuningCache::defaultPath() : cache_path;
  std::string warning;
  TuningCache cache = TuningCache::load(path, &warning);
  if (!warning.empty()) logWarning(warning);
  std::string size_class = sizeClass(width, height);
  const CacheEntry* e = cache.find(DeviceKey::of(gl), size_class, stage);
  if (!e) return false;
  Result<Params> p = from_json(e->params, base);
  Status valid = p ? p.value().validate(gl.limits()) : Status(p.error());
  if (!valid) {
    logWarning("tuning cache " + path + ": ignoring the " + stage + " entry for " + size_class +
               ": " + valid.error().message);
    return false;
  }
  *out = p.value();
  if (why)
    *why = stage + ": tuned (" + path + ", size class " + size_class + ", tuned " + e->tuned_at +
           " on " + e->frame + "): " + describe(*out);
  return true;
}

}  // namespace

bool isNvidia(const GlContext& gl) {
  return gl.glVendor().find("NVIDIA") != std::string::npos;
}

HistogramParams vendorHistogramDefaults(const GlContext& gl, const HistogramParams& base,
                                        std::string* why) {
  HistogramParams d = HistogramParams::defaultsFor(gl);
  HistogramParams p = base;
  std::string vendor;
  if (gl.isLlvmpipe()) {
    vendor = "llvmpipe default";
    p.strategy = HistogramStrategy::kPersistent;
    p.source = ImageSource::kTexture;
    p.workgroup_size = 64;
    p.workgroups = 128;
    p.pixels_per_invocation = 4;
    p.shared_atomics = true;
  } else if (isNvidia(gl)) {
    // H200, 3840x2160 (bench/results/h200-stages.md): replicated on the packed buffer,
    // 1024 x 256, 4 sub-histograms, no run length: faster than CUB, where the persistent form
    // (one shared histogram a workgroup) stayed slower than CUB and the v3d default far slower.
    vendor = "NVIDIA default";
    p.strategy = HistogramStrategy::kReplicated;
    p.source = ImageSource::kPackedBuffer;
    p.workgroup_size = 1024;
    p.workgroups = 256;
    p.pixels_per_invocation = 4;
    p.replicas = 4;
    p.run_length = false;
    p.shared_atomics = true;
  } else {
    vendor = "v3d-safe default";
    p.strategy = d.strategy;
    p.source = d.source;
    p.tile_width = d.tile_width;
    p.tile_height = d.tile_height;
    p.sum_workgroup_size = d.sum_workgroup_size;
    p.workgroups = d.workgroups;
    p.workgroup_size = d.workgroup_size;
    p.pixels_per_invocation = d.pixels_per_invocation;
    p.shared_atomics = d.shared_atomics;
  }
  if (!p.validate(gl.limits())) {  // a driver below even these limits: the stage's own clamp
    vendor = "stage default";
    p = d;
    p.bins = base.bins;
    p.channels = base.channels;
    p.luma = base.luma;
  }
  if (why) *why = "histogram: " + vendor + " (no tuning cache entry): " + describe(p);
  return p;
}

namespace {

// `shape`'s speed fields (strategy, tile, segment, workgroup, ...) with `base`'s filter and
// iterations: what the blur computes stays; how it runs is `shape`'s.
BlurParams withFilterOf(const BlurParams& shape, const BlurParams& base) {
  BlurParams p = shape;
  p.filter_dim = base.filter_dim;
  p.iterations = base.iterations;
  return p;
}

}  // namespace

BlurParams vendorBlurDefaults(const GlContext& gl, const BlurParams& base, std::string* why) {
  const BlurParams d = BlurParams::defaultsFor(gl);
  BlurParams p = withFilterOf(d, base);
  std::string vendor = "v3d-safe default";
  if (!gl.isLlvmpipe() && !isNvidia(gl)) {
    // The boards' compilers (bench/boards/compilers.md): the fused pass at the stage's tile
    // keeps v3d at 4 threads (the tiled one 2), has fewer instructions on Mali and Adreno, and
    // is the one form without spills on Mali-T860 (the tiled one spills 13).
    p.strategy = BlurStrategy::kFused;
  }
  if (gl.isLlvmpipe()) {
    // llvmpipe, 1920x1080 (bench/results/llvmpipe-2core-stages.md): the sliding window,
    // segments of 32, 64 lines per workgroup, several times faster than the tiled 4 x 128.
    vendor = "llvmpipe default";
    p.strategy = BlurStrategy::kSliding;
    p.segment = 32;
    p.workgroup_size = 64;
  } else if (isNvidia(gl)) {
    // H200 (bench/results/h200-stages.md): split through a packed buffer. A packed source's
    // horizontal pass runs from registers, 4 pixels per invocation (row_quads; an image's takes
    // the 16 x 64 tile), and blur_columns.comp slides down columns of 32, reading rows 8 at a
    // time, so that a batch's loads are in flight together: the fastest form the sweeps found.
    vendor = "NVIDIA default";
    p.strategy = BlurStrategy::kSplit;
    p.tile_width = 64;
    p.tile_rows = 16;
    p.segment = 32;
    p.prefetch = 8;
    p.row_quads = true;
    p.workgroup_size = 256;
    p.buffer_intermediate = true;
  }
  if (p.filter_dim > p.maxFilterDim() || !p.validate(gl.limits())) {
    vendor = "stage default";
    p = withFilterOf(d, base);
  }
  if (why) *why = "blur: " + vendor + " (no tuning cache entry): " + describe(p);
  return p;
}

ReduceParams vendorReduceDefaults(const GlContext& gl, const ReduceParams& base, std::string* why) {
  ReduceParams d = ReduceParams::defaultsFor(gl);
  ReduceParams p = base;
  p.source = d.source;
  p.workgroups = d.workgroups;
  p.workgroup_size = d.workgroup_size;
  p.pixels_per_invocation = d.pixels_per_invocation;
  p.subgroups = false;
  p.accumulators = d.accumulators;
  p.batch_loads = d.batch_loads;
  std::string vendor = "v3d-safe default";
  if (isNvidia(gl)) {
    // H200 (bench/results/h200-stages.md): packed buffer, 128 x 512, 16 pixels a step with the
    // step's loads batched (all of a step's loads in flight at once), shared tree, 4
    // accumulators; subgroup arithmetic was slower than the shared tree at every shape.
    vendor = "NVIDIA default";
    p.source = ImageSource::kPackedBuffer;
    p.workgroup_size = 128;
    p.workgroups = 512;
    p.pixels_per_invocation = 16;
    p.subgroups = false;
    p.accumulators = 4;
    p.batch_loads = true;
  }
  if (!p.validate(gl.limits())) {
    vendor = "stage default";
    p = d;
    p.channels = base.channels;
    p.luma = base.luma;
  }
  if (why) *why = "reduce: " + vendor + " (no tuning cache entry): " + describe(p);
  return p;
}

ReduceParams chooseReduceParams(const GlContext& gl, int width, int height, std::string* why,
                                const ReduceParams& base, const std::string& cache_path) {
  ReduceParams p;
  if (fromCache(gl, width, height, "reduce", cache_path, base, reduceFromJson, &p, why)) return p;
  return vendorReduceDefaults(gl, base, why);
}

HistogramParams chooseHistogramParams(const GlContext& gl, int width, int height, std::string* why,
                                      const HistogramParams& base, const std::string& cache_path) {
  HistogramParams p;
  if (fromCache(gl, width, height, "histogram", cache_path, base, histogramFromJson, &p, why))
    return p;
  return vendorHistogramDefaults(gl, base, why);
}

BlurParams chooseBlurParams(const GlContext& gl, int width, int height, std::string* why,
                            const BlurParams& base, const std::string& cache_path) {
  BlurParams p;
  if (fromCache(gl, width, height, "blur", cache_path, base, blurFromJson, &p, why)) return p;
  return vendorBlurDefaults(gl, base, why);
}

}  // namespace esf
