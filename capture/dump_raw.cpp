// Raw dumps (the CLI's --dump-raw DIR): keep each frame's bytes exactly as the source delivered
// them (strides removed), so a test can recompute what esframe computed from the same frame. File
// names: DIR/<sequence, 6 digits>-<W>x<H>-<FORMAT>.raw (.jpg for MJPEG), written as
// SequenceNamedFiles says (a driver's repeated number replaces the frame before's file).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/atomic_file.hpp"
#include "base/forwarding_source.hpp"
#include "base/pixel_format.hpp"
#include "capture/source_kinds.hpp"
#include "esframe/base/sizes.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {
namespace {

Status writeFrame(const Frame& f, const std::string& dir, ExistingFile existing) {
  const bool compressed = isCompressed(f.format);
  char name[96];
  std::snprintf(name, sizeof name, "/%06llu-%dx%d-%s.%s",
                static_cast<unsigned long long>(f.sequence), f.width, f.height,
                formatName(f.format), compressed ? "jpg" : "raw");
  const std::string path = dir + name;
  // Every plane must be in CPU memory before anything is written.
  for (int i = 0; i < f.plane_count; ++i)
    if (!f.planes[size_t(i)].data)
      return fail(ErrorCode::kUnsupported, "cannot dump ", path, ": plane ", std::to_string(i),
                  " is not in CPU memory");
  std::vector<PlaneLayout> planes;
  if (!compressed) {
    auto layout = planeLayout(f.format, f.width, f.height);
    if (!layout) return layout.error();
    if (int(layout->size()) != f.plane_count)
      return fail(ErrorCode::kInvalidArgument, "cannot dump ", path, ": the frame has ",
                  std::to_string(f.plane_count), " planes, ", formatName(f.format), " has ",
                  std::to_string(layout->size()));
    planes = std::move(*layout);
    // The rows read below lie within each plane (checked in 64 bits: a driver's stride is
    // arbitrary), before the file is made.
    for (size_t i = 0; i < planes.size(); ++i)
      if (!stridedRowsFit(f.planes[i].size, f.planes[i].stride, planes[i].bytes_per_row,
                          planes[i].rows))
        return fail(ErrorCode::kInvalidArgument, "cannot dump ", path, ": plane ",
                    std::to_string(i), " of ", std::to_string(f.planes[i].size),
                    " bytes at stride ", std::to_string(f.planes[i].stride), " is too small");
  }
  Result<AtomicFile> out = AtomicFile::create(path, existing);
  if (!out) return out.error();
  if (compressed) {
    if (Status s = out->write(f.planes[0].data, f.planes[0].size); !s) return s;
  } else {
    for (size_t i = 0; i < planes.size(); ++i) {
      const FramePlane& fp = f.planes[i];
      for (int row = 0; row < planes[i].rows; ++row)
        if (Status s = out->write(fp.data + size_t(row) * size_t(fp.stride),
                                  size_t(planes[i].bytes_per_row));
            !s)
          return s;
    }
  }
  return out->commit();
}

class DumpRawSource : public ForwardingSource {
 public:
  DumpRawSource(std::unique_ptr<FrameSource> inner, std::string dir, ExistingFile existing)
      : ForwardingSource(std::move(inner)), dir_(std::move(dir)), files_(existing) {}
  Result<std::optional<Frame>> next() override {
    auto f = inner().next();
    if (f && f->has_value()) {
      const uint64_t sequence = (*f)->sequence;
      if (auto s = writeFrame(**f, dir_, files_.existingFor(sequence)); !s) return s.error();
      files_.wrote(sequence);
    }
    return f;
  }

 private:
  std::string dir_;
  SequenceNamedFiles files_;
};

}  // namespace

Result<std::unique_ptr<FrameSource>> wrapDumpRaw(std::unique_ptr<FrameSource> inner,
                                                 const std::string& dir, ExistingFile existing) {
  if (::mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    return fail(errorCodeFromErrno(errno), "cannot create the dump folder ", dir, ": ",
                std::strerror(errno));
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    return fail(ErrorCode::kInvalidArgument, "dump folder ", dir, " is not a directory");
  return std::unique_ptr<FrameSource>(new DumpRawSource(std::move(inner), dir, existing));
}

}  // namespace esf
