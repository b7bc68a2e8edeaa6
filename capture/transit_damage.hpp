// Which of a network stream's decoded frames come from data lost in transit.
#pragma once

#include <cstdint>
#include <deque>

namespace esf {

// A depayloader marks the first buffer after a lost packet DISCONT (rtpjitterbuffer's lost
// packets also come as a GAP event flagged GST_GAP_FLAG_MISSING_DATA, with rtpbin's do-lost).
// A frame decoded from there on refers to what was lost, until the next keyframe, which refers to
// nothing: those frames are damaged, and a frame lost whole leaves a gap in the timestamps.
// GstVideoDecoder's own marking (automatic-request-sync-points with corrupt-output) would say the
// same, but in GStreamer 1.22 its pending sync-point number overflows to 0 and it marks nothing.
//
// Times are the stream's buffer timestamps in ns, valid ones only; frames are decoded in
// presentation order. Not thread-safe.
class TransitDamage {
 public:
  // A buffer entering the decoder.
  void input(uint64_t pts, bool discont, bool keyframe);
  // Upstream says data is missing at pts (a GAP event's timestamp).
  void missing(uint64_t pts);

  struct Verdict {
    bool damaged = false;  // decoded from damaged data: skip it
    uint64_t lost = 0;     // frames lost whole just before this one
  };
  // A decoded frame.
  Verdict decoded(uint64_t pts);

  // A stream whose keyframes never come (a camera's intra refresh) heals without one: damage
  // ends after this many frames.
  static constexpr uint64_t kMaxDamagedFrames = 250;

 private:
  static constexpr uint64_t kOpen = UINT64_MAX;
  struct Span {
    uint64_t from;
    uint64_t until;  // the keyframe that ends it, or kOpen
  };
  void lostAt(uint64_t pts);
  void open(uint64_t from);
  void close(uint64_t at);

  std::deque<Span> spans_;       // in time order
  std::deque<uint64_t> losses_;  // where data went missing, in time order
  bool seen_input_ = false;
  bool seen_decoded_ = false;
  uint64_t last_pts_ = 0;  // the last decoded frame's
  uint64_t interval_ = 0;  // between the last two decoded frames with no loss between them
  uint64_t damaged_run_ = 0;
};

}  // namespace esf
