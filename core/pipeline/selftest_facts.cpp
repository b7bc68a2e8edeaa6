#include "core/pipeline/selftest_facts.hpp"

#include <GLES3/gl31.h>

#include <string>

#include "platform/program_cache.hpp"

namespace esf {
namespace {

// The stages' defaults aim at v3d (Raspberry Pi 4/5): 256 invocations, 32 KB of shared memory.
constexpr int kDefaultsInvocations = 256;
constexpr int kDefaultsSharedBytes = 32768;

SelftestFact limitsFact(const GlContext& gl) {
  const ComputeLimits& l = gl.limits();
  std::string value = std::to_string(l.work_group_invocations) + " invocations a workgroup, " +
                      std::to_string(l.shared_memory_size / 1024) + " KB shared memory, " +
                      std::to_string(l.compute_storage_blocks) + " storage blocks";
  if (gl.specMinimumLimits()) value += " (the GLES 3.1 minimums: ESFRAME_GL_LIMITS=gles31-min)";
  if (l.work_group_invocations < kDefaultsInvocations ||
      l.shared_memory_size < kDefaultsSharedBytes)
    value += "; below the defaults' 256 and 32 KB, so the stages take smaller workgroups";
  return {"compute limits", value, true};
}

// GL_TIME_ELAPSED around compute: what the checks' frames reported per stage.
SelftestFact timerFact(const GlContext& gl, const std::vector<StageTiming>& timings) {
  if (!gl.hasTimerQuery())
    return {"timer queries",
            "none (GL_EXT_disjoint_timer_query missing): stages timed by wall clock", true};
  int gpu = 0, nonzero = 0;
  for (const StageTiming& t : timings) {
    if (!t.gpu) continue;
    ++gpu;
    if (t.ms > 0) ++nonzero;
  }
  if (gpu == 0) return {"timer queries", "offered, but the stages were timed by wall clock", true};
  if (nonzero == 0)
    return {"timer queries",
            "offered, but every compute stage read 0 ns (as Mesa's llvmpipe does): times are not "
            "GPU times here",
            true};
  return {"timer queries",
          "GL_TIME_ELAPSED times compute: " + std::to_string(nonzero) + " of " +
              std::to_string(gpu) + " stage timings above 0",
          true};
}

SelftestFact programBinaryFact() {
  GLint formats = 0;
  glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
  if (formats <= 0)
    return {"program binaries", "none offered: every start compiles the shaders again", true};
  const ProgramCache& cache = ProgramCache::shared();
  return {"program binaries",
          std::to_string(formats) + " binary format(s); the program cache is " +
              (cache.usable() ? "on (" + cache.directory() + ")" : std::string("off")),
          true};
}

}  // namespace

std::vector<SelftestFact> driverFacts(GlContext& gl, const std::vector<StageTiming>& timings) {
  return {limitsFact(gl), timerFact(gl, timings), programBinaryFact()};
}

}  // namespace esf
