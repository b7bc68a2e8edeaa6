// libFuzzer: headerless raw frames. The first 3 bytes pick the format and a small size, the rest
// is the stream.
#include <cstdio>
#include <vector>

#include "base/pixel_format.hpp"
#include "capture/raw_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 4) return 0;
  const auto& formats = esf::allPixelFormats();
  const esf::PixelFormat format = formats[data[0] % formats.size()];
  const int w = 1 + data[1] % 64, h = 1 + data[2] % 64;
  FILE* in = fmemopen(const_cast<uint8_t*>(data + 3), size - 3, "rb");
  if (!in) return 0;
  std::vector<uint8_t> frame;
  for (uint64_t i = 0; i < 64; ++i) {
    auto more = esf::readRawFrame(in, format, w, h, "fuzz.raw", i, frame);
    if (!more.ok() || !*more) break;
    esf::Frame f;
    f.format = format, f.width = w, f.height = h;
    (void)esf::attachTightPlanes(f, frame.data(), frame.size());
  }
  std::fclose(in);
  return 0;
}
