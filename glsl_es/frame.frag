// The processed frame on the DRM primary plane (core/outputs/drm_frame.hpp): per pixel of the
// scanout buffer, the working image's pixel under its centre, nearest-neighbour, inside the
// aspect-kept rectangle `fit`; black outside. Integers from gl_FragCoord, so the result is exact:
// source = ((2d + 1) * source_size) / (2 * fit size). Window row 0 is scanout row 0 (the top of
// the screen) and texture row 0 is the image's top row: no flip.
uniform highp sampler2D image;  // RGBA8, source_size
uniform ivec4 fit;              // x, y, width, height on the screen
uniform ivec2 source_size;

in vec2 texcoord;  // unused: the pixel is rebuilt from gl_FragCoord
out vec4 color;

void main() {
  ivec2 d = ivec2(gl_FragCoord.xy) - fit.xy;
  if (d.x < 0 || d.y < 0 || d.x >= fit.z || d.y >= fit.w) {
    color = vec4(0.0, 0.0, 0.0, 1.0);
    return;
  }
  ivec2 s = ((2 * d + 1) * source_size) / (2 * fit.zw);
  color = vec4(texelFetch(image, s, 0).rgb, 1.0);
}
