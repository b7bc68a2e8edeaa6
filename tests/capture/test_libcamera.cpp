// The libcamera source's pieces that need no camera: the spec grammar, the "not built" message,
// the DRM fourcc column of the pixel-format table, and --ctrl values by libcamera control type.
// The source itself runs against vimc in tests/vm/cases/libcamera_vimc.sh.
#include <gtest/gtest.h>

#include <cctype>

#include "apps/esframe/run_options.hpp"
#include "base/pixel_format.hpp"
#include "capture/libcamera_source.hpp"

#ifdef ESFRAME_TEST_LIBCAMERA
#include <libcamera/control_ids.h>
#include <libcamera/pixel_format.h>

#include "capture/libcamera_controls.hpp"
#endif

namespace esf {
namespace {

TEST(LibcameraSpec, NamesTheFirstCameraOrOneById) {
  EXPECT_TRUE(isLibcameraSpec("libcamera"));
  EXPECT_TRUE(isLibcameraSpec("libcamera:platform/vimc.0 Sensor B"));
  for (const char* other : {"libcameras", "libcamera0", "/dev/video0", "pattern", "", "-"})
    EXPECT_FALSE(isLibcameraSpec(other)) << other;
  EXPECT_EQ(libcameraCameraId("libcamera").value(), "");
  EXPECT_EQ(libcameraCameraId("libcamera:platform/vimc.0 Sensor B").value(),
            "platform/vimc.0 Sensor B");
  EXPECT_EQ(libcameraCameraId("libcamera:a:b").value(), "a:b");
  const auto empty = libcameraCameraId("libcamera:");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().code, ErrorCode::kInvalidArgument);
  EXPECT_NE(empty.error().message.find("camera id"), std::string::npos);
  EXPECT_FALSE(libcameraCameraId("/dev/video0").ok());
}

TEST(LibcameraSpec, TheCommandLineRefusesWhatTheSpecAloneRulesOut) {
  EXPECT_TRUE(cli::checkSourceSpec("pattern").ok());
  EXPECT_TRUE(cli::checkSourceSpec("/dev/video0").ok());
  const auto no_id = cli::checkSourceSpec("libcamera:");
  ASSERT_FALSE(no_id.ok());
  if (libcameraSupportBuilt()) {
    EXPECT_TRUE(cli::checkSourceSpec("libcamera").ok());
    EXPECT_NE(no_id.error().message.find("--source: libcamera: expected a camera id"),
              std::string::npos)
        << no_id.error().message;
  } else {
    for (const char* spec : {"libcamera", "libcamera:x"}) {
      const auto s = cli::checkSourceSpec(spec);
      ASSERT_FALSE(s.ok());
      EXPECT_NE(s.error().message.find("libcamera support not built"), std::string::npos);
    }
  }
}

TEST(LibcameraSpec, WithoutSupportOpeningSaysSoAndNamesTheSpec) {
  if (libcameraSupportBuilt()) GTEST_SKIP() << "this build has libcamera support";
  const auto s = openSource("libcamera:x", SourceOptions{});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().code, ErrorCode::kUnsupported);
  EXPECT_EQ(s.error().message.rfind("libcamera:x: libcamera support not built", 0), 0u)
      << s.error().message;
  EXPECT_TRUE(describeLibcameraCameras().contains("error"));
}

TEST(DrmFourcc, RoundTripsAndIsOneToOne) {
  int mapped = 0;
  for (PixelFormat f : allPixelFormats()) {
    const uint32_t drm = drmFourcc(f);
    if (drm == 0) continue;
    ++mapped;
    EXPECT_EQ(fromDrmFourcc(drm), f) << formatName(f);
  }
  EXPECT_GE(mapped, 16);
  EXPECT_FALSE(fromDrmFourcc(0).has_value());
  EXPECT_FALSE(fromDrmFourcc(0x20202020).has_value());
}

#ifdef ESFRAME_TEST_LIBCAMERA
// DRM names packed RGB formats by their components from the most significant byte of a
// little-endian word down ("BGR888": B in the top byte, so R is the first byte in memory).
// libcamera's name for each mapped fourcc, decoded that way, must put every component at the
// byte the table says.
TEST(DrmFourcc, RgbLayoutsAgreeWithLibcamerasNames) {
  int checked = 0;
  for (PixelFormat f : allPixelFormats()) {
    const PixelFormatInfo& info = pixelFormatInfo(f);
    if (info.colour != ColourFamily::kRgb || drmFourcc(f) == 0) continue;
    const std::string name = libcamera::PixelFormat(drmFourcc(f)).toString();
    std::string letters;
    for (char c : name)
      if (std::isalpha(static_cast<unsigned char>(c))) letters += c;
    ASSERT_EQ(int(letters.size()), info.planes[0].bytes_per_sample) << name;
    const int n = int(letters.size());
    auto byteOf = [&](char component) {
      const size_t i = letters.find(component);
      return i == std::string::npos ? -1 : n - 1 - int(i);
    };
    EXPECT_EQ(byteOf('R'), info.r.byte_offset) << formatName(f) << " as " << name;
    EXPECT_EQ(byteOf('G'), info.g.byte_offset) << formatName(f) << " as " << name;
    EXPECT_EQ(byteOf('B'), info.b.byte_offset) << formatName(f) << " as " << name;
    EXPECT_EQ(byteOf('A'), info.a.present() ? info.a.byte_offset : -1) << name;
    ++checked;
  }
  EXPECT_EQ(checked, 7);
}

