#pragma once
// `esframe programs`: every program esframe can build, built on this driver and judged by what
// its compiler says (platform/driver_messages.hpp). On a board's own driver, or on Mesa's
// drm-shim fake devices (toolchain/board-compilers), it proves that each program compiles and
// links within the driver's limits, reports each compiler's statistics (instructions, threads,
// registers, spills), and fails on what a board would suffer from:
//   - a program the driver cannot compile (v3d refuses at the first dispatch, silently);
//   - v3d's last-resort "fallback scheduler" (optimisations off, 2 threads);
//   - spills in a default program (what a run builds with no tuning);
//   - a compiler warning.
// Programs come from the pipeline itself, not a list kept beside it: a pipeline per pixel format
// and per option that changes what it builds (source luma, health with and without regions,
// blur, resize, bins, L only) processes two pattern frames; then every strategy family `esframe
// tune` and the CLI can select (the selftest's strategies, each blur form, reduce), and with
// `sweep` every candidate of the tuning sweeps. The fake devices return no results: a frame's
// figures are not checked here (the selftest does that on a board).
#include <string>
#include <vector>

#include "esframe/gpu_checks.hpp"
#include "esframe/pipeline_config.hpp"
#include "platform/gl_context.hpp"
#include "platform/shader_library.hpp"

namespace esf {

struct CheckedProgram {
  ProgramReport report;
  bool default_program = false;       // built by a pipeline with default parameters
  std::vector<std::string> problems;  // empty: fine on this driver
};

struct ProgramCheckReport {
  std::string renderer, version;
  ComputeLimits limits;
  std::vector<CheckedProgram> programs;
  // What could not be set up (a configuration the driver's limits refuse with one line): not a
  // program failure, listed so nothing is left out silently.
  std::vector<std::string> notes;
  bool failed_to_build = false;  // shader_files: one did not compile or link (its note says why)
  bool passed() const;
  int problemCount() const;
};

// Builds the programs on `gl`'s driver (a context current on this thread, opened with `gpu`'s
// settings; each pipeline opens its own with them).
ProgramCheckReport checkPrograms(GlContext& gl, const GpuConfig& gpu,
                                 const ProgramCheckOptions& options);

}  // namespace esf
