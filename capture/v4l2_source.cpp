// A V4L2 camera: negotiate format/size/fps, set controls, stream with mmap or zero-copy dmabuf
// buffers, deliver frames from a poll() loop, and end cleanly when the device goes away.
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "capture/dmabuf_allocator.hpp"
#include "capture/pixel_format.hpp"
#include "capture/source_kinds.hpp"
#include "capture/v4l2_device.hpp"
#include "esframe/base/log.hpp"

namespace esf {
namespace {

// One mmap()ed range, unmapped on destruction.
class Mapping {
 public:
  Mapping() = default;
  Mapping(void* p, size_t n) : ptr_(p), size_(n) {}
  ~Mapping() { reset(); }
  Mapping(Mapping&& o) noexcept : ptr_(std::exchange(o.ptr_, nullptr)), size_(o.size_) {}
  Mapping& operator=(Mapping&& o) noexcept {
    if (this != &o) reset(), ptr_ = std::exchange(o.ptr_, nullptr), size_ = o.size_;
    return *this;
  }
  const uint8_t* data() const { return static_cast<const uint8_t*>(ptr_); }
  size_t size() const { return size_; }
  void reset() {
    if (ptr_) ::munmap(ptr_, size_);
    ptr_ = nullptr;
  }

 private:
  void* ptr_ = nullptr;
  size_t size_ = 0;
};

struct Buffer {
  Mapping map;             // CPU view: the V4L2 mmap buffer, or the dmabuf mapped
  UniqueFd dmabuf;         // expbuf mode: the exported one (dmabuf mode: allocated.fd)
  DmabufBuffer allocated;  // dmabuf mode: the allocator's buffer
  size_t length = 0;
  uint64_t modifier = 0x00ffffffffffffffull;
  int dmabufFd() const { return allocated.fd.valid() ? allocated.fd.get() : dmabuf.get(); }
};

Mapping mapFd(int fd, size_t length, off_t offset) {
  void* p = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, offset);
  return p == MAP_FAILED ? Mapping() : Mapping(p, length);
}

Colorimetry colorimetryOf(const v4l2_pix_format& pix) {
  const auto cs = v4l2_colorspace(pix.colorspace);
  uint32_t enc = pix.ycbcr_enc;
  if (enc == V4L2_YCBCR_ENC_DEFAULT) enc = V4L2_MAP_YCBCR_ENC_DEFAULT(cs);
  uint32_t quant = pix.quantization;
  if (quant == V4L2_QUANTIZATION_DEFAULT)
    quant = V4L2_MAP_QUANTIZATION_DEFAULT(false, cs, v4l2_ycbcr_encoding(enc));
  Colorimetry c;
  c.encoding = (enc == V4L2_YCBCR_ENC_709 || enc == V4L2_YCBCR_ENC_XV709) ? YcbcrEncoding::kBt709
                                                                          : YcbcrEncoding::kBt601;
  c.full_range = quant == V4L2_QUANTIZATION_FULL_RANGE;
  return c;
}

std::string describe(const v4l2_pix_format& p) {
  return std::to_string(p.width) + "x" + std::to_string(p.height) + " " +
         fourccString(p.pixelformat);
}

// Points frame.planes[] into `b` at V4L2's single-planar layout (v4l2PlaneSlices).
Status attachV4l2Planes(Frame& f, const v4l2_pix_format& pix, const Buffer& b, uint32_t bytesused) {
  auto attach = [&](int i, size_t offset, int stride, size_t size) -> Status {
    if (offset + size > b.length)
      return fail(ErrorCode::kCorruptData, "buffer of ", std::to_string(b.length),
                  " bytes is too small for ", describe(pix));
    FramePlane& fp = f.planes[size_t(i)];
    fp.size = size;
    fp.stride = stride;
    fp.data = b.map.data() ? b.map.data() + offset : nullptr;
    if (b.dmabufFd() >= 0) {
      fp.dmabuf_fd = b.dmabufFd();
      fp.offset = uint32_t(offset);
      fp.modifier = b.modifier;
    }
    return {};
  };
  if (isCompressed(f.format)) {
    f.plane_count = 1;
    return attach(0, 0, 0, bytesused);
  }
  const std::vector<PlaneSlice> slices = v4l2PlaneSlices(f.format, f.height, int(pix.bytesperline));
  f.plane_count = int(slices.size());
  for (size_t i = 0; i < slices.size(); ++i)
    if (auto s = attach(int(i), slices[i].offset, slices[i].stride, slices[i].size); !s) return s;
  return {};
}

class V4l2Source : public FrameSource {
 public:
  V4l2Source(UniqueFd fd, V4l2DeviceInfo info) : fd_(std::move(fd)), info_(std::move(info)) {}
  ~V4l2Source() override { stop(); }

