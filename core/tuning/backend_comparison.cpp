#include "core/tuning/backend_comparison.hpp"

#include <algorithm>

namespace esf {

std::string stageChain(bool blur, bool resize, bool scopes) {
  std::string chain;
  if (blur) chain += "blur+";
  if (resize) chain += "resize+";
  chain += "histogram";
  if (scopes) chain += "+scopes";
  return chain;
}

std::string backendCacheStage(const std::string& chain) {
  return "backend:" + chain;
}

std::optional<BackendRecord> findBackendRecord(const TuningCache& cache, const DeviceKey& device,
                                               const std::string& chain, int width, int height) {
  const CacheEntry* e = cache.find(device, sizeClass(width, height), backendCacheStage(chain));
  if (!e) return std::nullopt;
  // Nothing in the file is trusted: a record that does not name a backend is no record.
  auto backend = e->params.find("backend");
  if (backend == e->params.end() || !backend->is_string()) return std::nullopt;
  BackendRecord r;
  r.backend = backend->get<std::string>();
  if (r.backend != "gles" && r.backend != "cpu") return std::nullopt;
  for (auto [name, out] : {std::pair{"gles_ms", &r.gles_ms}, {"cpu_ms", &r.cpu_ms}})
    if (auto it = e->params.find(name); it != e->params.end() && it->is_number())
      *out = it->get<double>();
  r.frame = e->frame;
  r.tuned_at = e->tuned_at;
  return r;
}

bool hasBackendRecords(const TuningCache& cache, const DeviceKey& device,
                       const std::string& chain) {
  for (const CacheEntry& e : cache.entries())
    if (e.device == device && e.stage == backendCacheStage(chain)) return true;
  return false;
}

Result<BackendRecord> compareBackends(const MeasureOptions& options,
                                      const std::function<Status()>& gles,
                                      const std::function<Status()>& cpu) {
  Result<TimingStats> g = measureWall(options, gles);
  if (!g) return g.error();
  Result<TimingStats> c = measureWall(options, cpu);
  if (!c) return c.error();
  BackendRecord r;
  r.gles_ms = g->median_ms;
  r.cpu_ms = c->median_ms;
  r.backend = r.cpu_ms < r.gles_ms ? "cpu" : "gles";
  return r;
}

CacheEntry backendEntry(const DeviceKey& device, const std::string& chain, int width, int height,
                        const BackendRecord& record) {
  CacheEntry e;
  e.device = device;
  e.size_class = sizeClass(width, height);
  e.stage = backendCacheStage(chain);
  e.params = {{"backend", record.backend}, {"gles_ms", record.gles_ms}, {"cpu_ms", record.cpu_ms}};
  e.median_ms = std::min(record.gles_ms, record.cpu_ms);
  e.frame = std::to_string(width) + "x" + std::to_string(height);
  e.tuned_at = utcTimestamp();
  return e;
}

}  // namespace esf
