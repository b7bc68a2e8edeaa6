#pragma once
// Whether a dequeued V4L2 buffer holds a whole frame: a driver that completes a buffer early
// (a USB transfer cut short, a sensor that stopped mid-frame) says so only in bytesused.
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "capture/v4l2_format.hpp"
#include "esframe/frame.hpp"

namespace esf {

// Why a buffer of `fmt` (holding `format`) whose memory planes carry `bytesused` bytes is not a
// whole uncompressed frame ("plane 0 holds 1000 of 115200 bytes"), or nothing when it is.
// A frame needs each of its planes at V4L2's offsets and pitches (v4l2PlaneSlices, or
// bytesperline x rows per memory plane). Compressed frames vary in size: always nothing.
std::optional<std::string> v4l2ShortPayload(
    const V4l2StreamFormat& fmt, PixelFormat format,
    const std::array<uint32_t, kMaxMemoryPlanes>& bytesused);

}  // namespace esf
