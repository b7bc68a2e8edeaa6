#include "tests/vm/tools/kms_check_util.hpp"

#include <drm_fourcc.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xf86drm.h>
#include <csignal>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "esframe/base/unique_fd.hpp"
#include "platform/drm_objects.hpp"

namespace esf::kmscheck {
namespace {

int g_failures = 0;

KmsPropertyTable props(int fd, uint32_t id, uint32_t type) {
  Result<KmsPropertyTable> t = KmsPropertyTable::read(fd, id, type);
  if (!t) die(t.error().message);
  return std::move(t.value());
}

void setDrmDebug(const char* mask) {
  int f = ::open("/sys/module/drm/parameters/debug", O_WRONLY | O_CLOEXEC);
  if (f < 0) return;
  if (::write(f, mask, std::strlen(mask)) < 0) {
  }
  ::close(f);
}

}  // namespace

void die(const std::string& message) {
  std::fprintf(stderr, "kms_check: %s\n", message.c_str());
  std::exit(2);
}

void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
  std::fflush(stdout);
  if (!ok) ++g_failures;
}

int finish() {
  std::printf("kms_check: %d check(s) failed\n", g_failures);
  return g_failures ? 1 : 0;
}

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "%08x", v);
  return b;
}

void writePpm(const std::string& path, const RgbaImage& image) {
  UniqueFile f(std::fopen(path.c_str(), "wb"));
  if (!f) return;
  std::fprintf(f.get(), "P6\n%d %d\n255\n", image.width, image.height);
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x) std::fwrite(image.at(x, y), 1, 3, f.get());
}

Rect parseRect(const std::string& text) {
  Rect r;
  if (std::sscanf(text.c_str(), "%d,%d,%u,%u", &r.x, &r.y, &r.w, &r.h) != 4)
    die("bad rect '" + text + "' (X,Y,W,H)");
  return r;
}

uint32_t backgroundPixel(uint32_t x, uint32_t y) {
  return 0xff000000u | (x & 0xff) << 16 | (y & 0xff) << 8 | ((x ^ y) & 0xff);
}

DumbBuffer::DumbBuffer(int fd, uint32_t width, uint32_t height, uint32_t format) : fd_(fd) {
  const uint32_t bpp = format == DRM_FORMAT_XRGB16161616 ? 64 : 32;
  if (drmModeCreateDumbBuffer(fd, width, height, bpp, 0, &handle_, &pitch_, &size_) != 0)
    die("cannot create a dumb buffer: " + std::string(std::strerror(errno)));
  uint64_t offset = 0;
  if (drmModeMapDumbBuffer(fd, handle_, &offset) != 0) die("cannot map a dumb buffer");
  void* p = mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset));
  if (p == MAP_FAILED) die("mmap of a dumb buffer failed");
  map_ = static_cast<uint8_t*>(p);
  uint32_t handles[4] = {handle_}, pitches[4] = {pitch_}, offsets[4] = {0};
  if (drmModeAddFB2(fd, width, height, format, handles, pitches, offsets, &fb_, 0) != 0)
    die("drmModeAddFB2 failed: " + std::string(std::strerror(errno)));
}

DumbBuffer::~DumbBuffer() {
  if (fb_) drmModeRmFB(fd_, fb_);
  if (map_) munmap(map_, size_);
  if (handle_) drmModeDestroyDumbBuffer(fd_, handle_);
}

