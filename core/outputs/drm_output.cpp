#include "core/outputs/drm_output.hpp"

#include <bit>
#include <string_view>
#include <vector>

#include <drm_fourcc.h>

#include "core/outputs/gl_draw.hpp"
#include "core/stages/scale_reference.hpp"
#include "platform/gl_context.hpp"

namespace esf {
namespace {

constexpr std::string_view kWhat = "DRM output";

}  // namespace

Status DrmOutput::write(const FrameResult& frame) {
  Result<GpuFrameView> uploaded =
      frame.gpu ? Result<GpuFrameView>(*frame.gpu) : uploadCpuFrame(frame);
  if (!uploaded) return uploaded.error();
  const GpuFrameView& gpu = uploaded.value();
  const KmsRect& r = display_->rect();
  const bool raw_graph =
      options_.source == GraphSource::kRaw && options_.scope == GraphScope::kNone;
  if (raw_graph && !frame.raw)
    return fail(ErrorCode::kInvalidArgument, kWhat,
                ": source=raw needs a Bayer frame (a Bayer pixel format such as SRGGB10)");
  if (!graph_ && !scope_) {
    const bool translucent = display_->showsFrame() && display_->format() == DRM_FORMAT_ARGB8888;
    const uint8_t alpha = translucent ? kDrmGraphBackgroundAlpha : uint8_t(255);
    GLuint texture = 0;
    if (options_.scope != GraphScope::kNone) {
      Result<ScopeRenderer> g = ScopeRenderer::create(int(r.width), int(r.height), options_, alpha);
      if (!g) return g.error();
      scope_.emplace(std::move(g.value()));
      texture = scope_->texture();
    } else {
      Result<GraphRenderer> g =
          GraphRenderer::create(raw_graph ? frame.raw->bins : gpu.bins,
                                raw_graph ? std::string(kRawGraphChannels) : frame.hist.channels,
                                int(r.width), int(r.height), options_, alpha);
      if (!g) return g.error();
      graph_.emplace(std::move(g.value()));
      texture = graph_->texture();
    }
    graph_read_fbo_ = makeFramebuffer();
    glBindFramebuffer(GL_READ_FRAMEBUFFER, graph_read_fbo_.get());
    glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture, 0);
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
  if (Status s = drawGraph(frame, gpu); !s) return s;
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

Status DrmOutput::drawGraph(const FrameResult& frame, const GpuFrameView& gpu) {
  const GraphLabels labels = graphLabels(frame.hist, frame.stats, frame.raw ? &*frame.raw : nullptr,
                                         frame.health ? &*frame.health : nullptr);
  if (scope_) {
    if (!frame.scopes)
      return fail(ErrorCode::kInvalidArgument, kWhat,
                  ": scope= needs the frame's scopes (PipelineConfig::scopes)");
    return scope_->render(*frame.scopes, labels);
  }
  if (options_.source == GraphSource::kRaw)
    return graph_->renderCounts(rawGraphHistogram(*frame.raw), rawGraphScales(*frame.raw),
                                rawGraphLabels(*frame.raw));
  return graph_->render(gpu.histogram_buffer, gpu.scale_buffer, labels);
}

Result<GpuFrameView> DrmOutput::uploadCpuFrame(const FrameResult& frame) {
  if (!frame.image)
    return fail(ErrorCode::kUnsupported, kWhat, ": the frame has neither GPU objects nor an image");
  const HistogramData& h = frame.hist;
  const RgbaImage& image = *frame.image;
  const int channels = int(h.channels.size());
  if (!cpu_counts_) {
    cpu_counts_ = makeBuffer();
    cpu_scales_ = makeBuffer();
  }
  // The scale stage's buffer layout (core/stages/scale.hpp), from the same CPU reference the
  // CPU backends use: { maxCount, numerator, denominator, float scale } per channel.
  std::vector<uint32_t> scale_words;
  for (const ChannelScale& s :
       scaleReference(h.counts, h.bins, channels, uint64_t(image.width) * image.height))
    scale_words.insert(scale_words.end(),
                       {s.max_count, s.numerator, s.denominator, std::bit_cast<uint32_t>(s.scale)});
  streamWords(cpu_counts_.get(), h.counts);
  streamWords(cpu_scales_.get(), scale_words);
  if (!cpu_image_ || cpu_image_width_ != image.width || cpu_image_height_ != image.height) {
    cpu_image_ = makeTexture();
    glBindTexture(GL_TEXTURE_2D, cpu_image_.get());
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, image.width, image.height);
    cpu_image_width_ = image.width;
    cpu_image_height_ = image.height;
  }
  glBindTexture(GL_TEXTURE_2D, cpu_image_.get());
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // RGBA rows are whole words
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, image.width, image.height, GL_RGBA, GL_UNSIGNED_BYTE,
                  image.pixels.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  if (Status s = checkGl("DRM output: uploading the CPU backend's frame"); !s) return s.error();
  return GpuFrameView{cpu_image_.get(),  image.width, image.height, cpu_counts_.get(),
                      cpu_scales_.get(), h.bins,      channels};
}

Status DrmOutput::finish() {
  return display_->close();
}

DrmOutput::~DrmOutput() {
  // GL objects go while the context is still current; the display restores on its own close.
  graph_.reset();
  scope_.reset();
  frame_scaler_.reset();
  graph_read_fbo_.reset();
  cpu_counts_.reset();
  cpu_scales_.reset();
  cpu_image_.reset();
}

}  // namespace esf
