#include "core/pipeline/selftest_verdict.hpp"

#include <sys/utsname.h>

#include <cstdio>

#include "esframe/base/log.hpp"
#include "esframe/version.hpp"

namespace esf {
namespace {

constexpr const char* kVerdictStage = "selftest";
constexpr const char* kVerdictSizeClass = "any";

std::string megapixels(uint64_t pixels) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f Mpx", double(pixels) / 1e6);
  return text;
}

}  // namespace

nlohmann::json selftestJson(const SelftestReport& r) {
  using nlohmann::json;
  json machine = json::object();
  utsname u{};
  if (uname(&u) == 0)
    machine = {{"system", u.sysname}, {"release", u.release}, {"arch", u.machine}};
  json checks = json::array();
  for (const SelftestCheck& c : r.checks)
    checks.push_back({{"name", c.name},
                      {"outcome", outcomeName(c.outcome)},
                      {"detail", c.detail},
                      {"frames", c.frames},
                      {"pixels", c.pixels},
                      {"ms", c.ms}});
  json facts = json::array();
  for (const SelftestFact& f : r.facts)
    facts.push_back({{"name", f.name}, {"value", f.value}, {"ok", f.ok}});
  const std::string failure = r.firstFailure();
  return {{"format", "esframe-selftest-1"},
          {"esframe_version", r.esframe_version},
          {"at", r.at},
          {"machine", machine},
          {"device",
           {{"gl_vendor", r.device.vendor},
            {"gl_renderer", r.device.renderer},
            {"gl_version", r.device.driver},
            {"egl_platform", r.egl_platform}}},
          {"quick", r.quick},
          {"all_strategies", r.all_strategies},
          {"spec_minimum_limits", r.spec_minimum_limits},
          {"passed", r.passed()},
          {"first_failure", failure.empty() ? json(nullptr) : json(failure)},
          {"seconds", r.seconds},
          {"pixels", r.pixels()},
          {"checks", checks},
          {"facts", facts}};
}

CacheEntry verdictEntry(const SelftestReport& r) {
  CacheEntry e;
  e.device = r.device;
  e.size_class = kVerdictSizeClass;
  e.stage = kVerdictStage;
  e.params = {
      {"esframe_version", r.esframe_version}, {"passed", r.passed()},      {"quick", r.quick},
      {"first_failure", r.firstFailure()},    {"checks", r.checks.size()}, {"seconds", r.seconds}};
  e.tuned_at = r.at;
  return e;
}

std::optional<SelftestVerdict> findVerdict(const TuningCache& cache, const DeviceKey& device) {
  const CacheEntry* e = cache.find(device, kVerdictSizeClass, kVerdictStage);
  if (!e) return std::nullopt;
  const nlohmann::json& p = e->params;
  // Nothing in the cache file is trusted: a field of another type is no verdict.
  auto is = [&](const char* name, auto check) { return p.contains(name) && (p[name].*check)(); };
  if (!is("esframe_version", &nlohmann::json::is_string) ||
      p["esframe_version"].get<std::string>() != ESFRAME_VERSION_STRING ||
      !is("passed", &nlohmann::json::is_boolean))
    return std::nullopt;
  SelftestVerdict v;
  v.passed = p["passed"].get<bool>();
  v.at = e->tuned_at;
  if (is("quick", &nlohmann::json::is_boolean)) v.quick = p["quick"].get<bool>();
  if (is("first_failure", &nlohmann::json::is_string))
    v.first_failure = p["first_failure"].get<std::string>();
  if (is("checks", &nlohmann::json::is_number_unsigned)) v.checks = p["checks"].get<int>();
  if (is("seconds", &nlohmann::json::is_number)) v.seconds = p["seconds"].get<double>();
  return v;
}

std::string describeVerdict(const SelftestVerdict& v) {
  const std::string how =
      std::string(v.quick ? "quick, " : "") + std::to_string(v.checks) + " checks, " + v.at;
  if (v.passed) return "passed (" + how + ")";
  return "FAILED: " + v.first_failure + " (" + how + ")";
}

BackendChoice checkAutoChoice(const BackendChoice& choice, GlContext& gl, bool run_selftest,
                              const std::string& cache_path) {
  if (choice.backend != Backend::kGles) return choice;
  const std::string path = cache_path.empty() ? TuningCache::defaultPath() : cache_path;
  std::string warning;
  TuningCache cache = TuningCache::load(path, &warning);
  const DeviceKey device = DeviceKey::of(gl);
  std::optional<SelftestVerdict> verdict = findVerdict(cache, device);
  if (!verdict && !run_selftest)
    return {choice.backend, choice.reason + "; not checked by esframe selftest (turned off)"};
  if (!verdict) {
    SelftestOptions quick;
    quick.quick = true;
    logInfo("selftest: esframe " ESFRAME_VERSION_STRING " has not checked " + device.renderer +
            " (" + device.driver + "): the quick selftest first, once per driver");
    const SelftestReport report = runSelftest(gl, quick);
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f s", report.seconds);
    cache.put(verdictEntry(report));
    std::string stored = "stored in " + path;
    if (Status s = cache.save(); !s) stored = "not stored: " + s.error().message;
    const std::string cost = std::to_string(report.checks.size()) + " checks, " +
                             megapixels(report.pixels()) + " on the GPU, " + seconds;
    if (report.passed())
      logInfo("selftest: passed (" + cost + "); " + stored);
    else
      logWarning("selftest: FAILED on " + device.renderer + ": " + report.firstFailure() + " (" +
                 cost + "); " + stored);
    // The report is the verdict: the same whether or not the cache could keep it.
    verdict =
        SelftestVerdict{report.passed(),           true,          report.at, report.firstFailure(),
                        int(report.checks.size()), report.seconds};
  }
  if (!verdict->passed)
    return {Backend::kCpu, "the GL renderer " + device.renderer +
                               " failed esframe selftest: " + verdict->first_failure + " (at " +
                               verdict->at + "; esframe selftest checks it again)"};
  return {choice.backend, choice.reason + "; esframe selftest passed (" + verdict->at + ")"};
}

}  // namespace esf
