#pragma once
// The options several commands share, declared once so they read, check and describe themselves
// the same way everywhere. Each returns the CLI11 option for anything more (->required() ...).
#include <string>

namespace CLI {
class App;
class Option;
} // namespace CLI

namespace cl::cli {

// --checkpoint PATH ("Checkpoint file", or what the command says it must be).
CLI::Option* addCheckpointOption(CLI::App* cmd, std::string& path,
                                 const std::string& what = "Checkpoint file");
// --device cpu|cuda, the default shown.
CLI::Option* addDeviceOption(CLI::App* cmd, std::string& device);
// --json, saying what the JSON holds.
CLI::Option* addJsonFlag(CLI::App* cmd, bool& json, const std::string& what = "Print JSON");
// --threads N on the top-level app: 0 (all cores) up to four times the cores.
CLI::Option* addThreadsOption(CLI::App& app, int& threads);

// The app's data folder as the app finds it: $CAPTIONLENS_DATA, else share/captionlens beside
// the program (installed) or in the build tree; empty when none holds the bundled model.
std::string bundledData();
// Its default model; throws (asking for --checkpoint) when there is none.
std::string bundledModel();

} // namespace cl::cli
