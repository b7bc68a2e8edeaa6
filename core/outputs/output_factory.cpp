#include "core/outputs/output_factory.hpp"

#include <unistd.h>

#include "core/outputs/bin_output.hpp"
#include "core/outputs/csv_output.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "core/outputs/png_output.hpp"

#if __has_include("core/outputs/drm_output.hpp")
#define ESF_HAVE_DRM_OUTPUT 1
#else
#define ESF_HAVE_DRM_OUTPUT 0
#endif

namespace esf {
namespace {

struct Spec {
  std::string kind;     // before the first ':'
  std::string options;  // after it ("" when absent)
  bool has_options = false;
};

Spec split(const std::string& spec) {
  const size_t colon = spec.find(':');
  if (colon == std::string::npos) return {spec, "", false};
  return {spec.substr(0, colon), spec.substr(colon + 1), true};
}

constexpr const char* kKinds = "jsonl, csv[:bins], bin, png:DIR[,every=N], drm[:OPTIONS]";

}  // namespace

Status checkOutputSpec(const std::string& text) {
  const Spec s = split(text);
  if (s.kind == "jsonl" || s.kind == "bin") {
    if (s.has_options) return fail("--output ", s.kind, " takes no options, got '", text, "'");
    return Status::success();
  }
  if (s.kind == "csv") {
    if (s.has_options && s.options != "bins")
      return fail("--output csv: unknown option '", s.options, "' (csv or csv:bins)");
    return Status::success();
  }
  if (s.kind == "png") {
    Result<PngOutputOptions> o = parsePngOptions(s.options);
    if (!o) return o.error();
    return Status::success();
  }
  if (s.kind == "drm") {
#if ESF_HAVE_DRM_OUTPUT
    return checkDrmOutputOptions(s.options);
#else
    return fail("--output drm: this build has no DRM/KMS output");
#endif
  }
  return fail("unknown output '", text, "' (", kKinds, ")");
}

Result<std::unique_ptr<FrameOutput>> createOutput(const std::string& text,
                                                  const OutputContext& context) {
  if (Status s = checkOutputSpec(text); !s) return s.error();
  const Spec s = split(text);
  if (s.kind == "jsonl") return std::unique_ptr<FrameOutput>(new JsonlOutput(STDOUT_FILENO));
  if (s.kind == "bin") return std::unique_ptr<FrameOutput>(new BinOutput(STDOUT_FILENO));
  if (s.kind == "csv")
    return std::unique_ptr<FrameOutput>(new CsvOutput(STDOUT_FILENO, s.options == "bins"));
  if (s.kind == "png") {
    Result<std::unique_ptr<PngOutput>> png = PngOutput::create(parsePngOptions(s.options).value());
    if (!png) return png.error();
    return std::unique_ptr<FrameOutput>(std::move(png.value()));
  }
#if ESF_HAVE_DRM_OUTPUT
  if (s.kind == "drm") return createDrmOutput(s.options, context);
#endif
  (void)context;
  return fail("unknown output '", text, "'");
}

bool writesStdout(const std::string& text) {
  const std::string kind = split(text).kind;
  return kind == "jsonl" || kind == "csv" || kind == "bin";
}

}  // namespace esf
