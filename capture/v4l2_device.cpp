#include "capture/v4l2_device.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/videodev2.h>
#include <sys/ioctl.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include "base/pixel_format.hpp"
#include "platform/code_names.hpp"

namespace esf {
namespace {

std::string cstr(const uint8_t* s, size_t n) {
  return std::string(reinterpret_cast<const char*>(s),
                     strnlen(reinterpret_cast<const char*>(s), n));
}

bool queryCap(int fd, const std::string& path, V4l2DeviceInfo& info) {
  v4l2_capability cap{};
  if (xioctl(fd, VIDIOC_QUERYCAP, &cap) != 0) return false;
  const uint32_t caps =
      (cap.capabilities & V4L2_CAP_DEVICE_CAPS) ? cap.device_caps : cap.capabilities;
  info.path = path;
  info.driver = cstr(cap.driver, sizeof cap.driver);
  info.card = cstr(cap.card, sizeof cap.card);
  info.bus_info = cstr(cap.bus_info, sizeof cap.bus_info);
  info.single_planar_capture = caps & V4L2_CAP_VIDEO_CAPTURE;
  info.multi_planar_capture = caps & V4L2_CAP_VIDEO_CAPTURE_MPLANE;
  info.streaming = caps & V4L2_CAP_STREAMING;
  return true;
}

std::vector<std::string> videoNodes() {
  std::vector<std::string> nodes;
  if (DIR* d = opendir("/dev")) {
    while (dirent* e = readdir(d))
      if (std::strncmp(e->d_name, "video", 5) == 0 &&
          std::isdigit(static_cast<unsigned char>(e->d_name[5])))
        nodes.push_back(std::string("/dev/") + e->d_name);
    closedir(d);
  }
  std::sort(nodes.begin(), nodes.end(), [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  });
  return nodes;
}

std::string fraction(uint32_t num, uint32_t den) {
  return std::to_string(num) + "/" + std::to_string(den);
}

const char* controlType(uint32_t type) {
  static constexpr CodeName kTypes[] = {
      {V4L2_CTRL_TYPE_INTEGER, "int"},     {V4L2_CTRL_TYPE_BOOLEAN, "bool"},
      {V4L2_CTRL_TYPE_MENU, "menu"},       {V4L2_CTRL_TYPE_BUTTON, "button"},
      {V4L2_CTRL_TYPE_INTEGER64, "int64"}, {V4L2_CTRL_TYPE_STRING, "string"},
      {V4L2_CTRL_TYPE_BITMASK, "bitmask"}, {V4L2_CTRL_TYPE_INTEGER_MENU, "intmenu"}};
  return codeName(type, kTypes, "compound");
}

bool findControl(int fd, const std::string& name, v4l2_query_ext_ctrl& out) {
  v4l2_query_ext_ctrl q{};
  q.id = V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
  while (xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &q) == 0) {
    if (q.type != V4L2_CTRL_TYPE_CTRL_CLASS && v4l2CtlName(q.name) == name) {
      out = q;
      return true;
    }
    q.id |= V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
  }
  return false;
}

}  // namespace

int xioctl(int fd, unsigned long request, void* arg) {
  int r;
  do r = ::ioctl(fd, request, arg);
  while (r == -1 && errno == EINTR);
  return r;
}

std::string v4l2CtlName(const char* name) {
  std::string s;
  bool underscore = false;
  for (; *name; ++name) {
    const unsigned char c = static_cast<unsigned char>(*name);
    if (std::isalnum(c)) {
      if (underscore) s += '_';
      underscore = false;
      s += char(std::tolower(c));
    } else if (!s.empty()) {
      underscore = true;
    }
  }
  return s;
}

