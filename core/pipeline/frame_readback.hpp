#pragma once
// One read-back per frame on the GPU: the stages' results (histogram counts, scales, scopes,
// signalstats and health sums), each in a buffer of its own, are copied on the GPU into one
// buffer at the end of the frame's work, which collect() maps once: one wait for the GPU and one
// map instead of one of each per result. The buffer is only ever a copy's destination and
// mapped: the buffers the shaders add into stay in device memory (a buffer the host maps may be
// kept in host memory, where every atomic would cross the bus).
#include <optional>
#include <span>
#include <vector>

#include "core/stages/stage_gl.hpp"

namespace esf {

class FrameReadback {
 public:
  // A new frame: no results listed.
  void clear();
  // Lists a result; its words are words(slot) after read(). A result of no words has an empty
  // span.
  size_t add(const GpuWords& result);
  // Copies every listed result into the read-back buffer, after the barrier that orders the
  // copies behind the stages' shader writes (the buffer grows when a frame needs more).
  Status gather();
  // Waits for the GPU (within the watchdog) and maps the buffer once.
  Status read();
  std::span<const uint32_t> words(size_t slot) const;
  // Wall time read() waited and copied since the last call.
  double takeReadbackMs();

 private:
  std::vector<GpuWords> results_;
  std::vector<size_t> offsets_;  // of each result in the buffer, in words
  size_t total_ = 0;
  GlBuffer buffer_;
  size_t capacity_ = 0;  // words
  std::vector<uint32_t> words_;
  bool gathered_ = false;
  double readback_ms_ = 0;
};

// A result that only some frames have (a stage that counts some formats only): the frame's work
// says whether it counted, addTo() lists the result in the frame's read-back only where it did,
// and wordsIn() gives its words after the read, or none.
class FrameResultSlot {
 public:
  void setCounted(bool counted) { counted_ = counted; }
  void addTo(FrameReadback& readback, const GpuWords& result) {
    at_.reset();
    if (counted_) at_ = readback.add(result);
    counted_ = false;
  }
  std::optional<std::span<const uint32_t>> wordsIn(const FrameReadback& readback) const {
    if (!at_) return std::nullopt;
    return readback.words(*at_);
  }

 private:
  bool counted_ = false;      // counted since the last addTo()
  std::optional<size_t> at_;  // the frame's slot in the read-back
};

}  // namespace esf
