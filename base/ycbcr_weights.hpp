#pragma once
// The constants of a Y'CbCr encoding, as ITU-R BT.601 and BT.709 give them: the one place both
// directions (capture/frame_encode.cpp, RGB to Y'CbCr; core/import, back) take them from.
#include "esframe/frame.hpp"

namespace esf {

struct YcbcrWeights {
  double kr, kg, kb;  // Y' = kr R' + kg G' + kb B'
  // The codes of 255 that the range spans: luma 219 (16..235) and chroma 224 (16..240) in
  // limited range, 255 in full range.
  double luma_span, chroma_span;
};

constexpr YcbcrWeights ycbcrWeights(const Colorimetry& c) {
  const double kr = c.encoding == YcbcrEncoding::kBt709 ? 0.2126 : 0.299;
  const double kb = c.encoding == YcbcrEncoding::kBt709 ? 0.0722 : 0.114;
  return {kr, 1.0 - kr - kb, kb, c.full_range ? 255.0 : 219.0, c.full_range ? 255.0 : 224.0};
}

}  // namespace esf