TEST(DrmFourcc, YuvGreyAndMjpegAreLibcamerasSameFormats) {
  const std::pair<PixelFormat, const char*> names[] = {
      {PixelFormat::kYUYV, "YUYV"},      {PixelFormat::kUYVY, "UYVY"},
      {PixelFormat::kNV12, "NV12"},      {PixelFormat::kNV21, "NV21"},
      {PixelFormat::kYU12, "YUV420"},    {PixelFormat::kYUV422P, "YUV422"},
      {PixelFormat::kYUV444P, "YUV444"}, {PixelFormat::kGREY, "R8"},
      {PixelFormat::kMJPEG, "MJPEG"},
  };
  for (const auto& [f, name] : names)
    EXPECT_EQ(libcamera::PixelFormat(drmFourcc(f)).toString(), name) << formatName(f);
}

TEST(LibcameraControls, ParsedByTypeAndCheckedAgainstTheRange) {
  namespace c = libcamera::controls;
  const libcamera::ControlInfo unit(-1.0f, 1.0f);
  auto b = parseLibcameraControlValue(c::Brightness, unit, "0.25");
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->get<float>(), 0.25f);
  for (const char* bad : {"1.5", "-2", "abc", "", "0.5x", "nan"}) {
    const auto r = parseLibcameraControlValue(c::Brightness, unit, bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_NE(r.error().message.find("Brightness"), std::string::npos) << r.error().message;
  }
  const libcamera::ControlInfo exposure(int32_t(100), int32_t(1000000));
  EXPECT_EQ(parseLibcameraControlValue(c::ExposureTime, exposure, "500")->get<int32_t>(), 500);
  for (const char* bad : {"99", "1000001", "2147483648", "5.5"})
    EXPECT_FALSE(parseLibcameraControlValue(c::ExposureTime, exposure, bad).ok()) << bad;
  const libcamera::ControlInfo any_bool(false, true);
  EXPECT_TRUE(parseLibcameraControlValue(c::AeEnable, any_bool, "true")->get<bool>());
  EXPECT_FALSE(parseLibcameraControlValue(c::AeEnable, any_bool, "0")->get<bool>());
  EXPECT_FALSE(parseLibcameraControlValue(c::AeEnable, any_bool, "yes").ok());
  const auto array =
      parseLibcameraControlValue(c::FrameDurationLimits, libcamera::ControlInfo(), "33333");
  ASSERT_FALSE(array.ok());
  EXPECT_EQ(array.error().code, ErrorCode::kUnsupported);
  EXPECT_NE(array.error().message.find("(set the source's frame rate)"), std::string::npos)
      << array.error().message;
  EXPECT_EQ(array.error().message.find("--"), std::string::npos) << array.error().message;
  EXPECT_FALSE(parseLibcameraControlValue(c::ColourGains, libcamera::ControlInfo(), "1").ok());
}

TEST(LibcameraControls, FoundByNameAmongTheCamerasOwn) {
  libcamera::ControlInfoMap::Map map;
  map.emplace(&libcamera::controls::Brightness, libcamera::ControlInfo(-1.0f, 1.0f));
  map.emplace(&libcamera::controls::Contrast, libcamera::ControlInfo(0.0f, 2.0f));
  const libcamera::ControlInfoMap controls(std::move(map), libcamera::controls::controls);
  auto found = resolveLibcameraControl(controls, "cam", "Contrast", "1.5");
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_EQ(found->first, &libcamera::controls::Contrast);
  EXPECT_EQ(found->second.get<float>(), 1.5f);
  const auto missing = resolveLibcameraControl(controls, "cam", "Gamma", "1");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::kNotFound);
  EXPECT_NE(missing.error().message.find("cam: no control 'Gamma'"), std::string::npos);
  EXPECT_NE(missing.error().message.find("Brightness"), std::string::npos);
  const auto out = resolveLibcameraControl(controls, "cam", "Contrast", "3");
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message.rfind("cam: control Contrast: 3 is outside", 0), 0u)
      << out.error().message;
}

TEST(LibcameraControls, FrameDurationIsTheRoundedPeriod) {
  for (double fps : {1.0, 7.5, 29.97, 30.0, 60.0, 120.0}) {
    const int64_t us = frameDurationMicroseconds(fps);
    EXPECT_LE(std::abs(double(us) - 1e6 / fps), 0.5) << fps;
  }
}
#endif

}  // namespace
}  // namespace esf
