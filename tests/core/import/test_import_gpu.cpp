// Every pixel format through the GPU import, bit for bit against the CPU reference: seeded
// random bytes (every Y/Cb/Cr value, including those outside the limited range), odd sizes,
// padded strides, limited and full range, BT.601 and BT.709, and a poisoned output image.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <tuple>

#include "base/pixel_format.hpp"
#include "capture/frame_encode.hpp"
#include "capture/pattern_source.hpp"
#include "core/image/gpu_image.hpp"
#include "core/import/frame_import.hpp"
#include "core/import/import_reference.hpp"
#include "tests/support/gl_test_context.hpp"
#include "tests/support/random_frame.hpp"

namespace esf {
namespace {

// One importer per upload path (llvmpipe's default is client memory; the unpack buffers are
// what hardware GPUs take, so both run here).
FrameImporter& importer(UploadPath path = UploadPath::kClientMemory) {
  static std::unique_ptr<FrameImporter> imps[2];
  std::unique_ptr<FrameImporter>& imp = imps[path == UploadPath::kUnpackBuffers ? 1 : 0];
  if (!imp) {
    auto r = FrameImporter::create(test::glContext(), path);
    if (!r) {
      ADD_FAILURE() << r.error().message;
      std::abort();
    }
    imp = std::move(*r);
  }
  return *imp;
}

using test::randomFrame;
using test::TestFrame;

// Imports a frame of kPoison bytes first, so an output pixel the shader skips keeps poison.
void poisonOutput(int w, int h, UploadPath path) {
  std::vector<uint8_t> poison(size_t(w) * h * 4);
  for (size_t i = 0; i < poison.size(); i += 4) std::memcpy(&poison[i], &test::kPoison, 4);
  Frame p;
  p.format = PixelFormat::kRGBA32, p.width = w, p.height = h;
  ASSERT_TRUE(attachTightPlanes(p, poison.data(), poison.size()).ok());
  ASSERT_TRUE(importer(path).import(p).ok());
}

std::vector<uint8_t> importOnGpu(const Frame& f, const ImportOptions& o = {},
                                 std::vector<uint8_t>* luma = nullptr,
                                 UploadPath path = UploadPath::kClientMemory) {
  poisonOutput(f.width, f.height, path);
  auto r = importer(path).import(f, o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return {};
  std::vector<uint8_t> out(size_t(f.width) * f.height * 4);
  EXPECT_TRUE(importer(path).readRgba(*r, out.data()).ok());
  if (luma && r->luma) {
    luma->resize(out.size());
    EXPECT_TRUE(importer(path).readRgbaTexture(r->luma, f.width, f.height, luma->data()).ok());
  }
  return out;
}

void expectSame(const std::vector<uint8_t>& gpu, const RgbaImage& cpu, const std::string& what) {
  ASSERT_EQ(gpu.size(), cpu.pixels.size()) << what;
  for (size_t i = 0; i < gpu.size(); ++i)
    ASSERT_EQ(int(gpu[i]), int(cpu.pixels[i])) << what << ": pixel " << i / 4 % cpu.width << ","
                                               << i / 4 / cpu.width << " channel " << i % 4;
}

using test::kColorimetries;

class ImportEveryFormat : public ::testing::TestWithParam<std::tuple<PixelFormat, UploadPath>> {};

TEST_P(ImportEveryFormat, GpuEqualsCpuReference) {
  const auto [f, path] = GetParam();
  uint32_t seed = 1;
  for (auto [w, h] : test::importSizes(f))
    for (const auto& c : kColorimetries) {
      if (!isYuv(f) && &c != &kColorimetries[0]) continue;  // colorimetry is YUV only
      for (int pad : {0, 13}) {
        TestFrame t = randomFrame(f, w, h, pad, c, seed++);
        auto cpu = convertToRgbaCpu(t.frame);
        ASSERT_TRUE(cpu.ok()) << cpu.error().message;
        const std::string what = std::string(formatName(f)) + " " + std::to_string(w) + "x" +
                                 std::to_string(h) + " pad " + std::to_string(pad) + " " +
                                 colorimetryName(c);
        expectSame(importOnGpu(t.frame, {}, nullptr, path), *cpu, what);
      }
    }
}

// The packed import (ImportOptions::target_packed_rgba): the same pixels in the packed buffer's
// layout, whether the conversion shader writes them or a host RGBA32 frame is copied as it is;
// the source luma as R = G = B = Y, A = 255 (GREY's is its RGBA buffer). Poisoned buffers first.
TEST_P(ImportEveryFormat, PackedEqualsCpuReference) {
  const auto [f, path] = GetParam();
  importer(path);  // creates the GL context: the buffers below need it current
  uint32_t seed = 500;
  for (auto [w, h] : test::importSizes(f))
    for (int pad : {0, 13}) {
      const Colorimetry& c = kColorimetries[size_t(seed) % std::size(kColorimetries)];
      TestFrame t = randomFrame(f, w, h, pad, isYuv(f) ? c : kColorimetries[0], seed++);
      auto cpu = convertToRgbaCpu(t.frame);
      ASSERT_TRUE(cpu.ok()) << cpu.error().message;
      const std::string what = std::string(formatName(f)) + " " + std::to_string(w) + "x" +
                               std::to_string(h) + " pad " + std::to_string(pad) + " packed";
      RgbaImage poison(w, h);
      for (size_t i = 0; i < poison.pixels.size(); i += 4)
        std::memcpy(&poison.pixels[i], &test::kPoison, 4);
      auto rgba = PackedRgbaBuffer::fromImage(poison), luma = PackedRgbaBuffer::fromImage(poison);
      ASSERT_TRUE(rgba.ok() && luma.ok());
      ImportOptions o;
      o.source_luma = true;
      o.target_packed_rgba = rgba->buffer(), o.target_packed_luma = luma->buffer();
      auto r = importer(path).import(t.frame, o);
      ASSERT_TRUE(r.ok()) << what << ": " << r.error().message;
      EXPECT_EQ(r->rgba, 0u);
      EXPECT_EQ(r->packed_rgba, rgba->buffer());
      auto got = rgba->download();
      ASSERT_TRUE(got.ok());
      expectSame(got->pixels, *cpu, what);
      auto y = extractLumaPlane(t.frame);
      if (!y.ok()) {  // RGB: no source luma
        EXPECT_EQ(r->packed_luma, 0u) << what;
        continue;
      }
      const bool grey = pixelFormatInfo(f).colour == ColourFamily::kGrey;
      EXPECT_EQ(r->packed_luma, grey ? rgba->buffer() : luma->buffer()) << what;
      auto got_luma = grey ? rgba->download() : luma->download();
      ASSERT_TRUE(got_luma.ok());
      for (size_t i = 0; i < y->size(); ++i) {
        const uint8_t* px = &got_luma->pixels[i * 4];
        ASSERT_TRUE(px[0] == (*y)[i] && px[1] == (*y)[i] && px[2] == (*y)[i] && px[3] == 255)
            << what << ": luma pixel " << i;
      }
    }
}

TEST(Import, APackedTargetTooSmallIsAnError) {
  TestFrame t = randomFrame(PixelFormat::kRGBA32, 9, 5, 0, {}, 12);
  importer();  // creates the GL context: the buffer below needs it current
  auto small = PackedRgbaBuffer::create(9, 4);
  ASSERT_TRUE(small.ok());
  ImportOptions o;
  o.target_packed_rgba = small->buffer();
  auto r = importer().import(t.frame, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("target buffer"), std::string::npos) << r.error().message;
}

std::vector<PixelFormat> rawFormats() {
  std::vector<PixelFormat> v;
  for (PixelFormat f : allPixelFormats())
    if (!isCompressed(f) && !isBayer(f)) v.push_back(f);  // Bayer: test_bayer_import
  return v;
}

INSTANTIATE_TEST_SUITE_P(Formats, ImportEveryFormat,
                         ::testing::Combine(::testing::ValuesIn(rawFormats()),
                                            ::testing::Values(UploadPath::kClientMemory,
                                                              UploadPath::kUnpackBuffers)),
                         [](const auto& info) {
                           return std::string(formatName(std::get<0>(info.param))) +
                                  (std::get<1>(info.param) == UploadPath::kUnpackBuffers
                                       ? "_UnpackBuffers"
                                       : "_ClientMemory");
                         });

TEST(Import, SourceLumaIsTheYPlane) {
  for (PixelFormat f :
       {PixelFormat::kYUYV, PixelFormat::kUYVY, PixelFormat::kNV12, PixelFormat::kNV21,
        PixelFormat::kYU12, PixelFormat::kYUV444P, PixelFormat::kGREY}) {
    TestFrame t = randomFrame(f, 38, 9, 3, kColorimetries[0], 99);
    std::vector<uint8_t> luma;
    importOnGpu(t.frame, ImportOptions{true}, &luma);
    auto y = extractLumaPlane(t.frame);
    ASSERT_TRUE(y.ok());
    ASSERT_EQ(luma.size(), y->size() * 4) << formatName(f);
    for (size_t i = 0; i < y->size(); ++i) {
      ASSERT_EQ(luma[i * 4], (*y)[i]) << formatName(f) << " pixel " << i;
      ASSERT_EQ(luma[i * 4 + 1], (*y)[i]);
      ASSERT_EQ(luma[i * 4 + 2], (*y)[i]);
      ASSERT_EQ(luma[i * 4 + 3], 255);
    }
  }
}

TEST(Import, RgbFormatsHaveNoSourceLuma) {
  TestFrame t = randomFrame(PixelFormat::kRGB24, 5, 5, 0, {}, 3);
  auto r = importer().import(t.frame, ImportOptions{true});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->luma, 0u);
}

// `src` encoded as MJPEG, and a frame named `source` of it, or of its first half (truncated).
struct MjpegFrame {
  std::vector<uint8_t> jpeg;
  Frame frame;
};
void makeMjpegFrame(const RgbaImage& src, const char* source, bool truncated, MjpegFrame& out) {
  Result<std::vector<uint8_t>> jpeg = encodeRgba(src, PixelFormat::kMJPEG, {});
  ASSERT_TRUE(jpeg.ok());
  out.jpeg = std::move(jpeg.value());
  Frame& f = out.frame;
  f.format = PixelFormat::kMJPEG, f.width = src.width, f.height = src.height, f.source = source;
  ASSERT_TRUE(
      attachTightPlanes(f, out.jpeg.data(), truncated ? out.jpeg.size() / 2 : out.jpeg.size())
          .ok());
}

TEST(Import, MjpegDecodesThenMatchesReference) {
  const RgbaImage src = renderPattern(96, 64, 5, 1);
  MjpegFrame m;
  ASSERT_NO_FATAL_FAILURE(makeMjpegFrame(src, "test.mjpeg", false, m));
  const Frame& f = m.frame;
  auto cpu = convertToRgbaCpu(f);
  ASSERT_TRUE(cpu.ok()) << cpu.error().message;
  expectSame(importOnGpu(f), *cpu, "MJPEG");
  // The decoder really decoded: close to the encoded picture outside the noise band.
  long diff = 0, n = 0;
  for (int y = 0; y < 40; ++y)
    for (int x = 0; x < 96; ++x)
      for (int c = 0; c < 3; ++c) diff += std::abs(cpu->at(x, y)[c] - src.at(x, y)[c]), ++n;
  EXPECT_LT(double(diff) / double(n), 12.0);  // chroma subsampling at bar edges: about 6
}

TEST(Import, TruncatedMjpegIsAnError) {
  const RgbaImage src = renderPattern(32, 32, 0, 1);
  MjpegFrame m;
  ASSERT_NO_FATAL_FAILURE(makeMjpegFrame(src, "cam", true, m));
  auto r = importer().import(m.frame);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("cam"), std::string::npos) << r.error().message;
}

TEST(Import, WritesIntoCallerTextures) {
  TestFrame t = randomFrame(PixelFormat::kNV12, 21, 11, 0, {}, 8);
  importer();  // creates the GL context: the textures below need it current
  GlTexture rgba = makeTexture(), luma = makeTexture();
  for (GLuint tex : {rgba.get(), luma.get()}) {
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 21, 11);
  }
  ImportOptions o;
  o.source_luma = true, o.target_rgba = rgba.get(), o.target_luma = luma.get();
  auto r = importer().import(t.frame, o);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->rgba, rgba.get());
  EXPECT_EQ(r->luma, luma.get());
  std::vector<uint8_t> got(21 * 11 * 4), got_luma(21 * 11 * 4);
  ASSERT_TRUE(importer().readRgba(*r, got.data()).ok());
  ASSERT_TRUE(importer().readRgbaTexture(r->luma, 21, 11, got_luma.data()).ok());
  expectSame(got, convertToRgbaCpu(t.frame).value(), "NV12 into caller texture");
  EXPECT_EQ(got_luma[4 * 20], t.frame.planes[0].data[20]);
  TestFrame wrong = randomFrame(PixelFormat::kNV12, 20, 11, 0, {}, 9);
  EXPECT_FALSE(importer().import(wrong.frame, o).ok());
}

