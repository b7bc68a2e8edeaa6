#include "bench/bench_frames.hpp"

#include <algorithm>
#include <map>

#include "capture/still_image.hpp"
#include "core/stages/resize_reference.hpp"
#include "core/tuning/synthetic_frames.hpp"

namespace esf::bench {

RgbaImage fitToSize(const RgbaImage& src, int width, int height) {
  // The largest centred crop with the target's aspect ratio.
  int cw = src.width, ch = src.height;
  if (int64_t(cw) * height > int64_t(ch) * width)
    cw = int(int64_t(ch) * width / height);
  else
    ch = int(int64_t(cw) * height / width);
  cw = std::max(cw, 1), ch = std::max(ch, 1);
  RgbaImage crop(cw, ch);
  int x0 = (src.width - cw) / 2, y0 = (src.height - ch) / 2;
  for (int y = 0; y < ch; ++y) std::copy_n(src.at(x0, y0 + y), size_t(cw) * 4, crop.at(0, y));
  if (cw >= width && ch >= height) return resizeReference(crop, width, height);
  RgbaImage up(width, height);  // a photo smaller than the frame: nearest neighbour
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      std::copy_n(crop.at(int(int64_t(x) * cw / width), int(int64_t(y) * ch / height)), 4,
                  up.at(x, y));
  return up;
}

Result<RgbaImage> benchFrame(const std::string& content, int width, int height,
                             const std::string& photo_path) {
  if (content == "photo") {
    static std::map<std::string, RgbaImage> decoded;  // decode each photo once
    auto it = decoded.find(photo_path);
    if (it == decoded.end()) {
      Result<RgbaImage> img = loadStillImage(photo_path);
      if (!img) return fail(img.error().code, "photo: ", img.error().message);
      it = decoded.emplace(photo_path, std::move(img.value())).first;
    }
    return fitToSize(it->second, width, height);
  }
  Result<FrameContent> c = parseFrameContent(content);
  if (!c)
    return fail(ErrorCode::kInvalidArgument, "unknown frame content '", content,
                "' (random, flat, gradient, natural, photo)");
  return syntheticFrame(c.value(), width, height, 12345);
}

}  // namespace esf::bench
