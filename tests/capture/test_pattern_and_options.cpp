// The synthetic pattern, option parsing, pixel-format names, v4l2-ctl control names and
// --dump-raw.
#include <gtest/gtest.h>
#include <linux/videodev2.h>

#include <chrono>

#include "base/pixel_format.hpp"
#include "capture/open_source.hpp"
#include "capture/pattern_source.hpp"
#include "capture/source_kinds.hpp"
#include "capture/v4l2_device.hpp"
#include "tests/capture/capture_test_util.hpp"
#include "tests/support/fixed_stream_source.hpp"

namespace esf {
namespace {

std::vector<uint8_t> tightBytes(const Frame& f) {
  std::vector<uint8_t> out;
  for (int i = 0; i < f.plane_count; ++i)
    out.insert(out.end(), f.planes[i].data, f.planes[i].data + f.planes[i].size);
  return out;
}

TEST(Pattern, IsTheDefaultSourceAndDeterministic) {
  SourceOptions o;
  o.width = 65, o.height = 33;
  auto a = openSource("", o), b = openSource("pattern", o);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ((*a)->name(), "pattern");
  std::vector<uint8_t> first;
  for (int i = 0; i < 3; ++i) {
    auto fa = (*a)->next(), fb = (*b)->next();
    ASSERT_TRUE(fa.ok() && fa->has_value() && fb.ok() && fb->has_value());
    EXPECT_EQ((**fa).sequence, uint64_t(i));
    EXPECT_EQ((**fa).timestamp_ns, uint64_t(i) * 1000000000ull / 30);
    EXPECT_EQ(tightBytes(**fa), tightBytes(**fb));
    if (i == 0)
      first = tightBytes(**fa);
    else
      EXPECT_NE(tightBytes(**fa), first) << "the pattern moves";
  }
}

// pattern:loop=N hands out the first N frames of the plain pattern again and again, with the
// sequence and timestamps of a continuing run.
TEST(Pattern, LoopRepeatsThePlainPatternsFirstFrames) {
  SourceOptions o;
  o.width = 33, o.height = 17;
  o.format = PixelFormat::kNV12;
  auto plain = openSource("pattern", o), looped = openSource("pattern:loop=3", o);
  ASSERT_TRUE(plain.ok() && looped.ok()) << (looped.ok() ? "" : looped.error().message);
  std::vector<std::vector<uint8_t>> first;
  for (int i = 0; i < 3; ++i) {
    auto f = (*plain)->next();
    ASSERT_TRUE(f.ok() && f->has_value());
    first.push_back(tightBytes(**f));
  }
  EXPECT_NE(first[0], first[1]);
  for (int i = 0; i < 8; ++i) {
    auto f = (*looped)->next();
    ASSERT_TRUE(f.ok() && f->has_value());
    EXPECT_EQ((**f).sequence, uint64_t(i));
    EXPECT_EQ((**f).timestamp_ns, uint64_t(i) * 1000000000ull / 30);
    EXPECT_EQ(tightBytes(**f), first[size_t(i % 3)]) << "frame " << i;
  }
}

TEST(Pattern, BadLoopSpecsAreRefusedByName) {
  SourceOptions o;
  o.width = 1920, o.height = 1080;
  for (const char* spec : {"pattern:loop=0", "pattern:loop=x", "pattern:loop=1001", "pattern:"}) {
    auto s = openSource(spec, o);
    ASSERT_FALSE(s.ok()) << spec;
    EXPECT_EQ(s.error().code, ErrorCode::kInvalidArgument) << spec;
    EXPECT_NE(s.error().message.find("pattern"), std::string::npos) << s.error().message;
  }
  // 200 frames of 1080p RGBA: past the 1 GiB the loop may hold.
  auto big = openSource("pattern:loop=200", o);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.error().message.find("more than 1 GiB"), std::string::npos) << big.error().message;
}

// --fps paces the pattern like a camera: frame i is not ready before i / fps seconds after the
// first (a lower bound only: a loaded machine may be slower, never faster). Without a rate it is
// not live and not paced.
TEST(Pattern, AskedFrameRateIsLivePaced) {
  SourceOptions o;
  o.width = 17, o.height = 9;
  o.fps = 40;
  auto paced = openSource("pattern", o);
  ASSERT_TRUE(paced.ok());
  EXPECT_TRUE((*paced)->isLive());
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 9; ++i) {
    auto f = (*paced)->next();
    ASSERT_TRUE(f.ok() && f->has_value());
    EXPECT_EQ((**f).timestamp_ns, uint64_t(i) * 25000000ull);
  }
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(200));
  o.fps = 0;
  auto free_running = openSource("pattern", o);
  ASSERT_TRUE(free_running.ok());
  EXPECT_FALSE((*free_running)->isLive());
}