TEST(Import, WideRgb24UsesRgb8Texels) {
  // Rows of more than GL_MAX_TEXTURE_SIZE bytes cannot be an R8 texture: RGB8 texels instead.
  const int w = test::glContext().limits().max_texture_size / 3 + 7;
  for (PixelFormat f : {PixelFormat::kRGB24, PixelFormat::kBGR24}) {
    TestFrame t = randomFrame(f, w, 2, 5, {}, 11);
    expectSame(importOnGpu(t.frame), convertToRgbaCpu(t.frame).value(), "wide RGB24");
  }
}

TEST(Import, ShortPlaneIsAnError) {
  TestFrame t = randomFrame(PixelFormat::kNV12, 16, 16, 0, {}, 4);
  t.frame.planes[1].size = 10;
  EXPECT_FALSE(importer().import(t.frame).ok());
}

// stage() then import() of the same frame (esf::run's order: frame N+1 copied into the upload
// buffers while N computes) gives that frame; importing another frame discards what was staged.
TEST(ImportStaging, AStagedFrameImportsAsItselfAndAnotherFrameDiscardsIt) {
  const UploadPath path = UploadPath::kUnpackBuffers;
  FrameImporter& imp = importer(path);
  auto stagedThenImported = [&](const Frame& staged, const Frame& imported) {
    poisonOutput(imported.width, imported.height, path);
    EXPECT_TRUE(imp.stage(staged).ok());
    auto r = imp.import(imported);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    std::vector<uint8_t> out(size_t(imported.width) * imported.height * 4);
    if (r.ok()) {
      EXPECT_TRUE(imp.readRgba(*r, out.data()).ok());
    }
    return out;
  };
  uint32_t seed = 700;
  for (PixelFormat f : {PixelFormat::kYU12, PixelFormat::kNV12, PixelFormat::kRGB24}) {
    for (auto [w, h] : {std::pair{257, 3}, std::pair{1, 1}, std::pair{64, 48}}) {
      TestFrame frames[3] = {randomFrame(f, w, h, 13, kColorimetries[0], seed++),
                             randomFrame(f, w, h, 0, kColorimetries[0], seed++),
                             randomFrame(f, w, h, 13, kColorimetries[0], seed++)};
      const std::string what =
          std::string(formatName(f)) + " " + std::to_string(w) + "x" + std::to_string(h);
      // Two rounds, so both buffers of each plane's ring have held a staged frame.
      for (int round = 0; round < 2; ++round)
        for (int i = 0; i < 3; ++i) {
          auto cpu = convertToRgbaCpu(frames[i].frame);
          ASSERT_TRUE(cpu.ok());
          expectSame(stagedThenImported(frames[i].frame, frames[i].frame), *cpu,
                     what + " staged frame " + std::to_string(i));
        }
      // Staged one frame, imported another: the other one's pixels.
      auto second = convertToRgbaCpu(frames[1].frame);
      ASSERT_TRUE(second.ok());
      expectSame(stagedThenImported(frames[0].frame, frames[1].frame), *second,
                 what + " another frame than the staged one");
      // Staged twice (the first never imported, its copy perhaps still running): the second.
      EXPECT_TRUE(imp.stage(frames[0].frame).ok());
      expectSame(stagedThenImported(frames[1].frame, frames[1].frame), *second,
                 what + " staged after another staged frame");
      // Staged, settled and dropped: its source memory may go; the next import is its own.
      EXPECT_TRUE(imp.stage(frames[2].frame).ok());
      imp.settle();
      for (std::vector<uint8_t>& plane : frames[2].planes)
        std::fill(plane.begin(), plane.end(), uint8_t(0x5a));
      expectSame(stagedThenImported(frames[1].frame, frames[1].frame), *second,
                 what + " after a settled, dropped frame");
    }
  }
}

}  // namespace
}  // namespace esf
