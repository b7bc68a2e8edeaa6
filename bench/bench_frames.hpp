#pragma once
// The bench's input frames: the synthetic contents (core/tuning/synthetic_frames.hpp) and a
// real photograph. The default photograph is a 3840x2160 camera JPEG (Sony RX100 IV) shipped by
// Debian's mate-backgrounds package, decoded with stb_image (capture/still_image) and centre-
// cropped to the target aspect ratio, then area-averaged down (or repeated up) to the size.
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/rgba_image.hpp"

namespace esf::bench {

constexpr const char* kDefaultPhoto =
    "/usr/share/backgrounds/mate/abstract/Elephants_3840x2160.jpg";

// `content`: random, flat, gradient, natural or photo.
Result<RgbaImage> benchFrame(const std::string& content, int width, int height,
                             const std::string& photo_path);
// Centre crop to w:h, then resize to w x h.
RgbaImage fitToSize(const RgbaImage& src, int width, int height);

}  // namespace esf::bench
