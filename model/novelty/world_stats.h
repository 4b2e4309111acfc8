#pragma once
// The out-of-world check. An image's signature is, for every encoder layer, each channel's mean
// and standard deviation over the image (the first layers see colour, edges and texture, the last
// ones shapes). Per layer, training-world scenes fix a Gaussian and a bank of neighbours; the
// image's squared Mahalanobis distance to the Gaussian (Lee et al. 2018, "A Simple Unified
// Framework for Detecting Out-of-Distribution Samples", which also reads every layer) and its
// distance to the k-th nearest training scene (Sun et al. 2022, "Out-of-Distribution Detection
// with Deep Nearest Neighbors": a Gaussian calls an image typical when it lies near the mean even
// where no training scene lies; a neighbour test does not) are each divided by a threshold
// calibrated on further training-world scenes (calibrate.cpp). The score is the largest ratio:
// above 1, at least one layer has never seen anything like this image.
#include "model/io/checkpoint.h"

#include <torch/torch.h>

#include <functional>
#include <vector>

namespace cl {

class CaptioningTransformerImpl;

// One layer's statistics.
struct WorldLayer {
    torch::Tensor mean;      // (F) signature mean
    torch::Tensor precision; // (F, F) inverse of the shrunk covariance
    torch::Tensor scale;     // (F) per-number standard deviation (the k-NN test's units)
    torch::Tensor bank;      // (B, F) standardised signatures of training-world scenes
    double threshold = 0;    // Mahalanobis distances above this are out of world
    double knnThreshold = 0; // k-th neighbour distances above this are out of world
};

struct WorldStats {
    std::vector<WorldLayer> layers;
    bool empty() const { return layers.empty(); }
};

// The encoder's convolution outputs (each (N, C, H, W)) -> per layer (N, 2C) signatures.
std::vector<torch::Tensor> worldSignature(const std::vector<torch::Tensor>& activations);
// Fits each layer's Gaussian (covariance shrunk `shrink` of the way to its diagonal, so a few
// thousand scenes give a well-conditioned inverse) and keeps up to `bankSize` signatures,
// standardised, as the neighbours of the k-NN test. Thresholds are left to the caller.
WorldStats fitWorld(const std::vector<torch::Tensor>& signatures, double shrink = 0.1,
                    int64_t bankSize = 2048);
// (N) squared Mahalanobis distances divided by F (about 1 for typical training scenes).
torch::Tensor worldDistance(const WorldLayer& layer, const torch::Tensor& signatures);
// (N) distances of the standardised signatures to their k-th nearest neighbour in the bank,
// divided by the square root of F.
torch::Tensor neighbourDistance(const WorldLayer& layer, const torch::Tensor& signatures);
// (N) the out-of-world score: the largest distance over its threshold (above 1: out).
torch::Tensor worldScore(const WorldStats& stats, const std::vector<torch::Tensor>& signatures);

// Checkpoint form: per layer L, {"L.mean", "L.precision", "L.scale", "L.bank", "L.threshold",
// "L.knn_threshold"}. fromStateDict checks the shapes against each other and that every number
// is finite, and throws a readable message otherwise.
StateDict worldToStateDict(const WorldStats& stats);
WorldStats worldFromStateDict(const StateDict& dict);

// Calibrates on `scenes` varied-world scenes from seeds no training run or evaluation uses:
// three quarters fit, the rest set the thresholds (calibrate.cpp says how).
// keepGoing, when set, is asked between batches; false throws "calibration cancelled".
WorldStats calibrateWorld(CaptioningTransformerImpl& model, int64_t scenes = 4096,
                          const std::function<bool()>& keepGoing = {});

} // namespace cl
