#include "core/pipeline/frame_readback.hpp"

#include <utility>

#include "core/pipeline/backend_common.hpp"
#include "platform/gl_context.hpp"

namespace esf {

void FrameReadback::clear() {
  results_.clear();
  offsets_.clear();
  total_ = 0;
  gathered_ = false;
}

size_t FrameReadback::add(const GpuWords& result) {
  results_.push_back(result);
  offsets_.push_back(total_);
  total_ += result.words;
  return results_.size() - 1;
}

Status FrameReadback::gather() {
  if (total_ > capacity_) {
    // Written by GPU copies, read by the host once a frame: GL_STREAM_READ, the usage that
    // lets a driver keep it where the host reads fast.
    GlBuffer made = makeBuffer();
    glBindBuffer(GL_COPY_WRITE_BUFFER, made.get());
    glBufferData(GL_COPY_WRITE_BUFFER, GLsizeiptr(total_ * 4), nullptr, GL_STREAM_READ);
    glBindBuffer(GL_COPY_WRITE_BUFFER, 0);
    if (Status s = checkGl("the frame's read-back buffer"); !s) return s;
    buffer_ = std::move(made);
    capacity_ = total_;
  }
  glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
  for (size_t i = 0; i < results_.size(); ++i) {
    const GpuWords& r = results_[i];
    if (r.words) copyWords(r.buffer, r.first, buffer_.get(), offsets_[i], r.words);
  }
  gathered_ = true;
  return checkGl("gathering the frame's results for the read-back");
}

Status FrameReadback::read() {
  if (!gathered_) return fail(ErrorCode::kInternal, "read-back: read() before gather()");
  words_.clear();
  if (!total_) return Status::success();
  WallTimer t;
  Result<std::vector<uint32_t>> words = readWords(buffer_.get(), total_, "the frame's read-back");
  readback_ms_ += t.ms();
  if (!words) return words.error();
  words_ = std::move(words.value());
  return Status::success();
}

std::span<const uint32_t> FrameReadback::words(size_t slot) const {
  if (slot >= results_.size() || words_.size() < offsets_[slot] + results_[slot].words) return {};
  return std::span<const uint32_t>(words_).subspan(offsets_[slot], results_[slot].words);
}

double FrameReadback::takeReadbackMs() {
  return std::exchange(readback_ms_, 0.0);
}

}  // namespace esf
