#pragma once
// V4L2 capture devices: finding them (path, card name, bus info), describing them (formats,
// frame sizes, intervals, controls) and setting controls by the names v4l2-ctl prints.
#include <cstdint>
#include <string>
#include <vector>

#include "esframe/base/result.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {

struct V4l2DeviceInfo {
  std::string path;  // /dev/videoN
  std::string driver, card, bus_info;
  bool single_planar_capture = false;
  bool multi_planar_capture = false;
  bool streaming = false;
  // The queue esframe streams from: single-planar when the device has it, else multi-planar.
  bool usesMultiPlanar() const { return !single_planar_capture && multi_planar_capture; }
};

// Every /dev/video* node that can capture video, in node order.
std::vector<V4l2DeviceInfo> listV4l2CaptureDevices();

// Opens `spec` (a path, or a card name / bus info matching one device exactly) non-blocking.
// Fails naming the device when it cannot capture or stream.
Result<UniqueFd> openV4l2Device(const std::string& spec, V4l2DeviceInfo& info);

// ioctl that retries on EINTR.
int xioctl(int fd, unsigned long request, void* arg);

struct V4l2FrameSizeDesc {
  std::string size;                    // "640x480", or "16x16 - 1920x1080 step 2x2"
  std::vector<std::string> intervals;  // "1/30" (seconds per frame), or a stepwise range
};
struct V4l2FormatDesc {
  std::string fourcc;  // "YUYV"
  std::string description;
  bool supported = false;  // esframe can import it
  std::vector<V4l2FrameSizeDesc> sizes;
};
struct V4l2ControlDesc {
  std::string name;  // v4l2-ctl spelling: "white_balance_automatic"
  std::string type;  // "int", "bool", "menu", "button", "int64", "intmenu", "bitmask", ...
  int64_t minimum = 0, maximum = 0, step = 0, default_value = 0, value = 0;
  bool has_value = false;
  std::vector<std::string> menu;  // "0: Off"
};

// The formats of the capture queue: the multi-planar one (V4L2_BUF_TYPE_VIDEO_CAPTURE_MPLANE)
// when `multi_planar`.
std::vector<V4l2FormatDesc> enumerateFormats(int fd, bool multi_planar = false);
std::vector<V4l2ControlDesc> enumerateControls(int fd);

// v4l2-ctl's control name: lower case, runs of other characters become one '_'.
std::string v4l2CtlName(const char* name);

// Sets a control by v4l2-ctl name; value is a number (or a menu entry's name for menus).
Status setControl(int fd, const std::string& device, const std::string& name,
                  const std::string& value);

}  // namespace esf
