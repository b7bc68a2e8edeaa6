// esframe: offscreen GLES 3.1 compute on camera frames. Data path:
//   capture/ (sources) -> core/import (to the RGBA working image) -> core/stages -> core/outputs
#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <string_view>

#include "apps/esframe/cli_common.hpp"
#include "apps/esframe/commands.hpp"

namespace {

// CLI11 says "INI was not able to parse run.frmes" of a name it does not know in a config file:
// said instead as the file, the section and the name.
std::string configErrorLine(const std::string& what, const CLI::Option& config) {
  constexpr std::string_view kUnknown = "INI was not able to parse ";
  if (!what.starts_with(kUnknown) || config.results().empty()) return what;
  const std::string item = what.substr(kUnknown.size());
  const size_t dot = item.find('.');
  std::string line = "--config " + config.results().front() + ": unknown option '" +
                     (dot == std::string::npos ? item : item.substr(dot + 1)) + "'";
  if (dot != std::string::npos) line += " in [" + item.substr(0, dot) + "]";
  return line + " (esframe " + (dot == std::string::npos ? "" : item.substr(0, dot) + " ") +
         "--help lists the options, without their dashes in the file)";
}

int runCli(int argc, char** argv) {
  using namespace esf::cli;
  CLI::App app{"esframe: GLES 3.1 compute histograms, stats and filters on camera frames"};
  app.set_version_flag("--version", std::string("esframe ") + ESFRAME_VERSION);
  app.require_subcommand(1);
  app.footer(
      "Exit codes: 0 success (also on SIGINT/SIGTERM and a closed stdout), 1 runtime error, "
      "2 bad command line, 3 capture device lost mid-stream, 4 GPU hung or lost, 5 input ended "
      "inside a frame.");
  GlobalOptions global;
  addGlobalOptions(app, global);
  // A service reads its options from a file (systemd's esframe@.service: /etc/esframe/NAME.conf):
  // "name = value" a line, a command's options under its section ("[run]").
  CLI::Option* config =
      app.set_config("--config", "", "Read options from FILE: 'name = value' lines, [run] section");
  app.allow_config_extras(CLI::config_extras_mode::error);
  app.parse_complete_callback([&global]() { applyLogLevel(global); });
  addInfoCommand(app, global);
  addRunCommand(app, global);
  addTuneCommand(app, global);
  addSelftestCommand(app, global);
  addProgramsCommand(app, global);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ConfigError& e) {
    std::fprintf(stderr, "esframe: error: %s\n", configErrorLine(e.what(), *config).c_str());
    return kExitUsage;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "esframe: error: %s\n", e.what());
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

// Nothing escapes main: the library returns errors as values, and what the CLI's own code may
// still throw (std::bad_alloc building a message or a table) is one line and exit status 1.
int main(int argc, char** argv) {
  try {
    return runCli(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("esframe: error: out of memory\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "esframe: error: %s\n", e.what());
  } catch (...) {
    std::fputs("esframe: error: an unexpected exception of an unknown type\n", stderr);
  }
  return esf::cli::kExitFailure;
}
