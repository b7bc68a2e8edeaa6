#pragma once
// Small pieces of kms_check (tests/vm/tools): a DRM card it drives as master, dumb buffers,
// the vkms CRC reader, a child process, and pass/fail bookkeeping. Test tool code: setup errors
// end the process (die), checks are counted (check/finish).
#include <sys/types.h>
#include <xf86drmMode.h>

#include <cstdint>
#include <string>
#include <vector>

#include "esframe/rgba_image.hpp"
#include "platform/kms_properties.hpp"

namespace esf::kmscheck {

[[noreturn]] void die(const std::string& message);
void check(bool ok, const std::string& what);
int finish();  // 0 when every check passed, else 1
std::string hex(uint32_t v);
void writePpm(const std::string& path, const RgbaImage& image);

struct Rect {
  int32_t x = 0, y = 0;
  uint32_t w = 0, h = 0;
  bool operator==(const Rect&) const = default;
  bool contains(uint32_t px, uint32_t py) const {
    return int64_t(px) >= x && int64_t(px) < x + int64_t(w) && int64_t(py) >= y &&
           int64_t(py) < y + int64_t(h);
  }
};
Rect parseRect(const std::string& text);  // "X,Y,W,H"

// The scene's pixels (XRGB8888 / ARGB8888 words).
uint32_t backgroundPixel(uint32_t x, uint32_t y);
constexpr uint32_t kOccluderPixel = 0xff20c0a0u;
inline uint32_t argb(const uint8_t* rgba) {
  return uint32_t(rgba[3]) << 24 | uint32_t(rgba[0]) << 16 | uint32_t(rgba[1]) << 8 | rgba[2];
}

class DumbBuffer {
 public:
  DumbBuffer(int fd, uint32_t width, uint32_t height, uint32_t format);
  ~DumbBuffer();
  DumbBuffer(const DumbBuffer&) = delete;
  DumbBuffer& operator=(const DumbBuffer&) = delete;
  uint32_t fb() const { return fb_; }
  uint32_t& px(uint32_t x, uint32_t y) {
    return *reinterpret_cast<uint32_t*>(map_ + size_t(y) * pitch_ + size_t(x) * 4);
  }
  // XRGB16161616 buffers: one 64-bit word per pixel (b in bits 0..15, g, r, x).
  uint64_t& px64(uint32_t x, uint32_t y) {
    return *reinterpret_cast<uint64_t*>(map_ + size_t(y) * pitch_ + size_t(x) * 8);
  }

 private:
  int fd_;
  uint32_t handle_ = 0, pitch_ = 0, fb_ = 0;
  uint64_t size_ = 0;
  uint8_t* map_ = nullptr;
};

struct Pipe {
  uint32_t connector_id = 0, crtc_id = 0, writeback_id = 0;
  int crtc_index = 0;
  drmModeModeInfo mode{};  // the preferred one
  std::vector<drmModeModeInfo> modes;
  KmsPropertyTable connector, crtc, writeback;
};

struct KmsPlaneState {
  uint32_t id = 0;
  uint64_t type = 0;
  int position = 0;  // order among the CRTC's planes: the stacking vkms composes in
  uint32_t fb_id = 0, crtc_id = 0;
  uint32_t src_w = 0, src_h = 0;
  Rect crtc_rect;
  KmsPropertyTable props;
};

class Card {
 public:
  explicit Card(const std::string& path);
  ~Card();
  int fd() const { return fd_; }
  void becomeMaster();
  void dropMaster();
  void setMaster();
  Pipe findPipe();
  // hdisplay x vdisplay of the CRTC's current mode (0x0 when off).
  std::pair<int, int> crtcMode(uint32_t crtc_id);
  KmsPropertyTable connectorProps(
      uint32_t id);  // the connected connector, its preferred mode, its CRTC, the writeback
  std::vector<KmsPlaneState> planes(int crtc_index);  // in stacking order
  KmsPlaneState plane(int crtc_index, uint32_t id);
  void addModeset(KmsAtomicRequest& req, Pipe& pipe);
  void addPlane(KmsAtomicRequest& req, const KmsPlaneState& plane, const Pipe& pipe, uint32_t fb,
                const Rect& r);
  void addPlaneOff(KmsAtomicRequest& req, const KmsPlaneState& plane);  // FB_ID and CRTC_ID 0
  void commit(const KmsAtomicRequest& req, uint32_t flags, const std::string& what);
  // Reads the CRTC's output once through the writeback connector (XRGB8888, row by row).
  std::vector<uint32_t> writeback(const Pipe& pipe);

 private:
  int fd_ = -1;
  uint32_t mode_blob_ = 0;
};

class CrcReader {
 public:
  explicit CrcReader(const std::string& dir);  // writes "auto" to control, opens data
  ~CrcReader();
  std::vector<uint32_t> drain(int wait_ms);  // the CRCs that arrive within wait_ms
  // The CRC of what the CRTC shows now: skips entries of frames up to the current vblank (the
  // queue still holds older frames), then waits until 4 CRCs agree; dies after 30 s.
  uint32_t settle(int card_fd, uint32_t crtc_id);

 private:
  int fd_ = -1;
  uint64_t last_frame_ = 0;  // frame number of the last entry drain() returned
};

class Child {
 public:
  static Child spawn(const std::vector<std::string>& argv, const std::string& out,
                     const std::string& err);
  bool poll(int* status);  // true once exited; status = exit code (128 + signal if killed)
  void signal(int sig);

 private:
  pid_t pid_ = -1;
};

}  // namespace esf::kmscheck
