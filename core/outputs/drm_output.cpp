#include "core/outputs/drm_output.hpp"

#include <charconv>
#include <set>
#include <vector>

#include "platform/gl_context.hpp"

namespace esf {
namespace {

constexpr const char* kKeys = "device, connector, plane, zpos, alpha, rect=X,Y,W,H, buffers";

Result<uint64_t> number(const std::string& key, const std::string& text, uint64_t max) {
  uint64_t v = 0;
  const char* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || p != end || v > max)
    return fail("--output drm: ", key, "=", text, " is not a number in 0..", std::to_string(max));
  return v;
}

}  // namespace

Result<KmsDisplayOptions> parseDrmOutputOptions(const std::string& text) {
  KmsDisplayOptions o;
  if (text.empty()) return o;
  std::vector<std::string> items;
  for (size_t pos = 0;;) {
    size_t comma = text.find(',', pos);
    items.push_back(text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < items.size(); ++i) {
    const size_t eq = items[i].find('=');
    if (eq == std::string::npos || eq == 0)
      return fail("--output drm: expected KEY=VALUE, got '", items[i], "' (keys: ", kKeys, ")");
    const std::string key = items[i].substr(0, eq), value = items[i].substr(eq + 1);
    if (!seen.insert(key).second) return fail("--output drm: ", key, "= given twice");
    if (key == "device" || key == "connector") {
      if (value.empty()) return fail("--output drm: ", key, "= needs a value");
      (key == "device" ? o.device : o.connector) = value;
    } else if (key == "plane" || key == "zpos" || key == "alpha" || key == "buffers") {
      const uint64_t max = key == "plane" ? 0xffffffffu : key == "alpha" ? 0xffff : 0xffff;
      Result<uint64_t> v = number(key, value, max);
      if (!v) return v.error();
      if (key == "plane") {
        if (*v == 0) return fail("--output drm: plane=0 is not a plane id");
        o.plane_id = uint32_t(*v);
      } else if (key == "zpos") {
        o.zpos = *v;
      } else if (key == "alpha") {
        o.alpha = *v;
      } else {
        if (*v != 2 && *v != 3) return fail("--output drm: buffers=", value, ": 2 or 3");
        o.buffers = int(*v);
      }
    } else if (key == "rect") {
      // rect=X,Y,W,H: its three other numbers are the next comma-separated items.
      if (i + 3 >= items.size())
        return fail("--output drm: rect needs X,Y,W,H (four numbers), got rect=", value);
      uint64_t v[4];
      const std::string parts[4] = {value, items[i + 1], items[i + 2], items[i + 3]};
      for (int k = 0; k < 4; ++k) {
        Result<uint64_t> n = number("rect", parts[k], 16384);
        if (!n) return n.error();
        v[k] = *n;
      }
      if (v[2] == 0 || v[3] == 0) return fail("--output drm: rect width and height must be > 0");
      o.rect = KmsRect{int32_t(v[0]), int32_t(v[1]), uint32_t(v[2]), uint32_t(v[3])};
      i += 3;
    } else {
      return fail("--output drm: unknown key '", key, "' (keys: ", kKeys, ")");
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
  if (!frame.gpu) return fail("--output drm: the frame has no GPU histogram (--backend cpu?)");
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
  if (Status s = checkGl("--output drm: blitting the graph into the scanout buffer"); !s) return s;
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
