// TransitDamage (capture/transit_damage.cpp): which decoded frames of a network stream come from
// data lost in transit, over scripted streams of 10 fps with a keyframe every 10 frames (the
// network source's RTSP test serves one so, and checks the same against real GStreamer).
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "capture/transit_damage.hpp"

namespace esf {
namespace {

constexpr uint64_t kInterval = 100'000'000;  // 10 fps
constexpr uint64_t kStart = 1'234'567;       // a stream's first timestamp is rarely 0

uint64_t ptsOf(int frame) {
  return kStart + uint64_t(frame - 1) * kInterval;
}
bool isKeyframe(int frame) {
  return frame % 10 == 1;
}

struct Outcome {
  std::vector<int> delivered;
  std::vector<int> skipped;
  uint64_t lost = 0;
  std::vector<uint64_t> lost_at;  // per delivered or skipped frame, in order
};

// Frames 1..count through the decoder, those in `gone` never arriving, `discont` on the first
// buffer after each gone one (a depayloader's mark); decoded as they go in.
Outcome stream(int count, const std::set<int>& gone, TransitDamage& damage) {
  Outcome o;
  bool after_gap = false;
  for (int f = 1; f <= count; ++f) {
    if (gone.count(f)) {
      after_gap = true;
      continue;
    }
    damage.input(ptsOf(f), f == 1 || after_gap, isKeyframe(f));
    after_gap = false;
    const TransitDamage::Verdict v = damage.decoded(ptsOf(f));
    (v.damaged ? o.skipped : o.delivered).push_back(f);
    o.lost += v.lost;
    o.lost_at.push_back(v.lost);
  }
  return o;
}

std::vector<int> range(int from, int to) {
  std::vector<int> r;
  for (int f = from; f <= to; ++f) r.push_back(f);
  return r;
}

TEST(TransitDamage, ACleanStreamIsDeliveredWhole) {
  TransitDamage damage;
  const Outcome o = stream(40, {}, damage);
  EXPECT_EQ(o.delivered, range(1, 40));
  EXPECT_TRUE(o.skipped.empty());
  EXPECT_EQ(o.lost, 0u);
}

TEST(TransitDamage, APFrameLostWholeDamagesTheRestOfItsGroup) {
  TransitDamage damage;
  const Outcome o = stream(40, {15}, damage);
  std::vector<int> want = range(1, 14);
  for (int f : range(21, 40)) want.push_back(f);
  EXPECT_EQ(o.delivered, want);
  EXPECT_EQ(o.skipped, range(16, 20));
  EXPECT_EQ(o.lost, 1u);
  EXPECT_EQ(o.lost_at[14], 1u);  // counted at frame 16, the first decoded after it
}

TEST(TransitDamage, AFrameLostJustBeforeAKeyframeDamagesNothing) {
  TransitDamage damage;
  const Outcome o = stream(40, {20}, damage);
  EXPECT_TRUE(o.skipped.empty());
  EXPECT_EQ(o.delivered.size(), 39u);
  EXPECT_EQ(o.lost, 1u);
}

TEST(TransitDamage, TwoFramesLostInARowAreTwo) {
  TransitDamage damage;
  const Outcome o = stream(40, {24, 25}, damage);
  EXPECT_EQ(o.skipped, range(26, 30));
  EXPECT_EQ(o.lost, 2u);
}

TEST(TransitDamage, AKeyframeLostDamagesItsWholeGroup) {
  TransitDamage damage;
  const Outcome o = stream(40, {11}, damage);
  EXPECT_EQ(o.skipped, range(12, 20));
  EXPECT_EQ(o.lost, 1u);
}

TEST(TransitDamage, APartFrameIsSkippedAndNoFrameIsCountedLost) {
  // The depayloader passes a frame that lost a slice, marked DISCONT: no gap in the times.
  TransitDamage damage;
  Outcome o;
  for (int f = 1; f <= 20; ++f) {
    damage.input(ptsOf(f), f == 1 || f == 5, isKeyframe(f));
    const TransitDamage::Verdict v = damage.decoded(ptsOf(f));
    (v.damaged ? o.skipped : o.delivered).push_back(f);
    o.lost += v.lost;
  }
  EXPECT_EQ(o.skipped, range(5, 10));
  EXPECT_EQ(o.lost, 0u);
}

TEST(TransitDamage, AGapEventAndTheDiscontAfterItAreOneLoss) {
  TransitDamage damage;
  uint64_t lost = 0;
  std::vector<int> skipped;
  for (int f = 1; f <= 20; ++f) {
    if (f == 7) {
      damage.missing(ptsOf(7) + 3'000'000);  // rtpjitterbuffer's estimate of the lost time
      continue;
    }
    damage.input(ptsOf(f), f == 1 || f == 8, isKeyframe(f));
    const TransitDamage::Verdict v = damage.decoded(ptsOf(f));
    if (v.damaged) skipped.push_back(f);
    lost += v.lost;
  }
  EXPECT_EQ(skipped, range(8, 10));
  EXPECT_EQ(lost, 1u);
}

TEST(TransitDamage, ADecoderThatHoldsFramesBackStillSkipsOnlyThoseAfterTheLoss) {
  // Frame threads: three frames go in before the first comes out.
  TransitDamage damage;
  std::vector<int> in;
  for (int f = 1; f <= 20; ++f)
    if (f != 6) in.push_back(f);
  std::vector<int> skipped;
  uint64_t lost = 0;
  for (size_t i = 0; i < in.size() + 3; ++i) {
    if (i < in.size()) damage.input(ptsOf(in[i]), i == 0 || in[i] == 7, isKeyframe(in[i]));
    if (i >= 3) {
      const TransitDamage::Verdict v = damage.decoded(ptsOf(in[i - 3]));
      if (v.damaged) skipped.push_back(in[i - 3]);
      lost += v.lost;
    }
  }
  EXPECT_EQ(skipped, range(7, 10));
  EXPECT_EQ(lost, 1u);
}

TEST(TransitDamage, AStreamJoinedBetweenKeyframesIsTrusted) {
  // The decoder's first frame is a delta, DISCONT as every first buffer is: nothing was lost.
  TransitDamage damage;
  damage.input(ptsOf(5), true, false);
  const TransitDamage::Verdict v = damage.decoded(ptsOf(5));
  EXPECT_FALSE(v.damaged);
  EXPECT_EQ(v.lost, 0u);
}

TEST(TransitDamage, DamageWithoutAKeyframeEndsAfterItsLimit) {
  // Intra refresh: no keyframe after the first.
  TransitDamage damage;
  uint64_t skipped = 0;
  int first_delivered_after = 0;
  for (int f = 1; f <= 400; ++f) {
    if (f == 3) continue;
    damage.input(ptsOf(f), f == 1 || f == 4, f == 1);
    if (damage.decoded(ptsOf(f)).damaged)
      ++skipped;
    else if (f > 3 && first_delivered_after == 0)
      first_delivered_after = f;
  }
  EXPECT_EQ(skipped, TransitDamage::kMaxDamagedFrames);
  EXPECT_EQ(first_delivered_after, 4 + int(TransitDamage::kMaxDamagedFrames));
}

}  // namespace
}  // namespace esf
