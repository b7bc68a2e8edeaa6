#pragma once
// --output drm[:device=CARD,connector=NAME,plane=ID,zpos=N,alpha=A,rect=X,Y,W,H,buffers=2|3,
// mode=overlay|parade|luma,scale=linear|log,decor=on|off,frame=on|off,
// scope=waveform|parade|vectorscope]:
// the processed camera frame on the primary plane (scaled with the aspect kept by frame.frag)
// and the histogram graph over it on another plane (the kiosk case); frame=off: the graph alone;
// scope=: that scope of the frame instead of the histogram (scope.frag).
// The graph is drawn by graph.frag into
// its own RGBA8 texture and blitted, flipped to scanout row order, into the plane's GBM scanout
// buffer through an FBO. The GL context must run on the display's card (--egl gbm --drm-device
// CARD) so the scanout buffers can be imported; then both share one fd, the DRM master.
#include <memory>
#include <optional>
#include <string>

#include "core/outputs/drm_frame.hpp"
#include "core/outputs/graph_renderer.hpp"
#include "core/outputs/scope_renderer.hpp"
#include "esframe/sink.hpp"
#include "platform/gl_context.hpp"
#include "platform/kms_display.hpp"

namespace esf {

// The graph's background alpha over the frame on a plane that blends per-pixel alpha
// (ARGB8888): black at 160/255, premultiplied as KMS blends. Opaque on XRGB8888 and without frame.
constexpr uint8_t kDrmGraphBackgroundAlpha = 160;

class DrmOutput : public FrameSink {
 public:
  // own_gl: on the CPU backends, the sink's own GL context (the display draws with it); null
  // when the pipeline's context draws.
  DrmOutput(std::unique_ptr<KmsDisplay> display, const GraphOptions& graph,
            std::unique_ptr<GlContext> own_gl = nullptr)
      : own_gl_(std::move(own_gl)), display_(std::move(display)), options_(graph) {}
  ~DrmOutput() override;
  Status write(const FrameResult& frame) override;
  Status finish() override;  // restores the display and frees the plane

  const KmsDisplay& display() const { return *display_; }

 private:
  // CPU backends: the frame's histogram, scale and image uploaded into this sink's GL objects.
  Result<GpuFrameView> uploadCpuFrame(const FrameResult& frame);

  std::unique_ptr<GlContext> own_gl_;  // declared first: outlives every GL object below
  std::unique_ptr<KmsDisplay> display_;
  GraphOptions options_;
  // Draws the plane's picture into its texture (graph_ or scope_, made on the first frame).
  Status drawGraph(const FrameResult& frame, const GpuFrameView& gpu);

  std::optional<GraphRenderer> graph_;
  std::optional<ScopeRenderer> scope_;
  std::optional<FrameScaler> frame_scaler_;
  GlFramebuffer graph_read_fbo_;
  GlBuffer cpu_counts_, cpu_scales_;
  GlTexture cpu_image_;
  int cpu_image_width_ = 0, cpu_image_height_ = 0;
};

}  // namespace esf
