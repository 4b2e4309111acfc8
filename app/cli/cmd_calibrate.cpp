#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "model/evaluation/checkpoint_tools.h"
#include "model/core/errors.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace cl::cli {

void addCalibrateCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand(
        "calibrate", "Calibrate an image model's out-of-world check on training-world scenes "
                     "and store it in the checkpoint");
    static std::string path;
    static int64_t scenes = 4096;
    addCheckpointOption(cmd, path, "Image-model checkpoint to calibrate (rewritten)")
        ->required();
    cmd->add_option("--scenes", scenes, "Training-world scenes (three quarters fit, the rest "
                                        "set the threshold)")
        ->check(CLI::Range(int64_t(64), int64_t(1) << 20))
        ->capture_default_str();
    cmd->callback([] {
        const int64_t layers = calibrateWorldCheck(path, scenes);
        std::cout << "calibrated " << terminalSafe(path) << ": the out-of-world check reads " << layers
                  << " encoder layers (" << scenes << " training-world scenes)\n";
    });
}

} // namespace cl::cli
