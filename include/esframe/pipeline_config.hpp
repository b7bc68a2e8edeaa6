#pragma once
// The typed configuration of a Pipeline (esframe/pipeline.hpp): which backend, which GPU, and
// what the stages do. Enums and structs, validated once by Pipeline::create().
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/detectors.hpp"
#include "esframe/health.hpp"
#include "esframe/scope_data.hpp"

namespace esf {

// Where the stages run. All give the same results, bit for bit (timings aside).
enum class Backend {
  kAuto,       // kGles on a hardware GPU with GLES 3.1 compute, else kCpu (Pipeline says why)
  kGles,       // the GLES 3.1 compute stages
  kCpu,        // the CPU executor: vectorised, multi-threaded, no GPU needed
  kReference,  // the plain CPU references (the tests' oracle): exact, slow
};
ESF_API const char* backendName(Backend backend);  // "auto", "gles", "cpu", "reference"
ESF_API Result<Backend> parseBackend(std::string_view name);

// How the histogram stage counts (identical counts; the fastest differs per GPU).
enum class HistogramStrategy {
  kSingle,
  kGlobalAtomic,
  kChunkSum,
  kChunkReduce,
  kPersistent,
  kReplicated,
};
ESF_API const char* histogramStrategyName(HistogramStrategy s);  // "single", "global-atomic", ...
ESF_API Result<HistogramStrategy> parseHistogramStrategy(std::string_view name);

// Where the L channel comes from.
enum class LumaSource {
  kRgb,     // integer BT.709 luma of the converted RGB
  kSource,  // the source's own Y plane (YUV and GREY frames; RGB frames fall back to kRgb)
};
ESF_API const char* lumaSourceName(LumaSource luma);  // "rgb", "source"

// The headless EGL platform the GPU backend opens.
enum class EglPlatform {
  kAuto,         // device, then gbm, then surfaceless; the first that gives GLES 3.1 compute
  kGbm,          // a DRM node through GBM (embedded boards, vgem, vkms)
  kDevice,       // EGL_EXT_platform_device (NVIDIA headless)
  kSurfaceless,  // EGL_MESA_platform_surfaceless (Mesa llvmpipe)
};
ESF_API const char* toString(EglPlatform p);  // "auto", "gbm", "device", "surfaceless"
ESF_API Result<EglPlatform> parseEglPlatform(const std::string& s);

struct GpuConfig {
  EglPlatform platform = EglPlatform::kAuto;
  std::string drm_device;  // gbm: a node path or a driver name ("v3d"); empty: the first working
  std::string egl_device;  // device: an index ("0") or a DRM node; empty: the first hardware one
  bool debug = false;      // GL_KHR_debug messages to the log
  // kAuto: before trusting a GPU this esframe version has never checked, run the quick selftest
  // (its stages against the CPU references, a few seconds once per driver: the verdict is kept
  // in the tuning cache). A GPU whose selftest failed is never used by kAuto.
  bool selftest = true;
};

// A channel list (HistogramConfig::channels): 1 to 4 distinct letters of "rgbl"; the error
// names the string.
ESF_API Status validateChannels(std::string_view channels);

struct HistogramConfig {
  int bins = 256;                 // 1..256; bin of an 8-bit value v is (v * bins) >> 8
  std::string channels = "rgbl";  // letters r, g, b, l in the order the counts interleave
  // Empty: automatic (the tuning cache for this GPU and size, else measured defaults).
  std::optional<HistogramStrategy> strategy;
};

struct BlurConfig {
  int taps = 0;  // odd: an even box shifts the picture by half a pixel per pass
  int iterations = 1;
};

struct Size {
  int width = 0;
  int height = 0;
  bool operator==(const Size&) const = default;
};

// Bayer frames (--raw): the sensor's levels and a white balance, for the raw statistics and the
// demosaic. Integers: gains in 1/256 (256 = 1.0).
struct RawConfig {
  uint32_t black = 0;
  uint32_t white = 0;  // 0: 2^bit_depth - 1 of the frame's format
  uint32_t gain_r = 256;
  uint32_t gain_b = 256;
};

struct ESF_API PipelineConfig {
  Backend backend = Backend::kAuto;
  GpuConfig gpu;    // kGles (and kAuto's probe)
  int threads = 0;  // kCpu: worker threads; kGles: host threads for Bayer frames. 0 = one per core
  HistogramConfig histogram;
  std::optional<BlurConfig> blur;  // separable box blur before counting
  std::optional<Size> resize;      // area-average downscale before counting
  LumaSource luma = LumaSource::kRgb;
  RawConfig raw;  // Bayer frames only
  // Camera health figures and events per frame (esframe/health.hpp), on the source's luma before
  // blur and resize; unset: none.
  std::optional<HealthConfig> health;
  // ffmpeg signalstats' chroma and BRNG figures (FrameResult::signalstats) of YUV frames,
  // counted on the host from the source's planes on every backend; false: not counted.
  bool signalstats = false;
  // signalstats' stat=tout and stat=vrep (SignalstatsFigures::tout, ::vrep), which ffmpeg counts
  // only when asked: with signalstats, also these.
  bool signalstats_tout = false;
  bool signalstats_vrep = false;
  // ffmpeg's cropdetect, blurdetect and blockdetect (esframe/detectors.hpp;
  // FrameResult::cropdetect,
  // ::blur, ::block), counted on the host from the source's planes on every backend; none: none.
  DetectConfig detect;
  // Waveform, RGB parade, vectorscope counts (FrameResult::scopes); none asked: not counted.
  ScopeOptions scopes;
  // false: no sink reads FrameResult::image, so the CPU executor may skip the RGBA working image
  // where no stage needs it (no blur or resize: each row is counted and let go, or an L-only
  // histogram of the source's Y bytes converts nothing); image is then null.
  bool image_needed = true;

  // Everything checkable without a device: bins, channels, taps, sizes. One-line errors with
  // ErrorCode::kInvalidArgument that name the field.
  Status validate() const;
};

}  // namespace esf
