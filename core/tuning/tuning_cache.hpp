#pragma once
// The per-device tuning cache written by `esframe tune` and read by strategy=auto.
//
// One JSON file, $XDG_CACHE_HOME/esframe/tuning.json (default ~/.cache/esframe/tuning.json):
//   { "format": "esframe-tuning-1",
//     "entries": [ { "gl_vendor", "gl_renderer", "gl_version", "size_class", "stage",
//                    "params": {tuned fields}, "median_ms", "frame", "tuned_at" }, ... ] }
// An entry applies to the GPU and driver that measured it (GL_VENDOR, GL_RENDERER and
// GL_VERSION, which carries the driver version) and to frames of its size class. A file that
// is not valid JSON, or not this format, is ignored with a warning; a malformed entry is
// dropped with a warning. Nothing in it is trusted: params are validated before use.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct DeviceKey {
  std::string vendor;    // GL_VENDOR
  std::string renderer;  // GL_RENDERER
  std::string driver;    // GL_VERSION (the driver version is in it)
  static DeviceKey of(const GlContext& gl);
  bool operator==(const DeviceKey&) const = default;
};

// Frames are tuned per size class: the smallest of 640x480, 1280x720, 1920x1080, 3840x2160
// whose pixel count is at least the frame's, else "larger".
std::string sizeClass(int width, int height);

struct CacheEntry {
  DeviceKey device;
  std::string size_class;
  std::string stage;      // "histogram", "blur"
  nlohmann::json params;  // tuned fields (tuned_params.hpp)
  double median_ms = 0;   // the winner's median time when tuned
  std::string frame;      // the frame size tuned with, "1920x1080"
  std::string tuned_at;   // UTC, ISO 8601
};

class TuningCache {
 public:
  // $XDG_CACHE_HOME/esframe/tuning.json, or $HOME/.cache/esframe/tuning.json.
  static std::string defaultPath();
  // A missing file is an empty cache. A corrupt file is an empty cache and sets *warning
  // (one line naming the file and what is wrong); malformed entries are dropped likewise.
  static TuningCache load(const std::string& path, std::string* warning);
  // Writes the entries put since loading into the file, creating the directory: under an
  // exclusive flock of "<path>.lock" it reads the file again, puts them into what it holds, and
  // replaces it whole (base/atomic_file.hpp), so concurrent `esframe tune` runs keep each
  // other's records. entries() is then what the file holds.
  Status save();
  // Removes the cache file; a missing one is not an error.
  static Status reset(const std::string& path);

  const CacheEntry* find(const DeviceKey& device, const std::string& size_class,
                         const std::string& stage) const;
  // Adds an entry, replacing the one with the same device, size class and stage.
  void put(CacheEntry entry);
  const std::vector<CacheEntry>& entries() const { return entries_; }
  const std::string& path() const { return path_; }
  nlohmann::json toJson() const;

 private:
  static void putInto(std::vector<CacheEntry>& entries, CacheEntry entry);

  std::string path_;
  std::vector<CacheEntry> entries_;
  std::vector<CacheEntry> put_;  // since load(): what save() writes into the file
};

// The current UTC time as "2026-11-22T01:30:00Z".
std::string utcTimestamp();

}  // namespace esf
