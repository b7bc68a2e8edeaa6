#include "apps/esframe/health_option.hpp"

#include "base/health_keys.hpp"

namespace esf::cli {

Result<HealthConfig> parseHealthOption(const std::string& text) {
  return parseHealthKeys(text, "--health");
}

}  // namespace esf::cli
