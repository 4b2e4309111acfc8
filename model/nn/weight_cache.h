#pragma once
// Matrices derived from a model's parameters (stacked for fast decoding, folded for explanations):
// made on first use and remade when any parameter has changed since (a training step, loading
// weights, a move to another device or type), which the parameters' data pointers and version
// counters tell. Safe from several threads.
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace cl {

using ParameterSignature = std::vector<std::pair<const void*, int64_t>>;

// Each tensor's data pointer and version; empty when one is an inference tensor, which tracks no
// version (then nothing is cached).
ParameterSignature signatureOf(const std::vector<torch::Tensor>& parameters);

template <class T> class WeightCache {
  public:
    // The value for `signature`, made by make() (a shared_ptr<const T>) when absent or stale;
    // an empty signature makes a fresh one every time.
    template <class Make> std::shared_ptr<const T> get(ParameterSignature signature, Make make) {
        if (signature.empty())
            return make();
        std::lock_guard<std::mutex> lock(m_mutex);
        if (!m_value || m_signature != signature) {
            m_value = make();
            m_signature = std::move(signature);
        }
        return m_value;
    }

  private:
    std::mutex m_mutex;
    ParameterSignature m_signature;
    std::shared_ptr<const T> m_value;
};

} // namespace cl