std::vector<V4l2DeviceInfo> listV4l2CaptureDevices() {
  std::vector<V4l2DeviceInfo> out;
  for (const auto& path : videoNodes()) {
    UniqueFd fd(::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
    V4l2DeviceInfo info;
    if (fd.valid() && queryCap(fd.get(), path, info) &&
        (info.single_planar_capture || info.multi_planar_capture))
      out.push_back(info);
  }
  return out;
}

Result<UniqueFd> openV4l2Device(const std::string& spec, V4l2DeviceInfo& info) {
  std::string path = spec;
  if (spec.find('/') == std::string::npos) {
    std::vector<std::string> matches;
    for (const auto& d : listV4l2CaptureDevices())
      if (d.card == spec || d.bus_info == spec) matches.push_back(d.path);
    if (matches.empty())
      return fail(ErrorCode::kNotFound, "no V4L2 capture device with card name or bus info '", spec,
                  "'");
    if (matches.size() > 1)
      return fail(ErrorCode::kInvalidArgument, "'", spec, "' matches several V4L2 devices (",
                  matches[0], ", ", matches[1], "...): give a path");
    path = matches[0];
  }
  UniqueFd fd(::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC));
  if (!fd.valid())
    return fail(errorCodeFromErrno(errno), "cannot open ", path, ": ", std::strerror(errno));
  if (!queryCap(fd.get(), path, info))
    return fail(ErrorCode::kUnsupported, path, " is not a V4L2 device (VIDIOC_QUERYCAP failed)");
  if (!info.single_planar_capture && !info.multi_planar_capture)
    return fail(ErrorCode::kUnsupported, path, " (", info.card, ") cannot capture video");
  if (!info.streaming)
    return fail(ErrorCode::kUnsupported, path, " (", info.card, ") does not support streaming I/O");
  return fd;
}

bool looksLikeV4l2Device(const std::string& spec) {
  for (const auto& d : listV4l2CaptureDevices())
    if (d.card == spec || d.bus_info == spec) return true;
  return false;
}

