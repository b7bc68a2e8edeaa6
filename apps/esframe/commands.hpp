#pragma once
// Each esframe subcommand adds itself to the CLI11 app.
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "apps/esframe/cli_common.hpp"
#include "esframe/capture_devices.hpp"

namespace esf::cli {

void addInfoCommand(CLI::App& app, GlobalOptions& global);
void addRunCommand(CLI::App& app, GlobalOptions& global);
void addTuneCommand(CLI::App& app, GlobalOptions& global);
void addSelftestCommand(CLI::App& app, GlobalOptions& global);
void addProgramsCommand(CLI::App& app, GlobalOptions& global);

// Extra sections of `esframe info` contributed by other parts (capture devices, tuning cache).
struct InfoSection {
  std::string key;
  std::function<nlohmann::json(const GlobalOptions&)> collect;
  std::function<std::string(const nlohmann::json&)> print_text;
};
std::vector<InfoSection> extraInfoSections();
// A section of one of the library's device listings: its JSON, and its text as listed.
InfoSection listingSection(std::string key,
                           std::function<Result<DeviceListing>(const GlobalOptions&)> list);
// The tuning cache and what strategy=auto picks per size class (tune_command.cpp).
InfoSection tuningInfoSection();

}  // namespace esf::cli
