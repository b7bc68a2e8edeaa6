#include "core/outputs/png_output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

// Static functions: other libraries may compile their own copy of stb_image_write.
#define STB_IMAGE_WRITE_STATIC
#define STB_IMAGE_WRITE_IMPLEMENTATION
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#pragma GCC diagnostic ignored "-Wunused-function"
#include <stb_image_write.h>
#pragma GCC diagnostic pop

#include "esframe/base/unique_fd.hpp"

namespace esf {
namespace {

Result<int> parsePositive(const std::string& key, const std::string& text) {
  char* end = nullptr;
  errno = 0;
  long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end || errno || v < 1 || v > 1000000)
    return fail("--output png: ", key, " must be a positive integer, got '", text, "'");
  return int(v);
}

void appendBytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data), size_t(size));
}

}  // namespace

Result<PngOutputOptions> parsePngOptions(const std::string& text) {
  PngOutputOptions o;
  size_t start = 0;
  bool first = true;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string part =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (first) {
      o.dir = part;
      first = false;
    } else if (part.rfind("every=", 0) == 0) {
      Result<int> n = parsePositive("every", part.substr(6));
      if (!n) return n.error();
      o.every = n.value();
    } else if (part.rfind("graph=", 0) == 0) {
      const std::string size = part.substr(6);
      const size_t x = size.find('x');
      if (x == std::string::npos) return fail("--output png: graph must be WxH, got '", size, "'");
      Result<int> w = parsePositive("graph width", size.substr(0, x));
      Result<int> h = parsePositive("graph height", size.substr(x + 1));
      if (!w) return w.error();
      if (!h) return h.error();
      o.graph_width = w.value();
      o.graph_height = h.value();
    } else {
      return fail("--output png: unknown option '", part, "' (every=N, graph=WxH)");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (o.dir.empty()) return fail("--output png needs a folder: png:DIR[,every=N]");
  return o;
}

Status writePng(const std::string& path, const RgbaImage& image) {
  std::string bytes;
  if (!stbi_write_png_to_func(appendBytes, &bytes, image.width, image.height, 4,
                              image.pixels.data(), image.width * 4))
    return fail("cannot encode PNG ", path);
  const std::string tmp = path + ".tmp";
  {
    UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (!fd.valid()) return fail("cannot create ", tmp, ": ", std::strerror(errno));
    std::string_view left = bytes;
    while (!left.empty()) {
      ssize_t n = ::write(fd.get(), left.data(), left.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        const std::string why = std::strerror(errno);
        ::unlink(tmp.c_str());
        return fail("cannot write ", tmp, ": ", why);
      }
      left.remove_prefix(size_t(n));
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return fail("cannot rename ", tmp, " to ", path, ": ", why);
  }
  return Status::success();
}

Result<std::unique_ptr<PngOutput>> PngOutput::create(const PngOutputOptions& options) {
  struct stat st;
  if (::stat(options.dir.c_str(), &st) != 0) {
    if (::mkdir(options.dir.c_str(), 0755) != 0)
      return fail("--output png: cannot create folder ", options.dir, ": ", std::strerror(errno));
  } else if (!S_ISDIR(st.st_mode)) {
    return fail("--output png: ", options.dir, " is not a folder");
  }
  return std::unique_ptr<PngOutput>(new PngOutput(options));
}

Result<RgbaImage> PngOutput::graphImage(const FrameResult& f) {
  if (!f.gpu) {
    return renderGraphReference(f.hist, f.scale, options_.graph_width, options_.graph_height);
  }
  if (!renderer_) {
    Result<GraphRenderer> r = GraphRenderer::create(f.gpu->bins, f.hist.channels,
                                                    options_.graph_width, options_.graph_height);
    if (!r) return r.error();
    renderer_.emplace(std::move(r.value()));
  }
  if (Status s = renderer_->render(f.gpu->histogram_buffer, f.gpu->scale_buffer); !s)
    return s.error();
  return renderer_->read();
}

Status PngOutput::write(const FrameResult& f) {
  const bool due = delivered_ % uint64_t(options_.every) == 0;
  ++delivered_;
  if (!due) return Status::success();
  char seq[32];
  std::snprintf(seq, sizeof seq, "%08llu", static_cast<unsigned long long>(f.seq));
  Result<RgbaImage> graph = graphImage(f);
  if (!graph) return graph.error();
  if (Status s = writePng(options_.dir + "/graph-" + seq + ".png", graph.value()); !s) return s;
  if (f.image) return writePng(options_.dir + "/frame-" + seq + ".png", *f.image);
  if (f.gpu && f.gpu->image_texture) {
    Result<RgbaImage> frame = readTexture(f.gpu->image_texture, f.gpu->width, f.gpu->height);
    if (!frame) return frame.error();
    return writePng(options_.dir + "/frame-" + seq + ".png", frame.value());
  }
  return Status::success();
}

}  // namespace esf
