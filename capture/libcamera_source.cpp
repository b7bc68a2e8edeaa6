// A libcamera camera: one stream configured from the options, a request per buffer, each request
// re-queued once the frame it carried has been used. libcamera completes requests on its own
// thread; they reach the caller's thread through a locked queue.
#include "capture/libcamera_source.hpp"
#include "capture/libcamera_module.hpp"

#include <libcamera/control_ids.h>
#include <libcamera/framebuffer_allocator.h>
#include <libcamera/request.h>
#include <linux/dma-buf.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>

#include "base/pixel_format.hpp"
#include "capture/dmabuf_allocator.hpp"
#include "capture/libcamera_camera.hpp"
#include "capture/libcamera_controls.hpp"
#include "esframe/base/log.hpp"

namespace esf {
namespace {

struct Unmapper {
  size_t length = 0;
  void operator()(uint8_t* p) const { ::munmap(p, length); }
};
using MappedBytes = std::unique_ptr<uint8_t, Unmapper>;

// One buffer the camera fills, the request that carries it, and the CPU view of its planes.
struct CaptureBuffer {
  libcamera::FrameBuffer* buffer = nullptr;       // the allocator's, or `owned`
  std::unique_ptr<libcamera::FrameBuffer> owned;  // dmabuf mode: wraps `gpu`
  DmabufBuffer gpu;                               // dmabuf mode: allocated on the GPU's device
  std::vector<MappedBytes> maps;                  // one per distinct dmabuf
  std::vector<const uint8_t*> plane_data;         // per FrameBuffer plane; null: not mapped
  std::unique_ptr<libcamera::Request> request;
};

// Maps each distinct dmabuf of `b` once, far enough for every plane in it. A failure leaves the
// planes unmapped (a GPU import still works; dumps and the CPU paths need the mapping).
void mapPlanes(CaptureBuffer& b) {
  const auto& planes = b.buffer->planes();
  std::map<int, size_t> extent;
  for (const auto& p : planes)
    extent[p.fd.get()] = std::max<size_t>(extent[p.fd.get()], size_t(p.offset) + p.length);
  std::map<int, const uint8_t*> base;
  for (const auto& [fd, length] : extent) {
    void* m = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED) continue;
    b.maps.emplace_back(static_cast<uint8_t*>(m), Unmapper{length});
    base[fd] = static_cast<const uint8_t*>(m);
  }
  for (const auto& p : planes)
    b.plane_data.push_back(base.count(p.fd.get()) ? base[p.fd.get()] + p.offset : nullptr);
}

// 0, or the errno of the first DMA_BUF_IOCTL_SYNC that failed.
int syncDmabufs(const libcamera::FrameBuffer& buffer, uint64_t flags) {
  int last = -1, err = 0;
  for (const auto& p : buffer.planes()) {
    if (p.fd.get() == last) continue;
    last = p.fd.get();
    dma_buf_sync sync{flags | DMA_BUF_SYNC_READ};
    int r;
    do r = ::ioctl(last, DMA_BUF_IOCTL_SYNC, &sync);
    while (r != 0 && (errno == EINTR || errno == EAGAIN));
    if (r != 0 && err == 0) err = errno;
  }
  return err;
}

Colorimetry colorimetryOf(const std::optional<libcamera::ColorSpace>& cs) {
  Colorimetry c;
  if (!cs) return c;
  c.encoding = cs->ycbcrEncoding == libcamera::ColorSpace::YcbcrEncoding::Rec709
                   ? YcbcrEncoding::kBt709
                   : YcbcrEncoding::kBt601;
  c.full_range = cs->range == libcamera::ColorSpace::Range::Full;
  return c;
}

class LibcameraSource : public FrameSource {
 public:
  ~LibcameraSource() override { stop(); }

