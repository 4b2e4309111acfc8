#pragma once
// Benchmarks of model/ (used by captionlens-selfcheck and `captionlens-cli bench`): median and
// spread over repeated runs after warm-up, next to the machine's physical floors.
#include <functional>
#include <string>
#include <vector>

namespace cl {

struct BenchFigure {
    std::string name;
    double medianMs = 0, minMs = 0, maxMs = 0;
    int runs = 0;
    double floorMs = 0; // the physical floor measured on this machine (0: none)
    std::string unit = "ms";
};

struct BenchReport {
    std::string title, device;
    int threads = 1;
    std::vector<BenchFigure> figures;
    std::string toText() const;
    std::string toJson() const;
};

// Times fn() `runs` times after `warmup` calls.
BenchFigure timeIt(const std::string& name, int warmup, int runs, const std::function<void()>& fn);

struct BenchOptions {
    std::string device = "cpu";
    int runs = 20;
    int tokens = 30;
    std::vector<float> features; // feature models: rows of inputDim values (at least 64 rows)
    int64_t featureRows = 0;
};

// The notebook configuration (W=256, H=2, 2 layers, V=1004, D=512, FFN 2048) with seeded random
// weights and feature input: greedy decode of `tokens` steps (never stopping at <END>, like the
// seed's sample()), cached vs full re-run, batch 1 and 64, with weight-streaming and GEMM floors.
BenchReport benchNotebook(const BenchOptions& options);

// A checkpoint (our format). Image models: preprocessing, encoder, cached decode with the full
// attention trace, the seed-style full re-run, and batch throughput at 1, 8 and 64 images
// (generated scenes). Feature models: `tokens` greedy steps without stopping (like sample()) on
// the given feature rows, cached and full re-run, at batch 1 and 64.
BenchReport benchCheckpoint(const std::string& path, const BenchOptions& options);

// A quick correctness check on any device: cached decode == full re-run (tokens and attention,
// 1e-5), attention rows sum to 1, the causal upper triangle is 0, PE row 0 = [0, 1, 0, 1, ...].
// Returns the failures (empty = pass).
std::vector<std::string> selfCheck(const std::string& device);

} // namespace cl
