#pragma once
// Attention of one query position per head in plain loops, for decoding on the CPU: at that
// size ATen's bmm makes one BLAS call per head and row of the batch, and elementwise products
// allocate a (N*H, T, hs) temporary; a loop over keys does neither.
#include <torch/torch.h>

#include <cstdint>

namespace cl {

// One head: w = softmax(q.k_j * scale) over `len` keys (rows of hs floats, `stride` apart),
// out = keep * sum_j w_j v_j.
void attendHead(const float* q, const float* k, const float* v, int64_t len, int64_t hs,
                int64_t stride, float scale, float keep, float* w, float* out);

// q (N, H*hs) contiguous float, k/v (N, H, T, hs) float with unit stride over hs, keep (H) or
// undefined. Returns the weights (N*H, T) and the heads' outputs (N, H*hs). Any other size
// throws (c10::Error), before a buffer is read.
std::pair<torch::Tensor, torch::Tensor> attendHeadsCpu(const torch::Tensor& q,
                                                       const torch::Tensor& k,
                                                       const torch::Tensor& v,
                                                       const torch::Tensor& keep, float scale);

// Whether attendHeadsCpu can take these tensors.
bool attendHeadsCpuApplies(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v);

} // namespace cl
