// Sources that read files: still-image sequences, Y4M video, headerless raw video.
#include <cerrno>
#include <cstring>

#include "capture/pixel_format.hpp"
#include "capture/raw_reader.hpp"
#include "capture/source_kinds.hpp"
#include "capture/still_image.hpp"
#include "capture/y4m_reader.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {
namespace {

Result<UniqueFile> openFile(const std::string& path) {
  UniqueFile f(std::fopen(path.c_str(), "rb"));
  if (!f) return fail(errorCodeFromErrno(errno), "cannot open ", path, ": ", std::strerror(errno));
  return f;
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

class Y4mSource : public FrameSource {
 public:
  Y4mSource(std::string path, UniqueFile file, Y4mHeader header, const SourceOptions& o)
      : path_(std::move(path)), file_(std::move(file)), header_(header) {
    if (o.colorimetry) header_.colorimetry = *o.colorimetry;
  }

  Result<std::optional<Frame>> next() override {
    auto more = Y4mReader::readFrame(file_.get(), header_, path_, index_, bytes_);
    if (!more) return more.error();
    if (!*more) return std::optional<Frame>();
    const uint64_t ts =
        index_ * 1000000000ull * uint64_t(header_.fps_den) / uint64_t(header_.fps_num);
    return makeTightFrame(header_.format, header_.width, header_.height, header_.colorimetry,
                          bytes_, index_++, ts, path_);
  }
  std::string name() const override { return path_; }
  int width() const override { return header_.width; }
  int height() const override { return header_.height; }
  PixelFormat format() const override { return header_.format; }

 private:
  std::string path_;
  UniqueFile file_;
  Y4mHeader header_;
  std::vector<uint8_t> bytes_;
  uint64_t index_ = 0;
};

class RawSource : public FrameSource {
 public:
  RawSource(std::string path, UniqueFile file, const SourceOptions& o)
      : path_(std::move(path)), file_(std::move(file)), options_(o) {}

  Result<std::optional<Frame>> next() override {
    auto more = readRawFrame(file_.get(), *options_.format, options_.width, options_.height, path_,
                             index_, bytes_);
    if (!more) return more.error();
    if (!*more) return std::optional<Frame>();
    const double fps = options_.fps > 0 ? options_.fps : 30.0;
    const uint64_t ts = uint64_t(double(index_) * 1e9 / fps);
    return makeTightFrame(*options_.format, options_.width, options_.height,
                          options_.colorimetry.value_or(Colorimetry{}), bytes_, index_++, ts,
                          path_);
  }
  std::string name() const override { return path_; }
  int width() const override { return options_.width; }
  int height() const override { return options_.height; }
  PixelFormat format() const override { return *options_.format; }

 private:
  std::string path_;
  UniqueFile file_;
  SourceOptions options_;
  std::vector<uint8_t> bytes_;
  uint64_t index_ = 0;
};

}  // namespace

Result<bool> readRawFrame(FILE* in, PixelFormat format, int width, int height,
                          const std::string& name, uint64_t index, std::vector<uint8_t>& out) {
  auto size = frameSize(format, width, height);
  if (!size) return fail(size.error().code, name, ": ", size.error().message);
  out.resize(*size);
  const size_t got = std::fread(out.data(), 1, out.size(), in);
  if (got == 0 && std::feof(in)) return false;
  if (got != out.size())
    return fail(std::ferror(in) ? ErrorCode::kIo : ErrorCode::kCorruptData, name,
                ": truncated raw frame ", std::to_string(index), " (", std::to_string(got), " of ",
                std::to_string(out.size()), " bytes)");
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
  return std::unique_ptr<FrameSource>(new Y4mSource(path, std::move(*file), *header, options));
}

Result<std::unique_ptr<FrameSource>> openRawSource(const std::string& path,
                                                   const SourceOptions& options) {
  if (!options.format || options.width <= 0)
    return fail(ErrorCode::kInvalidArgument, path,
                ": raw frames need a frame size and a pixel format");
  if (isCompressed(*options.format))
    return fail(ErrorCode::kUnsupported, path, ": raw ", formatName(*options.format),
                " frames have no fixed size");
  if (auto s = planeLayout(*options.format, options.width, options.height); !s)
    return fail(s.error().code, path, ": ", s.error().message);
  auto file = openFile(path);
  if (!file) return file.error();
  return std::unique_ptr<FrameSource>(new RawSource(path, std::move(*file), options));
}

}  // namespace esf
