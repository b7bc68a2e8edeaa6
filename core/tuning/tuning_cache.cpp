#include "core/tuning/tuning_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "base/cache_dir.hpp"

namespace esf {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "esframe-tuning-1";

struct SizeClass {
  const char* name;
  long long pixels;
};
constexpr SizeClass kSizeClasses[] = {{"640x480", 640LL * 480},
                                      {"1280x720", 1280LL * 720},
                                      {"1920x1080", 1920LL * 1080},
                                      {"3840x2160", 3840LL * 2160}};

Result<CacheEntry> entryFromJson(const json& j) {
  if (!j.is_object()) return fail(ErrorCode::kCorruptData, "entry is not an object");
  CacheEntry e;
  auto str = [&](const char* name, std::string* out) -> Status {
    auto it = j.find(name);
    if (it == j.end() || !it->is_string())
      return fail(ErrorCode::kCorruptData, "entry field '", name, "' missing");
    *out = it->get<std::string>();
    return {};
  };
  for (Status s : {str("gl_vendor", &e.device.vendor), str("gl_renderer", &e.device.renderer),
                   str("gl_version", &e.device.driver), str("size_class", &e.size_class),
                   str("stage", &e.stage)}) {
    if (!s) return s.error();
  }
  auto params = j.find("params");
  if (params == j.end() || !params->is_object())
    return fail(ErrorCode::kCorruptData, "entry field 'params' missing");
  e.params = *params;
  if (auto it = j.find("median_ms"); it != j.end() && it->is_number())
    e.median_ms = it->get<double>();
  if (auto it = j.find("frame"); it != j.end() && it->is_string()) e.frame = it->get<std::string>();
  if (auto it = j.find("tuned_at"); it != j.end() && it->is_string())
    e.tuned_at = it->get<std::string>();
  return e;
}

json entryToJson(const CacheEntry& e) {
  return {{"gl_vendor", e.device.vendor},
          {"gl_renderer", e.device.renderer},
          {"gl_version", e.device.driver},
          {"size_class", e.size_class},
          {"stage", e.stage},
          {"params", e.params},
          {"median_ms", e.median_ms},
          {"frame", e.frame},
          {"tuned_at", e.tuned_at}};
}

}  // namespace

DeviceKey DeviceKey::of(const GlContext& gl) {
  return {gl.glVendor(), gl.renderer(), gl.version()};
}

std::string sizeClass(int width, int height) {
  long long pixels = (long long)width * height;
  for (const SizeClass& c : kSizeClasses)
    if (pixels <= c.pixels) return c.name;
  return "larger";
}

std::string TuningCache::defaultPath() {
  return esframeCacheDir() + "/tuning.json";
}

TuningCache TuningCache::load(const std::string& path, std::string* warning) {
  TuningCache cache;
  cache.path_ = path;
  std::ifstream in(path);
  if (!in) return cache;  // no cache yet
  std::stringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  auto corrupt = [&](const std::string& why) {
    if (warning) *warning = "ignoring corrupt tuning cache " + path + ": " + why;
    cache.entries_.clear();
    return cache;
  };
  if (doc.is_discarded()) return corrupt("not valid JSON");
  // json::value() throws when the field has another type: check the type first (fuzzing found
  // {"format":5} ending the process).
  if (!doc.is_object() || !doc.contains("format") || !doc["format"].is_string() ||
      doc["format"].get<std::string>() != kFormat)
    return corrupt(std::string("not format ") + kFormat);
  auto entries = doc.find("entries");
  if (entries == doc.end() || !entries->is_array()) return corrupt("no 'entries' array");
  int dropped = 0;
  std::string first_problem;
  for (const json& j : *entries) {
    Result<CacheEntry> e = entryFromJson(j);
    if (e) {
      cache.entries_.push_back(std::move(e.value()));
    } else {
      if (dropped++ == 0) first_problem = e.error().message;
    }
  }
  if (dropped && warning)
    *warning = "tuning cache " + path + ": dropped " + std::to_string(dropped) + " malformed entr" +
               (dropped == 1 ? "y" : "ies") + " (" + first_problem + ")";
  return cache;
}

json TuningCache::toJson() const {
  json list = json::array();
  for (const CacheEntry& e : entries_) list.push_back(entryToJson(e));
  return {{"format", kFormat}, {"entries", list}};
}

Status TuningCache::save() const {
  size_t slash = path_.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    if (Status s = makeDirectories(path_.substr(0, slash)); !s) return s;
  }
  std::string tmp = path_ + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out)
      return fail(errorCodeFromErrno(errno), "cannot write tuning cache ", tmp, ": ",
                  std::strerror(errno));
    out << toJson().dump(2) << "\n";
    out.flush();
    if (!out) {
      std::remove(tmp.c_str());
      return fail(ErrorCode::kIo, "cannot write tuning cache ", tmp, ": write failed");
    }
  }
  if (std::rename(tmp.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    std::string why = std::strerror(err);
    std::remove(tmp.c_str());
    return fail(errorCodeFromErrno(err), "cannot replace tuning cache ", path_, ": ", why);
  }
  return {};
}

Status TuningCache::reset(const std::string& path) {
  if (std::remove(path.c_str()) != 0 && errno != ENOENT)
    return fail(errorCodeFromErrno(errno), "cannot remove tuning cache ", path, ": ",
                std::strerror(errno));
  return {};
}

const CacheEntry* TuningCache::find(const DeviceKey& device, const std::string& size_class,
                                    const std::string& stage) const {
  for (const CacheEntry& e : entries_)
    if (e.device == device && e.size_class == size_class && e.stage == stage) return &e;
  return nullptr;
}

void TuningCache::put(CacheEntry entry) {
  for (CacheEntry& e : entries_) {
    if (e.device == entry.device && e.size_class == entry.size_class && e.stage == entry.stage) {
      e = std::move(entry);
      return;
    }
  }
  entries_.push_back(std::move(entry));
}

std::string utcTimestamp() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace esf
