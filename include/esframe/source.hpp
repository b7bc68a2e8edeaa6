#pragma once
// Frame sources: V4L2 cameras, still images, Y4M and raw video, and the synthetic pattern, behind
// one interface. Open one with Pipeline::openSource() (which lets a camera share the pipeline's
// GPU for zero-copy), or implement FrameSource to feed frames of your own.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf {

// How a V4L2 source moves frames to the GPU.
enum class IoMode {
  kAuto,    // dmabuf when the GPU can allocate buffers the camera fills (GBM), else mmap
  kMmap,    // V4L2_MEMORY_MMAP, frames uploaded from CPU memory
  kDmabuf,  // zero-copy: GBM buffers queued as V4L2_MEMORY_DMABUF, imported into EGL
  kExpbuf,  // V4L2 buffers exported with VIDIOC_EXPBUF, imported into EGL (never auto-picked)
};
ESF_API const char* toString(IoMode mode);
ESF_API Result<IoMode> parseIoMode(const std::string& s);

// RTSP's lower transport (a network source).
enum class NetworkTransport {
  kAuto,  // GStreamer's order: UDP, then TCP
  kTcp,   // RTP interleaved in the RTSP connection: no loss, through NAT and firewalls
  kUdp,
};

// What to ask of a source. The spec that names the source is given beside it:
//   "pattern" (or "")          the synthetic moving pattern
//   "/dev/videoN"              a V4L2 capture device by path
//   a card name or bus info    a V4L2 device whose VIDIOC_QUERYCAP card/bus_info matches
//   FILE.y4m / YUV4MPEG2 data  Y4M video
//   "-" or a named pipe        a stream read once: Y4M if it starts with "YUV4MPEG2", else raw
//                              frames (needs the size and format)
//   FILE.png|jpg|bmp|pgm|ppm   one still image; a directory, a glob ("shots/*.png") or a
//                              comma-separated list of images is a sequence
//   any other file             headerless raw frames; needs width, height and format
//   rtsp://, http(s)://, ...   a network stream through GStreamer (H.264/H.265 over RTSP, MJPEG
//                              multipart or Y4M over HTTP, any URI GStreamer opens); it needs
//                              libesframe-network.so and GStreamer's plugins
struct SourceConfig {
  int width = 0;  // 0: the source's own (pattern: 640x480; camera: the driver's current)
  int height = 0;
  std::optional<PixelFormat> format;  // pattern default: RGBA32; camera: the driver's current
  double fps = 0;                     // 0: source default (pattern: 30 fps timestamps)
  int buffers = 4;                    // V4L2 streaming buffers
  IoMode io = IoMode::kAuto;
  std::vector<std::pair<std::string, std::string>> controls;  // v4l2-ctl names: {"gain", "10"}
  std::string dump_raw_dir;         // keep each frame's raw bytes (tight planes) in this folder
  bool dump_raw_overwrite = false;  // replace frame files already there (default: an error)
  std::optional<Colorimetry> colorimetry;  // overrides what the source reports
  uint64_t seed = 1;                       // pattern noise
  int poll_timeout_ms = 2000;              // V4L2: no frame for this long is an error
  // A network source: RTSP's transport, and the credentials: USER:PASSWORD, the first line of
  // this file, else those the URI carries (neither is ever logged). Its stream must deliver a
  // frame at open; one that goes away later is an outage (camera_offline, retries with a capped
  // backoff, camera_online), retried for ever when network_give_up_ms is 0, else until that long
  // has passed without a frame (then ErrorCode::kDeviceLost ends the run). No frame for
  // network_give_up_ms, or 10 s when it is 0, at open or on a stream that stays connected, is
  // the stream lost.
  NetworkTransport network_transport = NetworkTransport::kAuto;
  std::string credentials_file;
  int network_give_up_ms = 0;
  // A V4L2 camera that goes away (an unplugged USB camera; ErrorCode::kDeviceLost) is then an
  // outage as a network stream's, opened again by the same spec after each backoff,
  // network_give_up_ms included; without it the loss ends the stream. Other failures (no frame
  // within poll_timeout_ms from a device still there) end it either way. A libcamera camera
  // refuses it (ErrorCode::kUnsupported).
  bool reconnect = false;
};

class ESF_API FrameSource {
 public:
  virtual ~FrameSource() = default;

  // The next frame, or nullopt at the end of the stream (files; never for pattern/camera).
  // The frame's plane pointers and dmabufs stay valid until the next call to next() or until
  // the source is destroyed: finish GPU reads of a zero-copy frame before asking for the next.
  // An error ends the stream; a vanished camera reports ErrorCode::kDeviceLost.
  virtual Result<std::optional<Frame>> next() = 0;

  // What it is, for logs and output lines: "pattern", "/dev/video0", "clip.y4m".
  virtual std::string name() const = 0;
  virtual bool isLive() const { return false; }  // cameras: runs until stopped
  virtual bool deviceLost() const { return false; }
  // The negotiated stream (before the first frame): size and format.
  virtual int width() const = 0;
  virtual int height() const = 0;
  virtual PixelFormat format() const = 0;
  // "mmap", "dmabuf", "expbuf" for cameras; "memory" for the others.
  virtual std::string ioDescription() const { return "memory"; }
};

}  // namespace esf
