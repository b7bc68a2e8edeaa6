#include "platform/kms_properties.hpp"

#include <xf86drm.h>

#include <cerrno>
#include <cstring>

#include "platform/drm_objects.hpp"

namespace esf {

Result<KmsPropertyTable> KmsPropertyTable::read(BorrowedFd fd, uint32_t object_id,
                                                uint32_t object_type) {
  DrmObjectProperties props(drmModeObjectGetProperties(fd.get(), object_id, object_type));
  if (!props)
    return fail(errorCodeFromErrno(errno), "cannot read the properties of KMS object ",
                std::to_string(object_id), ": ", std::strerror(errno));
  KmsPropertyTable table;
  for (uint32_t i = 0; i < props->count_props; ++i) {
    DrmProperty p(drmModeGetProperty(fd.get(), props->props[i]));
    if (!p) continue;
    KmsProperty prop;
    prop.id = p->prop_id;
    prop.value = props->prop_values[i];
    prop.immutable = (p->flags & DRM_MODE_PROP_IMMUTABLE) != 0;
    if (drm_property_type_is(p.get(), DRM_MODE_PROP_RANGE) ||
        drm_property_type_is(p.get(), DRM_MODE_PROP_SIGNED_RANGE)) {
      prop.is_range = p->count_values >= 2;
      if (prop.is_range) {
        prop.min = p->values[0];
        prop.max = p->values[1];
      }
    }
    if (drm_property_type_is(p.get(), DRM_MODE_PROP_ENUM) ||
        drm_property_type_is(p.get(), DRM_MODE_PROP_BITMASK)) {
      for (int e = 0; e < p->count_enums; ++e)
        prop.enums.emplace_back(p->enums[e].name, p->enums[e].value);
    }
    table.props_[p->name] = std::move(prop);
  }
  return table;
}

const KmsProperty* KmsPropertyTable::find(std::string_view name) const {
  auto it = props_.find(name);
  return it == props_.end() ? nullptr : &it->second;
}

uint64_t KmsPropertyTable::value(std::string_view name, uint64_t fallback) const {
  const KmsProperty* p = find(name);
  return p ? p->value : fallback;
}

std::optional<uint64_t> KmsPropertyTable::enumValue(std::string_view name,
                                                    std::string_view enum_name) const {
  const KmsProperty* p = find(name);
  if (!p) return std::nullopt;
  for (const auto& [n, v] : p->enums)
    if (n == enum_name) return v;
  return std::nullopt;
}

KmsAtomicRequest::KmsAtomicRequest() : req_(drmModeAtomicAlloc()) {}

Status KmsAtomicRequest::add(uint32_t object_id, const KmsPropertyTable& table,
                             std::string_view name, uint64_t value) {
  const KmsProperty* p = table.find(name);
  if (!p)
    return fail(ErrorCode::kUnsupported, "KMS object ", std::to_string(object_id),
                " has no property '", name, "'");
  if (!req_) return fail(ErrorCode::kInternal, "drmModeAtomicAlloc failed");
  if (drmModeAtomicAddProperty(req_.get(), object_id, p->id, value) < 0)
    return fail(ErrorCode::kInternal, "cannot add property '", name, "' of KMS object ",
                std::to_string(object_id), " to an atomic request");
  return {};
}

Status KmsAtomicRequest::addById(uint32_t object_id, uint32_t property_id, uint64_t value) {
  if (!req_) return fail(ErrorCode::kInternal, "drmModeAtomicAlloc failed");
  if (drmModeAtomicAddProperty(req_.get(), object_id, property_id, value) < 0)
    return fail(ErrorCode::kInternal, "cannot add property ", std::to_string(property_id),
                " of KMS object ", std::to_string(object_id), " to an atomic request");
  return {};
}

Status KmsAtomicRequest::commit(BorrowedFd fd, uint32_t flags, void* user_data,
                                std::string_view what) const {
  if (!req_) return fail(ErrorCode::kInternal, "drmModeAtomicAlloc failed");
  int ret = drmModeAtomicCommit(fd.get(), req_.get(), flags, user_data);
  if (ret == 0) {
    last_errno_ = 0;
    return {};
  }
  last_errno_ = ret < 0 ? -ret : errno;
  // EINVAL/ERANGE: this configuration is not possible; EBUSY: another commit or master.
  const ErrorCode code = last_errno_ == EINVAL || last_errno_ == ERANGE
                             ? ErrorCode::kUnsupported
                             : errorCodeFromErrno(last_errno_);
  return fail(code, what, ": atomic commit refused (", std::strerror(last_errno_), ")");
}

}  // namespace esf
