// libFuzzer: the still-image loader (stb_image plus esframe's truncation checks).
#include "capture/still_image.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto image = esf::decodeStillImage(std::span<const uint8_t>(data, size), "fuzz.img");
  if (image.ok() && image->pixels.size() != image->pixelCount() * 4) __builtin_trap();
  return 0;
}
