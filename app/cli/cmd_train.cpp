#include "app/cli/commands.h"
#include "app/cli/train_parallel.h"
#include "app/cli/train_quality.h"
#include "model/api/threads.h"
#include "model/api/trainer.h"
#include "model/core/errors.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

namespace cl::cli {

namespace {

std::vector<double> stepMs, dataMs; // per step, for the timing summary

void printProgress(const TrainProgress& p) {
    stepMs.push_back(p.stepMs);
    dataMs.push_back(p.dataMs);
    const int width = 30, filled = static_cast<int>(width * p.step / std::max<int64_t>(1, p.steps));
    std::string bar(static_cast<size_t>(filled), '=');
    bar.resize(width, ' ');
    const int eta = static_cast<int>(p.secondsLeft);
    std::fprintf(stderr, "\rstep %lld/%lld [%s] loss %.4f  %.0f scenes/s  ETA %d:%02d  ",
                 static_cast<long long>(p.step), static_cast<long long>(p.steps), bar.c_str(),
                 p.loss, p.scenesPerSecond, eta / 60, eta % 60);
    if (p.step == p.steps)
        std::fprintf(stderr, "\n");
}

// "100,300,1000": whole steps in 1..steps, at most 1000 of them; anything else is one line.
std::vector<int64_t> snapshotList(const std::string& text, int64_t steps) {
    std::vector<int64_t> out;
    for (size_t pos = 0; pos <= text.size() && !text.empty();) {
        const size_t comma = std::min(text.find(',', pos), text.size());
        const std::string item = text.substr(pos, comma - pos);
        char* end = nullptr;
        errno = 0;
        const long long step = std::strtoll(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || errno == ERANGE || step < 1 || step > steps)
            throw std::invalid_argument("--snapshots: '" + printable(item, 40) +
                                        "' is not a step in 1.." + std::to_string(steps) +
                                        " (give steps like 100,300,1000)");
        out.push_back(step);
        if (out.size() > 1000)
            throw std::invalid_argument("--snapshots: at most 1000 snapshots");
        pos = comma + 1;
    }
    return out;
}

} // namespace

void addTrainCommand(CLI::App& app) {
    static TrainOptions o;
    static std::string snapshots;
    auto* cmd =
        app.add_subcommand("train", "Train an image captioning model on generated shapes scenes");
    cmd->add_option("--steps", o.steps, "Optimiser steps")->capture_default_str();
    cmd->add_option("--batch", o.batch, "Scenes per step")->capture_default_str();
    cmd->add_option("--heads", o.heads, "Attention heads")->capture_default_str();
    cmd->add_option("--layers", o.layers, "Decoder layers")->capture_default_str();
    cmd->add_option("--width", o.width, "Model width W (also the encoder output width)")
        ->capture_default_str();
    cmd->add_option("--ffn", o.ffn, "Feed-forward width")->capture_default_str();
    cmd->add_option("--seed", o.seed, "Random seed (weights and training scenes)")
        ->capture_default_str();
    cmd->add_option("--lr", o.lr, "Peak learning rate")
        ->check(
            [](const std::string& text) {
                const double v = std::strtod(text.c_str(), nullptr);
                return std::isfinite(v) && v > 0 ? std::string()
                                                 : "must be a finite number above 0, not " + text;
            },
            "POSITIVE") // NaN and 0 used to train and write NaN weights
        ->capture_default_str();
    cmd->add_option("--save-every", o.saveEvery, "Write the checkpoint every N steps")
        ->check(CLI::PositiveNumber) // 0 divided by zero
        ->capture_default_str();
    cmd->add_option("--snapshots", snapshots,
                    "Comma-separated steps at which to keep OUT-stepN.pt");
    cmd->add_flag("!--no-position2d", o.position2d,
                  "Leave out the 2D position code of the image grid");
    static std::string world = "varied";
    cmd->add_option("--world", world,
                    "varied: any canvas, style and look (the shipped models); classic: the "
                    "editor's world only")
        ->check(CLI::IsMember({"varied", "classic"}))
        ->capture_default_str();
    cmd->add_option("--curriculum", o.classicShare,
                    "Varied world: share of the steps on classic scenes only before varied "
                    "scenes ramp in over as many steps again (0: varied from the start)")
        ->check(CLI::Range(0.0, 0.5))
        ->capture_default_str();
    cmd->add_option("--classic-floor", o.classicFloor,
                    "Varied world: share of classic scenes kept in every batch after the ramp")
        ->check(CLI::Range(0.0, 0.9))
        ->capture_default_str();
    cmd->add_option("--object-curriculum", o.objectCurriculum,
                    "Share of the steps over which classic scenes go from one object to two, "
                    "then up to three (0: every count from the start)")
        ->check(CLI::Range(0.0, 0.9))
        ->capture_default_str();
    cmd->add_option("--calibration-scenes", o.calibrationScenes,
                    "Training-world scenes that calibrate the out-of-world check of the files "
                    "written (0: no check; else at least 64)")
        ->check(CLI::IsMember({int64_t(0)}) | CLI::Range(int64_t(64), int64_t(1) << 20))
        ->capture_default_str();
    cmd->add_option("--image-size", o.imageSize,
                    "Encoder input side in pixels (the grid times a power of two)")
        ->check(CLI::Range(8, 512))
        ->capture_default_str();
    cmd->add_option("--grid", o.grid, "Side of the encoder's output grid: grid x grid image tokens")
        ->check(CLI::Range(2, 32))
        ->capture_default_str();
    cmd->add_option("--channels", o.encoderChannels, "Width of the encoder's convolutions")
        ->check(CLI::Range(2, 1024))
        ->capture_default_str();
    cmd->add_flag("!--no-letterbox", o.letterbox,
                  "Squash images to the square input instead of letterboxing them");
    cmd->add_flag("--scale-cue", o.scaleCue,
                  "Give the encoder the image's scale as a fourth input plane (how much of the "
                  "input its short side spans), so small and large keep their meaning on long "
                  "canvases; with --init, the first convolution gets zero weights for it");
    static double untilExact = -1;
    static int64_t evalEvery = 0, evalScenes = 200;
    cmd->add_option("--until-exact", untilExact,
                    "Time to quality: stop once exact match on held-out scenes of the training "
                    "world reaches this fraction (e.g. 0.90); prints the wall time and steps")
        ->check(CLI::Range(0.0, 1.0));
    cmd->add_option("--eval-every", evalEvery,
                    "With --until-exact: evaluate (and save) every N steps (default --save-every)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--eval-scenes", evalScenes,
                    "With --until-exact: held-out scenes per evaluation")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    cmd->add_option("--dropout", o.dropout, "Dropout while training (0 to switch it off)")
        ->check(CLI::Range(0.0, 0.95))
        ->capture_default_str();
    cmd->add_option("--average", o.average,
                    "Write the moving average of the weights into the files people open, with this "
                    "decay per step (e.g. 0.999: about the last 1,000 steps; 0: the last weights)")
        ->check(CLI::Range(0.0, 0.99999))
        ->capture_default_str();
    cmd->add_option("--focal", o.focal,
                    "Focal loss: scale each word's cross-entropy by (1 - p)^GAMMA, p the "
                    "probability of the right word, so the hard words weigh more (0: off)")
        ->check(CLI::Range(0.0, 5.0))
        ->capture_default_str();
    cmd->add_option("--resume", o.resume,
                    "Continue from this checkpoint (data-parallel: every rank reads it)");
    cmd->add_option("--init", o.init,
                    "Start from this shapes model's weights (its layers and widths; the image "
                    "size, grid and dropout given here): fine-tuning at a finer grid")
        ->excludes("--resume");
    cmd->add_option("-o,--out", o.out, "Checkpoint to write (data-parallel: rank 0 writes it)")
        ->required();
    addParallelOptions(*cmd, o.parallel);
    cmd->callback([cmd] {
        o.snapshotSteps.clear();
        o.snapshotSteps = snapshotList(snapshots, o.steps);
        resolveParallel(*cmd, o.parallel);
        // The next batch is drawn on a thread of its own during each step: leaving it a core
        // is faster than giving the step every core (2 cores, batch 32: 83 ms a step with one
        // intra-op thread, 121 ms with two; README Performance). --threads still decides.
        if (cmd->get_parent()->get_option("--threads")->count() == 0)
            setThreadCount(std::max(1, defaultThreadCount() - 1));
        const bool leader = o.parallel.rank == 0;
        o.onProgress = leader ? printProgress : std::function<void(const TrainProgress&)>();
        o.world = world == "classic" ? World::Classic : World::Varied;
        if (untilExact < 0 && (evalEvery > 0 || cmd->count("--eval-scenes") > 0))
            throw std::invalid_argument("--eval-every and --eval-scenes need --until-exact");
        std::unique_ptr<QualityWatch> watch;
        if (untilExact >= 0 && evalEvery > 0)
            o.saveEvery = evalEvery;     // on every rank: the ranks meet at each save
        if (untilExact >= 0 && leader) { // rank 0 evaluates and tells the others
            watch = std::make_unique<QualityWatch>(untilExact, evalScenes, o.world);
            o.stopAfter = [&watch](int64_t step, const std::string& path) {
                return watch->reached(step, path);
            };
        }
        double loss = 0;
        try {
            loss = trainShapes(o);
        } catch (...) {
            if (!stepMs.empty())
                std::fprintf(stderr, "\n"); // the error's line below the progress bar
            throw;
        }
        if (!leader) {
            std::cout << "rank " << o.parallel.rank << " of " << o.parallel.worldSize
                      << ": done (final loss " << loss << ")\n";
            return;
        }
        std::cout << "wrote " << o.out << " (final loss " << loss << ")\n";
        if (watch)
            std::cout << watch->summary(o.steps) << "\n";
        // Steady-state figures (the first step warms up allocators and caches).
        auto median = [](std::vector<double> v) {
            if (v.size() > 1)
                v.erase(v.begin());
            std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
            return v.empty() ? 0.0 : v[v.size() / 2];
        };
        std::printf("timing: optimiser step (forward, backward, AdamW) median %.2f ms at batch "
                    "%lld; waiting for scenes %.2f ms per batch (drawn during the previous step)\n",
                    median(stepMs), static_cast<long long>(o.batch), median(dataMs));
    });
}

} // namespace cl::cli
