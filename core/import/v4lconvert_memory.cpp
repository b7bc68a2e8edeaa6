#include "core/import/v4lconvert_memory.hpp"

#include <libv4l-plugin.h>
#include <libv4lconvert.h>
#include <linux/videodev2.h>

#include <cerrno>
#include <cstring>

namespace esf {
namespace {

int deviceIoctl(void*, int, unsigned long request, void* arg) {
  if (request == VIDIOC_QUERYCAP) {
    auto* cap = static_cast<v4l2_capability*>(arg);
    std::memset(cap, 0, sizeof *cap);
    std::strcpy(reinterpret_cast<char*>(cap->driver), "esframe");
    cap->capabilities = V4L2_CAP_VIDEO_CAPTURE;
    return 0;
  }
  errno = EINVAL;
  return -1;
}
ssize_t deviceRead(void*, int, void*, size_t) {
  errno = EINVAL;
  return -1;
}
ssize_t deviceWrite(void*, int, const void*, size_t) {
  errno = EINVAL;
  return -1;
}
void deviceClose(void*) {}

}  // namespace

void V4lconvertDeleter::operator()(v4lconvert_data* data) const {
  v4lconvert_destroy(data);
}

V4lconvert v4lconvertInMemory() {
  static const libv4l_dev_ops ops = [] {
    libv4l_dev_ops o{};
    o.close = deviceClose, o.ioctl = deviceIoctl, o.read = deviceRead, o.write = deviceWrite;
    return o;
  }();
  return V4lconvert(v4lconvert_create_with_dev_ops(-1, nullptr, &ops));
}

}  // namespace esf
