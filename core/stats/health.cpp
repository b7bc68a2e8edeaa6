#include "core/stats/health.hpp"

#include <algorithm>
#include <cmath>

#include "capture/pixel_format.hpp"

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

const char* healthEventName(HealthEventType type) {
  switch (type) {
    case HealthEventType::kBlackStart:
      return "black_start";
    case HealthEventType::kBlackEnd:
      return "black_end";
    case HealthEventType::kFreezeStart:
      return "freeze_start";
    case HealthEventType::kFreezeEnd:
      return "freeze_end";
    case HealthEventType::kSceneChange:
      return "scene_change";
  }
  return "unknown";
}

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
  return !isYuv(frame.format) || frame.colorimetry.full_range;
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

HealthFigures HealthMonitor::update(const HealthSums& sums, uint64_t seq, uint64_t ts_ns,
                                    std::vector<HealthEvent>& events) {
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

  auto event = [&](HealthEventType type, uint64_t start, uint64_t end) {
    HealthEvent e;
    e.type = type;
    e.seq = seq;
    e.ts_ns = ts_ns;
    e.start_ns = start;
    e.end_ns = end;
    events.push_back(e);
  };
  // blackdetect's intervals, given live: black_start once the run has lasted the minimum (or,
  // for a run of exactly the minimum, with its end), black_end at the first frame after it.
  const uint64_t black_min_ns = durationNs(config_.black_min_duration);
  if (f.black_picture) {
    if (!black_start_ns_) {
      black_start_ns_ = ts_ns;
      black_reported_ = false;
    }
    if (!black_reported_ && ts_ns - *black_start_ns_ >= black_min_ns) {
      event(HealthEventType::kBlackStart, *black_start_ns_, 0);
      black_reported_ = true;
    }
  } else if (black_start_ns_) {
    if (!black_reported_ && ts_ns - *black_start_ns_ >= black_min_ns) {
      event(HealthEventType::kBlackStart, *black_start_ns_, 0);
      black_reported_ = true;
    }
    if (black_reported_) event(HealthEventType::kBlackEnd, *black_start_ns_, ts_ns);
    black_start_ns_.reset();
  }
  // freezedetect's state machine, step for step: the duration is counted from the reference
  // (the freeze's first frame) in microseconds, rounded.
  if (!sums.first) {
    const int64_t duration_us = std::llround(double(int64_t(ts_ns - reference_ns_)) / 1000.0);
    const int64_t min_us = std::llround(config_.freeze_duration * 1e6);
    if (duration_us >= min_us) {
      if (!in_freeze_) event(HealthEventType::kFreezeStart, reference_ns_, 0);
      if (!f.frozen) event(HealthEventType::kFreezeEnd, reference_ns_, ts_ns);
      in_freeze_ = f.frozen;
    }
  }
  if (!f.frozen) reference_ns_ = ts_ns;
  if (f.scene_score > config_.scene_threshold) {
    event(HealthEventType::kSceneChange, 0, 0);
    events.back().score = f.scene_score;
  }
  last_seq_ = seq;
  last_ts_ns_ = ts_ns;
  return f;
}

void HealthMonitor::finish(std::vector<HealthEvent>& events) {
  if (!black_start_ns_) return;  // set only by a frame, so last_* are that run's
  const uint64_t start = *black_start_ns_;
  if (!black_reported_ && last_ts_ns_ - start < durationNs(config_.black_min_duration)) return;
  HealthEvent e;
  e.seq = last_seq_;
  e.ts_ns = last_ts_ns_;
  e.start_ns = start;
  if (!black_reported_) {
    e.type = HealthEventType::kBlackStart;
    events.push_back(e);
  }
  e.type = HealthEventType::kBlackEnd;
  e.end_ns = last_ts_ns_;
  events.push_back(e);
  black_start_ns_.reset();
}

}  // namespace esf
