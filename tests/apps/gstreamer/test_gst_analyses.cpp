// esframehistogram's analyses beside the histogram (gst_test_pipeline.hpp): the scopes,
// signalstats and detector figures in its messages, against figures worked out here from the
// bytes the identity saw, on the GPU and the CPU.
#include <gst/gst.h>
#include <gst/video/video.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/apps/gstreamer/gst_test_pipeline.hpp"

namespace esf::test {
namespace {

// Two buffers of `source` through an identity named "before" into esframehistogram with
// `options`, on the CPU and the GPU; check(observed, outcome) after each run.
template <typename Check>
void onBothBackends(const std::string& source, const std::string& options, Check&& check) {
  for (const char* backend : {"cpu", "gles"}) {
    SCOPED_TRACE(backend);
    Observed observed;
    RunOutcome outcome;
    ASSERT_NO_FATAL_FAILURE(runToEnd(source + " ! identity name=before ! esframehistogram " +
                                         options + " backend=" + backend + " ! fakesink",
                                     2u, observed, outcome));
    check(observed, outcome);
  }
}

// The "scopes" property: each message's "scopes" structure holds the counts, as GBytes of
// little-endian uint32, equal to scopes counted here from the RGBA bytes the identity saw by
// docs/output-formats.md's definitions ("Scopes": column floor(x W' / W), L the BT.709 integer
// luma, Cb and Cr by the fixed-point BT.709 limited-range matrix), on the GPU and the CPU.
std::vector<uint32_t> countsField(const GstStructure* scopes, const char* name) {
  std::vector<uint32_t> out;
  const GValue* value = gst_structure_get_value(scopes, name);
  if (!value || G_VALUE_TYPE(value) != G_TYPE_BYTES) return out;
  gsize size = 0;
  const auto* bytes = static_cast<const uint8_t*>(
      g_bytes_get_data(static_cast<GBytes*>(g_value_get_boxed(value)), &size));
  for (gsize i = 0; i + 4 <= size; i += 4)
    out.push_back(uint32_t(bytes[i]) | uint32_t(bytes[i + 1]) << 8 | uint32_t(bytes[i + 2]) << 16 |
                  uint32_t(bytes[i + 3]) << 24);
  return out;
}

TEST_F(EsframeElement, ScopesInTheMessages) {
  constexpr int kWidth = 37, kHeight = 11, kColumns = 5;
  onBothBackends(
      "videotestsrc num-buffers=2 pattern=smpte ! video/x-raw,format=RGBA,width=37,height=11",
      "scopes=\"waveform,parade,vectorscope,columns=5\"",
      [&](const Observed& observed, const RunOutcome& outcome) {
        for (const GstStructure* message : outcome.messages) {
          guint64 pts = 0;
          ASSERT_TRUE(gst_structure_get_uint64(message, "pts", &pts));
          const std::vector<uint8_t>& rgba = observed.before.at(pts).bytes;
          ASSERT_EQ(rgba.size(), size_t(kWidth) * kHeight * 4);
          std::vector<uint32_t> waveform(kColumns * 256), parade(3 * kColumns * 256),
              vectorscope(256 * 256);
          for (int y = 0; y < kHeight; ++y)
            for (int x = 0; x < kWidth; ++x) {
              const uint8_t* p = &rgba[(size_t(y) * kWidth + size_t(x)) * 4];
              const int32_t r = p[0], g = p[1], b = p[2], column = x * kColumns / kWidth;
              ++waveform[size_t(column) * 256 + ((13933 * r + 46871 * g + 4732 * b + 32768) >> 16)];
              for (int c = 0; c < 3; ++c)
                ++parade[(size_t(c) * kColumns + size_t(column)) * 256 + p[c]];
              const int32_t cb = (-6596 * r - 22189 * g + 28785 * b + 8421376) >> 16;
              const int32_t cr = (28784 * r - 26145 * g - 2639 * b + 8421376) >> 16;
              ++vectorscope[size_t(cr) * 256 + size_t(cb)];
            }
          const GstStructure* scopes = nullptr;
          ASSERT_TRUE(gst_structure_get(message, "scopes", GST_TYPE_STRUCTURE, &scopes, nullptr));
          int columns = 0;
          guint64 samples = 0;
          EXPECT_TRUE(gst_structure_get_int(scopes, "columns", &columns));
          EXPECT_EQ(columns, kColumns);
          EXPECT_TRUE(gst_structure_get_uint64(scopes, "vectorscope_samples", &samples));
          EXPECT_EQ(samples, uint64_t(kWidth) * kHeight);
          EXPECT_EQ(countsField(scopes, "waveform"), waveform);
          EXPECT_EQ(countsField(scopes, "parade"), parade);
          EXPECT_EQ(countsField(scopes, "vectorscope"), vectorscope);
          gst_structure_free(const_cast<GstStructure*>(scopes));
        }
      });
  // Without the property there is no "scopes"; a bad value is one error naming it.
  Observed observed;
  RunOutcome plain, bad;
  ASSERT_NO_FATAL_FAILURE(
      runToEnd("videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=8,height=8 ! "
               "esframehistogram backend=cpu ! fakesink",
               1u, observed, plain));
  EXPECT_FALSE(gst_structure_has_field(plain.messages[0], "scopes"));
  runPipeline(
      "videotestsrc num-buffers=1 ! video/x-raw,format=RGBA,width=8,height=8 ! "
      "esframehistogram scopes=\"waveform,histogram\" backend=cpu ! fakesink",
      observed, bad);
  EXPECT_NE(bad.error.find("esframe: scopes: 'histogram': expected waveform, parade, vectorscope"),
            std::string::npos)
      << bad.error;
  EXPECT_TRUE(bad.messages.empty());
}

// Chroma figures worked out here from the I420 bytes the identity saw (GStreamer's own plane
// offsets and strides): signalstats' UMIN, UMAX, UAVG, UDIF, the V ones and SATMAX
// (docs/output-formats.md, "Signalstats"), against the message's.
TEST_F(EsframeElement, SignalstatsInTheMessages) {
  constexpr int kWidth = 37, kHeight = 11;
  GstVideoInfo info;
  ASSERT_TRUE(gst_video_info_set_format(&info, GST_VIDEO_FORMAT_I420, kWidth, kHeight));
  const int cw = (kWidth + 1) / 2, ch = (kHeight + 1) / 2;
  const double samples = double(cw) * ch;
  onBothBackends(
      "videotestsrc num-buffers=2 pattern=smpte horizontal-speed=5 ! "
      "video/x-raw,format=I420,width=37,height=11",
      "signalstats-tout=true", [&](const Observed& observed, const RunOutcome& outcome) {
        const std::vector<uint8_t>* previous = nullptr;
        for (const GstStructure* message : outcome.messages) {
          guint64 pts = 0;
          ASSERT_TRUE(gst_structure_get_uint64(message, "pts", &pts));
          const std::vector<uint8_t>& bytes = observed.before.at(pts).bytes;
          ASSERT_EQ(bytes.size(), GST_VIDEO_INFO_SIZE(&info));
          auto at = [&](const std::vector<uint8_t>& b, int plane, int x, int y) {
            return b[GST_VIDEO_INFO_PLANE_OFFSET(&info, plane) +
                     size_t(y) * GST_VIDEO_INFO_PLANE_STRIDE(&info, plane) + size_t(x)];
          };
          int sat_max = 0;
          for (int plane : {1, 2}) {
            SCOPED_TRACE(plane);
            int lo = 255, hi = 0;
            double sum = 0, dif = 0;
            for (int y = 0; y < ch; ++y)
              for (int x = 0; x < cw; ++x) {
                const int v = at(bytes, plane, x, y);
                lo = std::min(lo, v);
                hi = std::max(hi, v);
                sum += v;
                if (previous) dif += std::abs(v - int(at(*previous, plane, x, y)));
                if (plane == 1)
                  sat_max = std::max(
                      sat_max, int(std::floor(std::hypot(v - 128.0, at(bytes, 2, x, y) - 128.0))));
              }
            const std::string p = plane == 1 ? "U" : "V";
            double min = -1, max = -1, avg = -1, d = -1;
            ASSERT_TRUE(gst_structure_get_double(message, (p + "MIN").c_str(), &min));
            ASSERT_TRUE(gst_structure_get_double(message, (p + "MAX").c_str(), &max));
            ASSERT_TRUE(gst_structure_get_double(message, (p + "AVG").c_str(), &avg));
            ASSERT_TRUE(gst_structure_get_double(message, (p + "DIF").c_str(), &d));
            EXPECT_EQ(min, lo);
            EXPECT_EQ(max, hi);
            EXPECT_EQ(avg, sum / samples);
            EXPECT_EQ(d, dif / samples);
          }
          double sat = -1, tout = -1;
          ASSERT_TRUE(gst_structure_get_double(message, "SATMAX", &sat));
          EXPECT_EQ(sat, sat_max);
          for (const char* name : {"ULOW", "UHIGH", "BRNG", "SATAVG", "HUEMED", "HUEAVG"})
            EXPECT_TRUE(gst_structure_has_field_typed(message, name, G_TYPE_DOUBLE)) << name;
          ASSERT_TRUE(gst_structure_get_double(message, "TOUT", &tout));
          EXPECT_TRUE(tout >= 0 && tout <= 1) << tout;
          EXPECT_FALSE(gst_structure_has_field(message, "VREP"));  // not asked for
          EXPECT_FALSE(gst_structure_has_field(message, "cropdetect"));
          previous = &bytes;
        }
        // The picture moves: the second frame's UDIF or VDIF is not 0.
        double udif = 0, vdif = 0;
        gst_structure_get_double(outcome.messages[1], "UDIF", &udif);
        gst_structure_get_double(outcome.messages[1], "VDIF", &vdif);
        EXPECT_GT(udif + vdif, 0);
      });
}

// A white 48x32 picture inside 8 black lines on every side: cropdetect's box from the third
// frame (skip=2), blur and block on every frame; a bad detect value is one error naming it.
TEST_F(EsframeElement, DetectorsInTheMessages) {
  Observed observed;
  RunOutcome outcome, plain, bad;
  const std::string source =
      "videotestsrc num-buffers=3 pattern=white ! video/x-raw,format=I420,width=48,height=32 ! "
      "videobox left=-8 right=-8 top=-8 bottom=-8 fill=black ! video/x-raw,format=I420 ! ";
  ASSERT_NO_FATAL_FAILURE(
      runToEnd(source + "esframehistogram detect=\"crop,blur,block\" backend=cpu ! fakesink", 3u,
               observed, outcome));
  for (size_t i = 0; i < 3; ++i) {
    const GstStructure* message = outcome.messages[i];
    SCOPED_TRACE(i);
    EXPECT_TRUE(gst_structure_has_field_typed(message, "blur", G_TYPE_DOUBLE));
    EXPECT_TRUE(gst_structure_has_field_typed(message, "block", G_TYPE_DOUBLE));
    EXPECT_FALSE(gst_structure_has_field(message, "UMIN"));  // signalstats not asked for
    const GstStructure* crop = nullptr;
    const bool has_crop =
        gst_structure_get(message, "cropdetect", GST_TYPE_STRUCTURE, &crop, nullptr);
    ASSERT_EQ(has_crop, i >= 2);
    if (!has_crop) continue;
    int v[8] = {};
    const char* names[8] = {"x1", "x2", "y1", "y2", "w", "h", "x", "y"};
    for (int k = 0; k < 8; ++k) EXPECT_TRUE(gst_structure_get_int(crop, names[k], &v[k]));
    EXPECT_EQ(std::vector<int>(v, v + 8), (std::vector<int>{8, 55, 8, 39, 48, 32, 8, 8}));
    EXPECT_STREQ(gst_structure_get_string(crop, "crop"), "48:32:8:8");
    gst_structure_free(const_cast<GstStructure*>(crop));
  }
  runPipeline(source + "esframehistogram backend=cpu ! fakesink", observed, plain);
  ASSERT_EQ(plain.messages.size(), 3u);
  for (const char* name : {"blur", "block", "cropdetect", "UMIN"})
    EXPECT_FALSE(gst_structure_has_field(plain.messages[2], name)) << name;
  runPipeline(source + "esframehistogram detect=\"crop,sharpness=2\" backend=cpu ! fakesink",
              observed, bad);
  EXPECT_NE(bad.error.find("detect"), std::string::npos) << bad.error;
  EXPECT_NE(bad.error.find("sharpness"), std::string::npos) << bad.error;
  EXPECT_TRUE(bad.messages.empty());
}

}  // namespace
}  // namespace esf::test