Card::Card(const std::string& path) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
  if (fd_ < 0) die("cannot open " + path + ": " + std::strerror(errno));
  if (drmSetClientCap(fd_, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
      drmSetClientCap(fd_, DRM_CLIENT_CAP_ATOMIC, 1) ||
      drmSetClientCap(fd_, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
    die(path + ": no atomic modesetting or writeback connectors");
}

Card::~Card() {
  if (mode_blob_) drmModeDestroyPropertyBlob(fd_, mode_blob_);
  ::close(fd_);
}

void Card::becomeMaster() {
  if (!drmIsMaster(fd_) && drmSetMaster(fd_) != 0)
    die("cannot become DRM master: " + std::string(std::strerror(errno)));
}
void Card::dropMaster() {
  if (drmDropMaster(fd_) != 0) die("drmDropMaster failed: " + std::string(std::strerror(errno)));
}
void Card::setMaster() {
  if (drmSetMaster(fd_) != 0) die("drmSetMaster failed: " + std::string(std::strerror(errno)));
}

Pipe Card::findPipe() {
  Pipe pipe;
  DrmResources res(drmModeGetResources(fd_));
  if (!res || res->count_crtcs < 1) die("no KMS resources");
  pipe.crtc_id = res->crtcs[0];
  for (int i = 0; i < res->count_connectors; ++i) {
    DrmConnector c(drmModeGetConnector(fd_, res->connectors[i]));
    if (!c) continue;
    if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
      pipe.writeback_id = c->connector_id;
    } else if (c->connection == DRM_MODE_CONNECTED && !pipe.connector_id && c->count_modes) {
      pipe.connector_id = c->connector_id;
      pipe.mode = c->modes[0];
      pipe.modes.assign(c->modes, c->modes + c->count_modes);
      for (int m = 0; m < c->count_modes; ++m)
        if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED) pipe.mode = c->modes[m];
    }
  }
  if (!pipe.connector_id) die("no connected connector");
  pipe.connector = props(fd_, pipe.connector_id, DRM_MODE_OBJECT_CONNECTOR);
  pipe.crtc = props(fd_, pipe.crtc_id, DRM_MODE_OBJECT_CRTC);
  if (pipe.writeback_id) pipe.writeback = props(fd_, pipe.writeback_id, DRM_MODE_OBJECT_CONNECTOR);
  return pipe;
}

KmsPropertyTable Card::connectorProps(uint32_t id) {
  return props(fd_, id, DRM_MODE_OBJECT_CONNECTOR);
}

std::pair<int, int> Card::crtcMode(uint32_t crtc_id) {
  KmsPropertyTable crtc = props(fd_, crtc_id, DRM_MODE_OBJECT_CRTC);
  uint64_t blob_id = crtc.value("MODE_ID");
  if (!crtc.value("ACTIVE") || !blob_id) return {0, 0};
  DrmPropertyBlob blob(drmModeGetPropertyBlob(fd_, uint32_t(blob_id)));
  if (!blob || blob->length < sizeof(drmModeModeInfo)) return {0, 0};
  const auto* m = static_cast<const drmModeModeInfo*>(blob->data);
  return {m->hdisplay, m->vdisplay};
}

std::vector<KmsPlaneState> Card::planes(int crtc_index) {
  std::vector<KmsPlaneState> out;
  DrmPlaneResources res(drmModeGetPlaneResources(fd_));
  if (!res) die("no plane resources");
  for (uint32_t i = 0; i < res->count_planes; ++i) {
    DrmPlane p(drmModeGetPlane(fd_, res->planes[i]));
    if (!p) continue;
    bool on_crtc = p->possible_crtcs & (1u << crtc_index);
    if (!on_crtc) continue;
    KmsPlaneState s;
    s.id = res->planes[i];
    s.position = int(out.size());
    s.props = props(fd_, s.id, DRM_MODE_OBJECT_PLANE);
    s.type = s.props.value("type");
    s.fb_id = uint32_t(s.props.value("FB_ID"));
    s.crtc_id = uint32_t(s.props.value("CRTC_ID"));
    s.src_w = uint32_t(s.props.value("SRC_W") >> 16);
    s.src_h = uint32_t(s.props.value("SRC_H") >> 16);
    s.crtc_rect = Rect{int32_t(s.props.value("CRTC_X")), int32_t(s.props.value("CRTC_Y")),
                       uint32_t(s.props.value("CRTC_W")), uint32_t(s.props.value("CRTC_H"))};
    out.push_back(std::move(s));
  }
  return out;
}

KmsPlaneState Card::plane(int crtc_index, uint32_t id) {
  for (KmsPlaneState& p : planes(crtc_index))
    if (p.id == id) return std::move(p);
  die("no plane " + std::to_string(id));
}

