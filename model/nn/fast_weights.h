#pragma once
// The weight matrices of batch-1 CPU decoding (fast_decode.cpp): the parameters themselves, and
// each layer's query/key/value weights stacked into one matrix (one GEMV instead of three), kept
// in the model's WeightCache (weight_cache.h). (Column-major copies were tried: no faster
// through CBLAS.)
#include "model/nn/weight_cache.h"

namespace cl {

class CaptioningTransformerImpl;

// A float vector as a tensor (for ATen) and as a raw pointer (for loops and BLAS).
struct FastVector {
    explicit FastVector(int64_t n = 0) : t(torch::empty({n})), p(t.data_ptr<float>()) {}
    torch::Tensor t;
    float* p;
};

// y = W x + b, W (out, in) contiguous.
struct Gemv {
    torch::Tensor w, b;
    void operator()(const FastVector& x, FastVector& y) const;
    int64_t outputs() const { return w.size(0); }
};

struct FastLayerWeights {
    Gemv qkv, selfProj, crossQuery, crossProj, fc1, fc2; // qkv: query, key, value stacked
};

struct FastWeights {
    std::vector<FastLayerWeights> layers;
    Gemv output;
};

using FastWeightsSlot = WeightCache<FastWeights>;

// The model's weights for fast decoding, made or remade as needed; safe from several threads.
std::shared_ptr<const FastWeights> fastWeightsOf(CaptioningTransformerImpl& model);

// On (default): GEMV calls the process's CBLAS directly where LibTorch's BLAS exports one
// (Debian's OpenBLAS does; a pip PyTorch with MKL does not). Off: through ATen's addmv, what runs
// where there is none. Tests switch it to check both.
void setDirectBlas(bool on);
// Whether this process has a CBLAS to call (reported by captionlens-selfcheck).
bool directBlasAvailable();

} // namespace cl
