#pragma once
// The scopes on the GPU (glsl_es/scopes.comp): the waveform, RGB parade and vectorscope counts
// of an RGBA8 image (a texture, or the packed buffer the histogram reads) in one pass, equal bit
// for bit to core/stages/scopes_reference.hpp.
//
// Shape: a workgroup covers a tile of tile_columns pixel columns by rows_per_workgroup rows.
// Its pixel columns fall into at most tile_columns scope columns (W' <= W), whose waveform and
// parade counts it adds in shared memory (tile_columns * 256 words a plane: the waveform and
// the parade's three), then into the output buffer with global atomics, only the words it
// counted. The vectorscope's 65536 bins are added with global atomics, one per run of equal bins
// down an invocation's column (a flat frame's pixels would all add to one word). The output is
// one storage buffer in ScopeCounts' layouts: the waveform, then the parade, then the
// vectorscope, each only where counted; the host zeroes it before each dispatch.
//
// A YUV frame's vectorscope counts its own chroma samples, not the RGBA image's: a Scopes made
// for ScopesInput::kChromaPlanes counts only the vectorscope, from the plane textures the
// import converted (ChromaPlanes), the same workgroups over the chroma samples with the same
// runs of equal bins. It reads what the import already has on the GPU, so zero-copy frames
// (planes only in dmabufs) get their vectorscope too.
#include <GLES3/gl31.h>

#include <optional>
#include <span>

#include "core/image/gpu_image.hpp"
#include "core/import/frame_import.hpp"
#include "core/stages/stage_gl.hpp"
#include "esframe/base/result.hpp"
#include "esframe/scope_data.hpp"
#include "platform/gl_context.hpp"

namespace esf {

struct ScopesParams {
  int tile_columns = 8;          // a power of two, 1..16
  int workgroup_rows = 32;       // invocations per column of the tile
  int rows_per_workgroup = 256;  // a multiple of workgroup_rows
  // The widest tile whose shared counts fit the driver's shared memory, with at most 256
  // invocations (v3d's) or the driver's maximum.
  static ScopesParams defaultsFor(const GlContext& gl, const ScopeOptions& scopes);
  Status validate(const ComputeLimits& limits, const ScopeOptions& scopes) const;
};

// A YUV frame's chroma on the GPU as the import samples it (glsl_es/import_yuv.comp): chroma
// sample (x, y), the one of pixel (x * hsub, y * vsub), is texel (x, y) of the Cb and Cr planes
// (planar), of the CbCr plane (semi-planar, CrCb where swap_uv), or texels 2x (Cb) and 2x + 1
// (Cr) of the Y+C plane (YUYV: C in G, UYVY: C in R).
struct ChromaPlanes {
  enum Layout { kPlanar = 0, kSemiPlanar = 1, kYuyv = 2, kUyvy = 3 };
  GLuint planes[3] = {0, 0, 0};  // the import's plane textures
  Layout layout = kPlanar;
  bool swap_uv = false;
  int width = 0, height = 0;              // chroma samples
  int hsub = 1, vsub = 1;                 // pixels a sample covers, in x and y
  int frame_width = 0, frame_height = 0;  // pixels
};

// Where a YUV format's chroma samples lie in the import's plane textures, and how many pixels
// each covers: read from the format table once, where the format is first seen, and kept for its
// frames.
struct ChromaLayout {
  ChromaPlanes::Layout layout = ChromaPlanes::kPlanar;
  bool swap_uv = false;
  int hsub = 1, vsub = 1;
};
ChromaLayout chromaLayoutOf(PixelFormat yuv_format);

// The chroma planes of a YUV frame the import has just converted (`imported`, of a format whose
// chromaLayoutOf is `layout`).
ChromaPlanes chromaPlanesOf(const ImportedFrame& imported, const ChromaLayout& layout);

// signalstats' per-sample counts of a YUV frame beside its vectorscope (kChromaPlanes with
// signalstats; core/stats/signalstats.hpp turns them into its figures with the vectorscope's
// pair counts): each chroma plane's sum |C - previous C| against the samples of the previous
// run, kept on the GPU (none on the first run and after a change of chroma size), and the
// pixels out of broadcast range (Y outside 16..235, its Cb or Cr outside 16..240).
struct ChromaSignalstatsCounts {
  bool has_previous = false;
  uint64_t cb_difference = 0, cr_difference = 0;
  uint64_t out_of_range_pixels = 0;
};

enum class ScopesInput {
  kImage,         // an RGBA8 image (and its luma lane): run(image, luma, columns)
  kPackedBuffer,  // a packed RGBA buffer (and its luma lane's): run(packed, luma, columns)
  kChromaPlanes,  // a YUV frame's chroma samples, the vectorscope alone: run(planes)
};

class Scopes {
 public:
  // `scopes` says which are counted (its columns are chosen per image by run()).
  // `signalstats`: with kChromaPlanes, also ChromaSignalstatsCounts (readSignalstats()).
  static Result<Scopes> create(const GlContext& gl, const ScopesParams& params,
                               const ScopeOptions& scopes, ScopesInput input = ScopesInput::kImage,
                               bool signalstats = false);
  // Counts `image`; the waveform's L is `luma`'s red channel where given (the same size),
  // else BT.709 of `image`. `columns`: W', 1..image.width().
  Status run(const GpuImage& image, const GpuImage* luma, int columns);
  // kPackedBuffer: the same counts of the packed pixels (luma: its words' low bytes).
  Status run(const PackedRgbaBuffer& packed, const PackedRgbaBuffer* luma, int columns);
  // kChromaPlanes: counts the vectorscope of `planes`' width x height samples.
  Status run(const ChromaPlanes& planes);
  // The last run's counts: waveform, parade and vectorscope where counted (columns 1 for
  // kChromaPlanes).
  Result<ScopeCounts> read() const;
  const ScopesParams& params() const { return params_; }
  // The last run's signalstats counts (made with signalstats).
  Result<ChromaSignalstatsCounts> readSignalstats() const;
  // For a frame's one read-back: where read() and readSignalstats() read the last run's words,
  // and the counts from those words.
  GpuWords resultWords() const { return {counts_.get(), 0, words_}; }
  Result<ScopeCounts> countsOf(std::span<const uint32_t> words) const;
  GpuWords signalstatsWords() const { return {partials_.get(), 0, partial_words_}; }
  Result<ChromaSignalstatsCounts> signalstatsOf(std::span<const uint32_t> words) const;
  Status poison(uint32_t pattern);  // testing aid: fills the output buffer

