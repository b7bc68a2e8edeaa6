// Plane choice on hand-built plane tables (no DRM device): the vkms layout of field-facts
// section 3, and variants with zpos/alpha properties, busy planes and YUV-only overlays.
#include <drm_fourcc.h>
#include <gtest/gtest.h>

#include "platform/kms_display.hpp"
#include "platform/kms_plane_picker.hpp"

namespace esf {
namespace {

KmsProperty property(uint32_t id, uint64_t value, bool immutable = false) {
  KmsProperty p;
  p.id = id;
  p.value = value;
  p.immutable = immutable;
  return p;
}

KmsPlane plane(uint32_t id, uint64_t type, std::vector<uint32_t> formats, uint32_t crtcs = 1) {
  KmsPlane p;
  p.id = id;
  p.type = type;
  p.possible_crtcs = crtcs;
  p.formats = std::move(formats);
  p.props.set("type", property(1, type, true));
  p.props.set("FB_ID", property(2, 0));
  return p;
}

KmsProperty zposProperty(uint64_t value, uint64_t min, uint64_t max, bool immutable = false) {
  KmsProperty z;
  z.id = 10;
  z.value = value;
  z.immutable = immutable;
  z.is_range = true;
  z.min = min;
  z.max = max;
  return z;
}

// vkms with enable_overlay=1 enable_cursor=1: primary XR24 XR48 RG16 (id 31), 8 overlays and a
// cursor with AR24 XR24 XR48 AR48 RG16 (ids 32..40), no zpos or alpha properties.
std::vector<KmsPlane> vkmsPlanes() {
  const std::vector<uint32_t> any = {DRM_FORMAT_ARGB8888, DRM_FORMAT_XRGB8888,
                                     DRM_FORMAT_XRGB16161616, DRM_FORMAT_ARGB16161616,
                                     DRM_FORMAT_RGB565};
  std::vector<KmsPlane> planes;
  planes.push_back(plane(31, DRM_PLANE_TYPE_PRIMARY,
                         {DRM_FORMAT_XRGB8888, DRM_FORMAT_XRGB16161616, DRM_FORMAT_RGB565}));
  for (uint32_t i = 0; i < 8; ++i) planes.push_back(plane(32 + i, DRM_PLANE_TYPE_OVERLAY, any));
  planes.push_back(plane(40, DRM_PLANE_TYPE_CURSOR, any));
  return planes;
}

bool rejectedWith(const PlaneRanking& r, uint32_t id, const std::string& text) {
  for (const PlaneRejection& x : r.rejected)
    if (x.plane_id == id && x.reason.find(text) != std::string::npos) return true;
  return false;
}

// vkms's planes ranked for `req`, which leaves one candidate: `plane_id`.
PlaneRanking rankVkmsToOne(const PlaneRequest& req, uint32_t plane_id) {
  PlaneRanking r = rankPlanes(vkmsPlanes(), req);
  EXPECT_EQ(r.candidates.size(), 1u);
  if (!r.candidates.empty()) {
    EXPECT_EQ(r.candidates[0].plane_id, plane_id);
  }
  return r;
}

TEST(KmsPlanePicker, VkmsPrefersAnOverlayWithArgbThenThePrimary) {
  PlaneRanking r = rankPlanes(vkmsPlanes(), PlaneRequest{});
  ASSERT_EQ(r.candidates.size(), 9u);  // 8 overlays, then the primary; no cursor
  EXPECT_EQ(r.candidates.front().plane_id, 32u);
  EXPECT_EQ(r.candidates.front().format, uint32_t(DRM_FORMAT_ARGB8888));
  EXPECT_EQ(r.candidates.back().plane_id, 31u);
  EXPECT_EQ(r.candidates.back().format, uint32_t(DRM_FORMAT_XRGB8888));
  EXPECT_FALSE(r.candidates.front().set_zpos);
  EXPECT_FALSE(r.candidates.front().set_alpha);
  EXPECT_TRUE(rejectedWith(r, 40, "cursor plane"));
}

TEST(KmsPlanePicker, WithoutZposPropertyTheImpliedPositionMustMatch) {
  // Positions: primary 0, overlays 1..8, cursor 9 (plane order, as vkms composes).
  PlaneRequest req;
  req.zpos = 3;
  PlaneRanking r = rankVkmsToOne(req, 34);
  ASSERT_EQ(r.candidates.size(), 1u);
  EXPECT_EQ(r.candidates[0].zpos, 3u);
  EXPECT_FALSE(r.candidates[0].set_zpos);
  EXPECT_TRUE(rejectedWith(r, 32, "no zpos property: its fixed position is 1, requested zpos=3"));
  EXPECT_TRUE(rejectedWith(r, 31, "fixed position is 0"));
}

TEST(KmsPlanePicker, MutableZposIsWrittenWhenInRange) {
  std::vector<KmsPlane> planes = vkmsPlanes();
  for (KmsPlane& p : planes)
    p.props.set("zpos", p.type == DRM_PLANE_TYPE_PRIMARY ? zposProperty(0, 0, 0, true)
                                                         : zposProperty(1, 1, 9));
  PlaneRequest req;
  req.zpos = 5;
  PlaneRanking r = rankPlanes(planes, req);
  ASSERT_EQ(r.candidates.size(), 8u);
  EXPECT_TRUE(r.candidates[0].set_zpos);
  EXPECT_EQ(r.candidates[0].zpos, 5u);
  EXPECT_TRUE(rejectedWith(r, 31, "immutable zpos 0, requested zpos=5"));

  req.zpos = 12;
  r = rankPlanes(planes, req);
  EXPECT_TRUE(r.candidates.empty());
  EXPECT_TRUE(rejectedWith(r, 33, "zpos range 1..9 excludes zpos=12"));
  Result<PlaneCandidate> none = pickPlane(r, [](const PlaneCandidate&) { return Status{}; });
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("plane 33: zpos range 1..9 excludes zpos=12"),
            std::string::npos);
}

TEST(KmsPlanePicker, BusyAndYuvOnlyOverlaysFallBackToThePrimary) {
  std::vector<KmsPlane> planes = vkmsPlanes();
  planes.resize(3);  // primary, overlay 32, overlay 33
  planes[1].props.set("FB_ID", property(2, 77));
  planes[2].formats = {DRM_FORMAT_NV12, DRM_FORMAT_YUYV};
  PlaneRanking r = rankPlanes(planes, PlaneRequest{});
  ASSERT_EQ(r.candidates.size(), 1u);
  EXPECT_EQ(r.candidates[0].plane_id, 31u);
  EXPECT_TRUE(rejectedWith(r, 32, "in use by another client (FB 77)"));
  EXPECT_TRUE(rejectedWith(r, 33, "takes neither ARGB8888 nor XRGB8888 (formats: NV12 YUYV)"));
}

// With the frame on the primary plane the graph needs an overlay: the same table as above then
// has no candidate, and the primary's reason says why.
TEST(KmsPlanePicker, PrimaryTakenByTheFrameLeavesOnlyOverlays) {
  PlaneRequest frame;
  frame.primary_taken = true;
  PlaneRanking r = rankPlanes(vkmsPlanes(), frame);
  ASSERT_FALSE(r.candidates.empty());
  for (const PlaneCandidate& c : r.candidates) EXPECT_EQ(c.type, DRM_PLANE_TYPE_OVERLAY);
  EXPECT_TRUE(rejectedWith(r, 31, "primary plane: it shows the frame"));
  std::vector<KmsPlane> planes = vkmsPlanes();
  planes.resize(3);
  planes[1].props.set("FB_ID", property(2, 77));
  planes[2].formats = {DRM_FORMAT_NV12};
  r = rankPlanes(planes, frame);
  EXPECT_TRUE(r.candidates.empty());
  Result<PlaneCandidate> picked = pickPlane(r, [](const PlaneCandidate&) { return Status{}; });
  ASSERT_FALSE(picked.ok());
  EXPECT_NE(picked.error().message.find("plane 31: primary plane: it shows the frame"),
            std::string::npos)
      << picked.error().message;
}

TEST(KmsPlanePicker, PlanesOfOtherCrtcsAreSkipped) {
  std::vector<KmsPlane> planes = vkmsPlanes();
  planes[1].possible_crtcs = 2;  // CRTC index 1 only
  PlaneRanking r = rankPlanes(planes, PlaneRequest{});
  EXPECT_EQ(r.candidates.front().plane_id, 33u);
  EXPECT_TRUE(rejectedWith(r, 32, "cannot be used with CRTC 0"));
}

TEST(KmsPlanePicker, ExplicitPlaneIdTakesEvenTheCursorAndReportsOnlyThatPlane) {
  PlaneRequest req;
  req.plane_id = 40;
  PlaneRanking r = rankVkmsToOne(req, 40);
  EXPECT_TRUE(r.rejected.empty());

  req.plane_id = 99;
  r = rankPlanes(vkmsPlanes(), req);
  EXPECT_TRUE(r.candidates.empty());
  ASSERT_EQ(r.rejected.size(), 1u);
  EXPECT_TRUE(rejectedWith(r, 99, "no such plane"));
}

TEST(KmsPlanePicker, AlphaIsWrittenWhereExposedAndRequiredWhenRequested) {
  std::vector<KmsPlane> planes = vkmsPlanes();
  KmsProperty alpha;
  alpha.id = 11;
  alpha.value = 0x1234;  // left behind by an earlier client
  alpha.is_range = true;
  alpha.max = 0xffff;
  planes[2].props.set("alpha", alpha);
  PlaneRanking r = rankPlanes(planes, PlaneRequest{});
  EXPECT_FALSE(r.candidates[0].set_alpha);  // plane 32 has none
  EXPECT_TRUE(r.candidates[1].set_alpha);   // plane 33: made opaque
  EXPECT_EQ(r.candidates[1].alpha, 0xffffu);

  PlaneRequest req;
  req.alpha = 0x8000;
  r = rankPlanes(planes, req);
  ASSERT_EQ(r.candidates.size(), 1u);
  EXPECT_EQ(r.candidates[0].plane_id, 33u);
  EXPECT_EQ(r.candidates[0].alpha, 0x8000u);
  EXPECT_TRUE(rejectedWith(r, 32, "no alpha property"));
}

TEST(KmsPlanePicker, TestOnlyRefusalsAreRecordedAndTheNextCandidateWins) {
  PlaneRanking r = rankPlanes(vkmsPlanes(), PlaneRequest{});
  std::vector<uint32_t> tried;
  Result<PlaneCandidate> c = pickPlane(r, [&](const PlaneCandidate& p) -> Status {
    tried.push_back(p.plane_id);
    if (p.plane_id < 34) return fail(ErrorCode::kInvalidArgument, "Invalid argument");
    return {};
  });
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->plane_id, 34u);
  EXPECT_EQ(tried, (std::vector<uint32_t>{32, 33, 34}));
  EXPECT_TRUE(rejectedWith(r, 32, "TEST_ONLY commit refused: Invalid argument"));
  EXPECT_TRUE(rejectedWith(r, 33, "TEST_ONLY commit refused"));

