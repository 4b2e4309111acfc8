#pragma once
// Batches of the shapes world for training and evaluation: images as model input and captions
// as token ids. Held-out evaluation scenes use seeds below kTrainSeedBase; training never does.
#include "model/core/config.h"
#include "model/core/vocabulary.h"
#include "model/shapes/scene.h"

#include <torch/torch.h>

namespace cl {

inline constexpr uint64_t kTrainSeedBase = 1000000000ULL;

struct ShapesBatch {
    torch::Tensor images;   // (N, 3, S, S) normalised (4 planes with the scale cue)
    torch::Tensor captions; // (N, T) <START> words <END> <NULL>...
};

// The images alone (the out-of-world calibration).
torch::Tensor shapesImages(const std::vector<uint64_t>& seeds, const EncoderConfig& input,
                           World world);

// Scenes seeds[0..n) of `world` preprocessed as `input` says (its side, letterboxed or squashed,
// the scale cue), with canonical captions. With the varied world, each scene is varied with
// probability `variedShare` (decided by its seed) and classic otherwise: the training curriculum.
// Classic scenes hold at most `maxObjects` objects (the object curriculum).
ShapesBatch shapesBatch(const std::vector<uint64_t>& seeds, const EncoderConfig& input,
                        const Vocabulary& vocab, World world = World::Classic,
                        double variedShare = 1.0, int maxObjects = 3);

} // namespace cl
