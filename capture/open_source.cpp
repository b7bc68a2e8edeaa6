// openSource(): from a spec string to a FrameSource.
#include <glob.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "base/api_guard.hpp"
#include "base/pixel_format.hpp"
#include "capture/libcamera_source.hpp"
#include "capture/network_source.hpp"
#include "capture/source_kinds.hpp"
#include "capture/still_image.hpp"
#include "esframe/base/unique_fd.hpp"
#include "esframe/text_parse.hpp"

namespace esf {

// Both delegate to base/text_parse (one grammar for every caller); kept until their callers use it.
Result<std::pair<std::string, std::string>> parseCtrl(const std::string& text) {
  Result<KeyValue> kv = parseKeyValue(text, "control");
  if (!kv) return kv.error();
  return std::make_pair(std::move(kv->key), std::move(kv->value));
}

namespace {

bool hasGlobChars(const std::string& s) {
  return s.find_first_of("*?[") != std::string::npos;
}

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (auto& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

bool startsWithFile(const std::string& path, const char* magic) {
  UniqueFile f(std::fopen(path.c_str(), "rb"));
  if (!f) return false;
  char buf[16] = {};
  const size_t n = std::fread(buf, 1, std::strlen(magic), f.get());
  return n == std::strlen(magic) && std::memcmp(buf, magic, n) == 0;
}

Result<std::unique_ptr<FrameSource>> openFileLike(const std::string& spec,
                                                  const SourceOptions& options) {
  // A comma-separated list of images.
  if (spec.find(',') != std::string::npos) {
    std::vector<std::string> files;
    size_t start = 0;
    while (start <= spec.size()) {
      const size_t comma = std::min(spec.find(',', start), spec.size());
      if (comma > start) files.push_back(spec.substr(start, comma - start));
      start = comma + 1;
    }
    return openImageSequence(std::move(files));
  }
  if (hasGlobChars(spec)) {
    glob_t g{};
    const int rc = ::glob(spec.c_str(), 0, nullptr, &g);
    std::vector<std::string> files(g.gl_pathv, g.gl_pathv + g.gl_pathc);
    globfree(&g);
    if (rc != 0 || files.empty()) return fail(ErrorCode::kNotFound, "no files match '", spec, "'");
    std::sort(files.begin(), files.end());
    return openImageSequence(std::move(files));
  }
  std::error_code ec;
  // A named pipe is read once: looking at its first bytes to tell Y4M from raw would eat them.
  if (std::filesystem::is_fifo(spec, ec)) return openStreamSource(spec, options);
  if (std::filesystem::is_directory(spec, ec)) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(spec, ec))
      if (e.is_regular_file() && isStillImageExtension(lowerExtension(e.path().string())))
        files.push_back(e.path().string());
    if (files.empty())
      return fail(ErrorCode::kNotFound, "no images (png, jpg, bmp, pgm, ppm) in directory ", spec);
    std::sort(files.begin(), files.end());
    return openImageSequence(std::move(files));
  }
  if (!std::filesystem::exists(spec, ec))
    return fail(ErrorCode::kNotFound, "no such source '", spec, "'");
  if (startsWithFile(spec, "YUV4MPEG2") || lowerExtension(spec) == ".y4m")
    return openY4mSource(spec, options);
  if (isStillImageExtension(lowerExtension(spec))) return openImageSequence({spec});
  if (options.width > 0 && options.format) return openRawSource(spec, options);
  return fail(ErrorCode::kInvalidArgument, "cannot tell what '", spec,
              "' holds: raw frames need a frame size and a pixel format (Y4M and images are "
              "detected)");
}

}  // namespace

bool isV4l2Spec(const std::string& spec) {
  // A URI names no device: no device is opened to ask for its name.
  if (isPatternSpec(spec) || spec == "-" || isNetworkSpec(spec)) return false;
  if (spec.rfind("/dev/", 0) == 0) return true;
  std::error_code ec;
  const bool is_path = std::filesystem::exists(spec, ec) || hasGlobChars(spec) ||
                       spec.find(',') != std::string::npos;
  return !is_path && looksLikeV4l2Device(spec);
}

Result<std::unique_ptr<FrameSource>> openSource(const std::string& spec,
                                                const SourceOptions& options) {
  if ((options.width > 0) != (options.height > 0))
    return fail(ErrorCode::kInvalidArgument, "size needs both width and height");
  Result<std::unique_ptr<FrameSource>> source = fail(ErrorCode::kInternal, "no source");
  if (isPatternSpec(spec)) {
    source = openPatternSource(spec, options);
  } else if (spec == "-") {
    source = openStreamSource(spec, options);
  } else if (isNetworkSpec(spec)) {
    source = openNetworkSource(spec, options);
  } else if (isLibcameraSpec(spec)) {
    // libcamera 0.0.3 reported no disconnect for vimc unbound mid-stream, and stopping the
    // camera then aborts in libcamera (an assertion on its queued requests).
    if (options.reconnect)
      return fail(ErrorCode::kUnsupported, spec,
                  ": reconnecting is not supported for libcamera cameras yet");
    source = openLibcameraSource(spec, options);
  } else if (isV4l2Spec(spec)) {
    SourceOpener open = [spec, options] { return openV4l2Source(spec, options); };
    source = open();
    if (source && options.reconnect)
      source = reopenWhenLost(std::move(*source), std::move(open), options);
  } else {
    source = openFileLike(spec, options);
  }
  if (!source || options.dump_raw_dir.empty()) return source;
  return wrapDumpRaw(std::move(*source), options.dump_raw_dir,
                     options.dump_raw_overwrite ? ExistingFile::kReplace : ExistingFile::kRefuse);
}

}  // namespace esf
