// The luma histogram of one frame through libesframe's public API.
//   histogram              the synthetic pattern (640x480)
//   histogram photo.png    a still image (PNG, JPEG, BMP, PGM, PPM)
// Prints "size WxH", "mean M" (the luma mean) and "counts" followed by the 256 luma counts, one
// line. ESFRAME_BACKEND=auto (default), gles, cpu (the CPU executor) or reference picks the
// backend.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "esframe/esframe.hpp"

namespace {

int failWith(const char* what, const esf::Error& error) {
  std::fprintf(stderr, "histogram: %s: %s (%s)\n", what, error.message.c_str(),
               esf::errorCodeName(error.code));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [IMAGE]\n", argv[0]);
    return 2;
  }
  esf::PipelineConfig config;
  config.histogram.bins = 256;
  config.histogram.channels = "l";
  const char* backend = std::getenv("ESFRAME_BACKEND");
  if (backend) {  // auto (default), gles, cpu, reference
    auto parsed = esf::parseBackend(backend);
    if (!parsed) return failWith("ESFRAME_BACKEND", parsed.error());
    config.backend = *parsed;
  }

  auto pipeline = esf::Pipeline::create(config);
  if (!pipeline) return failWith("pipeline", pipeline.error());
  const std::string spec = argc == 2 ? argv[1] : "pattern";
  auto source = (*pipeline)->openSource(spec, esf::SourceConfig{});
  if (!source) return failWith(spec.c_str(), source.error());
  auto frame = (*source)->next();
  if (!frame) return failWith(spec.c_str(), frame.error());
  if (!*frame) {
    std::fprintf(stderr, "histogram: %s: no frame\n", spec.c_str());
    return 1;
  }
  auto result = (*pipeline)->process(**frame);
  if (!result) return failWith("process", result.error());

  const esf::ChannelStats& luma = result->stats.at(0);
  std::printf("size %dx%d\nmean %.6f\ncounts", result->width, result->height, luma.mean);
  for (uint32_t count : result->hist.channel(0)) std::printf(" %u", count);
  std::printf("\n");
  return 0;
}
