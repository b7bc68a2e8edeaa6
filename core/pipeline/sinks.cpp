// The built-in sinks behind esframe/sinks.hpp: typed options in, core/outputs objects out.
#include "esframe/sinks.hpp"

#include "core/outputs/bin_output.hpp"
#include "core/outputs/csv_output.hpp"
#include "core/outputs/drm_output.hpp"
#include "core/outputs/jsonl_output.hpp"
#include "core/outputs/png_output.hpp"
#include "core/pipeline/pipeline_impl.hpp"
#include "platform/kms_display.hpp"

namespace esf {

Result<std::unique_ptr<FrameSink>> createRecordSink(int fd, const RecordSinkOptions& options) {
  if (fd < 0)
    return fail(ErrorCode::kInvalidArgument, "record sink: fd ", std::to_string(fd),
                " is not a file descriptor");
  switch (options.format) {
    case RecordFormat::kJsonl:
      return std::unique_ptr<FrameSink>(new JsonlOutput(fd));
    case RecordFormat::kCsv:
      return std::unique_ptr<FrameSink>(new CsvOutput(fd, options.csv_bins));
    case RecordFormat::kBinary:
      return std::unique_ptr<FrameSink>(new BinOutput(fd));
  }
  return fail(ErrorCode::kInvalidArgument, "record sink: unknown record format");
}

Result<std::unique_ptr<FrameSink>> createPngSink(const PngSinkOptions& options) {
  if (options.every < 1 || options.graph_width < 1 || options.graph_height < 1)
    return fail(ErrorCode::kInvalidArgument,
                "PNG sink: every, graph width and graph height must be positive");
  PngOutputOptions o;
  o.dir = options.dir;
  o.every = options.every;
  o.graph_width = options.graph_width;
  o.graph_height = options.graph_height;
  o.overwrite = options.overwrite;
  Result<std::unique_ptr<PngOutput>> png = PngOutput::create(o);
  if (!png) return png.error();
  return std::unique_ptr<FrameSink>(std::move(png.value()));
}

Result<std::unique_ptr<FrameSink>> createDrmSink(Pipeline& pipeline,
                                                 const DrmSinkOptions& options) {
  GlContext* gl = pipeline.impl().gl.get();
  if (!gl)
    return fail(ErrorCode::kUnsupported,
                "DRM sink: draws with GLES, and this pipeline runs on the CPU backend");
  KmsDisplayOptions o;
  o.device = options.device;
  o.connector = options.connector;
  o.plane_id = options.plane_id;
  o.zpos = options.zpos;
  o.alpha = options.alpha;
  if (options.rect)
    o.rect = KmsRect{options.rect->x, options.rect->y, options.rect->width, options.rect->height};
  o.buffers = options.buffers;
  Result<std::unique_ptr<KmsDisplay>> display = KmsDisplay::open(o, *gl);
  if (!display) return display.error();
  return std::unique_ptr<FrameSink>(new DrmOutput(std::move(display.value())));
}

}  // namespace esf