 private:
  Scopes(const GlContext& gl, const ScopesParams& params, const ScopeOptions& scopes,
         ScopesInput input, bool signalstats)
      : gl_(&gl), params_(params), scopes_(scopes), input_(input), signalstats_(signalstats) {}
  Result<GlProgram> build(bool luma_image) const;
  // The image or packed form's checks, uniforms and dispatch; `bind` binds the pixels.
  template <typename Bind>
  Status runPixels(int w, int h, bool luma, int columns, const Bind& bind);
  // Makes the output buffer `words` long (kept while the length is the same) and zeroes it on
  // the GPU.
  Status clearCounts(size_t words);
  // signalstats: its buffers (made for `planes` and `groups` workgroups) and uniforms.
  Status bindSignalstats(GLuint program, const ChromaPlanes& planes, size_t groups);
  const GlContext* gl_ = nullptr;
  ScopesParams params_;
  ScopeOptions scopes_;
  ScopesInput input_ = ScopesInput::kImage;
  bool signalstats_ = false;
  // signalstats: the previous run's chroma samples (Cb | Cr << 8 each), their size, and three
  // sums a workgroup.
  GlBuffer previous_, partials_;
  int previous_width_ = -1, previous_height_ = -1;
  bool has_previous_ = false;
  size_t partial_words_ = 0, previous_words_ = 0;
  GlProgram program_, luma_program_;  // luma_program_: LUMA_IMAGE, made at its first run
  // The counts, added with atomics: a buffer the host never maps (NVIDIA may keep a buffer it
  // maps in host memory, where every atomic crosses the bus), copied into a buffer of read()'s
  // own, or by a frame's read-back into its buffer.
  GlBuffer counts_;
  GlBuffer zeros_;  // words_ zeros, copied into counts_ before each run
  size_t words_ = 0;
  int columns_ = 0;
  uint64_t pixels_ = 0;
};

}  // namespace esf