std::vector<V4l2FormatDesc> enumerateFormats(int fd, bool multi_planar) {
  std::vector<V4l2FormatDesc> out;
  for (uint32_t i = 0;; ++i) {
    v4l2_fmtdesc fd_desc{};
    fd_desc.index = i;
    fd_desc.type = multi_planar ? V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE : V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (xioctl(fd, VIDIOC_ENUM_FMT, &fd_desc) != 0) break;
    V4l2FormatDesc f;
    f.fourcc = fourccString(fd_desc.pixelformat);
    f.description = cstr(fd_desc.description, sizeof fd_desc.description);
    f.supported = fromV4l2Fourcc(fd_desc.pixelformat).has_value();
    for (uint32_t j = 0; j < 64; ++j) {
      v4l2_frmsizeenum fs{};
      fs.index = j;
      fs.pixel_format = fd_desc.pixelformat;
      if (xioctl(fd, VIDIOC_ENUM_FRAMESIZES, &fs) != 0) break;
      V4l2FrameSizeDesc s;
      uint32_t w = 0, h = 0;
      if (fs.type == V4L2_FRMSIZE_TYPE_DISCRETE) {
        w = fs.discrete.width, h = fs.discrete.height;
        s.size = std::to_string(w) + "x" + std::to_string(h);
      } else {
        const auto& sw = fs.stepwise;
        w = sw.max_width, h = sw.max_height;
        s.size = std::to_string(sw.min_width) + "x" + std::to_string(sw.min_height) + " - " +
                 std::to_string(sw.max_width) + "x" + std::to_string(sw.max_height) + " step " +
                 std::to_string(sw.step_width) + "x" + std::to_string(sw.step_height);
      }
      for (uint32_t k = 0; k < 32; ++k) {
        v4l2_frmivalenum fi{};
        fi.index = k;
        fi.pixel_format = fd_desc.pixelformat;
        fi.width = w, fi.height = h;
        if (xioctl(fd, VIDIOC_ENUM_FRAMEINTERVALS, &fi) != 0) break;
        if (fi.type == V4L2_FRMIVAL_TYPE_DISCRETE) {
          s.intervals.push_back(fraction(fi.discrete.numerator, fi.discrete.denominator));
        } else {
          s.intervals.push_back(fraction(fi.stepwise.min.numerator, fi.stepwise.min.denominator) +
                                " - " +
                                fraction(fi.stepwise.max.numerator, fi.stepwise.max.denominator));
          break;
        }
      }
      f.sizes.push_back(std::move(s));
      if (fs.type != V4L2_FRMSIZE_TYPE_DISCRETE) break;
    }
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<V4l2ControlDesc> enumerateControls(int fd) {
  std::vector<V4l2ControlDesc> out;
  v4l2_query_ext_ctrl q{};
  q.id = V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
  while (xioctl(fd, VIDIOC_QUERY_EXT_CTRL, &q) == 0) {
    if (q.type != V4L2_CTRL_TYPE_CTRL_CLASS && !(q.flags & V4L2_CTRL_FLAG_DISABLED)) {
      V4l2ControlDesc c;
      c.name = v4l2CtlName(q.name);
      c.type = controlType(q.type);
      c.minimum = q.minimum, c.maximum = q.maximum, c.step = int64_t(q.step);
      c.default_value = q.default_value;
      const bool scalar = q.type == V4L2_CTRL_TYPE_INTEGER || q.type == V4L2_CTRL_TYPE_BOOLEAN ||
                          q.type == V4L2_CTRL_TYPE_MENU || q.type == V4L2_CTRL_TYPE_INTEGER_MENU ||
                          q.type == V4L2_CTRL_TYPE_BITMASK || q.type == V4L2_CTRL_TYPE_INTEGER64;
      if (scalar && !(q.flags & V4L2_CTRL_FLAG_WRITE_ONLY)) {
        v4l2_ext_control ctrl{};
        ctrl.id = q.id;
        v4l2_ext_controls ctrls{};
        ctrls.which = V4L2_CTRL_WHICH_CUR_VAL;
        ctrls.count = 1;
        ctrls.controls = &ctrl;
        if (xioctl(fd, VIDIOC_G_EXT_CTRLS, &ctrls) == 0) {
          c.value = q.type == V4L2_CTRL_TYPE_INTEGER64 ? ctrl.value64 : ctrl.value;
          c.has_value = true;
        }
      }
      if (q.type == V4L2_CTRL_TYPE_MENU || q.type == V4L2_CTRL_TYPE_INTEGER_MENU) {
        for (int64_t i = q.minimum; i <= q.maximum && i - q.minimum < 64; ++i) {
          v4l2_querymenu m{};
          m.id = q.id;
          m.index = uint32_t(i);
          if (xioctl(fd, VIDIOC_QUERYMENU, &m) != 0) continue;
          c.menu.push_back(std::to_string(i) + ": " +
                           (q.type == V4L2_CTRL_TYPE_MENU
                                ? cstr(m.name, sizeof m.name)
                                : std::to_string(static_cast<long long>(m.value))));
        }
      }
      out.push_back(std::move(c));
    }
    q.id |= V4L2_CTRL_FLAG_NEXT_CTRL | V4L2_CTRL_FLAG_NEXT_COMPOUND;
  }
  return out;
}

Status setControl(int fd, const std::string& device, const std::string& name,
                  const std::string& value) {
  v4l2_query_ext_ctrl q{};
  if (!findControl(fd, name, q))
    return fail(ErrorCode::kNotFound, device, ": no control named '", name, "'");
  if (q.flags & (V4L2_CTRL_FLAG_READ_ONLY | V4L2_CTRL_FLAG_DISABLED))
    return fail(ErrorCode::kUnsupported, device, ": control '", name, "' cannot be set");
  int64_t v = 0;
  char* end = nullptr;
  errno = 0;
  v = std::strtoll(value.c_str(), &end, 0);
  bool parsed = end && *end == '\0' && errno == 0 && !value.empty();
  if (!parsed && q.type == V4L2_CTRL_TYPE_MENU) {
    for (int64_t i = q.minimum; i <= q.maximum && !parsed; ++i) {
      v4l2_querymenu m{};
      m.id = q.id;
      m.index = uint32_t(i);
      if (xioctl(fd, VIDIOC_QUERYMENU, &m) == 0 &&
          v4l2CtlName(reinterpret_cast<char*>(m.name)) == v4l2CtlName(value.c_str()))
        v = i, parsed = true;
    }
  }
  if (!parsed)
    return fail(ErrorCode::kInvalidArgument, device, ": bad value '", value, "' for control '",
                name, "'");
  if (q.type != V4L2_CTRL_TYPE_BUTTON && (v < q.minimum || v > q.maximum))
    return fail(ErrorCode::kInvalidArgument, device, ": control '", name, "' value ", value,
                " is outside ", std::to_string(q.minimum), "..", std::to_string(q.maximum));
  v4l2_ext_control ctrl{};
  ctrl.id = q.id;
  if (q.type == V4L2_CTRL_TYPE_INTEGER64)
    ctrl.value64 = v;
  else
    ctrl.value = int32_t(v);
  v4l2_ext_controls ctrls{};
  ctrls.which = V4L2_CTRL_WHICH_CUR_VAL;
  ctrls.count = 1;
  ctrls.controls = &ctrl;
  if (xioctl(fd, VIDIOC_S_EXT_CTRLS, &ctrls) != 0)
    return fail(errorCodeFromErrno(errno), device, ": cannot set control '", name, "' to ", value,
                ": ", std::strerror(errno));
  return {};
}

}  // namespace esf