TEST(Pattern, SeedChangesOnlyTheNoise) {
  const RgbaImage a = renderPattern(40, 40, 7, 1), b = renderPattern(40, 40, 7, 2);
  EXPECT_EQ(std::vector<uint8_t>(a.pixels.begin(), a.pixels.begin() + 40 * 30 * 4),
            std::vector<uint8_t>(b.pixels.begin(), b.pixels.begin() + 40 * 30 * 4));
  EXPECT_NE(a.pixels, b.pixels);
}

TEST(Pattern, CounterBlockEncodesTheFrameIndex) {
  const uint64_t index = 0b1010000000000101;
  const RgbaImage img = renderPattern(128, 16, index, 1);
  for (int bit = 0; bit < 16; ++bit)
    EXPECT_EQ(img.at(bit * 8 + 4, 4)[0], (index >> bit) & 1 ? 255 : 0) << bit;
}

TEST(Pattern, EveryFormatAndOddSizes) {
  for (PixelFormat f : allPixelFormats()) {
    SourceOptions o;
    o.format = f;
    o.width = allowsOddWidth(f) ? 7 : 8, o.height = 3;
    auto s = openSource("pattern", o);
    ASSERT_TRUE(s.ok()) << formatName(f) << ": " << s.error().message;
    auto fr = (*s)->next();
    ASSERT_TRUE(fr.ok() && fr->has_value()) << formatName(f);
    EXPECT_EQ((**fr).format, f);
    if (!isCompressed(f)) {
      EXPECT_EQ(tightBytes(**fr).size(), frameSize(f, o.width, o.height).value());
    }
  }
  SourceOptions odd;
  odd.format = PixelFormat::kYUYV, odd.width = 7, odd.height = 2;
  auto s = openSource("pattern", odd);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.error().message.find("even width"), std::string::npos) << s.error().message;
}

TEST(Options, Parsers) {
  EXPECT_EQ(parseCtrl("gain=10").value(), std::make_pair(std::string("gain"), std::string("10")));
  EXPECT_FALSE(parseCtrl("gain").ok());
  EXPECT_FALSE(parseCtrl("=1").ok());
  EXPECT_EQ(parseIoMode("dmabuf").value(), IoMode::kDmabuf);
  EXPECT_FALSE(parseIoMode("userptr").ok());
  EXPECT_EQ(parsePixelFormat("I420").value(), PixelFormat::kYU12);
  EXPECT_EQ(parsePixelFormat("yu12").value(), PixelFormat::kYU12);
  EXPECT_EQ(parsePixelFormat("RGB3").value(), PixelFormat::kRGB24);
  EXPECT_EQ(parsePixelFormat("BX24").value(), PixelFormat::kXRGB32);
  EXPECT_EQ(parsePixelFormat("XR24").value(), PixelFormat::kXBGR32);
  EXPECT_FALSE(parsePixelFormat("P010").ok());
  for (PixelFormat f : allPixelFormats()) {
    EXPECT_EQ(parsePixelFormat(formatName(f)).value(), f);
    EXPECT_EQ(fromV4l2Fourcc(v4l2Fourcc(f)), f);
  }
}

// The multi-planar API's variants (each plane its own buffer) are their formats' second fourcc.
TEST(Options, MultiPlanarVariantsNameTheirFormat) {
  const struct {
    const char* name;
    uint32_t fourcc;
    PixelFormat format;
  } variants[] = {{"NV12M", V4L2_PIX_FMT_NV12M, PixelFormat::kNV12},
                  {"NV21M", V4L2_PIX_FMT_NV21M, PixelFormat::kNV21},
                  {"YUV420M", V4L2_PIX_FMT_YUV420M, PixelFormat::kYU12},
                  {"YUV422M", V4L2_PIX_FMT_YUV422M, PixelFormat::kYUV422P}};
  for (const auto& v : variants) {
    EXPECT_EQ(parsePixelFormat(v.name).value(), v.format) << v.name;
    EXPECT_EQ(parsePixelFormat(fourccString(v.fourcc)).value(), v.format) << v.name;
    EXPECT_EQ(fromV4l2Fourcc(v.fourcc), v.format) << v.name;
    EXPECT_TRUE(isV4l2MplaneFourcc(v.fourcc)) << v.name;
    EXPECT_NE(v4l2Fourcc(v.format), v.fourcc) << v.name;  // requests use the contiguous one
  }
  EXPECT_FALSE(isV4l2MplaneFourcc(V4L2_PIX_FMT_NV12));
  EXPECT_FALSE(isV4l2MplaneFourcc(0));
  EXPECT_FALSE(fromV4l2Fourcc(0).has_value());
}

