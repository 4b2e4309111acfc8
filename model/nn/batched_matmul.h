#pragma once
// A product of many small matrices, differentiable, with one BLAS call per matrix. Attention's
// scores and outputs are (N, H) products of a few rows each: ATen's bmm runs each through
// select() and addmm's checks (about 11 us apiece, most of a 32-image gradient batch's decoder
// time); calling CBLAS directly on strided views costs a microsecond or two.
#include <torch/torch.h>

namespace cl {

// a (N, H, S, K) @ b (N, H, K, T) -> (N, H, S, T), with gradients for both (a backward that
// builds a graph, for second derivatives, multiplies through torch::matmul). Views whose
// last or second-last stride is 1 are read in place (k.transpose(-2, -1) of split heads is).
// Anything else (doubles, a GPU, broadcasting, no CBLAS in the process, or products small
// enough for ATen's one-loop kernel) goes to torch::matmul.
torch::Tensor batchedMatmul(const torch::Tensor& a, const torch::Tensor& b);

// Whether batchedMatmul calls CBLAS for these tensors.
bool batchedMatmulDirect(const torch::Tensor& a, const torch::Tensor& b);

} // namespace cl
