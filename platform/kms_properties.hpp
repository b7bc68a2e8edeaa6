#pragma once
// KMS property tables (as Weston's backend-drm keeps them): every property of a connector, CRTC
// or plane by name, with its id, current value and limits, read once from the kernel. Atomic
// requests are built by property name from these tables, so a missing property is a clear error
// instead of a silent zero id.
#include <xf86drmMode.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "esframe/base/result.hpp"
#include "esframe/base/unique_fd.hpp"
#include "platform/drm_objects.hpp"

namespace esf {

struct KmsProperty {
  uint32_t id = 0;
  uint64_t value = 0;
  bool immutable = false;
  bool is_range = false;  // range or signed range: min/max are valid
  uint64_t min = 0, max = 0;
  std::vector<std::pair<std::string, uint64_t>> enums;  // enum and bitmask values by name
};

class KmsPropertyTable {
 public:
  // Reads every property of one object (DRM_MODE_OBJECT_CONNECTOR, _CRTC or _PLANE).
  static Result<KmsPropertyTable> read(BorrowedFd fd, uint32_t object_id, uint32_t object_type);

  // Unit tests build tables by hand.
  void set(const std::string& name, KmsProperty property) { props_[name] = std::move(property); }

  const KmsProperty* find(std::string_view name) const;
  bool has(std::string_view name) const { return find(name) != nullptr; }
  uint64_t value(std::string_view name, uint64_t fallback = 0) const;
  std::optional<uint64_t> enumValue(std::string_view name, std::string_view enum_name) const;
  const std::map<std::string, KmsProperty, std::less<>>& all() const { return props_; }

 private:
  std::map<std::string, KmsProperty, std::less<>> props_;
};

// One owner of a drmModeAtomicReq. Properties are added by name through an object's table.
class KmsAtomicRequest {
 public:
  KmsAtomicRequest();
  // Fails naming the object and property when the object has no such property.
  Status add(uint32_t object_id, const KmsPropertyTable& table, std::string_view name,
             uint64_t value);
  // By property id, for values saved earlier (restoring the previous state).
  Status addById(uint32_t object_id, uint32_t property_id, uint64_t value);
  // drmModeAtomicCommit; the error names `what` and the errno text.
  Status commit(BorrowedFd fd, uint32_t flags, void* user_data, std::string_view what) const;
  // The errno of the last failed commit (0 after success).
  int lastErrno() const { return last_errno_; }

 private:
  DrmAtomicRequest req_;
  mutable int last_errno_ = 0;
};

}  // namespace esf
