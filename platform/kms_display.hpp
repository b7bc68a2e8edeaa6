#pragma once
// A plane on a display, for the kiosk case: a connected connector (or the named one) at its
// preferred mode (an atomic modeset only when the CRTC is not already there), a plane chosen by
// the plane picker with a TEST_ONLY commit, two or three GBM scanout buffers that GLES draws
// into through FBOs, page flips paced by flip events, and on close the previous state of every
// property it wrote put back and its planes freed.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "platform/gl_context.hpp"
#include "platform/kms_device.hpp"
#include "platform/kms_plane_picker.hpp"
#include "platform/kms_scanout_buffer.hpp"

namespace esf {

struct KmsRect {
  int32_t x = 0, y = 0;
  uint32_t width = 0, height = 0;
};

struct KmsDisplayOptions {
  std::string device;     // card path or driver name; empty = the GL context's card or the first
  std::string connector;  // "Virtual-1" or a connector id; empty = the first connected one
  std::optional<uint32_t> plane_id;
  std::optional<uint64_t> zpos;
  std::optional<uint64_t> alpha;
  // On the CRTC. Default: the whole mode; with `frame`, a corner (kiosk default: a quarter of the
  // mode's width, multiple of 16, 2:1, 16 pixels from the top right).
  std::optional<KmsRect> rect;
  int buffers = 3;  // 2 = double, 3 = triple buffering
  // The primary plane shows a full-mode XRGB8888 frame buffer under the graph; both planes flip
  // together. Off: the graph alone (black primary after a modeset).
  bool frame = false;
};

// The kiosk default rect of the graph over the frame: see KmsDisplayOptions::rect.
KmsRect cornerRect(uint32_t mode_width, uint32_t mode_height);

class KmsDisplay {
 public:
  // `gl` must be current and outlive the display.
  static Result<std::unique_ptr<KmsDisplay>> open(const KmsDisplayOptions& options, GlContext& gl);
  ~KmsDisplay();  // close() if not closed yet; errors are logged
  KmsDisplay(const KmsDisplay&) = delete;
  KmsDisplay& operator=(const KmsDisplay&) = delete;

  // A buffer that is neither on screen nor waiting for its flip; waits for a flip if needed.
  // Draw into its framebuffer() at (0, 0, width, height), then present() it.
  Result<KmsScanoutBuffer*> nextBuffer();
  // With KmsDisplayOptions::frame: the primary plane's buffer (mode-sized, XRGB8888) that flips
  // together with the graph buffer `graph` from nextBuffer(); draw the frame into it.
  KmsScanoutBuffer* frameBuffer(const KmsScanoutBuffer* graph) const;
  // With frame, before the first present(): asks the kernel with a TEST_ONLY commit (both planes)
  // whether the primary plane can scale a width x height buffer onto `dst`. true: the frame
  // buffers are now width x height and the plane scales; false (refused, or the frame is the
  // mode's size): they stay mode-sized and the caller draws the frame scaled.
  Result<bool> scaleFrameOnPlane(uint32_t width, uint32_t height, const KmsRect& dst);
  // Finishes GL work on `buffer` and queues it for the next vblank (nonblocking flip).
  Status present(KmsScanoutBuffer* buffer);
  // Waits for the pending flip, puts back what was there before, frees the planes.
  Status close();

  uint32_t planeId() const { return plane_.plane_id; }
  uint32_t crtcId() const { return crtc_id_; }
  const std::string& connectorName() const { return connector_name_; }
  const drmModeModeInfo& mode() const { return mode_; }
  const KmsRect& rect() const { return rect_; }
  uint32_t format() const { return plane_.format; }
  bool showsFrame() const { return primary_id_ != 0; }
  uint32_t primaryPlaneId() const { return primary_id_; }
  const std::vector<PlaneRejection>& rejectedPlanes() const { return rejected_; }
  int fd() const { return device_->fd(); }

 private:
  KmsDisplay() = default;
  Status chooseOutput(const KmsDisplayOptions& options);
  // The graph plane (when `plane`) and the primary plane under it (when `primary_fb`).
  Status addScene(KmsAtomicRequest& req, const PlaneCandidate* plane, uint32_t fb_id,
                  uint32_t primary_fb, bool record);
  Status openFrame(gbm_device* gbm, const EglDisplay& egl);
  uint32_t primaryFb(int index) const;
  Status waitFlip();
  Status restore();

  struct SavedProperty {
    uint32_t object_id, property_id;
    uint64_t value;
  };

  GlContext* gl_ = nullptr;
  std::unique_ptr<KmsDevice> device_;
  uint32_t connector_id_ = 0, crtc_id_ = 0;
  DrmBlob mode_blob_;  // the mode of a modeset; destroyed before device_ closes the fd
  int crtc_index_ = 0;
  std::string connector_name_;
  drmModeModeInfo mode_{};
  bool needs_modeset_ = false;
  KmsRect rect_;
  PlaneCandidate plane_;
  std::vector<PlaneRejection> rejected_;
  std::unique_ptr<KmsScanoutBuffer> background_;  // black primary under an overlay after a modeset
  std::vector<std::unique_ptr<KmsScanoutBuffer>> buffers_;
  uint32_t primary_id_ = 0;  // with frame: the primary plane, showing frame_buffers_
  std::vector<std::unique_ptr<KmsScanoutBuffer>> frame_buffers_;  // paired with buffers_
  uint32_t frame_src_w_ = 0, frame_src_h_ = 0;  // nonzero: the plane scales them onto frame_dst_
  KmsRect frame_dst_;
  std::vector<SavedProperty> saved_;
  int front_ = -1, pending_ = -1;  // indices into buffers_
  bool shown_ = false, closed_ = false;
  bool flip_seen_ = false;  // set by the page-flip event handler
};

}  // namespace esf
