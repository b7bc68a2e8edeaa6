#pragma once
// A separable box blur, exact in integers, in several forms (strategies below).
//
// One shader does both passes: a workgroup of workgroup_size invocations loads a tile of
// tile_rows x tile_width texels into shared memory (each invocation a tile_rows x
// (tile_width / workgroup_size) block: by default 4 x 4 with 32 invocations and a 4 x 128
// tile), and writes blockDim = tile_width - (filter_dim - 1) outputs per tile row. The `flip`
// uniform swaps x and y for the vertical pass. An iteration is a horizontal pass then a
// vertical one, ping-ponging between images.
//   - filter_dim odd, 1 .. the largest odd number <= tile_width (blockDim >= 1): an even tap
//     count shifts the image by half a pixel per pass (the upstream drift), so it is refused.
//   - Clamp-to-edge by explicit coordinate clamping (texelFetch outside is undefined).
//   - Each pass writes R, G, B as the 8-bit value (sum + filter_dim/2) / filter_dim of its
//     filter_dim integer taps; A is carried through from the centre texel.
//
// Strategies (same output, bit for bit):
//   tiled    the form above (glsl_es/blur.comp): filter_dim taps per output
//   sliding  a running integer sum (glsl_es/blur_sliding.comp): each invocation owns `segment`
//            consecutive outputs of one line and adds one tap and drops one per output, so the
//            cost no longer grows with filter_dim; workgroup_size neighbouring lines per
//            workgroup (the tile is workgroup_size lines x segment texels). filter_dim odd,
//            1 .. 1023; tile_width and tile_rows are not used.
//   fused    both passes in one dispatch (glsl_es/blur_fused.comp): a workgroup of
//            workgroup_size invocations reads a tile_width x tile_rows output tile plus the
//            filter's halo into shared memory once, runs the horizontal then the vertical pass
//            as sliding windows over `segment`-long runs in shared memory, and stores each
//            output once (half the image traffic of two passes). Shared memory:
//            ((tile_width + filter_dim - 1) + tile_width) * (tile_rows + filter_dim - 1) * 4.
//   split    the horizontal pass as fused's tile without a vertical halo (loads and stores
//            coalesced along rows; sliding's horizontal pass has neighbouring invocations on
//            neighbouring rows; runs of tile_width * tile_rows / workgroup_size outputs, one per
//            invocation), then sliding's vertical pass (segment, 64 lines per workgroup);
//            through a buffer, the horizontal pass of a packed source can instead run 4
//            pixels per invocation from registers (row_quads, glsl_es/blur_rows.comp).
//   stream   both passes in one dispatch (glsl_es/blur_stream.comp), streaming down the rows: a
//            workgroup of workgroup_size invocations owns workgroup_size * segment columns and
//            tile_rows output rows; it reads one source row (plus the halo) at a time into
//            shared memory with coalesced loads, each invocation slides the horizontal window
//            over its `segment` neighbouring columns and keeps a running vertical sum per column
//            with a ring of the last filter_dim rows. Every texel is read and written once per
//            tile. filter_dim odd, 1 .. 257 (16-bit lanes); tile_width is not used. Shared
//            memory: (2 * (columns + filter_dim) + filter_dim * columns) * 4 bytes.
#include <string_view>

#include "core/image/gpu_image.hpp"
#include "esframe/base/result.hpp"
#include "platform/gl_context.hpp"

