// Sources that read files: still-image sequences, Y4M video, headerless raw video; and the same
// two video kinds from a stream (standard input, a named pipe), which is read once and never
// rewound.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <memory>

#include "base/pixel_format.hpp"
#include "capture/raw_reader.hpp"
#include "capture/read_ahead.hpp"
#include "capture/source_kinds.hpp"
#include "capture/still_image.hpp"
#include "capture/y4m_reader.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {
namespace {

// Video files and pipes are read through an InterruptibleFile, so that their read-ahead thread can
// be stopped while it waits on a pipe.
Result<InterruptibleFile> openFile(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid())
    return fail(errorCodeFromErrno(errno), "cannot open ", path, ": ", std::strerror(errno));
  return InterruptibleFile::open(std::move(fd), path);
}

class ImageSequenceSource : public FrameSource {
 public:
  ImageSequenceSource(std::vector<std::string> files, RgbaImage first)
      : files_(std::move(files)), current_(std::move(first)) {}

  Result<std::optional<Frame>> next() override {
    if (index_ >= files_.size()) return std::optional<Frame>();
    if (index_ > 0) {
      auto img = loadStillImage(files_[index_]);
      if (!img) return img.error();
      if (img->width != current_.width || img->height != current_.height)
        return fail(ErrorCode::kInvalidArgument, files_[index_], ": image is ",
                    std::to_string(img->width), "x", std::to_string(img->height),
                    ", the sequence is ", std::to_string(current_.width), "x",
                    std::to_string(current_.height));
      current_ = std::move(*img);
    }
    Frame f;
    f.format = PixelFormat::kRGBA32;
    f.width = current_.width, f.height = current_.height;
    f.plane_count = 1;
    f.planes[0] = FramePlane{current_.pixels.data(), current_.pixels.size(), current_.width * 4};
    f.sequence = index_;
    f.timestamp_ns = 0;
    f.source = files_[index_];
    ++index_;
    return std::optional<Frame>(std::move(f));
  }
  std::string name() const override { return files_.size() == 1 ? files_[0] : files_[0] + ",..."; }
  int width() const override { return current_.width; }
  int height() const override { return current_.height; }
  PixelFormat format() const override { return PixelFormat::kRGBA32; }

 private:
  std::vector<std::string> files_;
  RgbaImage current_;
  size_t index_ = 0;
};

// A video of tight frames from a file or a pipe: Y4M after its header, or headerless raw frames.
// Frames are read ahead on a thread (ReadAhead) into recycled buffers; index_ counts the frames
// handed out, the reader counts its own for its error messages.
class TightVideoSource : public FrameSource {
 public:
  struct Layout {
    PixelFormat format;
    int width = 0, height = 0;
    Colorimetry colorimetry;
  };
  // Reads frame `index` into `slot`: false at the end of the video.
  using ReadFrame = std::function<Result<bool>(InterruptibleFile& file, uint64_t index,
                                               std::vector<uint8_t>& slot)>;
  using Timestamp = std::function<uint64_t(uint64_t index)>;

  TightVideoSource(std::string path, InterruptibleFile file, Layout layout, ReadFrame read,
                   Timestamp timestamp)
      : path_(std::move(path)),
        file_(std::move(file)),
        layout_(layout),
        timestamp_(std::move(timestamp)),
        read_ahead_(
            path_,
            [this, read = std::move(read), read_index = uint64_t(0)](
                std::vector<uint8_t>& slot) mutable { return read(file_, read_index++, slot); },
            [this] { file_.interrupt(); }) {}

  Result<std::optional<Frame>> next() override {
    auto bytes = read_ahead_.next();
    if (!bytes) return bytes.error();
    if (!*bytes) return std::optional<Frame>();
    const uint64_t ts = timestamp_(index_);
    return makeTightFrame(layout_.format, layout_.width, layout_.height, layout_.colorimetry,
                          **bytes, index_++, ts, path_);
  }
  std::string name() const override { return path_; }
  int width() const override { return layout_.width; }
  int height() const override { return layout_.height; }
  PixelFormat format() const override { return layout_.format; }

