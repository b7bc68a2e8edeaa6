#include "platform/kms_display.hpp"

#include <drm_fourcc.h>
#include <poll.h>
#include <xf86drm.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "esframe/base/log.hpp"
#include "platform/gl_fence.hpp"

namespace esf {
namespace {

constexpr int kFlipTimeoutMs = 3000;  // vkms under QEMU's TCG can be slow to reach its vblank

bool sameTimings(const drmModeModeInfo& a, const drmModeModeInfo& b) {
  return a.clock == b.clock && a.hdisplay == b.hdisplay && a.hsync_start == b.hsync_start &&
         a.hsync_end == b.hsync_end && a.htotal == b.htotal && a.vdisplay == b.vdisplay &&
         a.vsync_start == b.vsync_start && a.vsync_end == b.vsync_end && a.vtotal == b.vtotal &&
         a.flags == b.flags;
}

std::optional<drmModeModeInfo> currentMode(BorrowedFd fd, const KmsCrtc& crtc) {
  uint64_t blob_id = crtc.props.value("MODE_ID");
  if (!crtc.props.value("ACTIVE") || !blob_id) return std::nullopt;
  DrmPropertyBlob blob(drmModeGetPropertyBlob(fd.get(), uint32_t(blob_id)));
  if (!blob || blob->length < sizeof(drmModeModeInfo)) return std::nullopt;
  return *static_cast<const drmModeModeInfo*>(blob->data);
}

void onFlip(int, unsigned, unsigned, unsigned, void* user_data) {
  *static_cast<bool*>(user_data) = true;
}

std::string modeName(const drmModeModeInfo& m) {
  return std::to_string(m.hdisplay) + "x" + std::to_string(m.vdisplay) + "@" +
         std::to_string(m.vrefresh);
}

}  // namespace

KmsRect cornerRect(uint32_t mode_width, uint32_t mode_height) {
  constexpr uint32_t kMargin = 16;
  uint32_t w = std::max<uint32_t>(16, mode_width / 4 / 16 * 16);
  w = std::min(w, mode_width);
  uint32_t h = std::min(std::max<uint32_t>(1, w / 2), mode_height);
  int32_t x = mode_width >= w + kMargin ? int32_t(mode_width - w - kMargin) : 0;
  int32_t y = mode_height >= h + 2 * kMargin ? int32_t(kMargin) : 0;
  return KmsRect{x, y, w, h};
}

Status KmsDisplay::chooseOutput(const KmsDisplayOptions& o) {
  const KmsDevice& d = *device_;
  const KmsConnector* conn = nullptr;
  std::string seen;
  for (const KmsConnector& c : d.connectors()) {
    seen += (seen.empty() ? "" : ", ") + c.name + (c.connected ? "" : " (disconnected)");
    bool named = c.name == o.connector || std::to_string(c.id) == o.connector;
    if (!o.connector.empty() && named) {
      if (!c.connected)
        return fail(ErrorCode::kNotFound, "connector ", c.name, " on ", d.node().path,
                    " is not connected");
      conn = &c;
    } else if (o.connector.empty() && c.connected && !conn && !c.modes.empty()) {
      conn = &c;
    }
  }
  if (!conn)
    return fail(
        ErrorCode::kNotFound,
        o.connector.empty() ? "no connected connector" : "no connector '" + o.connector + "'",
        " on ", d.node().path, " (connectors: ", seen.empty() ? "none" : seen, ")");
  if (conn->modes.empty())
    return fail(ErrorCode::kUnsupported, "connector ", conn->name, " has no modes");
  connector_id_ = conn->id;
  connector_name_ = conn->name;
  mode_ = conn->modes.front();
  for (const drmModeModeInfo& m : conn->modes)
    if (m.type & DRM_MODE_TYPE_PREFERRED) {
      mode_ = m;
      break;
    }

  // Keep the CRTC the connector already drives; otherwise the first free one it can use.
  const KmsCrtc* crtc = nullptr;
  uint64_t current = conn->props.value("CRTC_ID");
  for (const KmsCrtc& c : d.crtcs())
    if (c.id == current) crtc = &c;
  for (const KmsCrtc& c : d.crtcs()) {
    if (crtc) break;
    if (!(conn->possible_crtcs & (1u << c.index))) continue;
    bool taken = false;
    for (const KmsConnector& other : d.connectors())
      taken = taken || (other.id != conn->id && other.props.value("CRTC_ID") == c.id);
    if (!taken) crtc = &c;
  }
  if (!crtc)
    return fail(ErrorCode::kBusy, "no free CRTC for connector ", conn->name, " on ", d.node().path);
  crtc_id_ = crtc->id;
  crtc_index_ = crtc->index;
  std::optional<drmModeModeInfo> now = currentMode(d.fd(), *crtc);
  needs_modeset_ = current != crtc->id || !now || !sameTimings(*now, mode_);

  rect_ = o.rect.value_or(o.frame ? cornerRect(mode_.hdisplay, mode_.vdisplay)
                                  : KmsRect{0, 0, mode_.hdisplay, mode_.vdisplay});
  if (rect_.width == 0 || rect_.height == 0 || rect_.x < 0 || rect_.y < 0 ||
      rect_.x + rect_.width > mode_.hdisplay || rect_.y + rect_.height > mode_.vdisplay)
    return fail(ErrorCode::kInvalidArgument, "rect ", std::to_string(rect_.x), ",",
                std::to_string(rect_.y), ",", std::to_string(rect_.width), ",",
                std::to_string(rect_.height), " does not fit the ", modeName(mode_), " mode of ",
                conn->name);
  return {};
}

Status KmsDisplay::addScene(KmsAtomicRequest& req, const PlaneCandidate* c, uint32_t fb_id,
                            uint32_t primary_fb, bool record) {
  auto set = [&](uint32_t object, const KmsPropertyTable& table, const char* name,
                 uint64_t value) -> Status {
    if (record)
      if (const KmsProperty* p = table.find(name)) saved_.push_back({object, p->id, p->value});
    return req.add(object, table, name, value);
  };
  auto setPlane = [&](const KmsPlane& p, uint32_t fb, const KmsRect& r, uint32_t src_w,
                      uint32_t src_h) -> Status {
    const std::pair<const char*, uint64_t> values[] = {{"FB_ID", fb},
                                                       {"CRTC_ID", crtc_id_},
                                                       {"SRC_X", 0},
                                                       {"SRC_Y", 0},
                                                       {"SRC_W", uint64_t(src_w) << 16},
                                                       {"SRC_H", uint64_t(src_h) << 16},
                                                       {"CRTC_X", uint64_t(int64_t(r.x))},
                                                       {"CRTC_Y", uint64_t(int64_t(r.y))},
                                                       {"CRTC_W", r.width},
                                                       {"CRTC_H", r.height}};
    for (const auto& [name, value] : values)
      if (Status s = set(p.id, p.props, name, value); !s) return s;
    return {};
  };
  const KmsDevice& d = *device_;
  if (needs_modeset_) {
    for (const KmsConnector& conn : d.connectors())
      if (conn.id == connector_id_)
        if (Status s = set(conn.id, conn.props, "CRTC_ID", crtc_id_); !s) return s;
    for (const KmsCrtc& crtc : d.crtcs())
      if (crtc.id == crtc_id_) {
        if (Status s = set(crtc.id, crtc.props, "MODE_ID", mode_blob_.id()); !s) return s;
        if (Status s = set(crtc.id, crtc.props, "ACTIVE", 1); !s) return s;
      }
  }
  for (const KmsPlane& p : d.planes()) {
    if (c && p.id == c->plane_id) {
      if (Status s = setPlane(p, fb_id, rect_, rect_.width, rect_.height); !s) return s;
      if (c->set_zpos)
        if (Status s = set(p.id, p.props, "zpos", c->zpos); !s) return s;
      if (c->set_alpha)
        if (Status s = set(p.id, p.props, "alpha", c->alpha); !s) return s;
    } else if (primary_fb && p.type == DRM_PLANE_TYPE_PRIMARY &&
               (p.possible_crtcs & (1u << crtc_index_))) {
      // The whole mode, or with the plane's scaler the frame's own size onto frame_dst_.
      const bool scaled = frame_src_w_ != 0;
      const KmsRect dst = scaled ? frame_dst_ : KmsRect{0, 0, mode_.hdisplay, mode_.vdisplay};
      if (Status s = setPlane(p, primary_fb, dst, scaled ? frame_src_w_ : dst.width,
                              scaled ? frame_src_h_ : dst.height);
          !s)
        return s;
      primary_fb = 0;  // one primary plane
    }
  }
  return {};
}

Result<std::unique_ptr<KmsDisplay>> KmsDisplay::open(const KmsDisplayOptions& o, GlContext& gl) {
  if (o.buffers < 2 || o.buffers > 3)
    return fail(ErrorCode::kInvalidArgument, "buffers ", std::to_string(o.buffers),
                ": KMS output takes 2 or 3 buffers");
  std::unique_ptr<KmsDisplay> k(new KmsDisplay());
  k->gl_ = &gl;
  Result<std::unique_ptr<KmsDevice>> device = KmsDevice::open(o.device, gl.display().gbm());
  if (!device) return device.error();
  k->device_ = std::move(device.value());
  if (Status s = k->chooseOutput(o); !s) return s.error();
  const int fd = k->device_->fd();
  if (k->needs_modeset_) {
    uint32_t blob_id = 0;
    if (drmModeCreatePropertyBlob(fd, &k->mode_, sizeof(k->mode_), &blob_id) != 0)
      return fail(errorCodeFromErrno(errno), "cannot create a mode blob on ",
                  k->device_->node().path, ": ", std::strerror(errno));
    k->mode_blob_ = DrmBlob(fd, blob_id);
  }

  const EglDisplay& egl = gl.display();
  gbm_device* gbm = k->device_->gbm();
  if (o.frame)
    if (Status s = k->openFrame(gbm, egl); !s) return s.error();
  PlaneRequest request{k->crtc_index_, o.plane_id, o.zpos, o.alpha, o.frame};
  PlaneRanking ranking = rankPlanes(k->device_->planes(), request);
  const KmsRect r = k->rect_;
  // Weston's rule: the kernel has the last word. Each candidate gets a TEST_ONLY commit of the
  // whole first frame (with the frame on the primary plane), with a real buffer of its format.
  auto test = [&](const PlaneCandidate& c) -> Status {
    if (k->buffers_.empty() || k->buffers_.front()->format() != c.format) {
      k->buffers_.clear();
      auto b = KmsScanoutBuffer::create(gbm, fd, egl, r.width, r.height, c.format);
      if (!b) return b.error();
      k->buffers_.push_back(std::move(b.value()));
    }
    k->background_.reset();
    if (k->needs_modeset_ && c.type != DRM_PLANE_TYPE_PRIMARY && !o.frame) {
      auto b = KmsScanoutBuffer::create(gbm, fd, egl, k->mode_.hdisplay, k->mode_.vdisplay,
                                        DRM_FORMAT_XRGB8888, /*render=*/false);
      if (!b) return b.error();
      k->background_ = std::move(b.value());
    }
    KmsAtomicRequest req;
    if (Status s = k->addScene(req, &c, k->buffers_.front()->fbId(), k->primaryFb(0), false); !s)
      return s;
    uint32_t flags =
        DRM_MODE_ATOMIC_TEST_ONLY | (k->needs_modeset_ ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0);
    Status s = req.commit(fd, flags, nullptr, "plane " + std::to_string(c.plane_id));
    if (!s) return fail(s.error().code, std::strerror(req.lastErrno()));
    return {};
  };
  Result<PlaneCandidate> picked = pickPlane(ranking, test);
  k->rejected_ = ranking.rejected;
  for (const PlaneRejection& rej : k->rejected_)
    logDebug("KMS: plane " + std::to_string(rej.plane_id) + " not used: " + rej.reason);
  if (!picked)
    return fail(picked.error().code, "KMS output on ", k->device_->node().path, " ",
                k->connector_name_, ": ", picked.error().message);
  k->plane_ = picked.value();
  while (int(k->buffers_.size()) < o.buffers) {
    auto b = KmsScanoutBuffer::create(gbm, fd, egl, r.width, r.height, k->plane_.format);
    if (!b) return b.error();
    k->buffers_.push_back(std::move(b.value()));
  }
  while (o.frame && k->frame_buffers_.size() < k->buffers_.size()) {
    auto b = KmsScanoutBuffer::create(gbm, fd, egl, k->mode_.hdisplay, k->mode_.vdisplay,
                                      DRM_FORMAT_XRGB8888);
    if (!b) return b.error();
    k->frame_buffers_.push_back(std::move(b.value()));
  }
  logInfo("KMS: " + k->device_->node().path + " " + k->connector_name_ + " " + modeName(k->mode_) +
          (k->needs_modeset_ ? " (modeset)" : "") + ", " + planeTypeName(k->plane_.type) +
          " plane " + std::to_string(k->plane_.plane_id) + " " + drmFormatName(k->plane_.format) +
          " zpos " + std::to_string(k->plane_.zpos) + " at " + std::to_string(r.x) + "," +
          std::to_string(r.y) + " " + std::to_string(r.width) + "x" + std::to_string(r.height) +
          (o.frame ? ", the frame on primary plane " + std::to_string(k->primary_id_) : "") + ", " +
          std::to_string(o.buffers) + " buffers; " + std::to_string(k->rejected_.size()) +
          " planes passed over (-vv says why)");
  return k;
}

Status KmsDisplay::openFrame(gbm_device* gbm, const EglDisplay& egl) {
  const std::string where = "KMS output on " + device_->node().path + " " + connector_name_;
  const KmsPlane* primary = nullptr;
  for (const KmsPlane& p : device_->planes())
    if (!primary && p.type == DRM_PLANE_TYPE_PRIMARY && (p.possible_crtcs & (1u << crtc_index_)))
      primary = &p;
  if (!primary)
    return fail(ErrorCode::kUnsupported, where, ": no primary plane for CRTC ",
                std::to_string(crtc_id_), " to show the frame (frame=off shows the graph alone)");
  if (std::find(primary->formats.begin(), primary->formats.end(), DRM_FORMAT_XRGB8888) ==
      primary->formats.end())
    return fail(ErrorCode::kUnsupported, where, ": primary plane ", std::to_string(primary->id),
                " does not take XRGB8888 for the frame (frame=off shows the graph alone)");
  auto b = KmsScanoutBuffer::create(gbm, device_->fd(), egl, mode_.hdisplay, mode_.vdisplay,
                                    DRM_FORMAT_XRGB8888);
  if (!b) return b.error();
  frame_buffers_.push_back(std::move(b.value()));
  primary_id_ = primary->id;
  // The primary plane alone first, so that a refusal names the right plane; the pair is tested
  // with each graph plane candidate.
  KmsAtomicRequest req;
  if (Status s = addScene(req, nullptr, 0, primaryFb(0), false); !s) return s;
  uint32_t flags = DRM_MODE_ATOMIC_TEST_ONLY | (needs_modeset_ ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0);
  if (Status s = req.commit(device_->fd(), flags, nullptr, "frame"); !s)
    return fail(s.error().code, where, ": primary plane ", std::to_string(primary->id),
                " refused the ", modeName(mode_),
                " XRGB8888 frame in a TEST_ONLY commit: ", std::strerror(req.lastErrno()),
                " (frame=off shows the graph alone)");
  return {};
}

uint32_t KmsDisplay::primaryFb(int index) const {
  if (!frame_buffers_.empty()) return frame_buffers_[size_t(index)]->fbId();
  return background_ ? background_->fbId() : 0;
}

Result<bool> KmsDisplay::scaleFrameOnPlane(uint32_t width, uint32_t height, const KmsRect& dst) {
  if (!showsFrame() || shown_ || (width == mode_.hdisplay && height == mode_.vdisplay))
    return false;
  std::vector<std::unique_ptr<KmsScanoutBuffer>> scaled;
  while (scaled.size() < frame_buffers_.size()) {
    auto b = KmsScanoutBuffer::create(device_->gbm(), device_->fd(), gl_->display(), width, height,
                                      DRM_FORMAT_XRGB8888);
    if (!b) return b.error();
    scaled.push_back(std::move(b.value()));
  }
  frame_src_w_ = width;
  frame_src_h_ = height;
  frame_dst_ = dst;
  KmsAtomicRequest req;
  Status s = addScene(req, &plane_, buffers_.front()->fbId(), scaled.front()->fbId(), false);
  const uint32_t flags =
      DRM_MODE_ATOMIC_TEST_ONLY | (needs_modeset_ ? DRM_MODE_ATOMIC_ALLOW_MODESET : 0);
  if (s) s = req.commit(device_->fd(), flags, nullptr, "scaled frame");
  const std::string what = "primary plane " + std::to_string(primary_id_) + " scaling the " +
                           std::to_string(width) + "x" + std::to_string(height) + " frame to " +
                           std::to_string(dst.width) + "x" + std::to_string(dst.height) + " at " +
                           std::to_string(dst.x) + "," + std::to_string(dst.y);
  if (!s) {
    frame_src_w_ = frame_src_h_ = 0;
    logInfo("KMS: " + what + " refused in a TEST_ONLY commit (" +
            (req.lastErrno() ? std::string(std::strerror(req.lastErrno())) : s.error().message) +
            "): the GPU draws the frame scaled into a mode-sized buffer");
    return false;
  }
  frame_buffers_ = std::move(scaled);
  logInfo("KMS: " + what + " (the plane's scaler; the GPU copies the frame unscaled)");
  return true;
}

KmsScanoutBuffer* KmsDisplay::frameBuffer(const KmsScanoutBuffer* graph) const {
  for (size_t i = 0; i < buffers_.size() && i < frame_buffers_.size(); ++i)
    if (buffers_[i].get() == graph) return frame_buffers_[i].get();
  return nullptr;
}

Result<KmsScanoutBuffer*> KmsDisplay::nextBuffer() {
  if (closed_) return fail(ErrorCode::kInternal, "KMS display already closed");
  for (;;) {
    for (int i = 0; i < int(buffers_.size()); ++i)
      if (i != front_ && i != pending_) return buffers_[i].get();
    if (Status s = waitFlip(); !s) return s.error();
  }
}

Status KmsDisplay::waitFlip() {
  if (pending_ < 0) return {};
  drmEventContext ctx{};
  ctx.version = 2;
  ctx.page_flip_handler = onFlip;  // sets flip_seen_, the user data of every commit
  while (!flip_seen_) {
    pollfd p{device_->fd(), POLLIN, 0};
    int n = poll(&p, 1, kFlipTimeoutMs);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      return fail(ErrorCode::kTimeout, "no page-flip event from ", device_->node().path, " within ",
                  std::to_string(kFlipTimeoutMs), " ms");
    if (drmHandleEvent(device_->fd(), &ctx) != 0)
      return fail(ErrorCode::kIo, "reading DRM events from ", device_->node().path, " failed");
  }
  flip_seen_ = false;
  front_ = pending_;
  pending_ = -1;
  return {};
}

Status KmsDisplay::present(KmsScanoutBuffer* buffer) {
  if (closed_) return fail(ErrorCode::kInternal, "KMS display already closed");
  int index = -1;
  for (int i = 0; i < int(buffers_.size()); ++i)
    if (buffers_[i].get() == buffer) index = i;
  if (index < 0 || index == front_ || index == pending_)
    return fail(ErrorCode::kInternal, "present: not a free buffer of this display");
  // kms_swrast has no implicit fences: the pixels must be in memory before the flip. A bounded
  // wait: a hung GPU becomes kGpuHang instead of a kiosk frozen forever.
  GlFence drawn = GlFence::insert("drawing into the scanout buffer of plane " +
                                  std::to_string(plane_.plane_id));
  if (Status s = drawn.wait(kGpuWatchdog); !s) return s;
  if (Status s = waitFlip(); !s) return s;
  KmsAtomicRequest req;
  uint32_t flags = DRM_MODE_PAGE_FLIP_EVENT;
  if (!shown_) {
    if (Status s = addScene(req, &plane_, buffer->fbId(), primaryFb(index), true); !s) return s;
    if (needs_modeset_) flags |= DRM_MODE_ATOMIC_ALLOW_MODESET;
  } else {
    for (const KmsPlane& p : device_->planes()) {
      uint32_t fb = p.id == plane_.plane_id ? buffer->fbId()
                    : p.id == primary_id_   ? primaryFb(index)
                                            : 0;
      if (fb)
        if (Status s = req.add(p.id, p.props, "FB_ID", fb); !s) return s;
    }
    flags |= DRM_MODE_ATOMIC_NONBLOCK;
  }
  if (Status s = req.commit(device_->fd(), flags, &flip_seen_,
                            "showing plane " + std::to_string(plane_.plane_id));
      !s)
    return s;
  shown_ = true;
  pending_ = index;
  return {};
}

Status KmsDisplay::restore() {
  if (saved_.empty()) return {};
  KmsAtomicRequest req;
  // Every property written by the first commit gets its earlier value back; a plane that showed
  // nothing gets FB_ID 0 and CRTC_ID 0 again, which frees it.
  for (const SavedProperty& p : saved_)
    if (Status s = req.addById(p.object_id, p.property_id, p.value); !s) return s;
  return req.commit(device_->fd(), DRM_MODE_ATOMIC_ALLOW_MODESET, nullptr,
                    "restoring the previous display state on " + device_->node().path);
}

Status KmsDisplay::close() {
  if (closed_) return {};
  closed_ = true;
  Status flip = waitFlip();
  Status restored = restore();
  saved_.clear();
  // The buffers go only after the restore commit no longer shows them.
  buffers_.clear();
  frame_buffers_.clear();
  background_.reset();
  mode_blob_.reset();
  if (!restored) return restored;
  if (shown_)
    logInfo("KMS: plane " + std::to_string(plane_.plane_id) +
            (primary_id_ ? " and primary plane " + std::to_string(primary_id_) : "") +
            " released, display restored");
  return flip;
}

KmsDisplay::~KmsDisplay() {
  if (Status s = close(); !s) logError(s.error().message);
}

}  // namespace esf
