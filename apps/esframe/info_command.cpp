// `esframe info`: what esframe found on this machine, as text or one JSON object.
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "apps/esframe/cli_common.hpp"
#include "apps/esframe/commands.hpp"
#include "base/text_parse.hpp"
#include "core/cpu/row_pool.hpp"
#include "core/pipeline/backend_choice.hpp"
#include "core/pipeline/selftest_verdict.hpp"
#include "esframe/base/log.hpp"
#include "platform/drm_device.hpp"

namespace esf::cli {
namespace {

using nlohmann::json;

json gpuInfo(const GlContext& ctx) {
  const EglDisplay& d = ctx.display();
  json g;
  g["platform"] = toString(d.platform());
  g["platform_selection"] = d.selectionLog();
  if (!d.drmNodePath().empty()) g["drm_node"] = d.drmNodePath();
  g["egl_vendor"] = d.vendor();
  g["egl_version"] = std::to_string(d.majorVersion()) + "." + std::to_string(d.minorVersion());
  g["gl_vendor"] = ctx.glVendor();
  g["gl_renderer"] = ctx.renderer();
  g["gl_version"] = ctx.version();
  g["robust_access"] = ctx.robustAccess();
  g["lose_context_on_reset"] = ctx.losesContextOnReset();
  const ComputeLimits& l = ctx.limits();
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
      {"limits", ctx.specMinimumLimits() ? "gles31-min (ESFRAME_GL_LIMITS)" : "driver"},
  };
  json ext = json::object();
  for (const char* e : {"EGL_EXT_image_dma_buf_import", "EGL_EXT_image_dma_buf_import_modifiers",
                        "EGL_KHR_image_base", "EGL_KHR_surfaceless_context",
                        "EGL_KHR_no_config_context", "EGL_MESA_image_dma_buf_export"})
    ext[e] = d.hasExtension(e);
  for (const char* e :
       {"GL_OES_EGL_image", "GL_OES_EGL_image_external", "GL_OES_EGL_image_external_essl3",
        "GL_EXT_disjoint_timer_query", "GL_KHR_debug", "GL_EXT_robustness", "GL_KHR_robustness"})
    ext[e] = ctx.hasGlExtension(e);
  g["extensions"] = ext;
  return g;
}

json drmInfo() {
  json list = json::array();
  for (const DrmNode& n : listDrmNodes())
    list.push_back(
        {{"path", n.path}, {"driver", n.driver}, {"type", n.is_render_node ? "render" : "card"}});
  return list;
}

void printText(const json& info) {
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
  for (const auto& section : extraInfoSections()) {
    if (info.contains(section.key)) out += section.print_text(info[section.key]);
  }
  std::fputs(out.c_str(), stdout);
}

// The tuning cache's backend records for this GPU (esframe tune --stages backend): what auto
// picks, per stage chain, for frames of each tuned size class instead of the rule.
json tunedBackends(const GlContext& gl) {
  std::string warning;
  const TuningCache cache = TuningCache::load(TuningCache::defaultPath(), &warning);
  const DeviceKey device = DeviceKey::of(gl);
  json tuned = json::array();
  for (const CacheEntry& e : cache.entries()) {
    if (!(e.device == device) || e.stage.rfind("backend:", 0) != 0) continue;
    PipelineConfig config;
    const std::string chain = e.stage.substr(8);
    if (chain.find("blur") != std::string::npos) config.blur = BlurConfig{1, 1};
    if (chain.find("resize") != std::string::npos) config.resize = Size{1, 1};
    if (stageChainOf(config) != chain) continue;  // not a chain this version makes
    Result<ParsedSize> size =
        e.size_class == "larger" ? ParsedSize{7680, 4320} : parseSize(e.size_class, "size class");
    if (!size) continue;  // not a size class: never matched
    const BackendChoice c =
        chooseTunedBackend({}, cache, device, config, size->width, size->height);
    if (c.reason.rfind("the tuning cache", 0) != 0) continue;  // a malformed record
    tuned.push_back({{"chain", chain},
                     {"size_class", e.size_class},
                     {"backend", backendName(c.backend)},
                     {"reason", c.reason}});
  }
  return tuned;
}

}  // namespace

void addInfoCommand(CLI::App& app, GlobalOptions& global) {
  auto* cmd = app.add_subcommand("info", "Show the chosen EGL platform, GPU limits and devices");
  auto json_flag = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json_flag, "Print one JSON object");
  cmd->callback([&global, json_flag]() {
    json info;
    info["esframe_version"] = ESFRAME_VERSION;
    Result<std::unique_ptr<GlContext>> ctx = createContext(global);
    if (ctx)
      info["gpu"] = gpuInfo(*ctx.value());
    else
      info["gpu_error"] = ctx.error().message;
    BackendChoice choice = chooseAutoBackend(ctx);
    json selftest = nullptr;  // no GPU: nothing to check
    if (ctx) {
      std::string warning;
      const TuningCache cache = TuningCache::load(TuningCache::defaultPath(), &warning);
      const std::optional<SelftestVerdict> verdict =
          findVerdict(cache, DeviceKey::of(*ctx.value()));
      selftest = verdict ? json{{"passed", verdict->passed},
                                {"quick", verdict->quick},
                                {"at", verdict->at},
                                {"first_failure", verdict->first_failure},
                                {"summary", describeVerdict(*verdict)}}
                         : json{{"summary", "not checked by this version (esframe selftest)"}};
      // What auto makes of the verdict, without running a selftest from `info`.
      choice = checkAutoChoice(choice, *ctx.value(), false);
    }
    info["backend"] = {{"auto", backendName(choice.backend)},
                       {"reason", choice.reason},
                       {"selftest", selftest},
                       {"cpu_threads", RowPool::defaultThreads()},
                       {"tuned", ctx ? tunedBackends(*ctx.value()) : json::array()}};
    info["drm_devices"] = drmInfo();
    for (const auto& section : extraInfoSections()) info[section.key] = section.collect(global);
    if (*json_flag)
      std::cout << info.dump(2) << std::endl;
    else
      printText(info);
    if (!ctx) {
      logError(ctx.error().message);
      throw CLI::RuntimeError(kExitFailure);
    }
  });
}

}  // namespace esf::cli
