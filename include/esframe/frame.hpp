#pragma once
// A frame as a source delivers it, before import: its pixel format, planes and strides,
// timestamp and sequence number. Import (core/import) turns it into the RGBA working image.
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "esframe/base/export.hpp"
#include "esframe/base/result.hpp"

namespace esf {

// The formats esframe imports, named as V4L2 names them.
enum class PixelFormat {
  kRGBA32,  // R G B A bytes (V4L2_PIX_FMT_RGBA32 'AB24'): the working format itself
  kYUYV,
  kUYVY,
  kNV12,
  kNV21,
  kYU12,  // I420: Y plane, then U, then V
  kRGB24,
  kBGR24,
  kXRGB32,  // 'BX24'
  kARGB32,  // 'BA24'
  kXBGR32,  // 'XR24'
  kABGR32,  // 'AR24'
  kGREY,
  kMJPEG,
  kYUV422P,  // '422P': planar 4:2:2 (Y4M "C422")
  kYUV444P,  // 'YM24' contiguous: planar 4:4:4 (Y4M "C444")
  // Bayer raw: the CFA order as V4L2 names it, then the bit depth. 8: a byte per value; 10, 12,
  // 16: a little-endian 16-bit word per value; 10P/12P: MIPI CSI-2 packed (4 values in 5 bytes,
  // 2 in 3). Imported through the demosaic (preview-grade, core/stages/demosaic_reference.hpp).
  kSBGGR8,
  kSGBRG8,
  kSGRBG8,
  kSRGGB8,
  kSBGGR10,
  kSGBRG10,
  kSGRBG10,
  kSRGGB10,
  kSBGGR12,
  kSGBRG12,
  kSGRBG12,
  kSRGGB12,
  kSBGGR16,
  kSGBRG16,
  kSGRBG16,
  kSRGGB16,
  kSBGGR10P,
  kSGBRG10P,
  kSGRBG10P,
  kSRGGB10P,
  kSBGGR12P,
  kSGBRG12P,
  kSGRBG12P,
  kSRGGB12P,
};

// "YUYV", "NV12", "RGB24", ... as V4L2 names them. parsePixelFormat also takes V4L2 fourccs
// ("RGB3", "YU12") and aliases ("I420"); its error names the format.
ESF_API const char* formatName(PixelFormat format);
ESF_API Result<PixelFormat> parsePixelFormat(const std::string& name);

enum class YcbcrEncoding { kBt601, kBt709 };

struct Colorimetry {
  YcbcrEncoding encoding = YcbcrEncoding::kBt601;
  bool full_range = false;  // false: limited (16-235 luma, 16-240 chroma)
};

// DRM_FORMAT_MOD_INVALID (drm_fourcc.h, not included by public headers): no modifier given.
// platform/egl_image.cpp checks the two agree.
inline constexpr uint64_t kFormatModifierInvalid = 0x00ffffffffffffffull;

struct FramePlane {
  const uint8_t* data = nullptr;  // CPU-visible bytes, or null for a dmabuf-only plane
  size_t size = 0;                // bytes in this plane
  int stride = 0;                 // bytes per row
  int dmabuf_fd = -1;             // zero-copy: the plane's dmabuf (owned by the source)
  uint32_t offset = 0;            // byte offset of the plane in its dmabuf
  uint64_t modifier = kFormatModifierInvalid;  // DRM format modifier
};

struct Frame {
  PixelFormat format = PixelFormat::kRGBA32;
  int width = 0;
  int height = 0;
  Colorimetry colorimetry;
  std::array<FramePlane, 3> planes{};
  int plane_count = 0;
  uint64_t timestamp_ns = 0;  // from the buffer (V4L2) or synthesized from the frame rate
  uint64_t sequence = 0;
  uint64_t dropped = 0;    // frames lost before this one (sequence gaps)
  uint64_t corrupted = 0;  // buffers the driver flagged as errors, skipped before this one
  std::string source;      // what produced it: "pattern", "/dev/video0", a file name
};

}  // namespace esf
