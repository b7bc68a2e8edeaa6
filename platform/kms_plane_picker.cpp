#include "platform/kms_plane_picker.hpp"

#include <drm_fourcc.h>

#include <algorithm>

namespace esf {
namespace {

bool takes(const KmsPlane& p, uint32_t format) {
  return std::find(p.formats.begin(), p.formats.end(), format) != p.formats.end();
}

std::string formatList(const KmsPlane& p) {
  std::string s;
  for (uint32_t f : p.formats) s += (s.empty() ? "" : " ") + drmFormatName(f);
  return s.empty() ? "none" : s;
}

// Why `p` cannot show the graph, or "" when it can; fills `c` when it can.
std::string judge(const KmsPlane& p, uint64_t implied_zpos, const PlaneRequest& r,
                  PlaneCandidate& c) {
  const std::string crtc = std::to_string(r.crtc_index);
  if (!(p.possible_crtcs & (1u << r.crtc_index))) return "cannot be used with CRTC " + crtc;
  if (r.plane_id && *r.plane_id != p.id)
    return "not the requested plane=" + std::to_string(*r.plane_id);
  if (p.type == DRM_PLANE_TYPE_CURSOR && !r.plane_id) return "cursor plane (only by plane=ID)";
  if (p.type == DRM_PLANE_TYPE_PRIMARY && r.primary_taken)
    return "primary plane: it shows the frame (frame=off puts the graph there)";
  // A primary plane showing someone's picture is taken over and given back on exit; an overlay
  // showing one belongs to that client's scene.
  if (p.type != DRM_PLANE_TYPE_PRIMARY && p.props.value("FB_ID") != 0)
    return "in use by another client (FB " + std::to_string(p.props.value("FB_ID")) + ")";

  const bool bottom = p.type == DRM_PLANE_TYPE_PRIMARY;
  const uint32_t first = bottom ? DRM_FORMAT_XRGB8888 : DRM_FORMAT_ARGB8888;
  const uint32_t second = bottom ? DRM_FORMAT_ARGB8888 : DRM_FORMAT_XRGB8888;
  if (takes(p, first))
    c.format = first;
  else if (takes(p, second))
    c.format = second;
  else
    return "takes neither ARGB8888 nor XRGB8888 (formats: " + formatList(p) + ")";

  const KmsProperty* zpos = p.props.find("zpos");
  c.zpos = zpos ? zpos->value : implied_zpos;
  if (r.zpos) {
    const std::string want = std::to_string(*r.zpos);
    if (!zpos) {
      if (implied_zpos != *r.zpos)
        return "no zpos property: its fixed position is " + std::to_string(implied_zpos) +
               ", requested zpos=" + want;
    } else if (zpos->immutable) {
      if (zpos->value != *r.zpos)
        return "immutable zpos " + std::to_string(zpos->value) + ", requested zpos=" + want;
    } else if (zpos->is_range && (*r.zpos < zpos->min || *r.zpos > zpos->max)) {
      return "zpos range " + std::to_string(zpos->min) + ".." + std::to_string(zpos->max) +
             " excludes zpos=" + want;
    } else {
      c.set_zpos = true;
    }
    c.zpos = *r.zpos;
  }

  const KmsProperty* alpha = p.props.find("alpha");
  if (r.alpha && !alpha) return "no alpha property (alpha= requested)";
  if (alpha && !alpha->immutable) {
    // Written even when not requested, so a previous client's transparency does not linger.
    c.set_alpha = true;
    c.alpha = r.alpha.value_or(0xffff);
  }

  c.plane_id = p.id;
  c.type = p.type;
  return "";
}

}  // namespace

PlaneRanking rankPlanes(const std::vector<KmsPlane>& planes, const PlaneRequest& request) {
  PlaneRanking out;
  std::vector<PlaneCandidate> overlays, primaries, cursors;
  uint64_t implied = 0;  // position among the planes that can serve this CRTC
  for (const KmsPlane& p : planes) {
    bool serves_crtc = (p.possible_crtcs & (1u << request.crtc_index)) != 0;
    PlaneCandidate c;
    std::string why = judge(p, implied, request, c);
    if (serves_crtc) ++implied;
    if (!why.empty()) {
      // With plane=ID the other planes were never in question: only that plane's reason counts.
      if (!request.plane_id || *request.plane_id == p.id)
        out.rejected.push_back({p.id, std::move(why)});
      continue;
    }
    (p.type == DRM_PLANE_TYPE_OVERLAY   ? overlays
     : p.type == DRM_PLANE_TYPE_PRIMARY ? primaries
                                        : cursors)
        .push_back(c);
  }
  if (request.plane_id && std::none_of(planes.begin(), planes.end(), [&](const KmsPlane& p) {
        return p.id == *request.plane_id;
      }))
    out.rejected.push_back({*request.plane_id, "no such plane on this device"});
  for (auto* list : {&overlays, &primaries, &cursors})
    out.candidates.insert(out.candidates.end(), list->begin(), list->end());
  return out;
}

Result<PlaneCandidate> pickPlane(PlaneRanking& ranking, const PlaneTest& test_only) {
  for (const PlaneCandidate& c : ranking.candidates) {
    Status s = test_only(c);
    if (s) return c;
    ranking.rejected.push_back({c.plane_id, "TEST_ONLY commit refused: " + s.error().message});
  }
  return fail(ErrorCode::kUnsupported,
              "no plane can show the graph: ", describeRejections(ranking.rejected));
}

std::string describeRejections(const std::vector<PlaneRejection>& rejected) {
  std::string s;
  for (const PlaneRejection& r : rejected)
    s += (s.empty() ? "" : "; ") + ("plane " + std::to_string(r.plane_id) + ": " + r.reason);
  return s.empty() ? "no planes" : s;
}

}  // namespace esf
