#pragma once
// What each PixelFormat looks like in memory, as one table (libcamera's PixelFormatInfo is the
// model): names, V4L2 fourcc, planes, per-plane sample size and subsampling, where each colour
// component sits. V4L2 plane offsets, import plane specs, the CPU reference, the test encoders and
// raw dumps all read this table; adding a format is one row here plus its shader path.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/bayer_layout.hpp"
#include "esframe/base/result.hpp"
#include "esframe/base/sizes.hpp"
#include "esframe/frame.hpp"

namespace esf {

enum class ColourFamily {
  kRgb,    // R'G'B'(A) bytes
  kYuv,    // Y'CbCr: colorimetry applies
  kGrey,   // luma only, full range
  kBayer,  // raw sensor values behind a colour filter array (the row's `cfa`), bit_depth bits
};

enum class Packing {
  kPacked,      // every component in one plane, interleaved (RGB24, YUYV, GREY)
  kSemiPlanar,  // Y plane, then one interleaved chroma plane (NV12)
  kPlanar,      // one plane per component (YU12, YUV422P)
  kCompressed,  // a bitstream with no fixed layout (MJPEG)
};

// One plane: an array of samples, each `bytes_per_sample` bytes, one per `horizontal_subsampling`
// x `vertical_subsampling` pixels (rounded up at odd sizes). A sample is what the GPU reads as
// one texel: an RGBA pixel, a YUYV Y+C pair, an NV12 CbCr pair, one Y byte.
struct PlaneInfo {
  int bytes_per_sample = 0;
  int horizontal_subsampling = 1;
  int vertical_subsampling = 1;
};

// Where one colour component of a pixel lives. Full-resolution components sit in the pixel's own
// sample; subsampled (chroma) ones in the sample `block_sample` of the pixel's chroma block,
// counted in samples from the block's first pixel (YUYV: Cb in the pair's first sample, Cr in its
// second). plane < 0: the format has no such component.
struct ComponentLocation {
  int plane = -1;
  int byte_offset = 0;  // within the sample
  int block_sample = 0;
  bool subsampled = false;
  bool present() const { return plane >= 0; }
};

// A row of the table: the defaults are those of most rows (8-bit components, one plane, no
// chroma subsampling), and a component location left out is absent.
struct PixelFormatInfo {
  PixelFormat format = PixelFormat::kRGBA32;
  const char* name = "";  // what --format takes and output lines print
  uint32_t v4l2_fourcc = 0;
  const char* alias = "";  // another accepted name, or ""
  ColourFamily colour = ColourFamily::kRgb;
  Packing packing = Packing::kPacked;
  int bit_depth = 8;        // bits per component
  int width_alignment = 1;  // widths must be a multiple of this (YUYV: two pixels per 4 bytes)
  int chroma_horizontal_subsampling = 1;
  int chroma_vertical_subsampling = 1;
  int plane_count = 1;  // 0 for compressed formats
  std::array<PlaneInfo, 3> planes{};
  ComponentLocation y{}, cb{}, cr{};     // Y'CbCr formats; GREY has y only
  ComponentLocation r{}, g{}, b{}, a{};  // RGB formats; no a: opaque
  // The multi-planar API's variant of a planar format: the same planes, each in its own buffer
  // (NV12M, NV21M, YUV420M, YUV422M); 0 when there is none.
  uint32_t v4l2_mplane_fourcc = 0;
  const char* mplane_name = "";  // "NV12M", or ""
  // Bayer rows: the colour filter array's order (others: unused). Plane 0's sample is the
  // storage unit (bayer_layout.hpp): 1 byte per value, 2, or 5 per 4 values (10P), 3 per 2 (12P).
  CfaOrder cfa = CfaOrder::kRGGB;
};

// The row of `format`. Every PixelFormat has one.
const PixelFormatInfo& pixelFormatInfo(PixelFormat format);

// "YUYV", "NV12", "RGB24", ... (the names --format takes and output lines print).
const char* formatName(PixelFormat format);
// Accepts the names above, V4L2 fourccs ("RGB3", "YU12", "BX24") and a few aliases ("I420").
Result<PixelFormat> parsePixelFormat(const std::string& name);
// Every format esframe can import, in a stable order.
const std::vector<PixelFormat>& allPixelFormats();

uint32_t v4l2Fourcc(PixelFormat format);
// Either fourcc of a row: the contiguous one or the multi-planar variant (NV12M is NV12).
std::optional<PixelFormat> fromV4l2Fourcc(uint32_t fourcc);
std::string fourccString(uint32_t fourcc);  // 'YUYV' -> "YUYV"
// The DRM fourcc of the same memory layout (drm_fourcc.h; libcamera's PixelFormat uses these), or
// 0 when DRM names none: V4L2 names bytes in memory order, DRM names little-endian words, so
// V4L2's RGB24 (R, G, B bytes) is DRM's BGR888.
uint32_t drmFourcc(PixelFormat format);
std::optional<PixelFormat> fromDrmFourcc(uint32_t fourcc);

bool isYuv(PixelFormat format);  // uncompressed Y'CbCr formats: colorimetry applies
bool isCompressed(PixelFormat format);
bool isBayer(PixelFormat format);
// How a Bayer row stores its values (bayer_layout.hpp), from the row's columns.
BayerRowLayout bayerRowLayout(const PixelFormatInfo& info);
// Widths a format cannot hold: YUYV/UYVY pack two pixels per 4 bytes, so widths must be even.
bool allowsOddWidth(PixelFormat format);

// One plane of a tightly packed frame.
struct PlaneLayout {
  int bytes_per_row = 0;  // minimal stride
  int rows = 0;
  // planeLayout keeps this within kMaxFrameBytes; a hand-made layout that overflows saturates
  // (sizes.hpp), so a buffer of this size is refused rather than made short.
  size_t size() const { return saturatingSize(bytes_per_row, rows); }
};

// The samples of plane `plane` of a `width` x `height` frame: per row and rows.
int planeSamplesPerRow(const PixelFormatInfo& info, int plane, int width);
int planeRows(const PixelFormatInfo& info, int plane, int height);

// The planes of a WxH frame, tightly packed (4:2:0 chroma is ceil(W/2) x ceil(H/2)).
// Empty for compressed formats. Fails on a size outside the frame limits (sizes.hpp: each side
// 1..kMaxFrameSide, each plane and the whole frame at most kMaxFrameBytes) or an odd width the
// format cannot hold.
Result<std::vector<PlaneLayout>> planeLayout(PixelFormat format, int width, int height);
// Total bytes of a tight frame (sum of planes).
Result<size_t> frameSize(PixelFormat format, int width, int height);

// Whether `fourcc` is a row's multi-planar variant (each plane its own buffer).
bool isV4l2MplaneFourcc(uint32_t fourcc);

// Where a plane sits in a single-planar V4L2 buffer.
struct PlaneSlice {
  size_t offset = 0;  // from the buffer's start
  int stride = 0;
  size_t size = 0;
};
// The planes of an uncompressed single-planar V4L2 buffer of `height` rows at `bytes_per_line`
// (plane 0's pitch): each plane right after the previous one, its pitch scaled from plane 0's by
// its sample size and subsampling (V4L2's rule: YU12 chroma at half pitch, NV12 CbCr at full).
// Fails (kUnsupported, naming the frame) where a plane or the whole buffer would be over
// kMaxFrameBytes, so that every offset, stride and size fits 32 bits.
Result<std::vector<PlaneSlice>> v4l2PlaneSlices(PixelFormat format, int height, int bytes_per_line);

// The byte of `component` for pixel (x, y) within its plane, whose rows are `stride` bytes apart.
size_t componentOffset(const PixelFormatInfo& info, const ComponentLocation& component, int x,
                       int y, int stride);

// componentOffset for a whole frame, split into its per-column and per-row parts (the offset of
// pixel (x, y) is column[x] + row[y]): per-pixel loops then do no division.
struct ComponentOffsetTable {
  std::vector<size_t> column, row;
};
ComponentOffsetTable componentOffsets(const PixelFormatInfo& info,
                                      const ComponentLocation& component, int width, int height,
                                      int stride);

// Fills frame.planes[] to point into `bytes`, a tight frame of frame.format/width/height.
Status attachTightPlanes(Frame& frame, const uint8_t* bytes, size_t size);

// A frame of tight planes in `bytes` (which must outlive it), with its sequence and timestamp.
Result<std::optional<Frame>> makeTightFrame(PixelFormat format, int width, int height,
                                            const Colorimetry& colorimetry,
                                            const std::vector<uint8_t>& bytes, uint64_t sequence,
                                            uint64_t timestamp_ns, const std::string& source);

// "BT.601 limited" etc.
std::string colorimetryName(const Colorimetry& c);

}  // namespace esf
