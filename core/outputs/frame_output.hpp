#pragma once
// What `esframe run` hands to every output for each processed frame, and the interface each
// output (jsonl, csv, bin, png, drm) implements. Outputs never own pipeline GPU objects: the
// GPU view below is valid only during write().
#include <GLES3/gl31.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/stats/exposure_stats.hpp"
#include "esframe/base/result.hpp"
#include "esframe/histogram_data.hpp"
#include "esframe/rgba_image.hpp"

namespace esf {

struct StageTiming {
  std::string stage;  // "import", "blur", "resize", "histogram", "stats", "scale", ...
  double ms = 0;
  bool gpu =
      false;  // true: GL timer query; false: wall clock (GPU stages: glFinish before and after)
};

// The pipeline's GPU objects for this frame (names, not owners).
struct GpuFrameView {
  GLuint image_texture = 0;  // the processed RGBA8 working image (GL_RGBA8 texture)
  int width = 0, height = 0;
  GLuint histogram_buffer = 0;  // SSBO: uint counts[bins * channels], interleaved per bin
  GLuint scale_buffer = 0;  // SSBO: the scale stage's { max, num, den, float scale } per channel
  int bins = 0;
  int channels = 0;
};

struct FrameResult {
  uint64_t seq = 0;
  uint64_t ts_ns = 0;
  uint64_t dropped = 0;
  std::string source;
  std::string format;         // the source's pixel format as V4L2 names it ("YUYV", "RGBA32"...)
  int width = 0, height = 0;  // of the processed image (after --resize)
  HistogramData hist;         // at the user's bins
  std::vector<ChannelStats> stats;  // one per channel, in hist.channels order
  std::vector<float> scale;         // per channel, the scale stage's display scale
  std::vector<StageTiming> timings;
  const GpuFrameView* gpu = nullptr;  // null with --backend cpu
  const RgbaImage* image = nullptr;   // the processed image in CPU memory, when there is one
};

class FrameOutput {
 public:
  virtual ~FrameOutput() = default;
  // Delivers one frame. An Error stops the run (exit 1), except kStdoutClosed (exit 0, quietly).
  virtual Status write(const FrameResult& frame) = 0;
  // After the last frame (also on SIGINT/SIGTERM): flush, restore, release.
  virtual Status finish() { return Status::success(); }
};

// The message of the Error a stdout output returns when stdout was closed (EPIPE).
inline constexpr const char* kStdoutClosed = "stdout closed";

}  // namespace esf
