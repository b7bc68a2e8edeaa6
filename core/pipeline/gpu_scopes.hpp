#pragma once
// The GPU backend's scopes (PipelineConfig::scopes) and the chroma counts of YUV frames, which
// also give PipelineConfig::signalstats: a YUV frame's vectorscope and signalstats counts come
// from its own chroma planes at the import (zero-copy frames too), the other scopes in the
// plan's scopes pass from what it reads (the histogram's packed buffer, or the processed image);
// they come back in the frame's one read-back, and collect() puts them into its result.
#include <optional>

#include "core/image/gpu_image.hpp"
#include "core/import/frame_import.hpp"
#include "core/pipeline/frame_readback.hpp"
#include "core/stages/scopes.hpp"
#include "esframe/frame.hpp"
#include "esframe/frame_result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

class GpuScopes {
 public:
  GpuScopes(GlContext& gl, const ScopeOptions& scopes, bool signalstats)
      : gl_(gl), scopes_asked_(scopes), signalstats_(signalstats) {}
  // The stages `format`'s frames need, made before any frame's time is taken, and where a YUV
  // format's chroma lies (kept for its frames); `packed`: the scopes pass reads packed buffers
  // (PlanData::kPacked), not images.
  Status configureFor(PixelFormat format, bool packed);
  // At the import: a YUV frame's chroma counts, from the planes the import read (a frame of the
  // format configured).
  Status countChroma(const ImportedFrame& imported);
  // The scopes pass: the image's scopes (luma: the source's luma lane, or null).
  Status countImage(const GpuImage& image, const GpuImage* luma, FrameResult& r);
  // The same from packed buffers (configured with `packed`).
  Status countPacked(const PackedRgbaBuffer& packed, const PackedRgbaBuffer* luma, FrameResult& r);
  // After the frame's GPU work: lists the counts this frame made (image_counted: the scopes pass
  // ran) in the frame's read-back.
  void addReadbacks(bool image_counted, FrameReadback& readback);
  // After the read-back: the counts into r.scopes and r.signalstats.
  Status collect(const Frame& frame, FrameResult& r, const FrameReadback& readback);

 private:
  template <typename Pixels>
  Status count(const Pixels& pixels, const Pixels* luma, FrameResult& r);
  GlContext& gl_;
  ScopeOptions scopes_asked_;
  bool signalstats_ = false;
  // The image stage (null where only a YUV frame's vectorscope is asked) and what it counts;
  // the chroma stage, kept through other frames: signalstats compares with the last YUV frame's
  // chroma.
  std::optional<Scopes> image_scopes_, chroma_scopes_;
  ScopeOptions image_counted_;
  bool image_packed_ = false;  // image_scopes_ reads packed buffers
  // The configured format's chroma planes, where it is YUV (the chroma stage counts them).
  std::optional<ChromaLayout> chroma_layout_;
  // The frame's slots in the read-back (addReadbacks()), where it listed them.
  std::optional<size_t> chroma_at_, signalstats_at_, image_at_;
};

}  // namespace esf