 private:
  const std::string path_;
  InterruptibleFile file_;
  const Layout layout_;
  const Timestamp timestamp_;
  uint64_t index_ = 0;
  ReadAhead read_ahead_;  // last: its thread is joined before the members it reads go
};

// Y4M: the header's layout and frame rate; the options' colorimetry, where given, over the file's.
std::unique_ptr<FrameSource> y4mSource(const std::string& path, InterruptibleFile file,
                                       Y4mHeader header, const SourceOptions& o) {
  if (o.colorimetry) header.colorimetry = *o.colorimetry;
  auto read = [header, path](InterruptibleFile& f, uint64_t index, std::vector<uint8_t>& slot) {
    return Y4mReader::readFrame(f.get(), header, path, index, slot, f.directReader());
  };
  auto timestamp = [num = uint64_t(header.fps_num), den = uint64_t(header.fps_den)](uint64_t i) {
    return i * 1000000000ull * den / num;
  };
  return std::make_unique<TightVideoSource>(
      path, std::move(file),
      TightVideoSource::Layout{header.format, header.width, header.height, header.colorimetry},
      std::move(read), std::move(timestamp));
}

// Raw: the options' layout, at their frame rate (30 fps if none). `consumed`: the stream's first
// bytes, already read by the caller looking for a Y4M header.
std::unique_ptr<FrameSource> rawSource(const std::string& path, InterruptibleFile file,
                                       const SourceOptions& o, std::string consumed = "") {
  const TightVideoSource::Layout layout{*o.format, o.width, o.height,
                                        o.colorimetry.value_or(Colorimetry{})};
  auto read = [layout, path, consumed = std::move(consumed)](InterruptibleFile& f, uint64_t index,
                                                             std::vector<uint8_t>& slot) mutable {
    return readRawFrame(f.get(), layout.format, layout.width, layout.height, path, index, slot,
                        consumed, f.directReader());
  };
  const double fps = o.fps > 0 ? o.fps : 30.0;
  auto timestamp = [fps](uint64_t i) { return uint64_t(double(i) * 1e9 / fps); };
  return std::make_unique<TightVideoSource>(path, std::move(file), layout, std::move(read),
                                            std::move(timestamp));
}

}  // namespace

Result<bool> readRawFrame(FILE* in, PixelFormat format, int width, int height,
                          const std::string& name, uint64_t index, std::vector<uint8_t>& out) {
  std::string consumed;
  return readRawFrame(in, format, width, height, name, index, out, consumed);
}

Result<bool> readRawFrame(FILE* in, PixelFormat format, int width, int height,
                          const std::string& name, uint64_t index, std::vector<uint8_t>& out,
                          std::string& consumed, const ReadBytes& payload) {
  auto size = frameSize(format, width, height);
  if (!size) return fail(size.error().code, name, ": ", size.error().message);
  const size_t head = std::min(consumed.size(), *size);
  if (out.size() < head) out.resize(head);
  if (head > 0) std::memcpy(out.data(), consumed.data(), head);  // an empty `out` has no data()
  consumed.erase(0, head);
  bool failed = false;
  // A frame size larger than the stream's frames costs a chunk, not the whole frame.
  const size_t got = readGrowing(in, payload, out, head, *size, failed);
  if (got == 0 && !failed) return false;
  if (got != *size)
    return fail(failed ? ErrorCode::kIo : ErrorCode::kTruncated, name, ": truncated raw frame ",
                std::to_string(index), " (", std::to_string(got), " of ", std::to_string(*size),
                " bytes)");
  return true;
}

Result<std::unique_ptr<FrameSource>> openImageSequence(std::vector<std::string> files) {
  if (files.empty()) return fail(ErrorCode::kInvalidArgument, "empty image list");
  auto first = loadStillImage(files[0]);
  if (!first) return first.error();
  return std::unique_ptr<FrameSource>(new ImageSequenceSource(std::move(files), std::move(*first)));
}