  PlaneRanking all = rankPlanes(vkmsPlanes(), PlaneRequest{});
  Result<PlaneCandidate> none = pickPlane(
      all, [](const PlaneCandidate&) { return fail(ErrorCode::kInvalidArgument, "EINVAL"); });
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.error().message.find("plane 31: TEST_ONLY commit refused: EINVAL"),
            std::string::npos);
  EXPECT_NE(none.error().message.find("plane 40: cursor plane"), std::string::npos);
}

}  // namespace
}  // namespace esf

namespace esf {
namespace {

// The graph's default place over the frame: a quarter of the mode's width rounded down to a
// multiple of 16, half as tall, 16 pixels from the top right; small modes clamp.
TEST(KmsCornerRect, HandWorkedModes) {
  auto same = [](const KmsRect& a, const KmsRect& b) {
    return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
  };
  EXPECT_TRUE(same(cornerRect(1024, 768), KmsRect{752, 16, 256, 128}));    // 1024 - 256 - 16
  EXPECT_TRUE(same(cornerRect(1920, 1080), KmsRect{1424, 16, 480, 240}));  // 1920 / 4 = 480
  EXPECT_TRUE(same(cornerRect(800, 600), KmsRect{592, 16, 192, 96}));      // 200 -> 192 (x 16)
  EXPECT_TRUE(same(cornerRect(64, 48), KmsRect{32, 16, 16, 8}));
  EXPECT_TRUE(same(cornerRect(16, 8), KmsRect{0, 0, 16, 8}));  // no room for margins
  EXPECT_TRUE(same(cornerRect(8, 4), KmsRect{0, 0, 8, 4}));    // smaller than 16: the mode
}

}  // namespace
}  // namespace esf
