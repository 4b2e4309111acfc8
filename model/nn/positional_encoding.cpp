#include "model/nn/positional_encoding.h"

namespace cl {

torch::Tensor sinusoidalTable(int64_t maxLen, int64_t width) {
    TORCH_CHECK(width % 2 == 0, "positional encoding width must be even, got ", width);
    auto pe = torch::zeros({maxLen, width});
    auto pos = torch::arange(0, maxLen, torch::kLong).reshape({-1, 1}); // (maxLen, 1)
    // Same float32 operations as the seed: 1e-4 ** (arange(0, W, 2) / W).
    auto t = torch::pow(torch::tensor({1e-4f}), torch::arange(0, width, 2, torch::kLong) / width);
    using torch::indexing::None;
    using torch::indexing::Slice;
    pe.index_put_({Slice(), Slice(0, None, 2)}, torch::sin(pos * t));
    pe.index_put_({Slice(), Slice(1, None, 2)}, torch::cos(pos * t));
    return pe;
}

PositionalEncodingImpl::PositionalEncodingImpl(int64_t embedDim, double p, int64_t maxLen) {
    dropout = register_module("dropout", torch::nn::Dropout(p));
    pe = register_buffer("pe", sinusoidalTable(maxLen, embedDim).unsqueeze(0));
}

torch::Tensor PositionalEncodingImpl::forward(const torch::Tensor& x, int64_t offset) {
    const auto s = x.size(1);
    TORCH_CHECK(offset + s <= pe.size(1), "sequence of ", offset + s,
                " positions exceeds the positional encoding length ", pe.size(1));
    if (!m_enabled)
        return dropout(x);
    return dropout(x + pe.narrow(1, offset, s));
}

} // namespace cl
