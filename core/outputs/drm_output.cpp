#include "core/outputs/drm_output.hpp"

#include <string_view>
#include <vector>

#include "base/text_parse.hpp"
#include "platform/gl_context.hpp"

namespace esf {
namespace {

constexpr std::string_view kWhat = "DRM output";

Result<uint64_t> number(const std::string& key, std::string_view text, uint64_t max) {
  return parseUnsigned(text, std::string(kWhat) + ": " + key, 0, max);
}

Result<KmsRect> parseRect(const std::string& value) {
  std::vector<std::string_view> parts;
  std::string_view rest = value;
  for (size_t comma; (comma = rest.find(',')) != std::string_view::npos;) {
    parts.push_back(rest.substr(0, comma));
    rest.remove_prefix(comma + 1);
  }
  parts.push_back(rest);
  if (parts.size() != 4)
    return fail(ErrorCode::kInvalidArgument, kWhat, ": rect '", value,
                "': expected X,Y,W,H (four numbers)");
  uint64_t v[4];
  for (int k = 0; k < 4; ++k) {
    Result<uint64_t> n = number("rect", parts[size_t(k)], 16384);
    if (!n) return n.error();
    v[k] = *n;
  }
  if (v[2] == 0 || v[3] == 0)
    return fail(ErrorCode::kInvalidArgument, kWhat, ": rect width and height must be > 0");
  return KmsRect{int32_t(v[0]), int32_t(v[1]), uint32_t(v[2]), uint32_t(v[3])};
}

}  // namespace

Result<KmsDisplayOptions> parseDrmOutputOptions(const std::string& text) {
  // rect=X,Y,W,H carries its own commas: its three other numbers are the next items.
  const KeyValueListRules rules{
      {"device", "connector", "plane", "zpos", "alpha", "rect", "buffers"}, {"rect"}};
  Result<std::vector<KeyValue>> items = parseKeyValueList(text, kWhat, rules);
  if (!items) return items.error();
  KmsDisplayOptions o;
  for (const auto& [key, value] : *items) {
    if (key == "device") {
      o.device = value;
    } else if (key == "connector") {
      o.connector = value;
    } else if (key == "rect") {
      Result<KmsRect> r = parseRect(value);
      if (!r) return r.error();
      o.rect = *r;
    } else {  // plane, zpos, alpha, buffers: numbers
      Result<uint64_t> v = number(key, value, key == "plane" ? 0xffffffffu : 0xffff);
      if (!v) return v.error();
      if (key == "plane") {
        if (*v == 0) return fail(ErrorCode::kInvalidArgument, kWhat, ": plane=0 is not a plane id");
        o.plane_id = uint32_t(*v);
      } else if (key == "zpos") {
        o.zpos = *v;
      } else if (key == "alpha") {
        o.alpha = *v;
      } else {
        if (*v != 2 && *v != 3)
          return fail(ErrorCode::kInvalidArgument, kWhat, ": buffers=", value, ": expected 2 or 3");
        o.buffers = int(*v);
      }
    }
  }
  return o;
}

Result<std::unique_ptr<DrmOutput>> openDrmOutput(const std::string& spec, GlContext& gl) {
  Result<KmsDisplayOptions> options = parseDrmOutputOptions(spec);
  if (!options) return options.error();
  Result<std::unique_ptr<KmsDisplay>> display = KmsDisplay::open(*options, gl);
  if (!display) return display.error();
  return std::make_unique<DrmOutput>(std::move(display.value()));
}

Status DrmOutput::write(const FrameResult& frame) {
  if (!frame.gpu)
    return fail(ErrorCode::kUnsupported, kWhat,
                ": the frame has no GPU histogram (it needs the GLES backend)");
  const GpuFrameView& gpu = *frame.gpu;
  const KmsRect& r = display_->rect();
  if (!graph_) {
    Result<GraphRenderer> g =
        GraphRenderer::create(gpu.bins, frame.hist.channels, int(r.width), int(r.height));
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
  if (Status s = graph_->render(gpu.histogram_buffer, gpu.scale_buffer); !s) return s;
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
