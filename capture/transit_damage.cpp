#include "capture/transit_damage.hpp"

#include <algorithm>

namespace esf {

void TransitDamage::input(uint64_t pts, bool discont, bool keyframe) {
  // The first buffer of a stream is DISCONT by definition: nothing was lost before it.
  const bool first = !seen_input_;
  seen_input_ = true;
  if (discont && !first) {
    lostAt(pts);
    if (!keyframe) open(pts);
  }
  if (keyframe) close(pts);
}

void TransitDamage::missing(uint64_t pts) {
  lostAt(pts);
  open(pts);
}

void TransitDamage::lostAt(uint64_t pts) {
  losses_.insert(std::upper_bound(losses_.begin(), losses_.end(), pts), pts);
}

void TransitDamage::open(uint64_t from) {
  if (spans_.empty() || spans_.back().until != kOpen) spans_.push_back({from, kOpen});
}

void TransitDamage::close(uint64_t at) {
  if (spans_.empty() || spans_.back().until != kOpen) return;
  if (at <= spans_.back().from)
    spans_.pop_back();  // the keyframe comes first: nothing after it refers to the loss
  else
    spans_.back().until = at;
}

TransitDamage::Verdict TransitDamage::decoded(uint64_t pts) {
  Verdict v;
  bool lost_before = false;
  while (!losses_.empty() && losses_.front() <= pts) {
    if (losses_.front() > last_pts_) lost_before = true;
    losses_.pop_front();
  }
  if (seen_decoded_ && pts > last_pts_) {
    const uint64_t gap = pts - last_pts_;
    if (!lost_before)
      interval_ = gap;
    else if (interval_ > 0) {
      // Frame intervals in the gap, rounded: one is the frame's own.
      const uint64_t intervals = gap / interval_ + (gap % interval_ >= interval_ - interval_ / 2);
      v.lost = intervals > 1 ? intervals - 1 : 0;
    }
  }
  seen_decoded_ = true;
  last_pts_ = pts;

  while (!spans_.empty() && spans_.front().until <= pts) spans_.pop_front();
  v.damaged = !spans_.empty() && spans_.front().from <= pts;
  if (v.damaged && ++damaged_run_ > kMaxDamagedFrames) {
    spans_.pop_front();
    v.damaged = false;
  }
  if (!v.damaged) damaged_run_ = 0;
  return v;
}

}  // namespace esf
