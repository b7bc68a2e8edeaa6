#pragma once
// The GPU backend's scopes (PipelineConfig::scopes) and the chroma counts of YUV frames, which
// also give PipelineConfig::signalstats: a YUV frame's vectorscope and signalstats counts come
// from its own chroma planes at the import (zero-copy frames too), the other scopes in the
// plan's scopes pass from what it reads (the histogram's packed buffer, or the processed image);
// they come back in the frame's one read-back, and collect() puts them into its result.
#include <optional>

#include "core/image/gpu_image.hpp"
#include "core/pipeline/gpu_frame_extra.hpp"
#include "core/stages/scopes.hpp"
#include "platform/gl_context.hpp"

namespace esf {

class GpuScopes : public GpuFrameExtra {
 public:
  GpuScopes(GlContext& gl, const ScopeOptions& scopes, bool signalstats)
      : gl_(gl), scopes_asked_(scopes), signalstats_(signalstats) {}
  // The stages the frame's format needs, and where a YUV format's chroma lies (kept for its
  // frames); the image stage reads what the plan's scopes pass reads (packed buffers or images).
  Status configureFor(const Frame& frame, const FramePlan& plan) override;
  // At the import: a YUV frame's chroma counts, from the planes the import read.
  Status count(const ImportedFrame& imported) override;
  // The scopes pass: the image's scopes (luma: the source's luma lane, or null).
  Status countImage(const GpuImage& image, const GpuImage* luma, FrameResult& r);
  // The same from packed buffers (configured with `packed`).
  Status countPacked(const PackedRgbaBuffer& packed, const PackedRgbaBuffer* luma, FrameResult& r);
  // After the frame's GPU work: lists the counts this frame made in its read-back.
  void addReadback(FrameReadback& readback) override;
  // After the read-back: the counts into r.scopes and r.signalstats.
  Status collect(const Frame& frame, FrameResult& r, const FrameReadback& readback) override;

 private:
  template <typename Pixels>
  Status countPixels(const Pixels& pixels, const Pixels* luma, FrameResult& r);
  GlContext& gl_;
  ScopeOptions scopes_asked_;
  bool signalstats_ = false;
  // The image stage (null where only a YUV frame's vectorscope is asked) and what it counts;
  // the chroma stage, kept through other frames: signalstats compares with the last YUV frame's
  // chroma.
  std::optional<Scopes> image_scopes_, chroma_scopes_;
  ScopeOptions image_counted_;
  bool image_packed_ = false;  // image_scopes_ reads packed buffers
  bool image_ran_ = false;     // the scopes pass ran since the last read-back
  // The configured format's chroma planes, where it is YUV (the chroma stage counts them).
  std::optional<ChromaLayout> chroma_layout_;
  // The frame's slots in the read-back (addReadback()), where it listed them.
  std::optional<size_t> chroma_at_, signalstats_at_, image_at_;
};

}  // namespace esf
