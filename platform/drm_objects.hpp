#pragma once
// Owners for what libdrm hands out: each drmModeGet*() result is freed by its own drmModeFree*(),
// so each gets a unique_ptr with that deleter. Objects that live in the kernel (a property blob,
// a framebuffer) are owned together with the fd they were created on.
#include <xf86drm.h>
#include <xf86drmMode.h>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>

#include "esframe/base/unique_fd.hpp"

namespace esf {

namespace drm_detail {
template <typename T, void (*Free)(T*)>
struct Deleter {
  void operator()(T* p) const { Free(p); }
};
}  // namespace drm_detail

template <typename T, void (*Free)(T*)>
using DrmPtr = std::unique_ptr<T, drm_detail::Deleter<T, Free>>;

using DrmResources = DrmPtr<drmModeRes, drmModeFreeResources>;
using DrmPlaneResources = DrmPtr<drmModePlaneRes, drmModeFreePlaneResources>;
using DrmConnector = DrmPtr<drmModeConnector, drmModeFreeConnector>;
using DrmEncoder = DrmPtr<drmModeEncoder, drmModeFreeEncoder>;
using DrmCrtc = DrmPtr<drmModeCrtc, drmModeFreeCrtc>;
using DrmPlane = DrmPtr<drmModePlane, drmModeFreePlane>;
using DrmObjectProperties = DrmPtr<drmModeObjectProperties, drmModeFreeObjectProperties>;
using DrmProperty = DrmPtr<drmModePropertyRes, drmModeFreeProperty>;
using DrmPropertyBlob = DrmPtr<drmModePropertyBlobRes, drmModeFreePropertyBlob>;
using DrmAtomicRequest = DrmPtr<drmModeAtomicReq, drmModeAtomicFree>;
using DrmVersion = DrmPtr<drmVersion, drmFreeVersion>;

// A kernel object id created on a DRM fd and destroyed with it by `Destroy(fd, id)`: a property
// blob (drmModeDestroyPropertyBlob) or a framebuffer (drmModeRmFB). The fd is borrowed: it must
// outlive this owner.
template <int (*Destroy)(int, uint32_t)>
class DrmKernelObject {
 public:
  DrmKernelObject() = default;
  DrmKernelObject(BorrowedFd fd, uint32_t id) : fd_(fd), id_(id) {}
  ~DrmKernelObject() { reset(); }
  DrmKernelObject(DrmKernelObject&& o) noexcept : fd_(o.fd_), id_(std::exchange(o.id_, 0)) {}
  DrmKernelObject& operator=(DrmKernelObject&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = o.fd_;
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  DrmKernelObject(const DrmKernelObject&) = delete;
  DrmKernelObject& operator=(const DrmKernelObject&) = delete;

  uint32_t id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }
  void reset() {
    if (id_) Destroy(fd_.get(), std::exchange(id_, 0));
  }

 private:
  BorrowedFd fd_;
  uint32_t id_ = 0;
};

// drmModeRmFB and drmModeDestroyPropertyBlob take a uint32_t id; adapt the int-returning ones.
inline int destroyDrmFramebuffer(int fd, uint32_t id) {
  return drmModeRmFB(fd, id);
}
inline int destroyDrmPropertyBlob(int fd, uint32_t id) {
  return drmModeDestroyPropertyBlob(fd, id);
}
using DrmFramebuffer = DrmKernelObject<destroyDrmFramebuffer>;
using DrmBlob = DrmKernelObject<destroyDrmPropertyBlob>;

// libdrm's name for a DRM fourcc (drmGetFormatName): its four characters, "_BE" for big-endian
// ones ("AR24", "XR24_BE"). One spelling for every KMS message.
std::string drmFormatName(uint32_t format);

}  // namespace esf
