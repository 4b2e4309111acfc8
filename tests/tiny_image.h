#pragma once
// A tiny random image model in double precision, reached inside (modules, tensors): by default
// 8-pixel input, 2 x 2 grid, 6 words; with `scaleCue`, a letterboxing model with the fourth
// input plane (core/config.h).
#include "model/core/config.h"
#include "model/explain/maps.h"
#include "model/nn/captioning_transformer.h"

namespace cltest {

struct TinyImage {
    cl::CaptioningTransformer model{nullptr};
    explicit TinyImage(uint64_t seed, int64_t imageSize = 8, int64_t grid = 2, int64_t channels = 4,
                       bool scaleCue = false) {
        torch::manual_seed(seed);
        cl::ModelConfig c = cl::presets::tinyTest();
        c.vocabSize = 6;
        c.maxLength = 4;
        c.memory = cl::MemoryKind::ImageGrid;
        c.inputDim = c.wordvecDim;
        c.encoder.imageSize = imageSize;
        c.encoder.grid = grid;
        c.encoder.channels = channels;
        c.encoder.letterbox = scaleCue;
        c.encoder.scaleCue = scaleCue;
        model = cl::CaptioningTransformer(c, 0);
        model->eval();
        model->to(torch::kDouble);
    }
    cl::explain::WordObjective objective() {
        return {*model, torch::tensor({1, 4, 5}, torch::kLong).view({1, -1}), 4};
    }
};

} // namespace cltest
