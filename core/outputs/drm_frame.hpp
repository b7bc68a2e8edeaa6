#pragma once
// The processed camera frame on the DRM primary plane (--output drm, frame=on): where it goes on
// the screen (aspect kept, centred, black bars) and the GPU draw that puts it there, sampling
// the pipeline's working image into a scanout buffer through an FBO (llvmpipe drops imageStore
// into scanout images).
#include <cstdint>

#include "esframe/base/result.hpp"
#include "platform/gl_objects.hpp"

namespace esf {

struct FitRect {
  int32_t x = 0, y = 0, width = 0, height = 0;
  bool operator==(const FitRect&) const = default;
};

// The largest rectangle with the aspect of src_w x src_h (each side rounded to the nearest
// pixel, at least 1) that fits dst_w x dst_h, centred (the odd pixel of a bar goes right/down).
FitRect fitRect(int src_w, int src_h, int dst_w, int dst_h);

// Nearest-neighbour source column of destination column `d` inside a fit of `fit` pixels over
// `src` source pixels: the source pixel under the destination pixel's centre,
// ((2d + 1) * src) / (2 * fit), in integers (frame.frag computes the same).
inline int fitSourceIndex(int d, int src, int fit) {
  return int((int64_t(2 * d + 1) * src) / (int64_t(2) * fit));
}

class FrameScaler {
 public:
  static Result<FrameScaler> create();
  // Draws the RGBA8 `texture` (src_w x src_h, row 0 the image's top) into the bound draw
  // framebuffer of dst_w x dst_h (row 0 the screen's top, as scanout stores it): the image at
  // fitRect(), black around it.
  Status draw(GLuint texture, int src_w, int src_h, int dst_w, int dst_h) const;

 private:
  FrameScaler() = default;
  GlProgram program_;
  GlVertexArray vao_;
};

}  // namespace esf
