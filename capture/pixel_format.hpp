#pragma once
// What each PixelFormat looks like in memory: names, V4L2 fourccs, plane layout.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "esframe/base/result.hpp"
#include "esframe/frame.hpp"

namespace esf {

// "YUYV", "NV12", "RGB24", ... (the names --format takes and output lines print).
const char* formatName(PixelFormat format);
// Accepts the names above, V4L2 fourccs ("RGB3", "YU12", "BX24") and a few aliases ("I420").
Result<PixelFormat> parsePixelFormat(const std::string& name);
// Every format esframe can import, in a stable order.
const std::vector<PixelFormat>& allPixelFormats();

uint32_t v4l2Fourcc(PixelFormat format);
std::optional<PixelFormat> fromV4l2Fourcc(uint32_t fourcc);
std::string fourccString(uint32_t fourcc);  // 'YUYV' -> "YUYV"

bool isYuv(PixelFormat format);  // Y'CbCr formats: colorimetry applies
bool isCompressed(PixelFormat format);
// Widths a format cannot hold: YUYV/UYVY pack two pixels per 4 bytes, so widths must be even.
bool allowsOddWidth(PixelFormat format);

// One plane of a tightly packed frame.
struct PlaneLayout {
  int bytes_per_row = 0;  // minimal stride
  int rows = 0;
  size_t size() const { return size_t(bytes_per_row) * size_t(rows); }
};

// The planes of a WxH frame, tightly packed (4:2:0 chroma is ceil(W/2) x ceil(H/2)).
// Empty for compressed formats. Fails on a zero size or an odd width the format cannot hold.
Result<std::vector<PlaneLayout>> planeLayout(PixelFormat format, int width, int height);
// Total bytes of a tight frame (sum of planes).
Result<size_t> frameSize(PixelFormat format, int width, int height);

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
