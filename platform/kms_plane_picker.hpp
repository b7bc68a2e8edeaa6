#pragma once
// Which plane shows the graph, as Weston's backend-drm decides: rank the planes that can serve
// the CRTC (overlays that take ARGB8888 or XRGB8888 first, then the primary), apply zpos and
// alpha where the plane exposes them, then let the kernel judge each candidate with a TEST_ONLY
// commit. Every plane that is passed over gets a recorded reason, logged for the user.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "platform/kms_device.hpp"

namespace esf {

struct PlaneRequest {
  int crtc_index = 0;
  std::optional<uint32_t> plane_id;  // plane=ID: only this plane
  std::optional<uint64_t> zpos;      // zpos=N: the stacking position
  std::optional<uint64_t> alpha;     // alpha=A (0..65535): plane-wide opacity
  bool primary_taken = false;        // the primary plane shows the camera frame
};

struct PlaneCandidate {
  uint32_t plane_id = 0;
  uint64_t type = 0;
  uint32_t format = 0;      // DRM_FORMAT_ARGB8888 or DRM_FORMAT_XRGB8888
  bool set_zpos = false;    // the plane has a mutable zpos: write request.zpos
  bool set_alpha = false;   // the plane has an alpha property: write request.alpha
  uint64_t zpos = 0;        // the stacking position it will have
  uint64_t alpha = 0xffff;  // written when set_alpha
};

struct PlaneRejection {
  uint32_t plane_id = 0;
  std::string reason;
};

struct PlaneRanking {
  std::vector<PlaneCandidate> candidates;  // best first
  std::vector<PlaneRejection> rejected;
};

// Ranks `planes` for the CRTC at `request.crtc_index`. Pure: no ioctls, so unit tests use a
// hand-built plane table. A plane without a zpos property has the implied position the kernel
// uses when it normalizes zpos: its order among the CRTC's planes (plane index order), which is
// also the order vkms composes in.
PlaneRanking rankPlanes(const std::vector<KmsPlane>& planes, const PlaneRequest& request);

// Tries each candidate with `test_only` (the TEST_ONLY commit) and returns the first one the
// kernel accepts. Refusals are appended to `ranking.rejected`. Fails naming every rejection.
using PlaneTest = std::function<Status(const PlaneCandidate&)>;
Result<PlaneCandidate> pickPlane(PlaneRanking& ranking, const PlaneTest& test_only);

// "plane 31: cursor plane; plane 32: no zpos property ...", for logs and errors.
std::string describeRejections(const std::vector<PlaneRejection>& rejected);

}  // namespace esf
