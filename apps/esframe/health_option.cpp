#include "apps/esframe/health_option.hpp"

namespace esf::cli {

Result<HealthConfig> parseHealthOption(const std::string& text) {
  return parseHealthConfig(text, "--health");
}

}  // namespace esf::cli
