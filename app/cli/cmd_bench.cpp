#include "app/cli/commands.h"
#include "app/cli/options.h"
#include "model/bench/benchmark.h"
#include "model/data/npy.h"

#include <CLI/CLI.hpp>

#include <iostream>

namespace cl::cli {

void addBenchCommand(CLI::App& app) {
    static std::string checkpoint;
    static BenchOptions o;
    static bool json = false, notebook = false;
    static std::string features;
    auto* cmd =
        app.add_subcommand("bench", "Benchmark a checkpoint (and the notebook configuration)");
    addCheckpointOption(cmd, checkpoint, "Image-model checkpoint to benchmark");
    cmd->add_flag("--notebook", notebook,
                  "Also benchmark the notebook configuration (feature input)");
    addDeviceOption(cmd, o.device);
    cmd->add_option("--runs", o.runs, "Timed runs per figure (after warm-up)")
        ->check(CLI::Range(1, 10000))
        ->capture_default_str();
    addJsonFlag(cmd, json, "Print JSON (one report per line)");
    cmd->add_option("--features", features,
                    "Feature rows (.npy, 64+ rows) for feature-input checkpoints");
    cmd->callback([] {
        if (checkpoint.empty() && !notebook)
            throw std::invalid_argument("give --checkpoint C and/or --notebook");
        if (!features.empty()) {
            const auto m = readNpy(features);
            o.features = m.data;
            o.featureRows = m.rows;
        }
        std::vector<BenchReport> reports;
        if (!checkpoint.empty())
            reports.push_back(benchCheckpoint(checkpoint, o));
        if (notebook)
            reports.push_back(benchNotebook(o));
        for (const auto& r : reports)
            std::cout << (json ? r.toJson() : r.toText()) << "\n";
    });
}

} // namespace cl::cli