TEST(Options, V4l2CtlNames) {
  // Spellings as v4l2-ctl prints them for vivid and UVC controls.
  EXPECT_EQ(v4l2CtlName("Brightness"), "brightness");
  EXPECT_EQ(v4l2CtlName("White Balance, Automatic"), "white_balance_automatic");
  EXPECT_EQ(v4l2CtlName("Exposure Time, Absolute"), "exposure_time_absolute");
  EXPECT_EQ(v4l2CtlName("Gain (dB)"), "gain_db");
  EXPECT_EQ(v4l2CtlName("  Test Pattern "), "test_pattern");
}

TEST(Options, BadSpecsNameTheThing) {
  auto a = openSource("/no/such/file.y4m", {});
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("/no/such/file.y4m"), std::string::npos) << a.error().message;
  auto b = openSource("/dev/video97", {});
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("/dev/video97"), std::string::npos) << b.error().message;
  SourceOptions half;
  half.width = 10;
  EXPECT_FALSE(openSource("pattern", half).ok());
}

TEST(DumpRaw, KeepsTheTightBytesOfEveryFrame) {
  const std::string dir = test::makeTempDir() + "/raw";
  SourceOptions o;
  o.format = PixelFormat::kNV12, o.width = 9, o.height = 5, o.dump_raw_dir = dir;
  auto s = openSource("pattern", o);
  ASSERT_TRUE(s.ok()) << s.error().message;
  for (int i = 0; i < 2; ++i) {
    auto f = (*s)->next();
    ASSERT_TRUE(f.ok() && f->has_value());
    char name[64];
    std::snprintf(name, sizeof name, "/%06d-9x5-NV12.raw", i);
    EXPECT_EQ(test::readFile(dir + name), tightBytes(**f)) << name;
  }
}

// GREY 3x2 frames of the given sequence numbers, each filled with its index in the list.
class SequenceSource : public test::FixedStreamSource {
 public:
  explicit SequenceSource(std::vector<uint64_t> sequences)
      : FixedStreamSource("sequences", 3, 2, PixelFormat::kGREY),
        sequences_(std::move(sequences)) {}
  Result<std::optional<Frame>> next() override {
    if (index_ == sequences_.size()) return std::optional<Frame>();
    bytes_.assign(6, uint8_t(index_));
    Frame f;
    f.format = PixelFormat::kGREY, f.width = 3, f.height = 2, f.plane_count = 1;
    f.planes[0].data = bytes_.data(), f.planes[0].size = 6, f.planes[0].stride = 3;
    f.sequence = sequences_[index_++];
    return std::optional<Frame>(f);
  }

 private:
  std::vector<uint64_t> sequences_;
  std::vector<uint8_t> bytes_;
  size_t index_ = 0;
};

TEST(DumpRaw, RepeatedSequenceKeepsTheLastFrameAndRefusesOtherFiles) {
  const std::string dir = test::makeTempDir();
  auto s = wrapDumpRaw(std::make_unique<SequenceSource>(std::vector<uint64_t>{0, 0, 1, 0}), dir,
                       ExistingFile::kRefuse);
  ASSERT_TRUE(s.ok()) << s.error().message;
  for (int i = 0; i < 3; ++i) {
    auto f = (*s)->next();
    ASSERT_TRUE(f.ok() && f->has_value()) << (f.ok() ? "end" : f.error().message);
  }
  EXPECT_EQ(test::readFile(dir + "/000000-3x2-GREY.raw"), std::vector<uint8_t>(6, 1));
  EXPECT_EQ(test::readFile(dir + "/000001-3x2-GREY.raw"), std::vector<uint8_t>(6, 2));
  // A number this run wrote, but not for the frame before, is no repeat: refused.
  auto back = (*s)->next();
  ASSERT_FALSE(back.ok());
  EXPECT_NE(back.error().message.find("000000-3x2-GREY.raw"), std::string::npos);
  EXPECT_EQ(test::readFile(dir + "/000000-3x2-GREY.raw"), std::vector<uint8_t>(6, 1));

  // A file there before the run is another's, even for the first frame's number.
  const std::string other = test::makeTempDir(), planted = other + "/000000-3x2-GREY.raw";
  test::writeFile(planted, std::vector<uint8_t>{9});
  auto t = wrapDumpRaw(std::make_unique<SequenceSource>(std::vector<uint64_t>{0}), other,
                       ExistingFile::kRefuse);
  ASSERT_TRUE(t.ok()) << t.error().message;
  auto refused = (*t)->next();
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find(planted), std::string::npos) << refused.error().message;
  EXPECT_EQ(test::readFile(planted), std::vector<uint8_t>{9});
}

}  // namespace
}  // namespace esf
