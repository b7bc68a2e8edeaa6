#pragma once
// --health[=KEY=VALUE,...]: the camera health figures and events (esframe/health.hpp); the keys
// are esf::parseHealthConfig's.
#include <string>

#include "esframe/base/result.hpp"
#include "esframe/health.hpp"

namespace esf::cli {

Result<HealthConfig> parseHealthOption(const std::string& text);

}  // namespace esf::cli
