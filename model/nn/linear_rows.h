#pragma once
// A Linear layer applied to the rows of one decode step.
#include <torch/torch.h>

namespace cl {

// x (..., in) times weight (out, in)^T plus bias. A single row on the CPU goes through a
// matrix-vector product: OpenBLAS 0.3.21 (Debian 12) runs a one-row GEMM through its packing
// path, 4-5x slower than GEMV on the same weights, which is most of a batch-1 decode step.
inline torch::Tensor linearRows(const torch::Tensor& x, const torch::Tensor& w,
                                const torch::Tensor& b) {
    if (x.numel() != x.size(-1) || !x.device().is_cpu() || x.scalar_type() != w.scalar_type())
        return at::linear(x, w, b);
    auto sizes = x.sizes().vec();
    sizes.back() = w.size(0);
    return at::addmv(b, w, x.reshape({-1})).view(sizes);
}

inline torch::Tensor linearRows(const torch::Tensor& x, const torch::nn::Linear& layer) {
    return linearRows(x, layer->weight, layer->bias);
}

} // namespace cl