  Status setup(const SourceOptions& o);
  Result<std::optional<Frame>> next() override;
  std::string name() const override { return info_.path; }
  bool isLive() const override { return true; }
  bool deviceLost() const override { return lost_; }
  int width() const override { return int(pix_.width); }
  int height() const override { return int(pix_.height); }
  PixelFormat format() const override { return format_; }
  std::string ioDescription() const override { return toString(io_); }

 private:
  Status negotiate(const SourceOptions& o);
  Status allocateBuffers(const SourceOptions& o);
  Status allocateDmabufBuffers(DmabufAllocator& allocator, int count);
  Status queue(uint32_t index);
  Error lostOrFailed(const char* what, int err);
  uint64_t countSequenceGap(uint32_t sequence);
  void stop();

  UniqueFd fd_;
  V4l2DeviceInfo info_;
  v4l2_pix_format pix_{};
  PixelFormat format_ = PixelFormat::kYUYV;
  Colorimetry colorimetry_;
  IoMode io_ = IoMode::kMmap;
  std::vector<Buffer> buffers_;
  int held_ = -1;  // buffer index the last frame points into
  bool streaming_ = false;
  bool lost_ = false;
  bool have_sequence_ = false;
  uint32_t last_sequence_ = 0;     // the driver's 32-bit sequence number of the last buffer
  uint64_t sequence_epoch_ = 0;    // 2^32 per wrap of the driver's counter: Frame::sequence
  uint64_t corrupted_ = 0;         // error-flagged buffers since the last delivered frame
  bool warned_corrupted_ = false;  // one warning per run, the count is in every frame
  int poll_timeout_ms_ = 2000;
};

Status V4l2Source::negotiate(const SourceOptions& o) {
  v4l2_format fmt{};
  fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (xioctl(fd_.get(), VIDIOC_G_FMT, &fmt) != 0)
    return fail(errorCodeFromErrno(errno), info_.path,
                ": VIDIOC_G_FMT failed: ", std::strerror(errno));
  if (o.width > 0 || o.format) {
    v4l2_pix_format want = fmt.fmt.pix;
    if (o.width > 0) want.width = uint32_t(o.width), want.height = uint32_t(o.height);
    if (o.format) want.pixelformat = v4l2Fourcc(*o.format);
    want.field = V4L2_FIELD_NONE;
    want.bytesperline = 0;
    want.sizeimage = 0;
    fmt.fmt.pix = want;
    if (xioctl(fd_.get(), VIDIOC_S_FMT, &fmt) != 0)
      return fail(errorCodeFromErrno(errno), info_.path, ": VIDIOC_S_FMT ", describe(want),
                  " failed: ", std::strerror(errno));
    if (fmt.fmt.pix.width != want.width || fmt.fmt.pix.height != want.height ||
        fmt.fmt.pix.pixelformat != want.pixelformat)
      logWarning(info_.path + ": the driver adjusted " + describe(want) + " to " +
                 describe(fmt.fmt.pix));
  }
  pix_ = fmt.fmt.pix;
  auto f = fromV4l2Fourcc(pix_.pixelformat);
  if (!f)
    return fail(ErrorCode::kUnsupported, info_.path, ": pixel format ",
                fourccString(pix_.pixelformat), " is not supported");
  format_ = *f;
  if (pix_.field != V4L2_FIELD_NONE && pix_.field != V4L2_FIELD_ANY)
    logWarning(info_.path + ": interlaced field order " + std::to_string(pix_.field) +
               ", frames are used as delivered");
  colorimetry_ = o.colorimetry.value_or(colorimetryOf(pix_));
  if (o.fps > 0) {
    v4l2_streamparm parm{};
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    parm.parm.capture.timeperframe = {1000, uint32_t(std::lround(o.fps * 1000))};
    if (xioctl(fd_.get(), VIDIOC_S_PARM, &parm) != 0) {
      logWarning(info_.path +
                 ": cannot set the frame rate (VIDIOC_S_PARM: " + std::strerror(errno) + ")");
    } else {
      const auto& t = parm.parm.capture.timeperframe;
      const double got = t.numerator ? double(t.denominator) / t.numerator : 0;
      if (std::fabs(got - o.fps) > 0.01)
        logWarning(info_.path + ": the driver adjusted " + std::to_string(o.fps) + " fps to " +
                   std::to_string(got) + " fps");
    }
  }
  for (const auto& [name, value] : o.controls)
    if (auto s = setControl(fd_.get(), info_.path, name, value); !s) return s;
  return {};
}

Status V4l2Source::allocateDmabufBuffers(DmabufAllocator& allocator, int count) {
  // One linear buffer per V4L2 buffer, bytesperline wide, as many rows as sizeimage needs:
  // the driver writes its own layout into it, import reads planes at V4L2's offsets/pitches.
  const uint32_t pitch = std::max<uint32_t>(pix_.bytesperline, 1);
  const uint32_t rows = (pix_.sizeimage + pitch - 1) / pitch;
  for (int i = 0; i < count; ++i) {
    auto allocated = allocator.allocate(pitch, int(rows));
    if (!allocated)
      return fail(allocated.error().code, info_.path, ": ", allocated.error().message);
    Buffer b;
    b.allocated = std::move(*allocated);
    b.length = b.allocated.length;
    b.modifier = b.allocated.modifier;
    b.map = mapFd(b.allocated.fd.get(), b.length, 0);  // for raw dumps and CPU fallbacks; may fail
    buffers_.push_back(std::move(b));
  }
  return {};
}

Status V4l2Source::allocateBuffers(const SourceOptions& o) {
  const int count = std::clamp(o.buffers, 2, 32);
  IoMode mode = o.io;
  DmabufAllocator* allocator = o.dmabuf_allocator;
  if (mode == IoMode::kAuto) mode = allocator ? IoMode::kDmabuf : IoMode::kMmap;
  if (mode == IoMode::kDmabuf && !allocator)
    return fail(ErrorCode::kUnsupported, info_.path,
                ": dmabuf I/O needs a buffer allocator on the GPU's DRM device (GBM); none was "
                "given");
  if (mode == IoMode::kExpbuf) {
    if (!allocator)
      return fail(ErrorCode::kUnsupported, info_.path,
                  ": expbuf I/O needs the GPU's DRM device to import into; none was given");
    if (!allocator->importsForeignDmabufs())
      // Mesa's llvmpipe crashes sampling a dmabuf it did not allocate.
      return fail(ErrorCode::kUnsupported, info_.path,
                  ": expbuf I/O is refused: this GPU cannot import foreign dmabufs safely "
                  "(llvmpipe crashes); use dmabuf or mmap I/O");
  }
  io_ = mode;
  v4l2_requestbuffers req{};
  req.count = uint32_t(count);
  req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  req.memory = mode == IoMode::kDmabuf ? V4L2_MEMORY_DMABUF : V4L2_MEMORY_MMAP;
  if (xioctl(fd_.get(), VIDIOC_REQBUFS, &req) != 0)
    return fail(errorCodeFromErrno(errno), info_.path, ": VIDIOC_REQBUFS (", toString(mode),
                ") failed: ", std::strerror(errno));
  if (req.count < 2)
    return fail(ErrorCode::kUnsupported, info_.path, ": the driver gave only ",
                std::to_string(req.count), " buffer(s)");
  if (mode == IoMode::kDmabuf) {
    Status allocated = allocateDmabufBuffers(*allocator, int(req.count));
    if (allocated.ok() || o.io != IoMode::kAuto) return allocated;
    // auto: zero-copy is an optimisation; fall back to mmap and say why.
    logInfo(allocated.error().message + "; using mmap");
    buffers_.clear();
    req.count = 0;
    xioctl(fd_.get(), VIDIOC_REQBUFS, &req);
    SourceOptions mmap_options = o;
    mmap_options.io = IoMode::kMmap;
    return allocateBuffers(mmap_options);
  }
  for (uint32_t i = 0; i < req.count; ++i) {
    v4l2_buffer vb{};
    vb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    vb.memory = V4L2_MEMORY_MMAP;
    vb.index = i;
    if (xioctl(fd_.get(), VIDIOC_QUERYBUF, &vb) != 0)
      return fail(errorCodeFromErrno(errno), info_.path,
                  ": VIDIOC_QUERYBUF failed: ", std::strerror(errno));
    Buffer b;
    b.length = vb.length;
    b.map = mapFd(fd_.get(), vb.length, off_t(vb.m.offset));
    if (!b.map.data())
      return fail(errorCodeFromErrno(errno), info_.path, ": cannot mmap buffer ", std::to_string(i),
                  ": ", std::strerror(errno));
    if (mode == IoMode::kExpbuf) {
      v4l2_exportbuffer exp{};
      exp.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
      exp.index = i;
      exp.flags = O_RDONLY | O_CLOEXEC;
      if (xioctl(fd_.get(), VIDIOC_EXPBUF, &exp) != 0)
        return fail(errorCodeFromErrno(errno), info_.path,
                    ": VIDIOC_EXPBUF failed: ", std::strerror(errno));
      b.dmabuf = UniqueFd(exp.fd);
    }
    buffers_.push_back(std::move(b));
  }
  return {};
}

Status V4l2Source::queue(uint32_t index) {
  v4l2_buffer vb{};
  vb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  vb.index = index;
  if (io_ == IoMode::kDmabuf) {
    vb.memory = V4L2_MEMORY_DMABUF;
    vb.m.fd = buffers_[index].dmabufFd();
    vb.length = uint32_t(buffers_[index].length);
  } else {
    vb.memory = V4L2_MEMORY_MMAP;
  }
  if (xioctl(fd_.get(), VIDIOC_QBUF, &vb) != 0) return lostOrFailed("VIDIOC_QBUF", errno);
  return {};
}

Error V4l2Source::lostOrFailed(const char* what, int err) {
  // EIO is both an unplug and a driver that stopped its queue (vb2_queue_error: a fatal
  // streaming error) while the device stays: only a device that no longer answers is lost.
  v4l2_capability cap{};
  if (err == EIO && xioctl(fd_.get(), VIDIOC_QUERYCAP, &cap) == 0)
    return fail(ErrorCode::kIo, info_.path, ": the driver stopped streaming (", what, ": ",
                std::strerror(err), ")");
  if (err == ENODEV || err == EIO || err == ENXIO) {
    lost_ = true;
    return fail(ErrorCode::kDeviceLost, info_.path, ": device lost (", what, ": ",
                std::strerror(err), ")");
  }
  return fail(errorCodeFromErrno(err), info_.path, ": ", what, " failed: ", std::strerror(err));
}

// Frames lost between the last buffer and this one. The driver's counter is 32 bits and wraps
// (vivid's "Wrap Sequence Number" shows it): differences are taken modulo 2^32, so a wrap is no
// gap, and Frame::sequence goes on counting past it.
uint64_t V4l2Source::countSequenceGap(uint32_t sequence) {
  const bool first = !std::exchange(have_sequence_, true);
  const uint32_t step = sequence - last_sequence_;  // modulo 2^32
  if (!first && sequence < last_sequence_ && step < 0x80000000u) sequence_epoch_ += 1ull << 32;
  last_sequence_ = sequence;
  if (first || step == 1) return 0;
  if (step == 0 || step >= 0x80000000u) {
    logWarning(info_.path + ": the driver repeated sequence number " + std::to_string(sequence));
    return 0;
  }
  logWarning(info_.path + ": dropped " + std::to_string(step - 1) + " frame(s) before " +
             std::to_string(sequence));
  return step - 1;
}

Status V4l2Source::setup(const SourceOptions& o) {
  poll_timeout_ms_ = o.poll_timeout_ms;
  if (auto s = negotiate(o); !s) return s;
  if (auto s = allocateBuffers(o); !s) return s;
  for (uint32_t i = 0; i < buffers_.size(); ++i)
    if (auto s = queue(i); !s) return s;
  int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
  if (xioctl(fd_.get(), VIDIOC_STREAMON, &type) != 0)
    return fail(errorCodeFromErrno(errno), info_.path,
                ": VIDIOC_STREAMON failed: ", std::strerror(errno));
  streaming_ = true;
  logInfo(info_.path + " (" + info_.card + "): " + describe(pix_) + ", " +
          std::to_string(buffers_.size()) + " " + toString(io_) + " buffers, " +
          colorimetryName(colorimetry_));
  return {};
}

void V4l2Source::stop() {
  if (streaming_) {
    int type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    xioctl(fd_.get(), VIDIOC_STREAMOFF, &type);  // fails harmlessly on a lost device
    streaming_ = false;
  }
  buffers_.clear();
  if (fd_.valid() && !lost_) {
    v4l2_requestbuffers req{};
    req.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    req.memory = io_ == IoMode::kDmabuf ? V4L2_MEMORY_DMABUF : V4L2_MEMORY_MMAP;
    xioctl(fd_.get(), VIDIOC_REQBUFS, &req);
  }
}

void syncDmabuf(const Buffer& b, uint64_t flags) {
  if (b.dmabufFd() < 0 || !b.map.data()) return;
  dma_buf_sync sync{flags | DMA_BUF_SYNC_READ};
  xioctl(b.dmabufFd(), DMA_BUF_IOCTL_SYNC, &sync);
}

Result<std::optional<Frame>> V4l2Source::next() {
  if (lost_) return fail(ErrorCode::kDeviceLost, info_.path, ": device lost");
  if (held_ >= 0) {
    syncDmabuf(buffers_[size_t(held_)], DMA_BUF_SYNC_END);
    const int index = std::exchange(held_, -1);
    if (auto s = queue(uint32_t(index)); !s) return s.error();
  }
  v4l2_buffer vb{};
  for (;;) {
    pollfd p{fd_.get(), POLLIN, 0};
    const int r = ::poll(&p, 1, poll_timeout_ms_);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)
      return fail(errorCodeFromErrno(errno), info_.path, ": poll failed: ", std::strerror(errno));
    if (r == 0)
      return fail(ErrorCode::kTimeout, info_.path, ": no frame within ",
                  std::to_string(poll_timeout_ms_), " ms");
    vb = {};
    vb.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    vb.memory = io_ == IoMode::kDmabuf ? V4L2_MEMORY_DMABUF : V4L2_MEMORY_MMAP;
    if (xioctl(fd_.get(), VIDIOC_DQBUF, &vb) != 0) {
      if (errno == EAGAIN && !(p.revents & (POLLERR | POLLHUP))) continue;
      return lostOrFailed("VIDIOC_DQBUF", errno == EAGAIN ? ENODEV : errno);
    }
    if (vb.index >= buffers_.size())
      return fail(ErrorCode::kIo, info_.path, ": driver returned a bad buffer index");
    if (vb.flags & V4L2_BUF_FLAG_ERROR) {
      if (!std::exchange(warned_corrupted_, true))
        logWarning(info_.path + ": frame " + std::to_string(vb.sequence) +
                   " was flagged as corrupted by the driver, skipped (this run's further ones " +
                   "are counted in each frame's \"corrupted\", not warned)");
      ++corrupted_;
      countSequenceGap(vb.sequence);  // a skipped buffer is no gap in the sequence
      if (auto s = queue(vb.index); !s) return s.error();
      continue;
    }
    break;
  }
  held_ = int(vb.index);
  const Buffer& b = buffers_[vb.index];
  syncDmabuf(b, DMA_BUF_SYNC_START);
  Frame f;
  f.format = format_;
  f.width = int(pix_.width), f.height = int(pix_.height);
  f.colorimetry = colorimetry_;
  f.dropped = countSequenceGap(vb.sequence);
  f.sequence = sequence_epoch_ + vb.sequence;
  f.corrupted = std::exchange(corrupted_, 0);
  f.timestamp_ns =
      uint64_t(vb.timestamp.tv_sec) * 1000000000ull + uint64_t(vb.timestamp.tv_usec) * 1000ull;
  f.source = info_.path;
  if (auto s = attachV4l2Planes(f, pix_, b, vb.bytesused); !s)
    return fail(s.error().code, info_.path, ": ", s.error().message);
  return std::optional<Frame>(std::move(f));
}

}  // namespace

Result<std::unique_ptr<FrameSource>> openV4l2Source(const std::string& spec,
                                                    const SourceOptions& options) {
  V4l2DeviceInfo info;
  auto fd = openV4l2Device(spec, info);
  if (!fd) return fd.error();
  auto source = std::make_unique<V4l2Source>(std::move(*fd), info);
  if (auto s = source->setup(options); !s) return s.error();
  return std::unique_ptr<FrameSource>(std::move(source));
}

}  // namespace esf
