#include "core/pipeline/gpu_scopes.hpp"

#include <utility>

#include "base/pixel_format.hpp"
#include "core/stages/scopes_reference.hpp"
#include "core/stats/signalstats.hpp"

namespace esf {

Status GpuScopes::configureFor(const Frame& frame, const FramePlan& plan) {
  const PixelFormat format = frame.format;
  const PlanPass* pass = plan.find(PassKind::kScopes);
  const bool packed = pass && pass->reads == PlanData::kPacked;
  image_ran_ = false;
  ScopeOptions counted = scopes_asked_;
  chroma_layout_.reset();
  if (isYuv(format)) {
    chroma_layout_ = chromaLayoutOf(format);
    counted.vectorscope = false;
    if ((scopes_asked_.vectorscope || signalstats_) && !chroma_scopes_) {
      ScopeOptions vectorscope;
      vectorscope.vectorscope = true;
      Result<Scopes> made = Scopes::create(gl_, ScopesParams::defaultsFor(gl_, vectorscope),
                                           vectorscope, ScopesInput::kChromaPlanes, signalstats_);
      if (!made) return made.error();
      chroma_scopes_.emplace(std::move(made.value()));
    }
  }
  if (!counted.any()) {
    image_scopes_.reset();
    image_counted_ = counted;
    return Status::success();
  }
  if (image_scopes_ && counted == image_counted_ && packed == image_packed_)
    return Status::success();
  Result<Scopes> made = Scopes::create(gl_, ScopesParams::defaultsFor(gl_, counted), counted,
                                       packed ? ScopesInput::kPackedBuffer : ScopesInput::kImage);
  if (!made) return made.error();
  image_scopes_.emplace(std::move(made.value()));
  image_counted_ = counted;
  image_packed_ = packed;
  return Status::success();
}

Status GpuScopes::count(const ImportedFrame& imported) {
  if (!chroma_scopes_ || !chroma_layout_) return Status::success();
  return chroma_scopes_->run(chromaPlanesOf(imported, *chroma_layout_));
}

template <typename Pixels>
Status GpuScopes::countPixels(const Pixels& pixels, const Pixels* luma, FrameResult& r) {
  image_ran_ = true;
  ScopeCounts counts;
  counts.columns = scopeColumns(scopes_asked_, pixels.width());
  r.scopes = std::move(counts);
  if (!image_scopes_) return Status::success();
  return image_scopes_->run(pixels, luma, r.scopes->columns);
}

Status GpuScopes::countImage(const GpuImage& image, const GpuImage* luma, FrameResult& r) {
  return countPixels(image, luma, r);
}

Status GpuScopes::countPacked(const PackedRgbaBuffer& packed, const PackedRgbaBuffer* luma,
                              FrameResult& r) {
  return countPixels(packed, luma, r);
}

void GpuScopes::addReadback(FrameReadback& readback) {
  const bool image_counted = image_ran_;
  image_ran_ = false;
  chroma_at_.reset();
  signalstats_at_.reset();
  image_at_.reset();
  if (chroma_scopes_ && chroma_layout_) {
    chroma_at_ = readback.add(chroma_scopes_->resultWords());
    if (signalstats_) signalstats_at_ = readback.add(chroma_scopes_->signalstatsWords());
  }
  if (image_scopes_ && image_counted) image_at_ = readback.add(image_scopes_->resultWords());
}

Status GpuScopes::collect(const Frame& frame, FrameResult& r, const FrameReadback& readback) {
  if (chroma_at_) {
    Result<ScopeCounts> counted = chroma_scopes_->countsOf(readback.words(*chroma_at_));
    if (!counted) return counted.error();
    if (signalstats_at_) {
      Result<ChromaSignalstatsCounts> c =
          chroma_scopes_->signalstatsOf(readback.words(*signalstats_at_));
      if (!c) return c.error();
      r.signalstats = signalstatsOfCounts(
          counted->vectorscope, counted->vectorscope_samples,
          c->has_previous ? c->cb_difference : 0, c->has_previous ? c->cr_difference : 0,
          c->out_of_range_pixels, uint64_t(frame.width) * uint64_t(frame.height));
    }
    if (r.scopes && scopes_asked_.vectorscope) {
      r.scopes->vectorscope = std::move(counted->vectorscope);
      r.scopes->vectorscope_samples = counted->vectorscope_samples;
    }
  }
  if (image_at_ && r.scopes) {
    Result<ScopeCounts> counted = image_scopes_->countsOf(readback.words(*image_at_));
    if (!counted) return counted.error();
    ScopeCounts& out = *r.scopes;
    out.waveform = std::move(counted->waveform);
    out.parade = std::move(counted->parade);
    if (image_counted_.vectorscope) {
      out.vectorscope = std::move(counted->vectorscope);
      out.vectorscope_samples = counted->vectorscope_samples;
    }
  }
  return Status::success();
}

}  // namespace esf