  Status open(const std::string& id, const SourceOptions& o);
  Result<std::optional<Frame>> next() override;
  std::string name() const override { return name_; }
  bool isLive() const override { return true; }
  bool deviceLost() const override { return lost_; }
  int width() const override { return int(config_->at(0).size.width); }
  int height() const override { return int(config_->at(0).size.height); }
  PixelFormat format() const override { return format_; }
  std::string ioDescription() const override { return toString(io_); }

 private:
  Status configure(const SourceOptions& o);
  Status chooseIo(const SourceOptions& o);
  Status createBuffers(const SourceOptions& o);
  Status createGpuBuffers(DmabufAllocator& allocator, unsigned count);
  Status controlsFor(const SourceOptions& o);
  Status queue(CaptureBuffer& b);
  // DMA_BUF_IOCTL_SYNC of the buffer's dmabufs; the first failure of a run is warned about.
  void syncCpuView(const libcamera::FrameBuffer& buffer, uint64_t flags);
  void completed(libcamera::Request* request);
  Result<std::optional<Frame>> frameOf(CaptureBuffer& b);
  void stop();

  std::string name_;
  std::shared_ptr<libcamera::CameraManager> manager_;
  std::shared_ptr<libcamera::Camera> camera_;
  bool acquired_ = false;
  bool started_ = false;
  std::unique_ptr<libcamera::CameraConfiguration> config_;
  libcamera::Stream* stream_ = nullptr;
  PixelFormat format_ = PixelFormat::kRGB24;
  Colorimetry colorimetry_;
  IoMode io_ = IoMode::kMmap;
  std::unique_ptr<libcamera::FrameBufferAllocator> allocator_;
  std::vector<CaptureBuffer> buffers_;
  std::vector<std::pair<const libcamera::ControlId*, libcamera::ControlValue>> controls_;
  CaptureBuffer* held_ = nullptr;  // the buffer the last frame points into
  int timeout_ms_ = 2000;
  bool have_sequence_ = false;
  uint32_t last_sequence_ = 0;
  uint64_t corrupted_ = 0;
  bool warned_sync_ = false;

