// libFuzzer: the tuning cache file (JSON, read by strategy=auto) on arbitrary bytes, then the
// lookup that uses what survived validation.
#include <unistd.h>

#include <cstdio>
#include <string>

#include "core/tuning/tuning_cache.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/esframe-fuzz-tuning-" + std::to_string(getpid()) + ".json";
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  std::string warning;
  esf::TuningCache cache = esf::TuningCache::load(path, &warning);
  for (const esf::CacheEntry& e : cache.entries())
    (void)cache.find(e.device, e.size_class, e.stage);
  (void)cache.toJson().dump();
  return 0;
}
