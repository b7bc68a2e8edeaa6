#include "core/outputs/png_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <stb_image_write.h>

#include "esframe/base/sizes.hpp"
#include "esframe/base/unique_fd.hpp"

namespace esf {
namespace {

constexpr std::string_view kWhat = "PNG output";

void appendBytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
}

}  // namespace

Result<std::string> encodePng(const RgbaImage& image) {
  std::string bytes;
  if (!stbi_write_png_to_func(appendBytes, &bytes, image.width, image.height, 4,
                              image.pixels.data(), image.width * 4))
    return fail(ErrorCode::kInternal, "cannot encode a ", std::to_string(image.width), "x",
                std::to_string(image.height), " PNG");
  return bytes;
}

Status writePng(const std::string& path, const RgbaImage& image, ExistingFile existing) {
  Result<std::string> encoded = encodePng(image);
  if (!encoded) return fail(encoded.error().code, encoded.error().message, " for ", path);
  const std::string& bytes = *encoded;
  Result<AtomicFile> file = AtomicFile::create(path, existing);
  if (!file) return file.error();
  if (Status s = file->write(bytes.data(), bytes.size()); !s) return s;
  return file->commit();
}

Result<std::unique_ptr<PngOutput>> PngOutput::create(const PngSinkOptions& options) {
  // Before the folder is made: a graph is an RGBA image within the frame limits.
  if (Status s =
          checkFrameSize(std::string(kWhat) + " graph", options.graph_width, options.graph_height);
      !s)
    return s.error();
  struct stat st;
  if (::stat(options.dir.c_str(), &st) != 0) {
    if (::mkdir(options.dir.c_str(), 0755) != 0)
      return fail(errorCodeFromErrno(errno), kWhat, ": cannot create folder ", options.dir, ": ",
                  std::strerror(errno));
  } else if (!S_ISDIR(st.st_mode)) {
    return fail(ErrorCode::kInvalidArgument, kWhat, ": ", options.dir, " is not a folder");
  }
  return std::unique_ptr<PngOutput>(new PngOutput(options));
}

Result<RgbaImage> GraphPainter::paintRaw(const FrameResult& f) {
  if (!f.raw)
    return fail(ErrorCode::kInvalidArgument, kWhat,
                ": source=raw needs a Bayer frame (a Bayer pixel format such as SRGGB10)");
  const HistogramData hist = rawGraphHistogram(*f.raw);
  const std::vector<float> scales = rawGraphScales(*f.raw);
  const GraphLabels labels = rawGraphLabels(*f.raw);
  if (!f.gpu) return renderGraphReference(hist, scales, width_, height_, graph_, labels);
  if (!renderer_) {
    Result<GraphRenderer> r =
        GraphRenderer::create(hist.bins, hist.channels, width_, height_, graph_);
    if (!r) return r.error();
    renderer_.emplace(std::move(r.value()));
  }
  if (Status s = renderer_->renderCounts(hist, scales, labels); !s) return s.error();
  return renderer_->read();
}

Result<RgbaImage> GraphPainter::paintScope(const FrameResult& f) {
  if (!f.scopes)
    return fail(ErrorCode::kInvalidArgument, kWhat,
                ": scope= needs the frame's scopes (PipelineConfig::scopes)");
  const GraphLabels labels =
      graphLabels(f.hist, f.stats, f.raw ? &*f.raw : nullptr, f.health ? &*f.health : nullptr);
  if (!f.gpu) return renderScopeReference(*f.scopes, width_, height_, graph_, labels);
  if (!scope_renderer_) {
    Result<ScopeRenderer> r = ScopeRenderer::create(width_, height_, graph_);
    if (!r) return r.error();
    scope_renderer_.emplace(std::move(r.value()));
  }
  if (Status s = scope_renderer_->render(*f.scopes, labels); !s) return s.error();
  return scope_renderer_->read();
}

Result<RgbaImage> GraphPainter::paint(const FrameResult& f) {
  if (graph_.scope != GraphScope::kNone) return paintScope(f);
  if (graph_.source == GraphSource::kRaw) return paintRaw(f);
  const GraphLabels labels =
      graphLabels(f.hist, f.stats, f.raw ? &*f.raw : nullptr, f.health ? &*f.health : nullptr);
  if (!f.gpu) {
    if (graph_.mode == GraphMode::kLuma && f.hist.channels.find('l') == std::string::npos)
      return fail(ErrorCode::kInvalidArgument, kWhat,
                  ": mode=luma needs the l channel in the histogram's channels");
    return renderGraphReference(f.hist, f.scale, width_, height_, graph_, labels);
  }
  if (!renderer_) {
    Result<GraphRenderer> r =
        GraphRenderer::create(f.gpu->bins, f.hist.channels, width_, height_, graph_);
    if (!r) return r.error();
    renderer_.emplace(std::move(r.value()));
  }
  if (Status s = renderer_->render(f.gpu->histogram_buffer, f.gpu->scale_buffer, labels); !s)
    return s.error();
  return renderer_->read();
}

Result<std::optional<RgbaImage>> processedImage(const FrameResult& f) {
  if (f.image) return std::optional<RgbaImage>(*f.image);
  if (f.gpu && f.gpu->image_texture) {
    Result<RgbaImage> frame = readTexture(f.gpu->image_texture, f.gpu->width, f.gpu->height);
    if (!frame) return frame.error();
    return std::optional<RgbaImage>(std::move(frame.value()));
  }
  return std::optional<RgbaImage>();
}

Status PngOutput::write(const FrameResult& f) {
  const bool due = delivered_ % uint64_t(options_.every) == 0;
  ++delivered_;
  if (!due) return Status::success();
  char seq[32];
  std::snprintf(seq, sizeof seq, "%08llu", static_cast<unsigned long long>(f.seq));
  const ExistingFile existing_file = files_.existingFor(f.seq);
  Result<RgbaImage> graph = painter_.paint(f);
  if (!graph) return graph.error();
  if (Status s = writePng(options_.dir + "/graph-" + seq + ".png", graph.value(), existing_file);
      !s)
    return s;
  files_.wrote(f.seq);
  if (f.image) return writePng(options_.dir + "/frame-" + seq + ".png", *f.image, existing_file);
  if (f.gpu && f.gpu->image_texture) {
    Result<RgbaImage> frame = readTexture(f.gpu->image_texture, f.gpu->width, f.gpu->height);
    if (!frame) return frame.error();
    return writePng(options_.dir + "/frame-" + seq + ".png", frame.value(), existing_file);
  }
  return Status::success();
}

}  // namespace esf