  // Shared with libcamera's thread.
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<libcamera::Request*> done_;
  std::atomic<bool> lost_ = false;  // also read by deviceLost() without the lock
};

Status LibcameraSource::configure(const SourceOptions& o) {
  // A named vector: libcamera 0.0.3 takes StreamRoles (a vector), later ones a Span of roles.
  const std::vector<libcamera::StreamRole> roles = {libcamera::StreamRole::VideoRecording};
  config_ = camera_->generateConfiguration(roles);
  if (!config_ || config_->empty())
    return fail(ErrorCode::kUnsupported, name_, ": the camera offers no video stream");
  libcamera::StreamConfiguration& cfg = config_->at(0);
  if (o.width > 0) cfg.size = libcamera::Size(unsigned(o.width), unsigned(o.height));
  if (o.format) {
    const uint32_t drm = drmFourcc(*o.format);
    if (drm == 0)
      return fail(ErrorCode::kUnsupported, name_, ": libcamera has no format for ",
                  formatName(*o.format));
    cfg.pixelFormat = libcamera::PixelFormat(drm);
  }
  cfg.bufferCount = unsigned(std::clamp(o.buffers, 2, 32));
  const std::string asked = cfg.toString();
  switch (config_->validate()) {
    case libcamera::CameraConfiguration::Invalid:
      return fail(ErrorCode::kUnsupported, name_, ": the camera cannot stream ", asked);
    case libcamera::CameraConfiguration::Adjusted:
      if (o.width > 0 || o.format)
        logWarning(name_ + ": the camera adjusted " + asked + " to " + cfg.toString());
      break;
    case libcamera::CameraConfiguration::Valid:
      break;
  }
  auto format = fromDrmFourcc(cfg.pixelFormat.fourcc());
  if (!format || cfg.pixelFormat.modifier() != 0)
    return fail(ErrorCode::kUnsupported, name_, ": pixel format ", cfg.pixelFormat.toString(),
                " is not supported");
  format_ = *format;
  // The frame limits (sizes.hpp) before any buffer is asked for: a camera may answer any size.
  const std::string what = name_ + ": the camera's configuration " + cfg.toString();
  if (Status s = checkFrameSize(what, cfg.size.width, cfg.size.height, ErrorCode::kUnsupported); !s)
    return s;
  if (cfg.frameSize > kMaxFrameBytes || !frameBufferSize(what, cfg.stride, cfg.size.height))
    return fail(ErrorCode::kUnsupported, what, ": ", std::to_string(cfg.frameSize),
                " bytes a frame is over the ", std::to_string(kMaxFrameBytes >> 20),
                " MiB frame buffer limit");
  if (!isCompressed(format_))
    if (auto s = v4l2PlaneSlices(format_, int(cfg.size.height), int(cfg.stride)); !s)
      return fail(s.error().code, what, ": ", s.error().message);
  if (const int rc = camera_->configure(config_.get()); rc != 0)
    return fail(ErrorCode::kIo, name_, ": cannot configure ", cfg.toString(), ": ",
                std::strerror(-rc));
  stream_ = cfg.stream();
  colorimetry_ = o.colorimetry.value_or(colorimetryOf(cfg.colorSpace));
  return {};
}

Status LibcameraSource::chooseIo(const SourceOptions& o) {
  DmabufAllocator* allocator = o.dmabuf_allocator;
  const bool foreign_ok = allocator && allocator->importsForeignDmabufs();
  io_ = o.io;
  if (io_ == IoMode::kAuto) io_ = foreign_ok ? IoMode::kExpbuf : IoMode::kMmap;
  if (io_ == IoMode::kDmabuf && !allocator)
    return fail(ErrorCode::kUnsupported, name_,
                ": dmabuf I/O needs a buffer allocator on the GPU's DRM device (GBM); none was "
                "given");
  if (io_ == IoMode::kExpbuf && !foreign_ok)
    // Mesa's llvmpipe crashes sampling a dmabuf it did not allocate.
    return fail(ErrorCode::kUnsupported, name_,
                allocator ? ": expbuf I/O is refused: this GPU cannot import foreign dmabufs "
                            "safely (llvmpipe crashes); use dmabuf or mmap I/O"
                          : ": expbuf I/O needs the GPU's DRM device to import into; none was "
                            "given");
  return {};
}

Status LibcameraSource::createGpuBuffers(DmabufAllocator& allocator, unsigned count) {
  const libcamera::StreamConfiguration& cfg = config_->at(0);
  const unsigned rows = (cfg.frameSize + cfg.stride - 1) / std::max(cfg.stride, 1u);
  for (unsigned i = 0; i < count; ++i) {
    auto gpu = allocator.allocate(cfg.stride, int(rows));
    if (!gpu) return fail(gpu.error().code, name_, ": ", gpu.error().message);
    if (gpu->stride != cfg.stride)
      // libcamera fixes the stride from the format; it cannot take the allocator's.
      return fail(ErrorCode::kUnsupported, name_, ": the GPU allocates rows of ",
                  std::to_string(gpu->stride), " bytes, the camera writes rows of ",
                  std::to_string(cfg.stride), " (", cfg.toString(),
                  "): use io mode mmap, or a width whose rows need no padding");
    // One FrameBuffer plane per format plane, at V4L2's single-buffer offsets in the one dmabuf.
    std::vector<libcamera::FrameBuffer::Plane> planes;
    const libcamera::SharedFD fd(gpu->fd.get());  // dup()s: the FrameBuffer holds its own
    auto slices = v4l2PlaneSlices(format_, int(cfg.size.height), int(cfg.stride));
    if (!slices) return fail(slices.error().code, name_, ": ", slices.error().message);
    for (const PlaneSlice& s : *slices)
      planes.push_back({fd, unsigned(s.offset), unsigned(s.size)});
    CaptureBuffer& b = buffers_.emplace_back();
    b.gpu = std::move(*gpu);
    b.owned = std::make_unique<libcamera::FrameBuffer>(planes);
    b.buffer = b.owned.get();
  }
  return {};
}

Status LibcameraSource::createBuffers(const SourceOptions& o) {
  const unsigned count = config_->at(0).bufferCount;
  if (io_ == IoMode::kDmabuf) {
    if (auto s = createGpuBuffers(*o.dmabuf_allocator, count); !s) return s;
  } else {
    allocator_ = std::make_unique<libcamera::FrameBufferAllocator>(camera_);
    if (const int rc = allocator_->allocate(stream_); rc < 0)
      return fail(ErrorCode::kIo, name_, ": cannot allocate buffers: ", std::strerror(-rc));
    for (const auto& buffer : allocator_->buffers(stream_))
      buffers_.emplace_back().buffer = buffer.get();
  }
  for (CaptureBuffer& b : buffers_) {
    mapPlanes(b);
    if (io_ == IoMode::kMmap && std::count(b.plane_data.begin(), b.plane_data.end(), nullptr))
      return fail(ErrorCode::kIo, name_, ": cannot map a frame buffer: ", std::strerror(errno));
    b.request = camera_->createRequest(uint64_t(&b - buffers_.data()));
    if (!b.request) return fail(ErrorCode::kIo, name_, ": cannot create a request");
    if (const int rc = b.request->addBuffer(stream_, b.buffer); rc != 0)
      return fail(ErrorCode::kIo, name_,
                  ": cannot add a buffer to a request: ", std::strerror(-rc));
  }
  return {};
}

Status LibcameraSource::controlsFor(const SourceOptions& o) {
  const libcamera::ControlInfoMap& available = camera_->controls();
  for (const auto& [ctrl_name, value] : o.controls) {
    auto c = resolveLibcameraControl(available, name_, ctrl_name, value);
    if (!c) return c.error();
    controls_.push_back(std::move(*c));
  }
  if (o.fps > 0) {
    if (available.find(&libcamera::controls::FrameDurationLimits) == available.end()) {
      logWarning(name_ +
                 ": the camera has no FrameDurationLimits control; the source's frame rate (" +
                 std::to_string(o.fps) + " fps) is ignored");
    } else {
      const int64_t us = frameDurationMicroseconds(o.fps);
      const int64_t limits[2] = {us, us};
      controls_.emplace_back(&libcamera::controls::FrameDurationLimits,
                             libcamera::ControlValue(libcamera::Span<const int64_t, 2>(limits)));
    }
  }
  return {};
}

Status LibcameraSource::open(const std::string& id, const SourceOptions& o) {
  timeout_ms_ = o.poll_timeout_ms;
  name_ = "libcamera:" + id;
  auto manager = sharedCameraManager();
  if (!manager) return manager.error();
  manager_ = *manager;
  auto camera = findLibcameraCamera(*manager_, id);
  if (!camera) return camera.error();
  camera_ = *camera;
  name_ = "libcamera:" + camera_->id();
  if (const int rc = camera_->acquire(); rc != 0)
    return fail(rc == -EBUSY ? ErrorCode::kBusy : ErrorCode::kIo, name_,
                ": cannot acquire the camera: ", std::strerror(-rc));
  acquired_ = true;
  if (auto s = configure(o); !s) return s;
  if (auto s = chooseIo(o); !s) return s;
  if (auto s = createBuffers(o); !s) return s;
  if (auto s = controlsFor(o); !s) return s;
  camera_->requestCompleted.connect(this, &LibcameraSource::completed);
  camera_->disconnected.connect(this, [this] {
    std::lock_guard lock(mutex_);
    lost_ = true;
    ready_.notify_all();
  });
  libcamera::ControlList start_controls(camera_->controls());
  for (const auto& [cid, value] : controls_) start_controls.set(cid->id(), value);
  if (const int rc = camera_->start(&start_controls); rc != 0)
    return fail(ErrorCode::kIo, name_, ": cannot start the camera: ", std::strerror(-rc));
  started_ = true;
  for (CaptureBuffer& b : buffers_) {
    // Pipeline handlers that ignore start()'s controls take them with the first requests.
    for (const auto& [cid, value] : controls_) b.request->controls().set(cid->id(), value);
    if (auto s = queue(b); !s) return s;
  }
  logInfo(name_ + " (" + libcameraCameraModel(*camera_) + "): " + config_->at(0).toString() + ", " +
          std::to_string(buffers_.size()) + " " + toString(io_) + " buffers, " +
          colorimetryName(colorimetry_));
  return {};
}

void LibcameraSource::syncCpuView(const libcamera::FrameBuffer& buffer, uint64_t flags) {
  // The GPU imports the dmabufs themselves: only the CPU's view (raw dumps, CPU fallbacks) may
  // be stale, so this is no reason to stop.
  if (const int err = syncDmabufs(buffer, flags); err != 0 && !std::exchange(warned_sync_, true))
    logWarning(name_ + ": DMA_BUF_IOCTL_SYNC (" + ((flags & DMA_BUF_SYNC_END) ? "end" : "start") +
               ") failed: " + std::strerror(err) +
               "; the CPU's view of this run's frames may be stale");
}

Status LibcameraSource::queue(CaptureBuffer& b) {
  if (const int rc = camera_->queueRequest(b.request.get()); rc != 0)
    return fail(rc == -ENODEV ? ErrorCode::kDeviceLost : ErrorCode::kIo, name_,
                ": cannot queue a request: ", std::strerror(-rc));
  return {};
}

// On libcamera's thread.
void LibcameraSource::completed(libcamera::Request* request) {
  std::lock_guard lock(mutex_);
  done_.push_back(request);
  ready_.notify_one();
}

Result<std::optional<Frame>> LibcameraSource::next() {
  if (held_) {
    syncCpuView(*held_->buffer, DMA_BUF_SYNC_END);
    CaptureBuffer& b = *std::exchange(held_, nullptr);
    b.request->reuse(libcamera::Request::ReuseBuffers);
    if (auto s = queue(b); !s) return s.error();
  }
  for (;;) {
    libcamera::Request* request = nullptr;
    {
      std::unique_lock lock(mutex_);
      if (!ready_.wait_for(lock, std::chrono::milliseconds(timeout_ms_),
                           [&] { return lost_ || !done_.empty(); }))
        return fail(ErrorCode::kTimeout, name_, ": no frame within ", std::to_string(timeout_ms_),
                    " ms");
      if (lost_) return fail(ErrorCode::kDeviceLost, name_, ": camera disconnected");
      request = done_.front();
      done_.pop_front();
    }
    CaptureBuffer& b = buffers_[size_t(request->cookie())];
    const libcamera::FrameMetadata& meta = b.buffer->metadata();
    if (request->status() == libcamera::Request::RequestCancelled)
      return fail(ErrorCode::kIo, name_, ": the camera cancelled a request");
    if (meta.status != libcamera::FrameMetadata::FrameSuccess) {
      if (corrupted_++ == 0)
        logWarning(name_ + ": frame " + std::to_string(meta.sequence) +
                   " was flagged as an error, skipped (further ones are counted in each "
                   "frame's \"corrupted\")");
      b.request->reuse(libcamera::Request::ReuseBuffers);
      if (auto s = queue(b); !s) return s.error();
      continue;
    }
    held_ = &b;
    return frameOf(b);
  }
}

Result<std::optional<Frame>> LibcameraSource::frameOf(CaptureBuffer& b) {
  const libcamera::FrameMetadata& meta = b.buffer->metadata();
  syncCpuView(*b.buffer, DMA_BUF_SYNC_START);
  Frame f;
  f.format = format_;
  f.width = width(), f.height = height();
  f.colorimetry = colorimetry_;
  f.sequence = meta.sequence;
  f.timestamp_ns = meta.timestamp;
  f.corrupted = std::exchange(corrupted_, 0);
  const uint32_t step = meta.sequence - last_sequence_;
  if (std::exchange(have_sequence_, true) && step > 1 && step < 0x80000000u) f.dropped = step - 1;
  last_sequence_ = meta.sequence;
  f.source = name_;
  const auto& planes = b.buffer->planes();
  const int stride = int(config_->at(0).stride);
  if (isCompressed(format_)) {
    f.plane_count = 1;
    f.planes[0] = FramePlane{b.plane_data[0], meta.planes()[0].bytesused, 0};
    return std::optional<Frame>(std::move(f));
  }
  // Strides of the other planes follow plane 0's as in V4L2's single-buffer layout; a buffer of
  // one plane for a multi-plane format holds the planes at those offsets.
  const Result<std::vector<PlaneSlice>> laid_out = v4l2PlaneSlices(format_, f.height, stride);
  if (!laid_out) return fail(laid_out.error().code, name_, ": ", laid_out.error().message);
  const std::vector<PlaneSlice>& slices = laid_out.value();
  f.plane_count = int(slices.size());
  for (size_t i = 0; i < slices.size(); ++i) {
    const bool own_plane = planes.size() == slices.size();
    const auto& p = planes[own_plane ? i : 0];
    const size_t offset = own_plane ? 0 : slices[i].offset;
    if (offset + slices[i].size > p.length)
      return fail(ErrorCode::kCorruptData, name_, ": buffer plane of ", std::to_string(p.length),
                  " bytes is too small for ", formatName(format_));
    FramePlane& fp = f.planes[i];
    fp.size = slices[i].size;
    fp.stride = slices[i].stride;
    const uint8_t* data = b.plane_data[own_plane ? i : 0];
    fp.data = data ? data + offset : nullptr;
    if (io_ != IoMode::kMmap) {
      fp.dmabuf_fd = p.fd.get();
      fp.offset = uint32_t(p.offset + offset);
      if (b.gpu.fd.valid()) fp.modifier = b.gpu.modifier;
    }
  }
  return std::optional<Frame>(std::move(f));
}

void LibcameraSource::stop() {
  if (started_) camera_->stop();  // completes every pending request as cancelled, then returns
  started_ = false;
  if (camera_) {
    camera_->requestCompleted.disconnect(this);
    camera_->disconnected.disconnect(this);
  }
  held_ = nullptr;
  done_.clear();
  buffers_.clear();  // requests and wrapped buffers before the allocator's
  if (allocator_ && stream_) allocator_->free(stream_);
  allocator_.reset();
  if (acquired_) camera_->release();
  acquired_ = false;
  camera_.reset();
  manager_.reset();
}

}  // namespace

namespace libcamera_module {

Result<std::unique_ptr<FrameSource>> openLibcameraSource(const std::string& spec,
                                                         const SourceOptions& options) {
  auto id = libcameraCameraId(spec);
  if (!id) return id.error();
  auto source = std::make_unique<LibcameraSource>();
  if (auto s = source->open(*id, options); !s) return s.error();
  return std::unique_ptr<FrameSource>(std::move(source));
}

const LibcameraHost* g_host = nullptr;

}  // namespace libcamera_module

}  // namespace esf

const esf::LibcameraModule* esf_libcamera_module_v3(const esf::LibcameraHost* host) {
  esf::libcamera_module::g_host = host;
  static const esf::LibcameraModule module{esf::libcamera_module::openLibcameraSource,
                                           esf::libcamera_module::describeLibcameraCameras,
                                           esf::libcamera_module::libcameraCamerasText};
  return &module;
}
