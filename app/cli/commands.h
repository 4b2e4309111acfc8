#pragma once
// Each subcommand registers its options and callback on the CLI11 app. Callbacks throw
// std::exception on failure; cli_main turns that into one line on stderr and exit code 1.
namespace CLI {
class App;
}

namespace cl::cli {

void addCaptionCommand(CLI::App& app);
void addInfoCommand(CLI::App& app);
void addImportCommand(CLI::App& app);

}  // namespace cl::cli
