#include "core/stats/health_figures.hpp"

#include <algorithm>
#include <cmath>

#include "base/pixel_format.hpp"

namespace esf {
namespace {

// An unsigned integer of `N` 32-bit words, low first: the exact numerators of the deviations
// (n * sum of squares - sum^2 reaches 2^118 for siti on the largest frames). 32-bit words
// keep it portable to 32-bit boards, which have no __int128.
template <size_t N>
struct Limbs {
  std::array<uint32_t, N> w{};
};

template <size_t N>
Limbs<N> multiply(const uint32_t* a, size_t na, uint64_t b) {
  Limbs<N> out;
  const uint32_t b_words[2] = {uint32_t(b), uint32_t(b >> 32)};
  for (size_t j = 0; j < 2; ++j) {
    uint64_t carry = 0;
    for (size_t i = 0; i < na && i + j < N; ++i) {
      uint64_t t = uint64_t(a[i]) * b_words[j] + out.w[i + j] + carry;
      out.w[i + j] = uint32_t(t);
      carry = t >> 32;
    }
    for (size_t k = na + j; k < N && carry; ++k) {
      uint64_t t = uint64_t(out.w[k]) + carry;
      out.w[k] = uint32_t(t);
      carry = t >> 32;
    }
  }
  return out;
}

template <size_t N>
Limbs<N> subtract(const Limbs<N>& a, const Limbs<N>& b) {  // a >= b
  Limbs<N> out;
  int64_t borrow = 0;
  for (size_t i = 0; i < N; ++i) {
    int64_t t = int64_t(a.w[i]) - int64_t(b.w[i]) - borrow;
    borrow = t < 0;
    out.w[i] = uint32_t(t + (borrow << 32));
  }
  return out;
}

template <size_t N>
double toDouble(const Limbs<N>& v) {
  double d = 0;
  for (size_t i = N; i-- > 0;) d = d * 4294967296.0 + double(v.w[i]);
  return d;
}

// sqrt((n * squares - sum^2) / n^2) / scale, the population deviation, with the numerator exact.
double deviation(uint64_t n, const uint32_t* squares, size_t square_words, uint64_t abs_sum,
                 double scale) {
  if (n == 0) return 0;
  const uint32_t sum_words[2] = {uint32_t(abs_sum), uint32_t(abs_sum >> 32)};
  Limbs<4> n_squares = multiply<4>(squares, square_words, n);
  Limbs<4> sum_squared = multiply<4>(sum_words, 2, abs_sum);
  const double nd = double(n);
  return std::sqrt(toDouble(subtract(n_squares, sum_squared)) / (nd * nd) / scale);
}

uint64_t durationNs(double seconds) {
  return uint64_t(std::llround(seconds * 1e9));
}

}  // namespace

void Wide96::add(uint64_t v) {
  uint64_t t = uint64_t(words[0]) + uint32_t(v);
  words[0] = uint32_t(t);
  t = uint64_t(words[1]) + (v >> 32) + (t >> 32);
  words[1] = uint32_t(t);
  words[2] += uint32_t(t >> 32);
}

void Wide96::add(const Wide96& other) {
  add(uint64_t(other.words[0]) | uint64_t(other.words[1]) << 32);
  words[2] += other.words[2];
}

bool healthLumaIsFullRange(const Frame& frame) {
  return healthLumaIsFullRange(isYuv(frame.format), frame.colorimetry);
}

bool healthLumaIsFullRange(bool yuv, const Colorimetry& colorimetry) {
  return !yuv || colorimetry.full_range;
}

double standardDeviation(uint64_t n, int64_t sum, uint64_t squares) {
  const uint32_t square_words[2] = {uint32_t(squares), uint32_t(squares >> 32)};
  const uint64_t abs_sum = sum < 0 ? uint64_t(0) - uint64_t(sum) : uint64_t(sum);
  return deviation(n, square_words, 2, abs_sum, 1.0);
}

double siFromSobel(const SobelSums& s) {
  // q carries 16 fraction bits: q^2 carries 32.
  return deviation(s.samples, s.root_squares.words.data(), 3, s.roots, 4294967296.0);
}

double entropyOf(const std::array<uint32_t, 256>& histogram, uint64_t pixels) {
  // ffmpeg's vf_entropy.c step by step: a float total, a float probability, the term in double
  // (log2 of a double), the running sum stored back into a float.
  const float total = float(pixels);
  float entropy = 0;
  for (uint32_t count : histogram) {
    if (!count) continue;
    const float p = float(count) / total;
    entropy = float(double(entropy) + -std::log2(double(p)) * double(p));
  }
  return entropy;
}

uint32_t blackLevel(double pixel_black_th, bool full_range) {
  // vf_blackdetect.c: the fraction of the range above black, truncated to an integer.
  return full_range ? uint32_t(pixel_black_th * 255) : uint32_t(16 + pixel_black_th * (235 - 16));
}

bool healthFrozen(const HealthSums& sums, const HealthConfig& config) {
  if (sums.first || sums.pixels == 0) return false;
  return double(sums.difference.sad_reference) / double(sums.pixels) / 256.0 <= config.freeze_noise;
}

namespace {

HealthEvent makeEvent(HealthEventType type, uint64_t seq, uint64_t ts_ns, uint64_t start,
                      uint64_t end) {
  return {type, seq, ts_ns, start, end};
}

}  // namespace

void HealthMonitor::step(Run& run, bool on, uint64_t min_ns,
                         std::vector<HealthEvent>& events) const {
  // blackdetect's intervals, given live: `start` once the run has lasted the minimum (or, for a
  // run of exactly the minimum, with its end), `end` at the first frame after it.
  if (on && !run.start_ns) {
    run.start_ns = ts_ns_;
    run.reported = false;
  }
  if (!run.start_ns) return;
  if (!run.reported && ts_ns_ - *run.start_ns >= min_ns) {
    events.push_back(makeEvent(run.start, seq_, ts_ns_, *run.start_ns, 0));
    run.reported = true;
  }
  if (on) return;
  if (run.reported) events.push_back(makeEvent(run.end, seq_, ts_ns_, *run.start_ns, ts_ns_));
  run.start_ns.reset();
}

void HealthMonitor::finish(Run& run, uint64_t min_ns, std::vector<HealthEvent>& events) const {
  // A run still going at the end ends at the last frame (set only by a frame, so seq_ and
  // ts_ns_ are that run's).
  if (!run.start_ns) return;
  const uint64_t start = *run.start_ns;
  run.start_ns.reset();
  if (!run.reported && ts_ns_ - start < min_ns) return;
  if (!run.reported) events.push_back(makeEvent(run.start, seq_, ts_ns_, start, 0));
  events.push_back(makeEvent(run.end, seq_, ts_ns_, start, ts_ns_));
}

void HealthMonitor::regionFigures(const HealthSums& sums, HealthFigures& f) {
  const std::vector<uint64_t>& luma = sums.difference.region_luma;
  if (luma.empty()) return;
  if (sums.width != spans_width_ || sums.height != spans_height_) {
    spans_ = healthRegionSpans(HealthRegionSpec::of(config_), sums.width, sums.height);
    spans_width_ = sums.width;
    spans_height_ = sums.height;
    baseline_.clear();
  }
  const size_t cells = HealthRegionSpec::of(config_).cells();
  size_t flat_cells = 0;
  f.regions.resize(spans_.size());
  for (size_t i = 0; i < spans_.size(); ++i) {
    RegionFigures& r = f.regions[i];
    r.pixels = spanPixels(spans_[i]);
    const uint64_t interior = spanInteriorPixels(spans_[i], sums.width, sums.height);
    if (r.pixels) {
      r.mean = double(luma[i]) / double(r.pixels);
      r.changed = double(sums.difference.region_changed[i]) / double(r.pixels);
    }
    if (interior) {
      r.tenengrad = double(sums.sobel.region_squares[i]) / double(interior);
      r.flat = r.tenengrad < config_.flat_tenengrad ||
               (!baseline_.empty() && r.tenengrad < config_.detail_loss * baseline_[i]);
    }
    if (i < cells && r.flat) ++flat_cells;
  }
  f.covered = cells && double(flat_cells) >= config_.covered_ratio * double(cells);
  if (!f.covered) {
    baseline_.resize(f.regions.size());
    for (size_t i = 0; i < f.regions.size(); ++i) baseline_[i] = f.regions[i].tenengrad;
  }
}

HealthFigures HealthMonitor::update(const HealthSums& sums, uint64_t seq, uint64_t ts_ns,
                                    std::vector<HealthEvent>& events) {
  seq_ = seq;
  ts_ns_ = ts_ns;
  HealthFigures f;
  const FrameDifferenceSums& d = sums.difference;
  const double pixels = double(sums.pixels);
  f.pixels = sums.pixels;
  f.black_level = std::min<uint32_t>(blackLevel(config_.pixel_black_th, sums.full_range), 255);
  for (uint32_t v = 0; v <= f.black_level; ++v) f.black_pixels += d.histogram[v];
  if (sums.pixels) {
    f.black = double(f.black_pixels) / pixels;
    f.ydif = double(d.sad_previous) / pixels;
  }
  f.black_picture = sums.pixels && f.black >= config_.picture_black_ratio_th;
  if (!sums.first && sums.pixels) {
    f.scene_mafd = double(d.sad_previous) * 100. / pixels / 256.0;
    f.scene_score =
        std::clamp(std::min(f.scene_mafd, std::fabs(f.scene_mafd - previous_mafd_)), 0.0, 100.0);
    previous_mafd_ = f.scene_mafd;
    f.freeze_mafd = double(d.sad_reference) / pixels / 256.0;
    f.ti = standardDeviation(sums.pixels, d.motion_sum, d.motion_squares);
  }
  f.frozen = healthFrozen(sums, config_);
  f.si = siFromSobel(sums.sobel);
  if (sums.sobel.samples) f.tenengrad = double(sums.sobel.squares) / double(sums.sobel.samples);
  f.entropy = entropyOf(d.histogram, sums.pixels);
  regionFigures(sums, f);

  step(black_, f.black_picture, durationNs(config_.black_min_duration), events);
  // freezedetect's state machine, step for step: the duration is counted from the reference
  // (the freeze's first frame) in microseconds, rounded.
  if (!sums.first) {
    const int64_t duration_us = std::llround(double(int64_t(ts_ns - reference_ns_)) / 1000.0);
    const int64_t min_us = std::llround(config_.freeze_duration * 1e6);
    if (duration_us >= min_us) {
      if (!in_freeze_)
        events.push_back(makeEvent(HealthEventType::kFreezeStart, seq, ts_ns, reference_ns_, 0));
      if (!f.frozen)
        events.push_back(makeEvent(HealthEventType::kFreezeEnd, seq, ts_ns, reference_ns_, ts_ns));
      in_freeze_ = f.frozen;
    }
  }
  if (!f.frozen) reference_ns_ = ts_ns;
  if (f.scene_score > config_.scene_threshold) {
    events.push_back(makeEvent(HealthEventType::kSceneChange, seq, ts_ns, 0, 0));
    events.back().score = f.scene_score;
  }
  step(covered_, f.covered, durationNs(config_.covered_min_duration), events);
  return f;
}

void HealthMonitor::finish(std::vector<HealthEvent>& events) {
  finish(black_, durationNs(config_.black_min_duration), events);
  finish(covered_, durationNs(config_.covered_min_duration), events);
}

}  // namespace esf