Result<std::unique_ptr<FrameSource>> openY4mSource(const std::string& path,
                                                   const SourceOptions& options) {
  auto file = openFile(path);
  if (!file) return file.error();
  auto header = Y4mReader::readHeader(file->get(), path);
  if (!header) return header.error();
  if (Status s = Y4mReader::checkFileHoldsAFrame(file->fd(), *header, path); !s) return s.error();
  return y4mSource(path, std::move(*file), *header, options);
}

Status checkRawOptions(const std::string& path, const SourceOptions& options) {
  if (!options.format || options.width <= 0)
    return fail(ErrorCode::kInvalidArgument, path,
                ": raw frames need a frame size and a pixel format");
  if (isCompressed(*options.format))
    return fail(ErrorCode::kUnsupported, path, ": raw ", formatName(*options.format),
                " frames have no fixed size");
  if (auto s = planeLayout(*options.format, options.width, options.height); !s)
    return fail(s.error().code, path, ": ", s.error().message);
  return {};
}

// A regular file (not a pipe) shorter than one frame of the size asked for is refused before a
// frame is allocated; an empty one is a video of no frames.
Status checkRawFileHoldsAFrame(int fd, const SourceOptions& options, const std::string& name) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return {};
  auto size = frameSize(*options.format, options.width, options.height);
  if (!size) return fail(size.error().code, name, ": ", size.error().message);
  if (uint64_t(st.st_size) < uint64_t(*size))
    return fail(ErrorCode::kTruncated, name, ": truncated raw video: a ",
                std::to_string(options.width), "x", std::to_string(options.height), " ",
                formatName(*options.format), " frame is ", std::to_string(*size),
                " bytes, and the file holds ", std::to_string(st.st_size));
  return {};
}

Result<std::unique_ptr<FrameSource>> openRawSource(const std::string& path,
                                                   const SourceOptions& options) {
  if (Status s = checkRawOptions(path, options); !s) return s.error();
  auto file = openFile(path);
  if (!file) return file.error();
  if (Status s = checkRawFileHoldsAFrame(file->fd(), options, path); !s) return s.error();
  return rawSource(path, std::move(*file), options);
}

Result<std::unique_ptr<FrameSource>> openStreamSource(const std::string& spec,
                                                      const SourceOptions& options) {
  const std::string name = spec == "-" ? "stdin" : spec;
  Result<InterruptibleFile> file = Error{};
  if (spec == "-") {
    // A duplicate, so that closing the source leaves the process's stdin alone.
    UniqueFd in(::dup(STDIN_FILENO));
    if (!in.valid()) return fail(errorCodeFromErrno(errno), "stdin: ", std::strerror(errno));
    file = InterruptibleFile::open(std::move(in), name);
  } else {
    file = openFile(spec);
  }
  if (!file) return file.error();
  // Y4M when the stream starts with its magic. The bytes looked at cannot be put back into a
  // pipe, so they are handed to whichever reader takes the stream.
  static const std::string kY4mMagic = "YUV4MPEG2";
  std::string head(kY4mMagic.size(), '\0');
  head.resize(std::fread(head.data(), 1, head.size(), file->get()));
  if (std::ferror(file->get()))
    return fail(ErrorCode::kIo, name, ": read failed: ", std::strerror(errno));
  if (head == kY4mMagic) {
    auto header = Y4mReader::readHeader(file->get(), name, head);
    if (!header) return header.error();
    if (Status s = Y4mReader::checkFileHoldsAFrame(file->fd(), *header, name); !s) return s.error();
    return y4mSource(name, std::move(*file), *header, options);
  }
  if (!options.format || options.width <= 0)
    return fail(ErrorCode::kInvalidArgument, name,
                ": not Y4M, and raw frames need a frame size and a pixel format");
  if (Status s = checkRawOptions(name, options); !s) return s.error();
  return rawSource(name, std::move(*file), options, head);
}

}  // namespace esf
