#pragma once
// --health[=KEY=VALUE,...]: the camera health figures and events (esframe/health.hpp), with
// ffmpeg's option names: pix_th, pic_th and black_min_duration (blackdetect), noise (a
// fraction, or decibels with a dB suffix, as freezedetect takes it) and freeze_duration
// (freezedetect), threshold (scdet).
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/health.hpp"

namespace esf::cli {

Result<HealthConfig> parseHealthOption(const std::string& text);

}  // namespace esf::cli
