#pragma once
// Each esframe subcommand adds itself to the CLI11 app.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_common.hpp"

namespace esf::cli {

void addInfoCommand(CLI::App& app, GlobalOptions& global);

// Extra sections of `esframe info` contributed by other parts (capture devices, tuning cache).
struct InfoSection {
  std::string key;
  std::function<nlohmann::json(const GlobalOptions&)> collect;
  std::function<std::string(const nlohmann::json&)> print_text;
};
std::vector<InfoSection> extraInfoSections();

}  // namespace esf::cli
