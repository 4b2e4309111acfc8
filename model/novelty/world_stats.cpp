#include "model/novelty/world_stats.h"

#include <cmath>
#include <map>
#include <stdexcept>

namespace cl {

namespace {

constexpr int64_t kNeighbour = 5; // the k of the k-NN test
constexpr int64_t kMaxLayers = 64;
constexpr double kDeadFloor = 1e-2; // of the layer's mean variance

torch::Tensor standardised(const WorldLayer& s, const torch::Tensor& signatures) {
    return (signatures.to(torch::kDouble) - s.mean) / s.scale;
}

WorldLayer fitLayer(const torch::Tensor& signatures, double shrink, int64_t bankSize) {
    const auto x = signatures.to(torch::kDouble);
    // The shrinkage keeps the inverse defined with fewer scenes than numbers; the calibrator
    // uses thousands.
    TORCH_CHECK(x.dim() == 2 && x.size(0) >= 16, "fitting the world needs at least 16 scenes");
    WorldLayer s;
    s.mean = x.mean(0);
    const auto centred = x - s.mean;
    auto cov = centred.t().mm(centred) / double(x.size(0) - 1);
    // A floor for numbers that barely vary: a channel dead on every training scene (many are,
    // after ReLU) gets a tenth of the layer's RMS spread, so its faint firing on a new image
    // counts as a few units, not thousands (a floor of 1e-6 of the variance flagged a plain red
    // star and purple square on a white slide at 10x the threshold through one such channel).
    const double floor = kDeadFloor * torch::diag(cov).mean().item<double>() + 1e-12;
    s.scale = (torch::diag(cov) + floor).sqrt();
    cov = (1 - shrink) * cov + shrink * torch::diag(torch::diag(cov));
    cov += torch::eye(cov.size(0), cov.options()) * floor;
    s.precision = torch::linalg_inv(cov);
    s.bank = standardised(s, x.narrow(0, 0, std::min(bankSize, x.size(0)))).to(torch::kFloat);
    return s;
}

WorldLayer layerFrom(const std::map<std::string, torch::Tensor>& t, const std::string& p) {
    auto get = [&](const std::string& key) {
        const auto it = t.find(p + key);
        if (it == t.end())
            throw std::runtime_error("world_stats has no '" + p + key + "'");
        return it->second;
    };
    WorldLayer s;
    s.mean = get("mean").to(torch::kDouble);
    s.precision = get("precision").to(torch::kDouble);
    s.scale = get("scale").to(torch::kDouble);
    s.bank = get("bank").to(torch::kFloat);
    const auto threshold = get("threshold"), knn = get("knn_threshold");
    const int64_t f = s.mean.dim() == 1 ? s.mean.size(0) : -1;
    if (f < 1 || f > 16384 || s.scale.dim() != 1 || s.scale.size(0) != f)
        throw std::runtime_error("world_stats mean and scale must be vectors of one length");
    if (s.precision.dim() != 2 || s.precision.size(0) != f || s.precision.size(1) != f)
        throw std::runtime_error("world_stats precision does not match its mean");
    if (s.bank.dim() != 2 || s.bank.size(1) != f || s.bank.size(0) < 1 || s.bank.size(0) > 65536)
        throw std::runtime_error("world_stats bank does not match its mean");
    if (threshold.numel() != 1 || knn.numel() != 1)
        throw std::runtime_error("world_stats thresholds must be one number each");
    s.threshold = threshold.to(torch::kDouble).item<double>();
    s.knnThreshold = knn.to(torch::kDouble).item<double>();
    if (!std::isfinite(s.threshold) || s.threshold <= 0 || !std::isfinite(s.knnThreshold) ||
        s.knnThreshold <= 0 || !s.mean.isfinite().all().item<bool>() ||
        !s.precision.isfinite().all().item<bool>() || !s.bank.isfinite().all().item<bool>() ||
        !(s.scale > 0).all().item<bool>())
        throw std::runtime_error("world_stats holds a non-finite or non-positive number");
    return s;
}

} // namespace

std::vector<torch::Tensor> worldSignature(const std::vector<torch::Tensor>& activations) {
    TORCH_CHECK(!activations.empty(), "world signature needs the encoder's feature maps");
    std::vector<torch::Tensor> out;
    for (const auto& a : activations) {
        TORCH_CHECK(a.dim() == 4, "world signature needs (N, C, H, W) feature maps");
        const auto flat = a.flatten(2).to(torch::kDouble); // (N, C, H*W)
        out.push_back(torch::cat({flat.mean(2), flat.std(2, /*unbiased=*/false)}, 1));
    }
    return out;
}

WorldStats fitWorld(const std::vector<torch::Tensor>& signatures, double shrink,
                    int64_t bankSize) {
    WorldStats s;
    for (const auto& layer : signatures)
        s.layers.push_back(fitLayer(layer, shrink, bankSize));
    return s;
}

torch::Tensor worldDistance(const WorldLayer& layer, const torch::Tensor& signatures) {
    const auto d = signatures.to(torch::kDouble) - layer.mean;
    return (d.mm(layer.precision) * d).sum(1) / double(layer.mean.size(0));
}

torch::Tensor neighbourDistance(const WorldLayer& layer, const torch::Tensor& signatures) {
    const auto z = standardised(layer, signatures).to(torch::kFloat);
    const auto d = torch::cdist(z, layer.bank); // (N, B)
    const int64_t k = std::min<int64_t>(kNeighbour, layer.bank.size(0));
    return std::get<0>(d.kthvalue(k, 1)).to(torch::kDouble) /
           std::sqrt(double(layer.mean.size(0)));
}

torch::Tensor worldScore(const WorldStats& stats, const std::vector<torch::Tensor>& signatures) {
    TORCH_CHECK(signatures.size() == stats.layers.size(), "world statistics for ",
                stats.layers.size(), " layers, signatures of ", signatures.size());
    torch::Tensor score;
    for (size_t l = 0; l < stats.layers.size(); ++l) {
        const auto& s = stats.layers[l];
        const auto ratio = torch::maximum(worldDistance(s, signatures[l]) / s.threshold,
                                          neighbourDistance(s, signatures[l]) / s.knnThreshold);
        score = score.defined() ? torch::maximum(score, ratio) : ratio;
    }
    return score;
}

StateDict worldToStateDict(const WorldStats& stats) {
    StateDict out;
    for (size_t l = 0; l < stats.layers.size(); ++l) {
        const auto& s = stats.layers[l];
        const std::string p = std::to_string(l) + ".";
        out.push_back({p + "mean", s.mean.to(torch::kFloat)});
        out.push_back({p + "precision", s.precision.to(torch::kFloat)});
        out.push_back({p + "scale", s.scale.to(torch::kFloat)});
        out.push_back({p + "bank", s.bank.to(torch::kHalf)}); // 16 bits: distances to 0.1 %
        out.push_back({p + "threshold", torch::full({1}, s.threshold, torch::kFloat)});
        out.push_back({p + "knn_threshold", torch::full({1}, s.knnThreshold, torch::kFloat)});
    }
    return out;
}

WorldStats worldFromStateDict(const StateDict& dict) {
    std::map<std::string, torch::Tensor> byKey(dict.begin(), dict.end());
    WorldStats s;
    for (int64_t l = 0; byKey.count(std::to_string(l) + ".mean"); ++l) {
        if (l >= kMaxLayers)
            throw std::runtime_error("world_stats has more than 64 layers");
        s.layers.push_back(layerFrom(byKey, std::to_string(l) + "."));
    }
    if (s.layers.empty())
        throw std::runtime_error("world_stats has no layer statistics");
    if (byKey.size() != 6 * s.layers.size())
        throw std::runtime_error("world_stats holds keys this version does not know");
    return s;
}

} // namespace cl
