// `esframe programs`: every program esframe can build, compiled on this GPU's driver, with what
// its compiler reports (esf::checkPrograms, esframe/gpu_checks.hpp). Exit 1 when a program is
// refused, needs v3d's fallback scheduler, spills as a default, or draws a compiler warning.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include <nlohmann/json.hpp>

#include "apps/esframe/cli_common.hpp"
#include "apps/esframe/commands.hpp"
#include "esframe/base/log.hpp"
#include "esframe/gpu_checks.hpp"

namespace esf::cli {
namespace {

struct ProgramsArgs {
  bool json = false;
  bool sweep = false;
  std::vector<std::string> shaders;
};

std::string figure(int64_t v) {
  return v < 0 ? "-" : std::to_string(v);
}

nlohmann::json statsJson(const ShaderStatistics& s) {
  nlohmann::json j = {{"stage", s.stage}, {"line", s.line}};
  auto put = [&](const char* key, int64_t v) {
    j[key] = v < 0 ? nlohmann::json() : nlohmann::json(v);
  };
  put("instructions", s.instructions);
  put("threads", s.threads);
  put("registers", s.registers);
  put("spills", s.spills);
  put("fills", s.fills);
  put("loops", s.loops);
  return j;
}

nlohmann::json reportJson(const ProgramCheckResult& r) {
  nlohmann::json programs = nlohmann::json::array();
  for (const CheckedProgramFigures& p : r.programs) {
    nlohmann::json shaders = nlohmann::json::array();
    for (const ShaderStatistics& s : p.shaders) shaders.push_back(statsJson(s));
    programs.push_back({{"name", p.name},
                        {"defines", p.defines},
                        {"default", p.default_program},
                        {"status", p.problems.empty() ? "ok" : "problem"},
                        {"refused", p.refused},
                        {"fallback_scheduler", p.fallback_scheduler},
                        {"strategy", p.strategy},
                        {"shaders", shaders},
                        {"problems", p.problems}});
  }
  const ComputeLimits& l = r.limits;
  return {{"renderer", r.renderer},
          {"version", r.version},
          {"limits",
           {{"invocations", l.work_group_invocations},
            {"size", {l.work_group_size[0], l.work_group_size[1], l.work_group_size[2]}},
            {"shared_bytes", l.shared_memory_size},
            {"storage_blocks", l.compute_storage_blocks},
            {"image_uniforms", l.compute_image_uniforms},
            {"max_texture", l.max_texture_size}}},
          {"programs", programs},
          {"notes", r.notes},
          {"problems", r.problems},
          {"passed", r.passed}};
}

void printText(const ProgramCheckResult& r) {
  const ComputeLimits& l = r.limits;
  std::printf("programs on %s | %s\n", r.renderer.c_str(), r.version.c_str());
  std::printf(
      "limits: %d invocations (%d x %d x %d), %d bytes shared, %d storage blocks, "
      "%d images, texture %d\n",
      l.work_group_invocations, l.work_group_size[0], l.work_group_size[1], l.work_group_size[2],
      l.shared_memory_size, l.compute_storage_blocks, l.compute_image_uniforms, l.max_texture_size);
  std::printf("%-7s %-3s %-28s %6s %7s %5s %13s  %s\n", "status", "def", "program", "inst",
              "threads", "regs", "spills:fills", "defines");
  for (const CheckedProgramFigures& p : r.programs) {
    const char* status = p.refused              ? "REFUSED"
                         : p.fallback_scheduler ? "FALLBK"
                         : !p.problems.empty()  ? "PROBLEM"
                                                : "ok";
    const ShaderStatistics s = p.shaders.empty() ? ShaderStatistics{} : p.shaders.back();
    const std::string spills = s.spills < 0 ? "-" : figure(s.spills) + ":" + figure(s.fills);
    std::printf("%-7s %-3s %-28s %6s %7s %5s %13s  %s\n", status, p.default_program ? "yes" : "",
                p.name.c_str(), figure(s.instructions).c_str(), figure(s.threads).c_str(),
                figure(s.registers).c_str(), spills.c_str(), p.defines.c_str());
    for (const std::string& problem : p.problems) std::printf("        %s\n", problem.c_str());
  }
  for (const std::string& note : r.notes) std::printf("note: %s\n", note.c_str());
  std::printf("programs: %s: %zu built, %d with problems\n", r.passed ? "PASSED" : "FAILED",
              r.programs.size(), r.problems);
}

int programs(const GlobalOptions& global, const ProgramsArgs& a) {
  // Every program compiles here, none comes from a cache: a cached binary hides what the
  // compiler says (v3d and Mesa's disk cache skip the compiler and its statistics).
  setenv("ESFRAME_PROGRAM_CACHE", "0", 1);
  setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
  // freedreno reports its statistics only with this; v3d compiles vertex and fragment
  // programs at link with it (at their first draw otherwise).
  setenv("FD_MESA_DEBUG", "shaderdb", 0);
  setenv("V3D_DEBUG", "precompile", 0);
  Result<std::unique_ptr<GpuContext>> ctx = openGpu(global);
  if (!ctx) {
    logError(ctx.error().message);
    return kExitFailure;
  }
  ProgramCheckOptions options;
  options.sweep = a.sweep;
  options.shader_files = a.shaders;
  Result<ProgramCheckResult> checked = checkPrograms(*ctx.value(), options);
  if (!checked) {
    logError(checked.error().message);
    return kExitFailure;
  }
  const ProgramCheckResult& report = checked.value();
  if (a.json)
    std::cout << reportJson(report).dump(2) << std::endl;
  else
    printText(report);
  return report.passed ? kExitOk : kExitFailure;
}

}  // namespace

void addProgramsCommand(CLI::App& app, GlobalOptions& global) {
  auto* cmd = app.add_subcommand(
      "programs",
      "Build every GPU program esframe can use on this driver and print what its compiler "
      "reports (exit 1: a program refused, v3d's fallback scheduler, a default that spills, "
      "or a warning)");
  auto a = std::make_shared<ProgramsArgs>();
  cmd->add_flag("--json", a->json, "Print the report as one JSON object");
  cmd->add_flag("--sweep", a->sweep, "Also every candidate of esframe tune's sweeps (slow)");
  cmd->add_option("--shader", a->shaders,
                  "Build and judge these compute shader files instead (GLSL ES 3.10, no #version)")
      ->check(CLI::ExistingFile);
  cmd->callback([&global, a]() {
    const int status = programs(global, *a);
    if (status != kExitOk) throw CLI::RuntimeError(status);
  });
}

}  // namespace esf::cli
