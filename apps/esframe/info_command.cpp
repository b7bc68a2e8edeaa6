// `esframe info`: what esframe found on this machine, as text or one JSON object.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "apps/esframe/cli_common.hpp"
#include "apps/esframe/commands.hpp"
#include "esframe/base/log.hpp"
#include "esframe/gpu_checks.hpp"

namespace esf::cli {
namespace {

using nlohmann::json;

json gpuInfo(const GpuInfo& i) {
  json g;
  g["platform"] = toString(i.platform);
  g["platform_selection"] = i.platform_selection;
  if (!i.drm_node.empty()) g["drm_node"] = i.drm_node;
  g["egl_vendor"] = i.egl_vendor;
  g["egl_version"] = std::to_string(i.egl_major) + "." + std::to_string(i.egl_minor);
  g["gl_vendor"] = i.gl_vendor;
  g["gl_renderer"] = i.gl_renderer;
  g["gl_version"] = i.gl_version;
  g["robust_access"] = i.robust_access;
  g["lose_context_on_reset"] = i.loses_context_on_reset;
  const ComputeLimits& l = i.limits;
  g["compute"] = {
      {"max_work_group_count",
       {l.work_group_count[0], l.work_group_count[1], l.work_group_count[2]}},
      {"max_work_group_size", {l.work_group_size[0], l.work_group_size[1], l.work_group_size[2]}},
      {"max_work_group_invocations", l.work_group_invocations},
      {"max_shared_memory_bytes", l.shared_memory_size},
      {"max_ssbo_bindings", l.ssbo_bindings},
      {"max_ssbo_bytes", l.max_ssbo_size},
      {"max_texture_size", l.max_texture_size},
      {"max_compute_storage_blocks", l.compute_storage_blocks},
      {"max_compute_image_uniforms", l.compute_image_uniforms},
      {"limits", i.spec_minimum_limits ? "gles31-min (ESFRAME_GL_LIMITS)" : "driver"},
  };
  json ext = json::object();
  for (const GpuExtension& e : i.extensions) ext[e.name] = e.supported;
  g["extensions"] = ext;
  return g;
}

json drmInfo() {
  json list = json::array();
  Result<std::vector<DrmDevice>> devices = listDrmDevices();
  if (!devices) return list;
  for (const DrmDevice& n : *devices)
    list.push_back(
        {{"path", n.path}, {"driver", n.driver}, {"type", n.render_node ? "render" : "card"}});
  return list;
}

void printText(const json& info, const std::vector<InfoSection>& sections) {
  std::string out;
  auto line = [&](const std::string& s) { out += s + "\n"; };
  if (info.contains("gpu")) {
    const json& g = info["gpu"];
    line("EGL platform: " + g["platform"].get<std::string>());
    for (const auto& why : g["platform_selection"]) line("  " + why.get<std::string>());
    line("EGL: " + g["egl_vendor"].get<std::string>() + ", EGL " +
         g["egl_version"].get<std::string>());
    line("GL_VENDOR:   " + g["gl_vendor"].get<std::string>());
    line("GL_RENDERER: " + g["gl_renderer"].get<std::string>());
    line("GL_VERSION:  " + g["gl_version"].get<std::string>());
    line(std::string("robust access: ") + (g["robust_access"].get<bool>() ? "yes" : "no"));
    const json& c = g["compute"];
    line("compute limits (" + c["limits"].get<std::string>() + "):");
    line("  max work group count:       " + c["max_work_group_count"].dump());
    line("  max work group size:        " + c["max_work_group_size"].dump());
    line("  max work group invocations: " + c["max_work_group_invocations"].dump());
    line("  max shared memory:          " + c["max_shared_memory_bytes"].dump() + " bytes");
    line("  max SSBO size:              " + c["max_ssbo_bytes"].dump() + " bytes");
    line("extensions:");
    for (const auto& [name, have] : g["extensions"].items())
      line("  " + name + ": " + (have.get<bool>() ? "yes" : "no"));
  } else {
    line("GPU: " + info["gpu_error"].get<std::string>());
  }
  const json& b = info["backend"];
  line("backend auto: " + b["auto"].get<std::string>() + ", " + b["reason"].get<std::string>() +
       " (cpu executor: " + b["cpu_threads"].dump() + " threads)");
  if (b["selftest"].is_object()) line("selftest: " + b["selftest"]["summary"].get<std::string>());
  for (const json& t : b["tuned"])
    line("  " + t["chain"].get<std::string>() + " at " + t["size_class"].get<std::string>() + ": " +
         t["backend"].get<std::string>() + ", " + t["reason"].get<std::string>());
  line("DRM devices:");
  if (info["drm_devices"].empty()) line("  none");
  for (const auto& n : info["drm_devices"])
    line("  " + n["path"].get<std::string>() + "  driver=" + n["driver"].get<std::string>() + "  " +
         n["type"].get<std::string>());
  for (const auto& section : sections) {
    if (info.contains(section.key)) out += section.print_text(info[section.key]);
  }
  std::fputs(out.c_str(), stdout);
}

json backendInfo(const Result<std::unique_ptr<GpuContext>>& gpu) {
  Result<AutoBackendReport> r = describeAutoBackend(gpu);
  if (!r) {
    logError(r.error().message);
    throw CLI::RuntimeError(kExitFailure);
  }
  json selftest = nullptr;  // no GPU: nothing to check
  if (gpu)
    selftest = r->selftest ? json{{"passed", r->selftest->passed},
                                  {"quick", r->selftest->quick},
                                  {"at", r->selftest->at},
                                  {"first_failure", r->selftest->first_failure},
                                  {"summary", r->selftest_summary}}
                           : json{{"summary", "not checked by this version (esframe selftest)"}};
  json tuned = json::array();
  for (const TunedBackend& t : r->tuned)
    tuned.push_back({{"chain", t.chain},
                     {"size_class", t.size_class},
                     {"backend", backendName(t.backend)},
                     {"reason", t.reason}});
  return {{"auto", backendName(r->backend)},
          {"reason", r->reason},
          {"selftest", selftest},
          {"cpu_threads", r->cpu_threads},
          {"tuned", tuned}};
}

}  // namespace

void addInfoCommand(CLI::App& app, GlobalOptions& global) {
  auto* cmd = app.add_subcommand("info", "Show the chosen EGL platform, GPU limits and devices");
  auto json_flag = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json_flag, "Print one JSON object");
  cmd->callback([&global, json_flag]() {
    json info;
    info["esframe_version"] = ESFRAME_VERSION;
    Result<std::unique_ptr<GpuContext>> ctx = openGpu(global);
    Result<GpuInfo> gpu = ctx ? ctx.value()->info() : Result<GpuInfo>(ctx.error());
    if (gpu)
      info["gpu"] = gpuInfo(gpu.value());
    else
      info["gpu_error"] = gpu.error().message;
    info["backend"] = backendInfo(ctx);
    info["drm_devices"] = drmInfo();
    const std::vector<InfoSection> sections = extraInfoSections();
    for (const auto& section : sections) info[section.key] = section.collect(global);
    if (*json_flag)
      std::cout << info.dump(2) << std::endl;
    else
      printText(info, sections);
    if (!ctx) {
      logError(ctx.error().message);
      throw CLI::RuntimeError(kExitFailure);
    }
  });
}

}  // namespace esf::cli
