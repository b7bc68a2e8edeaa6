#include "base/bayer_layout.hpp"

#include <string>

namespace esf {

int cfaColour(CfaOrder order, int x, int y) {
  const int red_x = order == CfaOrder::kGRBG || order == CfaOrder::kBGGR;
  const int red_y = order == CfaOrder::kGBRG || order == CfaOrder::kBGGR;
  const int px = (x ^ red_x) & 1, py = (y ^ red_y) & 1;
  if (px == 0 && py == 0) return 0;
  if (px == 1 && py == 1) return 2;
  return 1;
}

CfaSite cfaSite(CfaOrder order, int x, int y) {
  switch (cfaColour(order, x, y)) {
    case 0:
      return CfaSite::kR;
    case 2:
      return CfaSite::kB;
    default:
      return cfaColour(order, x + 1, y) == 0 ? CfaSite::kGr : CfaSite::kGb;
  }
}

Status BayerRowLayout::validate(int width) const {
  const bool known =
      (bit_depth == 8 && bytes_per_sample == 1 && pixels_per_sample == 1) ||
      (bit_depth > 8 && bit_depth <= 16 && bytes_per_sample == 2 && pixels_per_sample == 1) ||
      (bit_depth == 10 && bytes_per_sample == 5 && pixels_per_sample == 4) ||
      (bit_depth == 12 && bytes_per_sample == 3 && pixels_per_sample == 2);
  if (!known)
    return fail(ErrorCode::kUnsupported, "no Bayer layout of ", std::to_string(bit_depth),
                " bits in ", std::to_string(bytes_per_sample), " bytes per ",
                std::to_string(pixels_per_sample), " pixels");
  if (width < 1 || width % pixels_per_sample != 0)
    return fail(ErrorCode::kInvalidArgument, "a ", std::to_string(bit_depth),
                "-bit packed Bayer row needs a width that is a multiple of ",
                std::to_string(pixels_per_sample), ", got ", std::to_string(width));
  return {};
}

size_t BayerRowLayout::rowBytes(int width) const {
  return size_t(width / pixels_per_sample) * size_t(bytes_per_sample);
}

}  // namespace esf
