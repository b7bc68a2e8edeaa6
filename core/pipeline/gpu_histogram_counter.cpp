#include "core/pipeline/gpu_histogram_counter.hpp"

#include <utility>

#include "core/image/gpu_image.hpp"
#include "core/pipeline/backend_common.hpp"
#include "platform/gl_context.hpp"

namespace esf {

Status GpuHistogramCounter::configure(const GlContext& gl, const HistogramParams& params,
                                      bool split_luma) {
  params_ = params;
  rgb_.reset();
  rgb_split_.reset();
  l_.reset();
  pending_ = Pending::kNone;
  Result<Histogram> h = Histogram::create(gl, params);
  if (!h) return h.error();
  rgb_.emplace(std::move(h.value()));
  rgb_only_ = withoutLuma(params.channels);
  if (split_luma && params.channels.find('l') != std::string::npos) {
    HistogramParams lp = params;
    lp.channels.assign(1, 'l');  // not = "l": GCC 12 -Wrestrict misfires on it here
    Result<Histogram> l = Histogram::create(gl, lp);
    if (!l) return l.error();
    l_.emplace(std::move(l.value()));
    if (!rgb_only_.empty()) {
      HistogramParams rp = params;
      rp.channels = rgb_only_;
      Result<Histogram> r = Histogram::create(gl, rp);
      if (!r) return r.error();
      rgb_split_.emplace(std::move(r.value()));
    }
  }
  merged_ = makeBuffer();
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, merged_.get());
  glBufferData(GL_SHADER_STORAGE_BUFFER, GLsizeiptr(params.wordCount() * 4), nullptr,
               GL_DYNAMIC_DRAW);
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  return checkGl("histogram buffers");
}

Status GpuHistogramCounter::fitFrame(int width, int height) {
  for (std::optional<Histogram>* h : {&rgb_, &rgb_split_, &l_}) {
    if (!*h) continue;
    if (Status s = (*h)->fitFrame(width, height); !s) return s;
  }
  return Status::success();
}

Status GpuHistogramCounter::dispatch(const GpuImage* rgb, const PackedRgbaBuffer* rgb_packed,
                                     const GpuImage* luma, const PackedRgbaBuffer* luma_packed) {
  pending_ = Pending::kNone;
  if ((!luma && !luma_packed) || !l_) {
    if (Status s = runOne(*rgb_, rgb, rgb_packed); !s) return s;
    buffer_ = rgb_->binsBuffer();
    pending_ = Pending::kWhole;
    return Status::success();
  }
  if (!rgb_split_) {  // L alone: its counts are already in the user's order
    if (Status s = runOne(*l_, luma, luma_packed); !s) return s;
    buffer_ = l_->binsBuffer();
    pending_ = Pending::kLumaOnly;
    return Status::success();
  }
  if (Status s = runOne(*rgb_split_, rgb, rgb_packed); !s) return s;
  if (Status s = runOne(*l_, luma, luma_packed); !s) return s;
  Result<std::vector<uint32_t>> rgb_counts = timedRead(*rgb_split_);
  if (!rgb_counts) return rgb_counts.error();
  Result<std::vector<uint32_t>> l_counts = timedRead(*l_);
  if (!l_counts) return l_counts.error();
  merged_counts_ =
      mergeLuma(params_.channels, params_.bins, rgb_only_, rgb_counts.value(), l_counts.value());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, merged_.get());
  glBufferSubData(GL_SHADER_STORAGE_BUFFER, 0, GLsizeiptr(merged_counts_.counts.size() * 4),
                  merged_counts_.counts.data());
  glBindBuffer(GL_SHADER_STORAGE_BUFFER, 0);
  buffer_ = merged_.get();
  pending_ = Pending::kMerged;
  return checkGl("histogram: merging the source luma");
}

GpuWords GpuHistogramCounter::pendingWords() const {
  switch (pending_) {
    case Pending::kWhole:
      return rgb_->resultWords();
    case Pending::kLumaOnly:
      return l_->resultWords();
    case Pending::kMerged:
    case Pending::kNone:
      break;
  }
  return {};
}

Result<HistogramData> GpuHistogramCounter::readFrom(std::span<const uint32_t> words) {
  const Pending pending = std::exchange(pending_, Pending::kNone);
  switch (pending) {
    case Pending::kWhole: {
      HistogramData out;
      out.bins = params_.bins;
      out.channels = params_.channels;
      out.counts.assign(words.begin(), words.end());
      if (out.counts.size() != params_.wordCount()) break;
      return out;
    }
    case Pending::kLumaOnly: {
      if (words.size() != l_->params().wordCount()) break;
      return mergeLuma(params_.channels, params_.bins, "", {},
                       std::vector<uint32_t>(words.begin(), words.end()));
    }
    case Pending::kMerged:
      return std::move(merged_counts_);
    case Pending::kNone:
      return fail(ErrorCode::kInternal, "histogram: counts read without a dispatch()");
  }
  return fail(ErrorCode::kInternal, "histogram: ", std::to_string(words.size()),
              " words read back, not the counts'");
}

double GpuHistogramCounter::takeReadbackMs() {
  return std::exchange(readback_ms_, 0.0);
}

Result<std::vector<uint32_t>> GpuHistogramCounter::timedRead(const Histogram& h) {
  WallTimer t;
  Result<std::vector<uint32_t>> counts = h.read();
  readback_ms_ += t.ms();
  return counts;
}

Status GpuHistogramCounter::runOne(Histogram& h, const GpuImage* image,
                                   const PackedRgbaBuffer* packed) {
  if (h.params().source == ImageSource::kPackedBuffer && packed) return h.run(*packed);
  if (h.params().source == ImageSource::kTexture && image) return h.run(*image);
  return fail(ErrorCode::kInternal, "histogram: no ", image ? "packed buffer" : "image",
              " of the frame for its source");
}

}  // namespace esf
