#include "core/outputs/drm_output.hpp"

#include <string_view>
#include <vector>

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
    Result<GraphRenderer> g =
        GraphRenderer::create(gpu.bins, frame.hist.channels, int(r.width), int(r.height), options_);
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
  if (Status s =
          graph_->render(gpu.histogram_buffer, gpu.scale_buffer,
                         graphLabels(frame.hist, frame.stats, frame.raw ? &*frame.raw : nullptr));
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
  graph_read_fbo_.reset();
}

}  // namespace esf
