// libFuzzer: the command-line option parsers on arbitrary text. The first byte picks the
// parser (--histogram, --output, --blur, --resize, --ctrl, --size, --health, --detect,
// --signalstats-stat), the rest is its value.
#include <string>

#include "apps/esframe/output_specs.hpp"
#include "apps/esframe/run_options.hpp"
#include "capture/open_source.hpp"
#include "esframe/detectors.hpp"
#include "esframe/text_parse.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 9) {
    case 0: {
      esf::HistogramConfig config;
      (void)esf::cli::parseHistogramOption(text, config);
      break;
    }
    case 1:
      (void)esf::cli::parseOutputSpec(text);
      break;
    case 2:
      (void)esf::cli::parseBlurOption(text);
      break;
    case 3:
      (void)esf::cli::parseResizeOption(text);
      break;
    case 4:
      (void)esf::parseCtrl(text);
      break;
    case 5:
      (void)esf::parseSize(text, "--size");
      break;
    case 6:
      (void)esf::parseHealthConfig(text, "--health");
      break;
    case 7:
      (void)esf::parseDetectConfig(text, "--detect");
      break;
    case 8: {
      esf::PipelineConfig config;
      (void)esf::cli::parseSignalstatsStat(text, config);
      break;
    }
  }
  return 0;
}
