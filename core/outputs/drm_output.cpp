#include "core/outputs/drm_output.hpp"

#include <string_view>
#include <vector>

#include <drm_fourcc.h>

#include "platform/gl_context.hpp"

namespace esf {
namespace {

constexpr std::string_view kWhat = "DRM output";

}  // namespace

Status DrmOutput::write(const FrameResult& frame) {
  if (!frame.gpu)
    return fail(ErrorCode::kUnsupported, kWhat,
                ": the frame has no GPU histogram (it needs the GLES backend)");
  const GpuFrameView& gpu = *frame.gpu;
  const KmsRect& r = display_->rect();
  if (!graph_) {
    const bool translucent = display_->showsFrame() && display_->format() == DRM_FORMAT_ARGB8888;
    Result<GraphRenderer> g =
        GraphRenderer::create(gpu.bins, frame.hist.channels, int(r.width), int(r.height), options_,
                              translucent ? kDrmGraphBackgroundAlpha : uint8_t(255));
    if (!g) return g.error();
    graph_.emplace(std::move(g.value()));
    graph_read_fbo_ = makeFramebuffer();
    glBindFramebuffer(GL_READ_FRAMEBUFFER, graph_read_fbo_.get());
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D,
                           graph_->texture(), 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  }
  Result<KmsScanoutBuffer*> buffer = display_->nextBuffer();
  if (!buffer) return buffer.error();
  if (KmsScanoutBuffer* primary = display_->frameBuffer(*buffer)) {
    if (!gpu.image_texture)
      return fail(ErrorCode::kUnsupported, kWhat, ": the frame has no GPU image to show");
    if (!frame_scaler_) {
      // The plane's own scaler where the kernel takes it; else the GPU scales (vkms cannot).
      const drmModeModeInfo& m = display_->mode();
      const FitRect fit = fitRect(gpu.width, gpu.height, m.hdisplay, m.vdisplay);
      Result<bool> plane_scales = display_->scaleFrameOnPlane(
          uint32_t(gpu.width), uint32_t(gpu.height),
          KmsRect{fit.x, fit.y, uint32_t(fit.width), uint32_t(fit.height)});
      if (!plane_scales) return plane_scales.error();
      primary = display_->frameBuffer(*buffer);  // frame-sized now if the plane scales
      Result<FrameScaler> f = FrameScaler::create();
      if (!f) return f.error();
      frame_scaler_.emplace(std::move(f.value()));
    }
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, primary->framebuffer());
    Status s = frame_scaler_->draw(gpu.image_texture, gpu.width, gpu.height, int(primary->width()),
                                   int(primary->height()));
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    if (!s) return s;
  }
  if (Status s = graph_->render(gpu.histogram_buffer, gpu.scale_buffer,
                                graphLabels(frame.hist, frame.stats));
      !s)
    return s;
  // GL's row 0 is the graph's bottom; scanout row 0 is the top of the screen: blit flipped.
  // Same size, so the blit copies pixels exactly.
  const GLint w = GLint(r.width), h = GLint(r.height);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, graph_read_fbo_.get());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (*buffer)->framebuffer());
  glBlitFramebuffer(0, 0, w, h, 0, h, w, 0, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  if (Status s = checkGl("DRM output: blitting the graph into the scanout buffer"); !s) return s;
  return display_->present(*buffer);
}

Status DrmOutput::finish() {
  return display_->close();
}

DrmOutput::~DrmOutput() {
  // GL objects go while the context is still current; the display restores on its own close.
  graph_.reset();
  frame_scaler_.reset();
  graph_read_fbo_.reset();
}

}  // namespace esf
