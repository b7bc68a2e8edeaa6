#include "core/cli/output_specs.hpp"

#include <unistd.h>

#include "core/outputs/drm_output.hpp"
#include "core/outputs/png_output.hpp"

namespace esf::cli {
namespace {

constexpr const char* kKinds = "jsonl, csv[:bins], bin, png:DIR[,every=N], drm[:OPTIONS]";

}  // namespace

Result<OutputSpec> parseOutputSpec(const std::string& text) {
  const size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  const bool has_options = colon != std::string::npos;
  const std::string options = has_options ? text.substr(colon + 1) : "";
  OutputSpec spec;
  if (kind == "jsonl" || kind == "bin") {
    if (has_options)
      return fail(ErrorCode::kInvalidArgument, "--output ", kind, " takes no options, got '", text,
                  "'");
    spec.record.format = kind == "jsonl" ? RecordFormat::kJsonl : RecordFormat::kBinary;
    return spec;
  }
  if (kind == "csv") {
    if (has_options && options != "bins")
      return fail(ErrorCode::kInvalidArgument, "--output csv: unknown option '", options,
                  "' (csv or csv:bins)");
    spec.record.format = RecordFormat::kCsv;
    spec.record.csv_bins = has_options;
    return spec;
  }
  if (kind == "png") {
    Result<PngOutputOptions> o = parsePngOptions(options);
    if (!o) return o.error();
    spec.kind = OutputSpec::Kind::kPng;
    spec.png.dir = o->dir;
    spec.png.every = o->every;
    spec.png.graph_width = o->graph_width;
    spec.png.graph_height = o->graph_height;
    return spec;
  }
  if (kind == "drm") {
    Result<KmsDisplayOptions> o = parseDrmOutputOptions(options);
    if (!o) return o.error();
    spec.kind = OutputSpec::Kind::kDrm;
    spec.drm.device = o->device;
    spec.drm.connector = o->connector;
    spec.drm.plane_id = o->plane_id;
    spec.drm.zpos = o->zpos;
    spec.drm.alpha = o->alpha;
    if (o->rect) spec.drm.rect = DrmRect{o->rect->x, o->rect->y, o->rect->width, o->rect->height};
    spec.drm.buffers = o->buffers;
    return spec;
  }
  return fail(ErrorCode::kInvalidArgument, "unknown output '", text, "' (", kKinds, ")");
}

Result<std::unique_ptr<FrameSink>> createSink(const OutputSpec& spec, Pipeline& pipeline) {
  switch (spec.kind) {
    case OutputSpec::Kind::kRecord:
      return createRecordSink(STDOUT_FILENO, spec.record);
    case OutputSpec::Kind::kPng:
      return createPngSink(spec.png);
    case OutputSpec::Kind::kDrm:
      return createDrmSink(pipeline, spec.drm);
  }
  return fail(ErrorCode::kInternal, "output: unknown kind");
}

}  // namespace esf::cli