void Card::addModeset(KmsAtomicRequest& req, Pipe& pipe) {
  if (!mode_blob_ && drmModeCreatePropertyBlob(fd_, &pipe.mode, sizeof pipe.mode, &mode_blob_))
    die("cannot create a mode blob");
  Status s = req.add(pipe.connector_id, pipe.connector, "CRTC_ID", pipe.crtc_id);
  if (s) s = req.add(pipe.crtc_id, pipe.crtc, "MODE_ID", mode_blob_);
  if (s) s = req.add(pipe.crtc_id, pipe.crtc, "ACTIVE", 1);
  if (!s) die(s.error().message);
}

void Card::addPlane(KmsAtomicRequest& req, const KmsPlaneState& plane, const Pipe& pipe,
                    uint32_t fb, const Rect& r) {
  const std::pair<const char*, uint64_t> values[] = {{"FB_ID", fb},
                                                     {"CRTC_ID", pipe.crtc_id},
                                                     {"SRC_X", 0},
                                                     {"SRC_Y", 0},
                                                     {"SRC_W", uint64_t(r.w) << 16},
                                                     {"SRC_H", uint64_t(r.h) << 16},
                                                     {"CRTC_X", uint64_t(r.x)},
                                                     {"CRTC_Y", uint64_t(r.y)},
                                                     {"CRTC_W", r.w},
                                                     {"CRTC_H", r.h}};
  for (const auto& [name, value] : values)
    if (Status s = req.add(plane.id, plane.props, name, value); !s) die(s.error().message);
}

void Card::addPlaneOff(KmsAtomicRequest& req, const KmsPlaneState& plane) {
  Status s = req.add(plane.id, plane.props, "FB_ID", 0);
  if (s) s = req.add(plane.id, plane.props, "CRTC_ID", 0);
  if (!s) die(s.error().message);
}

void Card::commit(const KmsAtomicRequest& req, uint32_t flags, const std::string& what) {
  if (Status s = req.commit(fd_, flags, nullptr, what); !s) die(s.error().message);
}

namespace {
// A blocking atomic commit around vkms's writeback can stay in the kernel for good (seen once in
// a TCG guest on a loaded host, in the commit that takes the CRTC back): the check then fails
// with this line instead of holding the boot until its timeout.
// (It interrupts an ioctl, not a stdio call: flushing the checks printed so far is safe here.)
void writebackStuck(int) {
  std::fflush(nullptr);
  static const char kLine[] = "kms_check: the writeback commits did not return within 60 s\n";
  ssize_t ignored = ::write(2, kLine, sizeof kLine - 1);
  (void)ignored;
  _exit(3);
}
}  // namespace

std::vector<uint32_t> Card::writeback(const Pipe& pipe) {
  if (!pipe.writeback_id) die("no writeback connector (vkms enable_writeback=1?)");
  std::signal(SIGALRM, writebackStuck);
  alarm(60);
  const uint32_t W = pipe.mode.hdisplay, H = pipe.mode.vdisplay;
  DumbBuffer target(fd_, W, H, DRM_FORMAT_XRGB8888);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) target.px(x, y) = 0x00badbadu;  // poison
  int32_t fence = -1;
  {
    // vkms 6.1 cannot clone its virtual encoder with the writeback encoder (the atomic check
    // fails drm_atomic_check_valid_clones): the writeback connector takes the CRTC alone. The
    // planes and the mode stay, so the composed picture is the same.
    KmsAtomicRequest req;
    Status s = req.add(pipe.connector_id, pipe.connector, "CRTC_ID", 0);
    if (s) s = req.add(pipe.writeback_id, pipe.writeback, "CRTC_ID", pipe.crtc_id);
    if (s) s = req.add(pipe.writeback_id, pipe.writeback, "WRITEBACK_FB_ID", target.fb());
    if (s)
      s = req.add(pipe.writeback_id, pipe.writeback, "WRITEBACK_OUT_FENCE_PTR",
                  uint64_t(reinterpret_cast<uintptr_t>(&fence)));
    if (!s) die(s.error().message);
    // If the kernel refuses, its reason goes to dmesg (the harness keeps dmesg.txt).
    setDrmDebug("0x14");
    Status done = req.commit(fd_, DRM_MODE_ATOMIC_ALLOW_MODESET, nullptr, "the writeback job");
    setDrmDebug("0");
    if (!done) die(done.error().message);
  }
  if (fence < 0) die("the writeback commit returned no fence");
  pollfd p{fence, POLLIN, 0};
  if (::poll(&p, 1, 20000) != 1) die("the writeback job did not complete within 20 s");
  ::close(fence);
  std::vector<uint32_t> pixels(size_t(W) * H);
  for (uint32_t y = 0; y < H; ++y)
    for (uint32_t x = 0; x < W; ++x) pixels[size_t(y) * W + x] = target.px(x, y);
  KmsAtomicRequest detach;
  Status s = detach.add(pipe.writeback_id, pipe.writeback, "CRTC_ID", 0);
  if (s) s = detach.add(pipe.connector_id, pipe.connector, "CRTC_ID", pipe.crtc_id);
  if (!s) die(s.error().message);
  commit(detach, DRM_MODE_ATOMIC_ALLOW_MODESET, "detaching the writeback connector");
  alarm(0);
  return pixels;
}

