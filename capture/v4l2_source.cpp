// A V4L2 camera: negotiate format/size/fps, set controls, stream with mmap or zero-copy dmabuf
// buffers, deliver frames from a poll() loop, and end cleanly when the device goes away.
// Single-planar and multi-planar devices stream alike: a buffer has one memory plane, or one per
// format plane (NV12M), each with its own mapping or dmabuf.
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <linux/videodev2.h>
#include <poll.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "base/pixel_format.hpp"
#include "capture/dmabuf_allocator.hpp"
#include "capture/source_kinds.hpp"
#include "capture/v4l2_device.hpp"
#include "capture/v4l2_format.hpp"
#include "capture/v4l2_payload.hpp"
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

// One memory plane of a V4L2 buffer (single-planar buffers have one).
struct BufferPlane {
  Mapping map;             // CPU view: the V4L2 mmap buffer, or the dmabuf mapped
  UniqueFd dmabuf;         // expbuf mode: the exported one (dmabuf mode: allocated.fd)
  DmabufBuffer allocated;  // dmabuf mode: the allocator's buffer
  size_t length = 0;
  uint64_t modifier = 0x00ffffffffffffffull;
  int dmabufFd() const { return allocated.fd.valid() ? allocated.fd.get() : dmabuf.get(); }
};

struct Buffer {
  std::vector<BufferPlane> planes;
};

Mapping mapFd(int fd, size_t length, off_t offset) {
  void* p = ::mmap(nullptr, length, PROT_READ, MAP_SHARED, fd, offset);
  return p == MAP_FAILED ? Mapping() : Mapping(p, length);
}

// Points frame.planes[] into `b`: with one memory plane at V4L2's single-buffer layout
// (v4l2PlaneSlices), with one memory plane per format plane (NV12M) each at its own pitch.
Status attachV4l2Planes(Frame& f, const V4l2StreamFormat& fmt, const Buffer& b,
                        uint32_t bytesused) {
  auto attach = [&](int i, const BufferPlane& mem, size_t offset, int stride,
                    size_t size) -> Status {
    if (offset + size > mem.length)
      return fail(ErrorCode::kCorruptData, "buffer of ", std::to_string(mem.length),
                  " bytes is too small for ", describe(fmt));
    FramePlane& fp = f.planes[size_t(i)];
    fp.size = size;
    fp.stride = stride;
    fp.data = mem.map.data() ? mem.map.data() + offset : nullptr;
    if (mem.dmabufFd() >= 0) {
      fp.dmabuf_fd = mem.dmabufFd();
      fp.offset = uint32_t(offset);
      fp.modifier = mem.modifier;
    }
    return {};
  };
  if (isCompressed(f.format)) {
    f.plane_count = 1;
    return attach(0, b.planes[0], 0, 0, bytesused);
  }
  const PixelFormatInfo& info = pixelFormatInfo(f.format);
  if (fmt.memory_planes > 1) {
    if (fmt.memory_planes != info.plane_count || b.planes.size() != size_t(info.plane_count))
      return fail(ErrorCode::kUnsupported, describe(fmt), " has ",
                  std::to_string(fmt.memory_planes), " memory planes, ", info.name, " ",
                  std::to_string(info.plane_count));
    f.plane_count = info.plane_count;
    for (int i = 0; i < info.plane_count; ++i) {
      // Within kMaxFrameBytes (checkV4l2FrameLimits at negotiation).
      const int stride = int(fmt.bytesperline[size_t(i)]);
      const size_t size = saturatingSize(stride, planeRows(info, i, f.height));
      if (auto s = attach(i, b.planes[size_t(i)], 0, stride, size); !s) return s;
    }
    return {};
  }
  const Result<std::vector<PlaneSlice>> laid_out =
      v4l2PlaneSlices(f.format, f.height, int(fmt.bytesperline[0]));
  if (!laid_out) return laid_out.error();
  const std::vector<PlaneSlice>& slices = laid_out.value();
  f.plane_count = int(slices.size());
  for (size_t i = 0; i < slices.size(); ++i)
    if (auto s = attach(int(i), b.planes[0], slices[i].offset, slices[i].stride, slices[i].size);
        !s)
      return s;
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
  int width() const override { return int(fmt_.width); }
  int height() const override { return int(fmt_.height); }
  PixelFormat format() const override { return format_; }
  std::string ioDescription() const override { return toString(io_); }

 private:
  Status negotiate(const SourceOptions& o);
  Status allocateBuffers(const SourceOptions& o);
  Status allocateDmabufBuffers(DmabufAllocator& allocator, int count);
  Status matchDmabufPitches(DmabufAllocator& allocator);
  // REQBUFS, buffers, QBUF of each, STREAMON.
  Status startStreaming(const SourceOptions& o);
  // Drops the buffers and, when REQBUFS gave some, REQBUFS 0 of the current memory type.
  Status releaseBuffers();
  Status queue(uint32_t index);
  // A v4l2_buffer of this queue's type and memory; multi-planar ones point at `planes`.
  v4l2_buffer emptyBuffer(uint32_t index, v4l2_plane* planes) const;
  Error lostOrFailed(const char* what, int err);
  uint64_t countSequenceGap(uint32_t sequence);
  void syncDmabuf(const Buffer& b, uint64_t flags);
  // Counts a buffer that holds no whole frame, warns about the first, and queues it again.
  Status skipCorrupted(const v4l2_buffer& vb, const std::string& why);
  void stop();

  UniqueFd fd_;
  V4l2DeviceInfo info_;
  V4l2StreamFormat fmt_;
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
  bool warned_sync_ = false;
  bool requested_ = false;  // REQBUFS gave buffers: REQBUFS 0 releases them
  int poll_timeout_ms_ = 2000;
};

