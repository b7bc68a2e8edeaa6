#pragma once
// From the health stages' integer sums (core/stages/frame_difference.hpp, sobel.hpp) to the
// figures and events of esframe/health.hpp, the same host code for every backend: the backends
// agree on the sums bit for bit, so they agree on everything here.
//
// The figures follow ffmpeg 5.1's filters (docs/output-formats.md, "Camera health"); where a
// filter keeps floats (siti's gradients, entropy's sum) the sums below keep the exact integer
// form and the deviation is taken from them in one place.
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/stats/health_regions.hpp"
#include "esframe/frame.hpp"
#include "esframe/health.hpp"

namespace esf {

// The luma range the figures see: limited (16-235) YUV is stretched to full range for siti
// (255 * clamp(Y - 16, 0, 219) / 219, integer division) and sets blackdetect's threshold.
bool healthLumaIsFullRange(const Frame& frame);
// The same for a frame of a format known to be YUV or not (read from the format table once).
bool healthLumaIsFullRange(bool yuv, const Colorimetry& colorimetry);
inline uint32_t fullRangeLuma(uint32_t y, bool full_range) {
  if (full_range) return y;
  uint32_t c = y < 16 ? 0 : (y > 235 ? 219 : y - 16);
  return 255 * c / 219;
}

// 96-bit unsigned counter as three 32-bit words, low first (the Sobel stage's sum of squared
// fixed-point roots: up to 2^86 on the largest frames).
struct Wide96 {
  std::array<uint32_t, 3> words{};
  void add(uint64_t v);
  void add(const Wide96& other);
  bool operator==(const Wide96&) const = default;
};

// The frame difference stage's sums over the current luma Y, the previous frame's P and the
// freeze reference R (for the first frame P = R = Y), F = fullRangeLuma.
struct FrameDifferenceSums {
  uint64_t sad_previous = 0;              // sum |Y - P|
  uint64_t sad_reference = 0;             // sum |Y - R|
  int64_t motion_sum = 0;                 // sum F(Y) - F(P)
  uint64_t motion_squares = 0;            // sum (F(Y) - F(P))^2
  std::array<uint32_t, 256> histogram{};  // of Y
  // Per region (HealthRegionSpec; empty without regions): sum Y, and the pixels with
  // |Y - P| > change_level.
  std::vector<uint64_t> region_luma, region_changed;
  bool operator==(const FrameDifferenceSums&) const = default;
};

// The Sobel stage's sums over the interior pixels (one pixel in from every edge) of F(Y), with
// gx, gy the 3x3 Sobel responses and m = gx^2 + gy^2:
struct SobelSums {
  uint64_t samples = 0;                  // (width - 2) * (height - 2), 0 below 3x3
  uint64_t squares = 0;                  // sum m (the Tenengrad sum)
  uint64_t roots = 0;                    // sum q, q = round(65536 * sqrt(m)) (exact: sobelRoot)
  Wide96 root_squares;                   // sum q^2
  std::vector<uint64_t> region_squares;  // sum m over each region's interior pixels
  bool operator==(const SobelSums&) const = default;
};
// round(65536 * sqrt(m)), exactly (m < 2^22). q = round(sqrt(X)), X = m * 2^32, is the integer
// with q^2 - q < X <= q^2 + q; the double square root (X < 2^54 is exact in a double) lands
// within one of it. Inline: the CPU executor calls it for every pixel.
inline uint32_t sobelRoot(uint32_t m) {
  const uint64_t x = uint64_t(m) << 32;
  uint64_t q = uint64_t(std::sqrt(double(x)) + 0.5);
  while (q * q + q < x) ++q;
  while (q > 0 && q * q - q >= x) --q;
  return uint32_t(q);
}

struct HealthSums {
  FrameDifferenceSums difference;
  SobelSums sobel;
  uint64_t pixels = 0;
  int width = 0, height = 0;
  bool full_range = true;
  bool first = true;  // no previous frame: P and R are the frame itself
};

// Whether a frame with these sums is frozen (freezedetect: MAFD to the reference <= noise). A
// frame that is not becomes the new reference.
bool healthFrozen(const HealthSums& sums, const HealthConfig& config);

// The figures and events, frame after frame; one per stream.
class HealthMonitor {
 public:
  explicit HealthMonitor(const HealthConfig& config) : config_(config) {}
  HealthFigures update(const HealthSums& sums, uint64_t seq, uint64_t ts_ns,
                       std::vector<HealthEvent>& events);
  // The end of the stream: a black interval still running ends at the last frame (as
  // blackdetect ends it); a freeze still running gives nothing (as freezedetect).
  void finish(std::vector<HealthEvent>& events);

 private:
  // A run of frames in a state (black, covered) that is an interval once it lasts min_ns:
  // `start` given once it has, `end` at the first frame after it.
  struct Run {
    HealthEventType start, end;
    std::optional<uint64_t> start_ns;  // the run's first frame
    bool reported = false;             // `start` given for the current run
  };
  void step(Run& run, bool on, uint64_t min_ns, std::vector<HealthEvent>& events) const;
  void finish(Run& run, uint64_t min_ns, std::vector<HealthEvent>& events) const;
  void regionFigures(const HealthSums& sums, HealthFigures& f);

  HealthConfig config_;
  double previous_mafd_ = 0;
  Run black_{HealthEventType::kBlackStart, HealthEventType::kBlackEnd, {}, false};
  Run covered_{HealthEventType::kCoveredStart, HealthEventType::kCoveredEnd, {}, false};
  std::vector<double> baseline_;   // each region's Tenengrad on the last frame not covered
  std::vector<RegionSpan> spans_;  // of the regions on frames of spans_width_ x spans_height_
  int spans_width_ = -1, spans_height_ = -1;
  uint64_t seq_ = 0, ts_ns_ = 0;  // the last frame's
  uint64_t reference_ns_ = 0;     // the freeze reference's time
  bool in_freeze_ = false;
};

// The pure functions behind update(), for tests and the graph.
double standardDeviation(uint64_t n, int64_t sum, uint64_t squares);  // of integers
double siFromSobel(const SobelSums& s);
double entropyOf(const std::array<uint32_t, 256>& histogram, uint64_t pixels);
uint32_t blackLevel(double pixel_black_th, bool full_range);

}  // namespace esf