CrcReader::CrcReader(const std::string& dir) {
  int control = ::open((dir + "/control").c_str(), O_WRONLY | O_CLOEXEC);
  if (control < 0 || ::write(control, "auto", 4) != 4)
    die("cannot select the CRC source in " + dir + "/control: " + std::strerror(errno));
  ::close(control);
  fd_ = ::open((dir + "/data").c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd_ < 0) die("cannot open " + dir + "/data: " + std::strerror(errno));
}

CrcReader::~CrcReader() {
  ::close(fd_);
}

std::vector<uint32_t> CrcReader::drain(int wait_ms) {
  std::vector<uint32_t> out;
  const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(wait_ms);
  for (;;) {
    char line[128];
    ssize_t n = ::read(fd_, line, sizeof line - 1);
    if (n > 0) {
      line[n] = 0;
      unsigned frame = 0, crc = 0;
      if (std::sscanf(line, "%x %x", &frame, &crc) == 2) {
        out.push_back(crc);
        last_frame_ = frame;
      }
      continue;
    }
    if (n < 0 && errno != EAGAIN) die("reading CRCs failed: " + std::string(std::strerror(errno)));
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                    end - std::chrono::steady_clock::now())
                    .count();
    if (left <= 0) return out;
    pollfd p{fd_, POLLIN, 0};
    ::poll(&p, 1, int(left));
  }
}

uint32_t CrcReader::settle(int card_fd, uint32_t crtc_id) {
  uint64_t now = 0;
  if (drmCrtcGetSequence(card_fd, crtc_id, &now, nullptr) != 0)
    die("drmCrtcGetSequence failed: " + std::string(std::strerror(errno)));
  std::vector<uint32_t> seen;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < end) {
    for (uint32_t c : drain(50))
      if (last_frame_ > now) seen.push_back(c);
    size_t n = seen.size();
    if (n >= 4 && seen[n - 1] == seen[n - 2] && seen[n - 2] == seen[n - 3] &&
        seen[n - 3] == seen[n - 4])
      return seen.back();
  }
  die("the CRTC CRC did not settle within 30 s (" + std::to_string(seen.size()) + " CRCs)");
}

Child Child::spawn(const std::vector<std::string>& argv, const std::string& out,
                   const std::string& err) {
  Child c;
  c.pid_ = fork();
  if (c.pid_ < 0) die("fork failed");
  if (c.pid_ == 0) {
    int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0) _exit(126);
    dup2(o, STDOUT_FILENO);
    dup2(e, STDERR_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  return c;
}

void Child::signal(int sig) {
  if (pid_ > 0) ::kill(pid_, sig);
}

bool Child::poll(int* status) {
  int st = 0;
  pid_t r = waitpid(pid_, &st, WNOHANG);
  if (r == 0) return false;
  if (r < 0) die("waitpid failed");
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  return true;
}

}  // namespace esf::kmscheck
