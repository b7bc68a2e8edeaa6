// --dump-raw DIR: keeps each frame's bytes exactly as the source delivered them (strides
// removed), so a test can recompute what esframe computed from the same frame.
// File names: DIR/<sequence, 6 digits>-<W>x<H>-<FORMAT>.raw (.jpg for MJPEG).
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "capture/pixel_format.hpp"
#include "capture/source_kinds.hpp"

namespace esf {
namespace {

Status writeFrame(const Frame& f, const std::string& dir) {
  char name[96];
  std::snprintf(name, sizeof name, "/%06llu-%dx%d-%s.%s",
                static_cast<unsigned long long>(f.sequence), f.width, f.height,
                formatName(f.format), f.format == PixelFormat::kMJPEG ? "jpg" : "raw");
  const std::string path = dir + name;
  FILE* out = std::fopen(path.c_str(), "wb");
  if (!out) return fail("cannot write ", path, ": ", std::strerror(errno));
  bool ok = true;
  if (f.format == PixelFormat::kMJPEG) {
    ok = f.planes[0].data &&
         std::fwrite(f.planes[0].data, 1, f.planes[0].size, out) == f.planes[0].size;
  } else {
    auto planes = planeLayout(f.format, f.width, f.height);
    ok = planes.ok() && int(planes->size()) == f.plane_count;
    for (size_t i = 0; ok && i < planes->size(); ++i) {
      const auto& p = (*planes)[i];
      const FramePlane& fp = f.planes[i];
      if (!fp.data) ok = false;
      for (int row = 0; ok && row < p.rows; ++row)
        ok = std::fwrite(fp.data + size_t(row) * fp.stride, 1, p.bytes_per_row, out) ==
             size_t(p.bytes_per_row);
    }
  }
  if (std::fclose(out) != 0) ok = false;
  if (!ok) {
    std::remove(path.c_str());
    return fail("cannot write ", path, " (frame not in CPU memory, or disk full)");
  }
  return {};
}

class DumpRawSource : public FrameSource {
 public:
  DumpRawSource(std::unique_ptr<FrameSource> inner, std::string dir)
      : inner_(std::move(inner)), dir_(std::move(dir)) {}
  Result<std::optional<Frame>> next() override {
    auto f = inner_->next();
    if (f && f->has_value()) {
      if (auto s = writeFrame(**f, dir_); !s) return s.error();
    }
    return f;
  }
  std::string name() const override { return inner_->name(); }
  bool isLive() const override { return inner_->isLive(); }
  bool deviceLost() const override { return inner_->deviceLost(); }
  int width() const override { return inner_->width(); }
  int height() const override { return inner_->height(); }
  PixelFormat format() const override { return inner_->format(); }
  std::string ioDescription() const override { return inner_->ioDescription(); }

 private:
  std::unique_ptr<FrameSource> inner_;
  std::string dir_;
};

}  // namespace

Result<std::unique_ptr<FrameSource>> wrapDumpRaw(std::unique_ptr<FrameSource> inner,
                                                 const std::string& dir) {
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    return fail("cannot create --dump-raw directory ", dir, ": ", std::strerror(errno));
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return fail("--dump-raw ", dir, " is not a directory");
  return std::unique_ptr<FrameSource>(new DumpRawSource(std::move(inner), dir));
}

}  // namespace esf
