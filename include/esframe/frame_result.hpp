#pragma once
// What the pipeline delivers for each processed frame: plain data a caller can read without GL.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "esframe/detectors.hpp"
#include "esframe/health.hpp"
#include "esframe/histogram_data.hpp"
#include "esframe/rgba_image.hpp"
#include "esframe/scope_data.hpp"

namespace esf {

// Exposure statistics of one channel (definitions in docs/output-formats.md and
// core/stats/exposure_stats.hpp).
struct ChannelStats {
  char channel = 'l';
  uint64_t count = 0;  // pixels
  uint32_t min = 0, max = 0;
  uint64_t sum = 0;
  double mean = 0;
  uint32_t p1 = 0, p10 = 0, p50 = 0, p90 = 0, p99 = 0;
  double clip_low = 0, clip_high = 0;
  double msv = 0;  // 0 for an empty channel
};

// ffmpeg signalstats' figures of one chroma plane (PipelineConfig::signalstats): UMIN ULOW
// UAVG UHIGH UMAX UDIF for Cb, the V names for Cr (docs/output-formats.md, "Signalstats").
struct ChromaPlaneFigures {
  uint32_t min = 0, low = 0, high = 0, max = 0;
  double avg = 0;
  double dif = 0;  // mean |C - previous frame's C|, 0 on the first frame
  bool operator==(const ChromaPlaneFigures&) const = default;
};
// The figures signalstats adds to the Y ones (ChannelStats of 'l') for YUV frames.
struct SignalstatsFigures {
  uint64_t samples = 0;  // per chroma plane, at chroma resolution (4:2:0: ceil(W/2) * ceil(H/2))
  ChromaPlaneFigures u, v;
  // BRNG: the pixels with Y outside 16..235 or its Cb or Cr outside 16..240 (whatever the
  // frame's range), and their fraction of W * H.
  uint64_t out_of_range_pixels = 0;
  double brng = 0;
  // SATMIN SATLOW SATAVG SATHIGH SATMAX: the chroma samples' saturation, floor(hypot(Cb - 128,
  // Cr - 128)), by the rules of the U figures; HUEMED, HUEAVG: their hue in whole degrees
  // (0-359), the first hue whose running count passes samples / 2, and the mean.
  uint32_t sat_min = 0, sat_low = 0, sat_high = 0, sat_max = 0;
  double sat_avg = 0;
  uint32_t hue_median = 0;
  double hue_avg = 0;
  // PipelineConfig::signalstats_tout: TOUT, the fraction of the W * H pixels that are temporal
  // (in fact vertical) outliers of Y, each of them and its left and right neighbours standing
  // out from the pixels one row above and below (and two, away from the edges).
  std::optional<uint64_t> tout_pixels;
  std::optional<double> tout;
  // PipelineConfig::signalstats_vrep: VREP, the rows (from row 4) whose Y differs from the row
  // 4 above by less than 1 per pixel on average, as the fraction rows * W / (W * H).
  std::optional<uint64_t> vrep_rows;
  std::optional<double> vrep;
  bool operator==(const SignalstatsFigures&) const = default;
};

struct StageTiming {
  std::string stage;  // "import", "blur", "resize", "histogram", "stats", "scale", ...
  double ms = 0;
  bool gpu = false;  // true: GL timer query; false: wall clock (GPU stages: glFinish around)
};

// The pipeline's GPU objects for this frame, as GL names (not owners), for sinks that draw with
// the same GL context. Valid only until the next frame is processed.
struct GpuFrameView {
  uint32_t image_texture = 0;  // the processed RGBA8 working image (GL_RGBA8 texture)
  int width = 0, height = 0;
  uint32_t histogram_buffer = 0;  // SSBO: uint counts[bins * channels], interleaved per bin
  uint32_t scale_buffer = 0;  // SSBO: the scale stage's { max, num, den, float scale } per channel
  int bins = 0;
  int channels = 0;
};

// --auto-exposure: the loop's state after measuring this frame.
struct ControlValue {
  std::string name;  // v4l2-ctl spelling
  int64_t value = 0;
};
struct AutoExposureState {
  std::vector<ControlValue> controls;  // the values in use while the frame was captured
  double measure = 0, target = 0;      // msv or mean luma (AutoExposureOptions::metric)
  bool converged = false;              // |measure - target| <= band
};

struct FrameResult {
  uint64_t seq = 0;
  uint64_t ts_ns = 0;
  uint64_t dropped = 0;
  uint64_t corrupted = 0;  // buffers flagged as errors by the driver, skipped before this frame
  std::string source;
  std::string format;         // the source's pixel format as V4L2 names it ("YUYV", "RGBA32"...)
  int width = 0, height = 0;  // of the processed image (after resize)
  HistogramData hist;         // at the configured bins
  std::vector<ChannelStats> stats;  // one per channel, in hist.channels order
  std::vector<float> scale;         // per channel, the scale stage's display scale
  std::vector<StageTiming> timings;
  bool zero_copy = false;  // imported straight from the source's dmabufs, without a CPU copy
  const GpuFrameView* gpu = nullptr;  // null on the CPU backend
  const RgbaImage* image = nullptr;   // the processed image in CPU memory, when there is one
  std::optional<AutoExposureState> auto_exposure;  // set by the auto-exposure sink
  std::optional<RawHistogramData> raw;             // Bayer frames: per-site raw statistics
  std::optional<HealthFigures> health;  // PipelineConfig::health: the camera health figures
  std::vector<HealthEvent> events;      // health events this frame reports, in order
  // PipelineConfig::signalstats, YUV frames: signalstats' chroma and BRNG figures.
  std::optional<SignalstatsFigures> signalstats;
  std::optional<ScopeCounts> scopes;  // PipelineConfig::scopes
  // PipelineConfig::detect, frames of 8-bit YUV, GREY or RGB formats with CPU-visible planes:
  // cropdetect's figures (none for the frames it skips), blurdetect's lavfi.blur and
  // blockdetect's lavfi.block (ffmpeg's float; NaN where ffmpeg prints nan).
  std::optional<CropDetectFigures> cropdetect;
  std::optional<float> blur;
  std::optional<float> block;
};

}  // namespace esf
