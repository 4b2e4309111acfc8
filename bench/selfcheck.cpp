// captionlens-selfcheck: a Qt-free check and benchmark of model/, for any LibTorch and device
// (it needs no files and no image decoding: features and generated scenes only).
//
//   captionlens-selfcheck [--device cpu|cuda] [--threads N] [--runs N] [--checkpoint C] [--json]
#include "benchmark.h"
#include "threads.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

int main(int argc, char** argv) {
    std::string device = "cpu", checkpoint;
    int threads = 0;
    bool json = false;
    cl::BenchOptions options;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool hasValue = i + 1 < argc;
        if (a == "--device" && hasValue)
            device = argv[++i];
        else if (a == "--threads" && hasValue)
            threads = std::atoi(argv[++i]);
        else if (a == "--runs" && hasValue)
            options.runs = std::max(1, std::atoi(argv[++i]));
        else if (a == "--checkpoint" && hasValue)
            checkpoint = argv[++i];
        else if (a == "--json")
            json = true;
        else {
            std::fprintf(stderr,
                         "usage: %s [--device cpu|cuda] [--threads N] [--runs N] [--checkpoint C] "
                         "[--json]\n",
                         argv[0]);
            return 2;
        }
    }
    try {
        cl::setThreadCount(threads);
        options.device = device;
        const auto failures = cl::selfCheck(device);
        for (const auto& f : failures)
            std::fprintf(stderr, "selfcheck FAILED: %s\n", f.c_str());
        if (!failures.empty())
            return 1;
        std::fprintf(stderr, "selfcheck passed on %s\n", device.c_str());
        const auto notebook = cl::benchNotebook(options);
        std::printf("%s\n", (json ? notebook.toJson() : notebook.toText()).c_str());
        if (!checkpoint.empty()) {
            const auto model = cl::benchCheckpoint(checkpoint, options);
            std::printf("%s\n", (json ? model.toJson() : model.toText()).c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "captionlens-selfcheck: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
