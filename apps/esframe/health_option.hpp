#pragma once
// --health[=KEY=VALUE,...]: the camera health figures and events (esframe/health.hpp), with
// ffmpeg's option names: pix_th, pic_th and black_min_duration (blackdetect), noise (a
// fraction, or decibels with a dB suffix, as freezedetect takes it) and freeze_duration
// (freezedetect), threshold (scdet); and the regions' own: grid=CxR, roi=X,Y,W,H[,...],
// change (a pixel's change level), flat (a region's Tenengrad below which it is flat),
// detail_loss (the share of its last uncovered Tenengrad below which it is flat), covered
// (the fraction of flat cells that makes the picture covered) and covered_min_duration.
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/health.hpp"

namespace esf::cli {

Result<HealthConfig> parseHealthOption(const std::string& text);

}  // namespace esf::cli
