#pragma once
// Test images for the stage suites: seeded random, flat and gradient frames of any size, and
// the size/content matrix of issue 3.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include <functional>
#include <optional>

#include "base/channels.hpp"
#include "core/image/gpu_image.hpp"
#include "esframe/rgba_image.hpp"
#include "tests/support/gl_test_context.hpp"

namespace esf::test {

enum class Content { kRandom, kFlat0, kFlat255, kFlat128, kGradient };

inline const char* contentName(Content c) {
  switch (c) {
    case Content::kRandom:
      return "random";
    case Content::kFlat0:
      return "flat0";
    case Content::kFlat255:
      return "flat255";
    case Content::kFlat128:
      return "flat128";
    case Content::kGradient:
      return "gradient";
  }
  return "?";
}

constexpr Content kAllContents[] = {Content::kRandom, Content::kFlat0, Content::kFlat255,
                                    Content::kFlat128, Content::kGradient};

struct Size {
  int w, h;
};
// A frame size and the grid of health regions over it (columns x rows cells).
struct RegionCase {
  int w, h, columns, rows;
};
// Small sizes run the full matrix; the large ones a subset.
constexpr Size kSmallSizes[] = {{1, 1}, {3, 7}, {127, 129}, {257, 1}, {1, 257}};
constexpr Size kLargeSizes[] = {{640, 480}, {1920, 1080}};

inline RgbaImage makeImage(int w, int h, Content content, uint32_t seed = 1) {
  RgbaImage img(w, h);
  std::mt19937 rng(seed);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      uint8_t* p = img.at(x, y);
      for (int c = 0; c < 4; ++c) {
        switch (content) {
          case Content::kRandom:
            p[c] = uint8_t(rng());
            break;
          case Content::kFlat0:
            p[c] = 0;
            break;
          case Content::kFlat255:
            p[c] = 255;
            break;
          case Content::kFlat128:
            p[c] = 128;
            break;
          case Content::kGradient:
            // Every channel ramps differently, so channel mix-ups show.
            p[c] = uint8_t(c == 0   ? x * 255 / std::max(w - 1, 1)
                           : c == 1 ? y * 255 / std::max(h - 1, 1)
                           : c == 2 ? (x + y) & 255
                                    : 255 - (x * 7 + y * 3) % 256);
            break;
        }
      }
    }
  }
  return img;
}

// The luma the health passes read: the red channel, or the BT.709 luma of the RGB.
inline std::vector<uint8_t> lumaOf(const RgbaImage& image, bool from_rgb) {
  std::vector<uint8_t> y(size_t(image.width) * size_t(image.height));
  for (size_t i = 0; i < y.size(); ++i) {
    const uint8_t* p = &image.pixels[i * 4];
    y[i] = uint8_t(from_rgb ? lumaBt709(p[0], p[1], p[2]) : p[0]);
  }
  return y;
}

inline std::string describe(int w, int h, Content c) {
  return std::to_string(w) + "x" + std::to_string(h) + " " + contentName(c);
}

// A Raspberry Pi v3d's compute limits: every stage's defaults must pass these.
inline ComputeLimits v3dLimits() {
  ComputeLimits l;
  for (int i = 0; i < 3; ++i) l.work_group_count[i] = 65535;
  l.work_group_size[0] = l.work_group_size[1] = 256;
  l.work_group_size[2] = 64;
  l.work_group_invocations = 256;
  l.shared_memory_size = 32 * 1024;
  l.ssbo_bindings = 8;
  l.max_ssbo_size = 1 << 27;
  l.max_texture_size = 4096;
  return l;
}

// Runs an image-to-image stage on the GPU: uploads `in`, poisons a w x h output (so pixels the
// stage fails to write show), runs `stage(src, dst)` and downloads the output.
inline RgbaImage runImageStage(const RgbaImage& in, int w, int h,
                               const std::function<Status(const GpuImage&, GpuImage&)>& stage) {
  Result<GpuImage> src = GpuImage::fromImage(in);
  Result<GpuImage> dst = GpuImage::create(w, h);
  EXPECT_TRUE(src.ok() && dst.ok());
  if (!src.ok() || !dst.ok()) return {};
  RgbaImage poison(w, h);
  for (size_t i = 0; i < poison.pixels.size(); ++i) poison.pixels[i] = uint8_t(0xA5 + i % 7);
  EXPECT_TRUE(dst->upload(poison).ok());
  Status s = stage(src.value(), dst.value());
  EXPECT_TRUE(s.ok()) << s.error().message;
  Result<RgbaImage> out = dst->download();
  EXPECT_TRUE(out.ok());
  return out.ok() ? out.value() : RgbaImage{};
}

// Stage::create(gl, p): none where the context refuses `p` beyond the GLES 3.1 minimums (the
// test skips that configuration) or where it failed (a failure of the test, naming `what`).
template <class Stage, class Params>
std::optional<Stage> createStage(GlContext& gl, const Params& p, std::string_view what) {
  Result<Stage> made = Stage::create(gl, p);
  if (refusedForSpecMinimums(p.validate(gl.limits()), made)) return std::nullopt;
  if (!made) {
    ADD_FAILURE() << what << ": " << made.error().message;
    return std::nullopt;
  }
  return std::move(made.value());
}

// `r` (a Status, or the Result of a create) failed, its message naming `part`: a refusal that
// says why.
template <class StatusOrResult>
void expectRefusal(const StatusOrResult& r, std::string_view part) {
  ASSERT_FALSE(r.ok()) << "accepted; expected a refusal naming " << part;
  EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
}

}  // namespace esf::test