Status V4l2Source::negotiate(const SourceOptions& o) {
  auto current = getV4l2Format(fd_.get(), info_.path, info_.usesMultiPlanar());
  if (!current) return current.error();
  fmt_ = *current;
  if (o.width > 0 || o.format) {
    auto set = setV4l2Format(fd_.get(), info_.path, *current, o.width, o.height, o.format);
    if (!set) return set.error();
    fmt_ = *set;
    V4l2StreamFormat want = *current;
    if (o.width > 0) want.width = uint32_t(o.width), want.height = uint32_t(o.height);
    if (o.format) want.pixelformat = v4l2Fourcc(*o.format);
    // NV12 set as NV12M is what was asked for.
    if (fmt_.width != want.width || fmt_.height != want.height ||
        fromV4l2Fourcc(fmt_.pixelformat) != fromV4l2Fourcc(want.pixelformat))
      logWarning(info_.path + ": the driver adjusted " + describe(want) + " to " + describe(fmt_));
  }
  auto f = fromV4l2Fourcc(fmt_.pixelformat);
  if (!f)
    return fail(ErrorCode::kUnsupported, info_.path, ": pixel format ",
                fourccString(fmt_.pixelformat), " is not supported");
  if (Status s = checkV4l2FrameLimits(fmt_, info_.path); !s) return s;
  format_ = *f;
  if (fmt_.field != V4L2_FIELD_NONE && fmt_.field != V4L2_FIELD_ANY)
    logWarning(info_.path + ": interlaced field order " + std::to_string(fmt_.field) +
               ", frames are used as delivered");
  colorimetry_ = o.colorimetry.value_or(colorimetryOf(fmt_));
  if (o.fps > 0) {
    v4l2_streamparm parm{};
    parm.type = fmt_.bufferType();
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
  // One linear buffer per V4L2 memory plane, bytesperline wide, as many rows as sizeimage needs:
  // the driver writes its own layout into it, import reads planes at V4L2's offsets/pitches.
  for (int i = 0; i < count; ++i) {
    Buffer b;
    for (int p = 0; p < fmt_.memory_planes; ++p) {
      const uint32_t pitch = std::max<uint32_t>(fmt_.bytesperline[size_t(p)], 1);
      const uint32_t rows = (fmt_.sizeimage[size_t(p)] + pitch - 1) / pitch;
      auto allocated = allocator.allocate(pitch, int(rows));
      if (!allocated)
        return fail(allocated.error().code, info_.path, ": ", allocated.error().message);
      BufferPlane& plane = b.planes.emplace_back();
      plane.allocated = std::move(*allocated);
      plane.length = plane.allocated.length;
      plane.modifier = plane.allocated.modifier;
      // For raw dumps and CPU fallbacks; may fail.
      plane.map = mapFd(plane.allocated.fd.get(), plane.length, 0);
    }
    buffers_.push_back(std::move(b));
  }
  return {};
}

// The GPU reads a buffer it allocated at that buffer's own pitch (llvmpipe pads rows to 64
// pixels, and imports its own buffer at that pitch whatever the import names; other GPUs have
// pitch alignments of their own), so the camera must write rows at that pitch too: asked for with
// VIDIOC_S_FMT before the buffers exist. A driver that keeps its own pitch gets no zero-copy.
Status V4l2Source::matchDmabufPitches(DmabufAllocator& allocator) {
  std::array<uint32_t, kMaxMemoryPlanes> pitches = fmt_.bytesperline;
  bool differs = false;
  for (int p = 0; p < fmt_.memory_planes; ++p) {
    const uint32_t pitch = std::max<uint32_t>(fmt_.bytesperline[size_t(p)], 1);
    auto probe = allocator.allocate(pitch, 1);
    if (!probe) return fail(probe.error().code, info_.path, ": ", probe.error().message);
    if (probe->stride != pitch) {
      if (probe->stride > UINT32_MAX)
        return fail(ErrorCode::kUnsupported, info_.path, ": the GPU's buffer pitch is too large");
      pitches[size_t(p)] = uint32_t(probe->stride);
      differs = true;
    }
  }
  if (!differs) return {};
  auto set = setV4l2Pitches(fd_.get(), info_.path, fmt_, pitches);
  if (!set) return set.error();
  if (auto s = checkV4l2FrameLimits(*set, info_.path); !s) return s;
  fmt_ = *set;  // what the driver now writes, whether or not it took the GPU's pitch
  for (int p = 0; p < fmt_.memory_planes; ++p)
    if (fmt_.bytesperline[size_t(p)] != pitches[size_t(p)])
      return fail(ErrorCode::kUnsupported, info_.path, ": ", describe(fmt_), " plane ",
                  std::to_string(p), " is written ", std::to_string(fmt_.bytesperline[size_t(p)]),
                  " bytes a row, and the driver refuses the ", std::to_string(pitches[size_t(p)]),
                  " of the GPU's buffers on ", allocator.deviceName());
  logInfo(info_.path + ": " + describe(fmt_) + " rows at the GPU's buffer pitch for zero-copy");
  return {};
}

Status V4l2Source::allocateBuffers(const SourceOptions& o) {
  const int count = std::clamp(o.buffers, 2, 32);
  IoMode mode = o.io;
  DmabufAllocator* allocator = o.dmabuf_allocator;
  // Bayer frames are unpacked on the CPU (core/pipeline/bayer_frame.hpp): mapped buffers.
  if (mode == IoMode::kAuto)
    mode = allocator && !isBayer(format_) ? IoMode::kDmabuf : IoMode::kMmap;
  if (mode == IoMode::kDmabuf && !allocator)
    return fail(ErrorCode::kUnsupported, info_.path,
                ": dmabuf I/O needs a buffer allocator on the GPU's DRM device (GBM); none was "
                "given");
  if (mode == IoMode::kExpbuf)
    if (Status s = checkExpbufImport(allocator, info_.path, "dmabuf or mmap"); !s) return s;
  if (mode == IoMode::kDmabuf) {
    Status matched = matchDmabufPitches(*allocator);
    if (!matched) {
      if (o.io != IoMode::kAuto) return matched;
      // auto: zero-copy is an optimisation; say why at -v.
      logInfo(matched.error().message + "; using mmap");
      mode = IoMode::kMmap;
    }
  }
  io_ = mode;
  v4l2_requestbuffers req{};
  req.count = uint32_t(count);
  req.type = fmt_.bufferType();
  req.memory = mode == IoMode::kDmabuf ? V4L2_MEMORY_DMABUF : V4L2_MEMORY_MMAP;
  if (xioctl(fd_.get(), VIDIOC_REQBUFS, &req) != 0)
    return fail(errorCodeFromErrno(errno), info_.path, ": VIDIOC_REQBUFS (", toString(mode),
                ") failed: ", std::strerror(errno));
  requested_ = true;
  if (req.count < 2)
    return fail(ErrorCode::kUnsupported, info_.path, ": the driver gave only ",
                std::to_string(req.count), " buffer(s)");
  if (mode == IoMode::kDmabuf) {
    Status allocated = allocateDmabufBuffers(*allocator, int(req.count));
    if (allocated.ok() || o.io != IoMode::kAuto) return allocated;
    // auto: zero-copy is an optimisation, and a GPU that cannot allocate such buffers is
    // common (Mesa's software GBM on a render node): fall back to mmap and say why at -v.
    logInfo(allocated.error().message + "; using mmap");
    if (auto s = releaseBuffers(); !s) return s;
    SourceOptions mmap_options = o;
    mmap_options.io = IoMode::kMmap;
    return allocateBuffers(mmap_options);
  }
  for (uint32_t i = 0; i < req.count; ++i) {
    v4l2_plane planes[kMaxMemoryPlanes]{};
    v4l2_buffer vb = emptyBuffer(i, planes);
    if (xioctl(fd_.get(), VIDIOC_QUERYBUF, &vb) != 0)
      return fail(errorCodeFromErrno(errno), info_.path,
                  ": VIDIOC_QUERYBUF failed: ", std::strerror(errno));
    Buffer b;
    for (int p = 0; p < fmt_.memory_planes; ++p) {
      BufferPlane& plane = b.planes.emplace_back();
      plane.length = fmt_.multi_planar ? planes[p].length : vb.length;
      const off_t offset = off_t(fmt_.multi_planar ? planes[p].m.mem_offset : vb.m.offset);
      plane.map = mapFd(fd_.get(), plane.length, offset);
      if (!plane.map.data())
        return fail(errorCodeFromErrno(errno), info_.path, ": cannot mmap buffer ",
                    std::to_string(i), " plane ", std::to_string(p), ": ", std::strerror(errno));
      if (mode == IoMode::kExpbuf) {
        v4l2_exportbuffer exp{};
        exp.type = fmt_.bufferType();
        exp.index = i;
        exp.plane = uint32_t(p);
        exp.flags = O_RDONLY | O_CLOEXEC;
        if (xioctl(fd_.get(), VIDIOC_EXPBUF, &exp) != 0)
          return fail(errorCodeFromErrno(errno), info_.path,
                      ": VIDIOC_EXPBUF failed: ", std::strerror(errno));
        plane.dmabuf = UniqueFd(exp.fd);
      }
    }
    buffers_.push_back(std::move(b));
  }
  return {};
}

v4l2_buffer V4l2Source::emptyBuffer(uint32_t index, v4l2_plane* planes) const {
  v4l2_buffer vb{};
  vb.type = fmt_.bufferType();
  vb.memory = io_ == IoMode::kDmabuf ? V4L2_MEMORY_DMABUF : V4L2_MEMORY_MMAP;
  vb.index = index;
  if (fmt_.multi_planar) {
    vb.m.planes = planes;
    vb.length = uint32_t(fmt_.memory_planes);
  }
  return vb;
}

Status V4l2Source::queue(uint32_t index) {
  v4l2_plane planes[kMaxMemoryPlanes]{};
  v4l2_buffer vb = emptyBuffer(index, planes);
  if (io_ == IoMode::kDmabuf && fmt_.multi_planar) {
    for (int p = 0; p < fmt_.memory_planes; ++p) {
      planes[p].m.fd = buffers_[index].planes[size_t(p)].dmabufFd();
      planes[p].length = uint32_t(buffers_[index].planes[size_t(p)].length);
    }
  } else if (io_ == IoMode::kDmabuf) {
    vb.m.fd = buffers_[index].planes[0].dmabufFd();
    vb.length = uint32_t(buffers_[index].planes[0].length);
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

Status V4l2Source::startStreaming(const SourceOptions& o) {
  if (auto s = allocateBuffers(o); !s) return s;
  for (uint32_t i = 0; i < buffers_.size(); ++i)
    if (auto s = queue(i); !s) return s;
  int type = int(fmt_.bufferType());
  if (xioctl(fd_.get(), VIDIOC_STREAMON, &type) != 0)
    return fail(errorCodeFromErrno(errno), info_.path,
                ": VIDIOC_STREAMON failed: ", std::strerror(errno));
  streaming_ = true;
  return {};
}

Status V4l2Source::releaseBuffers() {
  buffers_.clear();
  // A driver without dmabuf support refuses even REQBUFS 0 of that memory type: only buffers
  // it gave are released.
  if (!std::exchange(requested_, false)) return {};
  v4l2_requestbuffers req{};
  req.type = fmt_.bufferType();
  req.memory = io_ == IoMode::kDmabuf ? V4L2_MEMORY_DMABUF : V4L2_MEMORY_MMAP;
  if (xioctl(fd_.get(), VIDIOC_REQBUFS, &req) != 0)
    return fail(errorCodeFromErrno(errno), info_.path, ": VIDIOC_REQBUFS 0 (", toString(io_),
                ") failed: ", std::strerror(errno));
  return {};
}

Status V4l2Source::setup(const SourceOptions& o) {
  poll_timeout_ms_ = o.poll_timeout_ms;
  if (auto s = negotiate(o); !s) return s;
  Status started = startStreaming(o);
  // auto: a driver that refuses dmabuf buffers (at REQBUFS, QBUF or STREAMON) streams through
  // mmap instead, once its dmabuf queue is released.
  if (!started && o.io == IoMode::kAuto && io_ == IoMode::kDmabuf && !lost_ &&
      started.error().code != ErrorCode::kDeviceLost) {
    if (auto s = releaseBuffers(); !s) return s;
    std::string why = started.error().message;
    if (why.rfind(info_.path + ": ", 0) == 0) why.erase(0, info_.path.size() + 2);
    logWarning(info_.path + ": the driver refused dmabuf buffers (" + why + "), using mmap");
    SourceOptions mmap_options = o;
    mmap_options.io = IoMode::kMmap;
    started = startStreaming(mmap_options);
  }
  if (!started) return started;
  logInfo(info_.path + " (" + info_.card + "): " + describe(fmt_) + ", " +
          std::to_string(buffers_.size()) + " " + toString(io_) + " buffers, " +
          colorimetryName(colorimetry_));
  return {};
}

void V4l2Source::stop() {
  if (streaming_) {
    int type = int(fmt_.bufferType());
    xioctl(fd_.get(), VIDIOC_STREAMOFF, &type);  // fails harmlessly on a lost device
    streaming_ = false;
  }
  buffers_.clear();
  if (fd_.valid() && !lost_) (void)releaseBuffers();  // on the way out: nothing to tell
}

void V4l2Source::syncDmabuf(const Buffer& b, uint64_t flags) {
  for (const BufferPlane& plane : b.planes) {
    if (plane.dmabufFd() < 0 || !plane.map.data()) continue;
    dma_buf_sync sync{flags | DMA_BUF_SYNC_READ};
    // The GPU imports the dmabuf itself: only the CPU's view (raw dumps, CPU fallbacks) may be
    // stale, so this is no reason to stop.
    if (xioctl(plane.dmabufFd(), DMA_BUF_IOCTL_SYNC, &sync) != 0 &&
        !std::exchange(warned_sync_, true))
      logWarning(info_.path + ": DMA_BUF_IOCTL_SYNC (" +
                 ((flags & DMA_BUF_SYNC_END) ? "end" : "start") + ") failed: " +
                 std::strerror(errno) + "; the CPU's view of this run's frames may be stale");
  }
}

Status V4l2Source::skipCorrupted(const v4l2_buffer& vb, const std::string& why) {
  if (!std::exchange(warned_corrupted_, true))
    logWarning(info_.path + ": frame " + std::to_string(vb.sequence) + " " + why +
               ", skipped (this run's further corrupted frames are counted in each frame's " +
               "\"corrupted\", not warned)");
  ++corrupted_;
  countSequenceGap(vb.sequence);  // a skipped buffer is no gap in the sequence
  return queue(vb.index);
}

Result<std::optional<Frame>> V4l2Source::next() {
  if (lost_) return fail(ErrorCode::kDeviceLost, info_.path, ": device lost");
  if (held_ >= 0) {
    syncDmabuf(buffers_[size_t(held_)], DMA_BUF_SYNC_END);
    const int index = std::exchange(held_, -1);
    if (auto s = queue(uint32_t(index)); !s) return s.error();
  }
  v4l2_buffer vb{};
  v4l2_plane planes[kMaxMemoryPlanes]{};
  for (;;) {
    pollfd p{fd_.get(), POLLIN, 0};
    const int r = ::poll(&p, 1, poll_timeout_ms_);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0)
      return fail(errorCodeFromErrno(errno), info_.path, ": poll failed: ", std::strerror(errno));
    if (r == 0)
      return fail(ErrorCode::kTimeout, info_.path, ": no frame within ",
                  std::to_string(poll_timeout_ms_), " ms");
    vb = emptyBuffer(0, planes);
    if (xioctl(fd_.get(), VIDIOC_DQBUF, &vb) != 0) {
      if (errno == EAGAIN && !(p.revents & (POLLERR | POLLHUP))) continue;
      return lostOrFailed("VIDIOC_DQBUF", errno == EAGAIN ? ENODEV : errno);
    }
    if (vb.index >= buffers_.size())
      return fail(ErrorCode::kIo, info_.path, ": driver returned a bad buffer index");
    if (vb.flags & V4L2_BUF_FLAG_ERROR) {
      if (auto s = skipCorrupted(vb, "was flagged as corrupted by the driver"); !s)
        return s.error();
      continue;
    }
    std::array<uint32_t, kMaxMemoryPlanes> bytesused{};
    for (int p = 0; p < fmt_.memory_planes; ++p)
      bytesused[size_t(p)] = fmt_.multi_planar ? planes[p].bytesused : vb.bytesused;
    if (std::optional<std::string> short_by = v4l2ShortPayload(fmt_, format_, bytesused)) {
      if (auto s = skipCorrupted(vb, "is incomplete (" + *short_by + ")"); !s) return s.error();
      continue;
    }
    break;
  }
  held_ = int(vb.index);
  const Buffer& b = buffers_[vb.index];
  syncDmabuf(b, DMA_BUF_SYNC_START);
  Frame f;
  f.format = format_;
  f.width = int(fmt_.width), f.height = int(fmt_.height);
  f.colorimetry = colorimetry_;
  f.dropped = countSequenceGap(vb.sequence);
  f.sequence = sequence_epoch_ + vb.sequence;
  f.corrupted = std::exchange(corrupted_, 0);
  f.timestamp_ns =
      uint64_t(vb.timestamp.tv_sec) * 1000000000ull + uint64_t(vb.timestamp.tv_usec) * 1000ull;
  f.source = info_.path;
  const uint32_t bytesused = fmt_.multi_planar ? planes[0].bytesused : vb.bytesused;
  if (auto s = attachV4l2Planes(f, fmt_, b, bytesused); !s)
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
