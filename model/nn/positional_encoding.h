#pragma once
// The seed's sinusoidal PositionalEncoding: pe[pos, 2i] = sin(pos * 10000^(-2i/W)),
// pe[pos, 2i+1] = cos(same), stored as the buffer "pe" of shape (1, max_len, W).
#include <torch/torch.h>

namespace cl {

// The table itself, computed exactly as the seed does (float32 throughout). (maxLen, W)
torch::Tensor sinusoidalTable(int64_t maxLen, int64_t width);

class PositionalEncodingImpl : public torch::nn::Module {
  public:
    PositionalEncodingImpl(int64_t embedDim, double dropout, int64_t maxLen);

    // x (N, S, W) -> x + pe[:, offset:offset+S] (N, S, W); offset serves incremental decoding.
    torch::Tensor forward(const torch::Tensor& x, int64_t offset = 0);

    int64_t maxLength() const { return pe.size(1); }
    // The ablation: when off, nothing is added (the model sees no word order).
    void setEnabled(bool on) { m_enabled = on; }
    bool enabled() const { return m_enabled; }

    torch::Tensor pe;
    torch::nn::Dropout dropout{nullptr};

  private:
    bool m_enabled = true;
};
TORCH_MODULE(PositionalEncoding);

} // namespace cl
