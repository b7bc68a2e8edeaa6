// A long run of the pipeline on the pattern source, sampling what a leak would grow: resident
// memory (/proc/self/statm), open file descriptors (/proc/self/fd) and live GL objects (every
// name glIsBuffer/glIsTexture/... accepts below a bound). One CSV line per sample on stdout; the
// verdict compares the last sample with the first (taken after the first `every` frames, when
// caches and the driver's pools are warm) and exits 1 on growth past the limits.
//   esframe_soak --frames N [--size WxH] [--every K] [--rss-growth-kb KB] [--backend gles|cpu]
//                [--health KEYS]
// --health KEYS (esf::parseHealthConfig's, "" for the defaults) adds the health passes, whose
// previous frames and freeze reference stay on the GPU from frame to frame, and their events.
// The backend defaults to gles (not auto, which picks cpu on a software renderer): GL objects and
// the driver's memory are what a long run on a board would leak.
#include <dirent.h>
#include <malloc.h>
#include <unistd.h>

#include <GLES3/gl31.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "esframe/pipeline.hpp"
#include "esframe/sinks.hpp"

namespace {

struct Sample {
  uint64_t frame = 0;
  long rss_kb = 0;
  int fds = 0;
  int gl_objects = 0;
  // malloc's own view (glibc mallinfo2): bytes handed out and bytes it holds from the kernel.
  // A leak grows `heap_used`; fragmentation grows `heap_held` (and RSS) with `heap_used` flat.
  size_t heap_used_kb = 0;
  size_t heap_held_kb = 0;
};

long residentKb() {
  long pages_total = 0, pages_resident = 0;
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return -1;
  if (std::fscanf(f, "%ld %ld", &pages_total, &pages_resident) != 2) pages_resident = -1;
  std::fclose(f);
  return pages_resident * (sysconf(_SC_PAGESIZE) / 1024);
}

int openFds() {
  DIR* d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  while (dirent* e = readdir(d))
    if (e->d_name[0] != '.') ++n;
  closedir(d);
  return n - 1;  // the directory's own fd
}

// GL names are small integers; Mesa hands out the lowest free block, so a leak of one object per
// frame shows as a count that grows. Sync objects have no names and are not counted.
int liveGlObjects() {
  constexpr GLuint kNameBound = 1u << 16;
  int n = 0;
  for (GLuint name = 1; name < kNameBound; ++name)
    n += glIsBuffer(name) + glIsTexture(name) + glIsFramebuffer(name) + glIsRenderbuffer(name) +
         glIsProgram(name) + glIsShader(name) + glIsQuery(name) + glIsVertexArray(name) +
         glIsSampler(name);
  return n;
}

Sample sample(uint64_t frame) {
  const struct mallinfo2 heap = mallinfo2();
  return {frame,
          residentKb(),
          openFds(),
          liveGlObjects(),
          (heap.uordblks + heap.hblkhd) / 1024,
          (heap.arena + heap.hblkhd) / 1024};
}

int usage() {
  std::fprintf(stderr,
               "usage: esframe_soak --frames N [--size WxH] [--every K] [--rss-growth-kb KB] "
               "[--backend gles|cpu] [--health KEYS]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  uint64_t frames = 0, every = 1000;
  int width = 640, height = 480;
  long rss_growth_kb = 1024;
  esf::PipelineConfig config;
  config.backend = esf::Backend::kGles;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i];
    const char* value = argv[i + 1];
    if (key == "--frames")
      frames = std::strtoull(value, nullptr, 10);
    else if (key == "--every")
      every = std::strtoull(value, nullptr, 10);
    else if (key == "--rss-growth-kb")
      rss_growth_kb = std::strtol(value, nullptr, 10);
    else if (key == "--backend") {
      auto backend = esf::parseBackend(value);
      if (!backend) return usage();
      config.backend = *backend;
    } else if (key == "--health") {
      auto health = esf::parseHealthConfig(value);
      if (!health) return std::fprintf(stderr, "%s\n", health.error().message.c_str()), 2;
      config.health = *health;
    } else if (key == "--size" && std::sscanf(value, "%dx%d", &width, &height) == 2)
      continue;
    else
      return usage();
  }
  if (frames < 2 * every || every == 0) return usage();

  auto pipeline = esf::Pipeline::create(config);
  if (!pipeline) return std::fprintf(stderr, "%s\n", pipeline.error().message.c_str()), 1;
  esf::SourceConfig source_config;
  source_config.width = width, source_config.height = height;
  auto source = (*pipeline)->openSource("pattern", source_config);
  if (!source) return std::fprintf(stderr, "%s\n", source.error().message.c_str()), 1;
  // The records go where a real run's would: through the JSONL sink, here into /dev/null.
  FILE* null_out = std::fopen("/dev/null", "w");
  auto sink = esf::createRecordSink(fileno(null_out), {});
  if (!sink) return std::fprintf(stderr, "%s\n", sink.error().message.c_str()), 1;

  std::printf("frame,rss_kb,fds,gl_objects,heap_used_kb,heap_held_kb\n");
  Sample first, last;
  for (uint64_t n = 1; n <= frames; ++n) {
    auto frame = (*source)->next();
    if (!frame || !*frame)
      return std::fprintf(stderr, "pattern source ended at %" PRIu64 "\n", n), 1;
    auto result = (*pipeline)->process(**frame);
    if (!result) return std::fprintf(stderr, "%s\n", result.error().message.c_str()), 1;
    if (esf::Status s = (*sink)->write(*result); !s)
      return std::fprintf(stderr, "%s\n", s.error().message.c_str()), 1;
    if (n % every) continue;
    last = sample(n);
    if (n == every) first = last;
    std::printf("%" PRIu64 ",%ld,%d,%d,%zu,%zu\n", last.frame, last.rss_kb, last.fds,
                last.gl_objects, last.heap_used_kb, last.heap_held_kb);
    std::fflush(stdout);
  }
  (void)(*sink)->finish();
  std::fclose(null_out);

  const long growth = last.rss_kb - first.rss_kb;
  std::fprintf(stderr,
               "soak %dx%d, %" PRIu64
               " frames: RSS %ld -> %ld KB (%+ld), fds %d -> %d, GL objects %d -> "
               "%d\n",
               width, height, frames, first.rss_kb, last.rss_kb, growth, first.fds, last.fds,
               first.gl_objects, last.gl_objects);
  if (growth > rss_growth_kb || last.fds != first.fds || last.gl_objects != first.gl_objects) {
    std::fprintf(stderr, "soak: growth past the limits (RSS %ld KB, fds and GL objects 0)\n",
                 rss_growth_kb);
    return 1;
  }
  return 0;
}
