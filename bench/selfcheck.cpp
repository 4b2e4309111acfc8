// captionlens-selfcheck: a Qt-free check and benchmark of model/, for any LibTorch and device
// (it needs no image decoding: features, .npy rows and generated scenes only).
//
//   captionlens-selfcheck [--device cpu|cuda] [--threads N] [--runs N] [--checkpoint C]
//                         [--features F.npy] [--tokens-out F] [--json]
//
// --features gives a feature checkpoint its input rows; --tokens-out writes the greedy tokens of
// every row (30 steps, never stopping, like the seed's sample()), one line of ids per row, so a
// script can check them against the seed's code on the same device (bench/gpu.sh).
#include "model/bench/benchmark.h"
#include "model/data/npy.h"
#include "model/api/threads.h"
#include "model/decode/fast_decode.h"
#include "model/decode/greedy.h"
#include "model/io/checkpoint.h"
#include "model/io/model_io.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>

namespace {

struct Args {
    std::string device = "cpu", checkpoint, features, tokensOut;
    int threads = 0;
    bool json = false;
    int runs = 20;
};

bool parse(int argc, char** argv, Args& a) {
    for (int i = 1; i < argc; ++i) {
        const std::string s = argv[i];
        const bool hasValue = i + 1 < argc;
        if (s == "--device" && hasValue)
            a.device = argv[++i];
        else if (s == "--threads" && hasValue)
            a.threads = std::atoi(argv[++i]);
        else if (s == "--runs" && hasValue)
            a.runs = std::max(1, std::atoi(argv[++i]));
        else if (s == "--checkpoint" && hasValue)
            a.checkpoint = argv[++i];
        else if (s == "--features" && hasValue)
            a.features = argv[++i];
        else if (s == "--tokens-out" && hasValue)
            a.tokensOut = argv[++i];
        else if (s == "--json")
            a.json = true;
        else
            return false;
    }
    return true;
}

// Greedy tokens of every feature row, 30 steps without stopping, one line of ids per row.
void writeTokens(const Args& a, const cl::NpyMatrix& rows) {
    const cl::Checkpoint ck = cl::readCheckpoint(a.checkpoint);
    const cl::Vocabulary vocab(ck.vocab);
    auto model = cl::buildModel(ck, vocab.nullId());
    const torch::Device d = a.device == "cuda" ? torch::kCUDA : torch::kCPU;
    model->to(d);
    torch::InferenceMode guard;
    const auto x =
        torch::from_blob(const_cast<float*>(rows.data.data()), {rows.rows, rows.cols}).to(d);
    cl::DecodeOptions opt;
    opt.stopAtEnd = false;
    std::ofstream out(a.tokensOut);
    for (const auto& trace : cl::greedyDecode(*model, model->memory(x), vocab, opt)) {
        for (size_t t = 0; t < trace.steps.size(); ++t)
            out << (t ? " " : "") << trace.steps[t].id;
        out << '\n';
    }
    if (!out)
        throw std::runtime_error("cannot write " + a.tokensOut);
}

} // namespace

int main(int argc, char** argv) {
    Args a;
    if (!parse(argc, argv, a)) {
        std::fprintf(stderr,
                     "usage: %s [--device cpu|cuda] [--threads N] [--runs N] [--checkpoint C] "
                     "[--features F.npy] [--tokens-out F] [--json]\n",
                     argv[0]);
        return 2;
    }
    try {
        cl::setThreadCount(a.threads);
        cl::BenchOptions options;
        options.device = a.device;
        options.runs = a.runs;
        const auto failures = cl::selfCheck(a.device);
        for (const auto& f : failures)
            std::fprintf(stderr, "selfcheck FAILED: %s\n", f.c_str());
        if (!failures.empty())
            return 1;
        std::fprintf(stderr, "selfcheck passed on %s (batch-1 CPU GEMV: %s)\n", a.device.c_str(),
                     cl::directBlasAvailable() ? "CBLAS" : "ATen addmv");
        const auto notebook = cl::benchNotebook(options);
        std::printf("%s\n", (a.json ? notebook.toJson() : notebook.toText()).c_str());
        if (!a.checkpoint.empty()) {
            cl::NpyMatrix rows;
            if (!a.features.empty()) {
                rows = cl::readNpy(a.features);
                options.features = rows.data;
                options.featureRows = rows.rows;
            }
            if (!a.tokensOut.empty())
                writeTokens(a, rows);
            const auto model = cl::benchCheckpoint(a.checkpoint, options);
            std::printf("%s\n", (a.json ? model.toJson() : model.toText()).c_str());
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "captionlens-selfcheck: error: %s\n", e.what());
        return 1;
    }
    return 0;
}
