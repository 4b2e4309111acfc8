#pragma once
// The seed's MultiHeadAttention: Linear query/key/value/proj, heads split into contiguous blocks of
// W/H channels, scores Q K^T / sqrt(W/H), masked where mask == 0, softmax over keys.
#include <torch/torch.h>

namespace cl {

// Keys and values of one attention layer for an incremental (one token at a time) decode.
// Preallocated to the longest decode so a step writes in place instead of concatenating.
struct KVCache {
    torch::Tensor k, v; // (N, H, capacity, hs)
    int64_t length = 0;
    // Self-attention caches also carry the query/key/value weights stacked into one matrix
    // (3E, E), so a decode step projects with one matrix-vector product instead of three.
    torch::Tensor qkvWeight, qkvBias;
};

class MultiHeadAttentionImpl : public torch::nn::Module {
  public:
    MultiHeadAttentionImpl(int64_t embedDim, int64_t numHeads, double dropout);

    // query (N, S, E), key/value (N, T, E), mask (S, T) with 1 = may attend, or undefined.
    // Returns (N, S, E); writes the softmax weights (N, H, S, T) to *weights when given.
    torch::Tensor forward(const torch::Tensor& query, const torch::Tensor& key,
                          const torch::Tensor& value, const torch::Tensor& mask = {},
                          torch::Tensor* weights = nullptr);

    // Projects key/value inputs (N, T, E) into split heads (N, H, T, hs), once per memory.
    KVCache project(const torch::Tensor& key, const torch::Tensor& value);
    // An empty self-attention cache for `batch` sequences of up to `capacity` positions.
    KVCache selfCache(int64_t batch, int64_t capacity, const torch::TensorOptions& options);
    // Query, key and value weights stacked: (3E, E) and (3E,), so one product gives all three
    // (self-attention decode steps here and in decode/fast_weights.cpp).
    std::pair<torch::Tensor, torch::Tensor> stackedQkv() const;
    // Self-attention of one new position x (N, 1, E): appends its key and value to the cache,
    // attends over every cached position. Weights (N, H, 1, length) go to *weights.
    torch::Tensor stepSelf(const torch::Tensor& x, KVCache& cache, torch::Tensor* weights);
    // Attention of queries x (N, S, E) over already projected keys and values.
    torch::Tensor attendCached(const torch::Tensor& x, const KVCache& cache,
                               torch::Tensor* weights);

    int64_t numHeads() const { return m_heads; }
    // Zeroes the output of the given heads (an ablation); empty = all heads on. `keep` is (H),
    // or (N, H) with a mask per batch row for forward() only (explain/head_importance.cpp); the
    // one-token decode paths take (H).
    void setHeadMask(const torch::Tensor& keep) { m_headKeep = keep; }
    const torch::Tensor& headMask() const { return m_headKeep; }

    torch::nn::Linear key{nullptr}, query{nullptr}, value{nullptr}, proj{nullptr};
    torch::nn::Dropout attn_drop{nullptr};

  private:
    torch::Tensor splitHeads(const torch::Tensor& x) const; // (N, T, E) -> (N, H, T, hs)
    torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                         const torch::Tensor& mask, torch::Tensor* weights);
    // One query position q (N, E) over keys/values (N, H, T, hs) as N*H elementwise products:
    // a handful of ATen calls, which is what a batch-1 decode step costs. Returns (N, 1, E).
    torch::Tensor attendOne(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                            torch::Tensor* weights);

    int64_t m_heads;
    int64_t m_headDim;
    torch::Tensor m_headKeep; // (H) of 0/1, or undefined
};
TORCH_MODULE(MultiHeadAttention);

} // namespace cl