namespace esf {

enum class BlurStrategy { kTiled, kSliding, kFused, kSplit, kStream };
// "tiled" | "sliding" | "fused" | "split" | "stream"
const char* blurStrategyName(BlurStrategy s);
Result<BlurStrategy> parseBlurStrategy(std::string_view name);

struct BlurParams {
  BlurStrategy strategy = BlurStrategy::kTiled;
  int filter_dim = 15;
  int iterations = 2;  // 1 .. 100
  int tile_width = 128;
  int tile_rows = 4;
  int workgroup_size = 32;  // tiled: must divide tile_width; sliding: lines per workgroup
  int segment = 64;         // sliding: outputs per invocation, 1 .. 4096
  // sliding and split's vertical pass (either form): entering taps read together before they
  // are added (reads in flight per invocation), 1 .. 16. 1 reads each when it is needed.
  int prefetch = 1;
  // split only: the horizontal pass writes a packed buffer (one uint per pixel) and the
  // vertical pass reads it as columns and writes raw 32-bit texels (glsl_es/blur_columns.comp);
  // on NVIDIA an image pass costs several times a buffer read (bench/results/h200-stages.md,
  // floors). filter_dim <= 257.
  bool buffer_intermediate = false;
  // with buffer_intermediate: the vertical pass owns 4 neighbouring columns per invocation and
  // moves them as one uvec4 per row (frames whose width is a multiple of 4; others take the
  // one-column form).
  bool column_quads = false;
  // with buffer_intermediate: the horizontal pass of a packed-buffer source owns 4 neighbouring
  // pixels per invocation and reads its window as uvec4 loads into registers
  // (glsl_es/blur_rows.comp), workgroup_size invocations per workgroup, no shared memory: on an
  // H200 the pass takes well under the tile's time. Image sources, and widths that are not a
  // multiple of 4, take the tile.
  bool row_quads = false;

  int maxFilterDim() const {
    if (strategy == BlurStrategy::kStream || buffer_intermediate) return 257;
    if (strategy != BlurStrategy::kTiled) return 1023;
    return tile_width % 2 == 1 ? tile_width : tile_width - 1;
  }
  int blockDim() const { return tile_width - (filter_dim - 1); }
  static BlurParams defaultsFor(const GlContext& gl);
  Status validate(const ComputeLimits& limits) const;
  int64_t fusedSharedBytes() const;
  int64_t streamSharedBytes() const;
};

class Blur {
 public:
  static Result<Blur> create(const GlContext& gl, const BlurParams& params);
  // `out` must have the size of `in` and be a different image.
  Status run(const GpuImage& in, GpuImage& out);
  // The packed forms (split with buffer_intermediate only; others are refused): a frame the
  // next stage reads as a packed buffer (the histogram, reduce) needs no pack pass after the
  // blur, and a packed frame is blurred without an image at all. `out` has the size of `in`
  // and is a different buffer.
  Status run(const GpuImage& in, PackedRgbaBuffer& out);
  Status run(const PackedRgbaBuffer& in, PackedRgbaBuffer& out);
  const BlurParams& params() const { return params_; }

 private:
  // One end of the split blur through a buffer: an image or a packed buffer.
  struct End {
    GLuint texture = 0, buffer = 0;
    int width = 0, height = 0;
  };
  Blur() = default;
  Status pass(GLuint in, GLuint out, int width, int height, bool flip);
  Status fused(GLuint in, GLuint out, int width, int height);
  Status stream(GLuint in, GLuint out, int width, int height);
  Status checkPackedForm(int in_w, int in_h, int out_w, int out_h, bool same) const;
  // The two passes of split through a buffer, for every pairing of image and buffer ends.
  Status splitThroughBuffer(End in, End out);
  // blur_fused.comp's horizontal pass into a buffer (from the image or a buffer), and
  // blur_columns.comp (into an image or a buffer); made at their first use.
  Result<GLuint> horizontalProgram(bool from_buffer);
  Result<GLuint> columnsProgram(bool to_buffer, bool quads);
  // blur_rows.comp (from a buffer), made at its first use.
  Result<GLuint> rowsProgram();
  const GlContext* gl_ = nullptr;
  BlurParams params_;
  GlProgram program_;
  GlProgram vertical_;  // split: sliding's vertical pass, or blur_columns.comp
  GlProgram horizontal_from_buffer_;
  GlProgram columns_[2][2];  // blur_columns.comp [to a buffer][quads], made at first use
  GlProgram rows_pass_;      // blur_rows.comp, made at first use
  GlBuffer rows_;            // split with buffer_intermediate: the horizontal pass's packed result
  size_t rows_words_ = 0;
  GLint flip_location_ = -1;
  GpuImage temp_;  // the horizontal pass's output, reused while the size stays
};

}  // namespace esf
