// libFuzzer: the Y4M parser on arbitrary bytes (header, frame headers, frame data).
#include <cstdio>
#include <vector>

#include "capture/y4m_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  FILE* in = fmemopen(const_cast<uint8_t*>(data), size, "rb");
  if (!in) return 0;
  auto header = esf::Y4mReader::readHeader(in, "fuzz.y4m");
  if (header.ok()) {
    std::vector<uint8_t> frame;
    for (uint64_t i = 0; i < 64; ++i) {
      auto more = esf::Y4mReader::readFrame(in, *header, "fuzz.y4m", i, frame);
      if (!more.ok() || !*more) break;
    }
  }
  std::fclose(in);
  return 0;
}
