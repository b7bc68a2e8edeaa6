#pragma once
// KEY=VALUE[,...] text to a HealthConfig: ffmpeg's option names, pix_th, pic_th and
// black_min_duration (blackdetect), noise (a fraction, or decibels with a dB suffix, as
// freezedetect takes it) and freeze_duration (freezedetect), threshold (scdet); and the regions'
// own: grid=CxR, roi=X,Y,W,H[,...], change (a pixel's change level), flat (a region's Tenengrad
// below which it is flat), detail_loss (the share of its last uncovered Tenengrad below which it
// is flat), covered (the fraction of flat cells that makes the picture covered) and
// covered_min_duration. Empty text: the defaults. Errors name `what` (the CLI's "--health",
// the element's "health-options") and the key.
#include <string_view>

#include "esframe/base/result.hpp"
#include "esframe/health.hpp"

namespace esf {

Result<HealthConfig> parseHealthKeys(std::string_view text, std::string_view what);

}  // namespace esf
