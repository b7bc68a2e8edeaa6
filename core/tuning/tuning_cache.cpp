#include "core/tuning/tuning_cache.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>

#include "base/atomic_file.hpp"
#include "base/cache_dir.hpp"
#include "esframe/base/unique_fd.hpp"

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

Status TuningCache::save() {
  size_t slash = path_.rfind('/');
  if (slash != std::string::npos && slash > 0) {
    if (Status s = makeDirectories(path_.substr(0, slash)); !s) return s;
  }
  // Another `esframe tune` may have saved since this cache was loaded: under the lock, read the
  // file again and put this run's entries into it, so neither run's records are lost.
  const std::string lock_path = path_ + ".lock";
  UniqueFd lock(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!lock.valid())
    return fail(errorCodeFromErrno(errno), "cannot open the tuning cache's lock ", lock_path, ": ",
                std::strerror(errno));
  int locked;
  do locked = ::flock(lock.get(), LOCK_EX);
  while (locked != 0 && errno == EINTR);
  if (locked != 0)
    return fail(errorCodeFromErrno(errno), "cannot lock the tuning cache's lock ", lock_path, ": ",
                std::strerror(errno));
  // A corrupt file was warned about at load and is rewritten: no second warning.
  TuningCache merged = load(path_, nullptr);
  for (const CacheEntry& e : put_) merged.put(e);
  Result<AtomicFile> file = AtomicFile::create(path_, ExistingFile::kReplace);
  if (!file) return file.error();
  const std::string text = merged.toJson().dump(2) + "\n";
  if (Status s = file->write(text.data(), text.size()); !s) return s;
  if (Status s = file->commit(); !s) return s;
  entries_ = std::move(merged.entries_);
  put_.clear();
  return {};  // the lock goes with its descriptor
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
  putInto(put_, entry);
  putInto(entries_, std::move(entry));
}

void TuningCache::putInto(std::vector<CacheEntry>& entries, CacheEntry entry) {
  for (CacheEntry& e : entries) {
    if (e.device == entry.device && e.size_class == entry.size_class && e.stage == entry.stage) {
      e = std::move(entry);
      return;
    }
  }
  entries.push_back(std::move(entry));
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
