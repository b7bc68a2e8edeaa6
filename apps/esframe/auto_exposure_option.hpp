#pragma once
// --auto-exposure[=KEY=VALUE,...] -> AutoExposureOptions. Keys: metric=msv|mean, target=X,
// band=X, damping=X (0 < X <= 1), settle=N, control=NAME. Without target/band: msv 2.5 +- 0.1,
// mean 118 +- 8.
#include <string>

#include "esframe/auto_exposure.hpp"

namespace esf::cli {

Result<AutoExposureOptions> parseAutoExposureOption(const std::string& text);

}  // namespace esf::cli
