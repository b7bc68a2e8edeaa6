#include "platform/kms_device.hpp"

#include <sys/stat.h>
#include <xf86drm.h>

#include <cerrno>
#include <cstring>

#include "esframe/base/log.hpp"
#include "platform/code_names.hpp"
#include "platform/drm_objects.hpp"

namespace esf {
namespace {

bool hasConnectors(BorrowedFd fd) {
  DrmResources res(drmModeGetResources(fd.get()));
  return res && res->count_connectors > 0 && res->count_crtcs > 0;
}

bool sameDevice(BorrowedFd a, BorrowedFd b) {
  struct stat sa {
  }, sb{};
  return fstat(a.get(), &sa) == 0 && fstat(b.get(), &sb) == 0 && sa.st_rdev == sb.st_rdev;
}

// The card to use: by spec, else the GL context's card, else the first card with connectors.
Result<OpenedDrmNode> openCard(const std::string& spec, GbmDevice* gl_gbm) {
  if (!spec.empty()) {
    Result<OpenedDrmNode> node = openDrmNode(spec, /*prefer_render=*/false);
    if (!node) return node.error();
    if (node->node.is_render_node)
      return fail(ErrorCode::kUnsupported, "'", node->node.path,
                  "' is a render node: KMS output needs a card node");
    return node;
  }
  if (gl_gbm && !gl_gbm->node().is_render_node && hasConnectors(gl_gbm->fd()))
    return openDrmPath(gl_gbm->node().path);
  for (const DrmNode& n : listDrmNodes()) {
    if (n.is_render_node) continue;
    Result<OpenedDrmNode> node = openDrmPath(n.path);
    if (node && hasConnectors(node->fd)) return node;
  }
  return fail(ErrorCode::kNotFound,
              "no DRM card with connectors in /dev/dri (name one by path or driver)");
}

}  // namespace

const char* planeTypeName(uint64_t type) {
  static constexpr CodeName kTypes[] = {{DRM_PLANE_TYPE_OVERLAY, "overlay"},
                                        {DRM_PLANE_TYPE_PRIMARY, "primary"},
                                        {DRM_PLANE_TYPE_CURSOR, "cursor"}};
  return codeName(int64_t(type), kTypes, "unknown");
}

Result<std::unique_ptr<KmsDevice>> KmsDevice::open(const std::string& spec, GbmDevice* gl_gbm) {
  Result<OpenedDrmNode> card = openCard(spec, gl_gbm);
  if (!card) return card.error();
  std::unique_ptr<KmsDevice> d(new KmsDevice());
  d->node_ = card->node;
  const std::string what = "DRM device " + d->node_.path + " (" + d->node_.driver + ")";
  // The GL context opened this card first and may hold DRM master on its fd: use that fd.
  const bool shared = gl_gbm && sameDevice(card->fd, gl_gbm->fd());
  const int fd = shared ? gl_gbm->fd() : card->fd.get();
  if (!drmIsMaster(fd) && drmSetMaster(fd) != 0)
    return fail(ErrorCode::kBusy, what,
                " is held by another DRM master (a display server or another esframe?): ",
                "stop it or choose another card");
  if (shared) {
    d->fd_ = gl_gbm->fd();
    d->gbm_ = gl_gbm->get();
  } else {
    Result<std::unique_ptr<GbmDevice>> gbm = GbmDevice::create(std::move(card.value()));
    if (!gbm) return gbm.error();
    d->own_gbm_ = std::move(gbm.value());
    d->fd_ = d->own_gbm_->fd();
    d->gbm_ = d->own_gbm_->get();
  }
  if (drmSetClientCap(d->fd_, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) != 0 ||
      drmSetClientCap(d->fd_, DRM_CLIENT_CAP_ATOMIC, 1) != 0)
    return fail(ErrorCode::kUnsupported, what,
                " has no atomic modesetting (DRM_CLIENT_CAP_ATOMIC refused)");
  if (Status s = d->enumerate(); !s) return s.error();
  logDebug(what + ": " + std::to_string(d->connectors_.size()) + " connectors, " +
           std::to_string(d->crtcs_.size()) + " CRTCs, " + std::to_string(d->planes_.size()) +
           " planes" + (d->sharesGlDevice() ? " (fd shared with the GL context)" : ""));
  return d;
}

KmsDevice::~KmsDevice() = default;

Status KmsDevice::enumerate() {
  connectors_.clear();
  crtcs_.clear();
  planes_.clear();
  DrmResources res(drmModeGetResources(fd_));
  if (!res)
    return fail(errorCodeFromErrno(errno), "drmModeGetResources failed on ", node_.path, ": ",
                std::strerror(errno));
  for (int i = 0; i < res->count_crtcs; ++i) {
    Result<KmsPropertyTable> props =
        KmsPropertyTable::read(fd_, res->crtcs[i], DRM_MODE_OBJECT_CRTC);
    if (!props) return props.error();
    crtcs_.push_back({res->crtcs[i], i, std::move(props.value())});
  }
  for (int i = 0; i < res->count_connectors; ++i) {
    DrmConnector c(drmModeGetConnector(fd_, res->connectors[i]));
    if (!c) continue;
    KmsConnector k;
    k.id = c->connector_id;
    const char* type = drmModeGetConnectorTypeName(c->connector_type);
    k.name = std::string(type ? type : "Unknown") + "-" + std::to_string(c->connector_type_id);
    k.connected = c->connection == DRM_MODE_CONNECTED;
    k.modes.assign(c->modes, c->modes + c->count_modes);
    for (int e = 0; e < c->count_encoders; ++e) {
      if (DrmEncoder enc{drmModeGetEncoder(fd_, c->encoders[e])})
        k.possible_crtcs |= enc->possible_crtcs;
    }
    Result<KmsPropertyTable> props = KmsPropertyTable::read(fd_, k.id, DRM_MODE_OBJECT_CONNECTOR);
    if (props) k.props = std::move(props.value());
    connectors_.push_back(std::move(k));
  }

  DrmPlaneResources pres(drmModeGetPlaneResources(fd_));
  if (!pres)
    return fail(errorCodeFromErrno(errno), "drmModeGetPlaneResources failed on ", node_.path, ": ",
                std::strerror(errno));
  for (uint32_t i = 0; i < pres->count_planes; ++i) {
    DrmPlane p(drmModeGetPlane(fd_, pres->planes[i]));
    if (!p) continue;
    KmsPlane k;
    k.id = p->plane_id;
    k.possible_crtcs = p->possible_crtcs;
    k.formats.assign(p->formats, p->formats + p->count_formats);
    Result<KmsPropertyTable> props = KmsPropertyTable::read(fd_, k.id, DRM_MODE_OBJECT_PLANE);
    if (!props) return props.error();
    k.props = std::move(props.value());
    k.type = k.props.value("type", DRM_PLANE_TYPE_OVERLAY);
    planes_.push_back(std::move(k));
  }
  return {};
}

Status KmsDevice::refresh() {
  return enumerate();
}

}  // namespace esf
