#include "model/nn/weight_cache.h"

namespace cl {

ParameterSignature signatureOf(const std::vector<torch::Tensor>& parameters) {
    ParameterSignature s;
    for (const auto& p : parameters) {
        if (p.is_inference())
            return {};
        s.emplace_back(p.data_ptr(), p._version());
    }
    return s;
}

} // namespace cl
