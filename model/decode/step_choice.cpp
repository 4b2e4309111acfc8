#include "model/decode/step_choice.h"

#include <algorithm>
#include <cmath>

namespace cl {

namespace {

// a before b in ATen's descending order: NaN first, then larger values, ties by index.
bool before(const float* v, int64_t a, int64_t b) {
    const bool na = std::isnan(v[a]), nb = std::isnan(v[b]);
    if (na || nb)
        return na && (!nb || a < b);
    return v[a] > v[b] || (v[a] == v[b] && a < b);
}

// The k largest in ATen's order, in one pass keeping a short sorted list (k is a handful).
std::vector<int64_t> topIndices(const float* p, int64_t v, int64_t k) {
    std::vector<int64_t> top;
    top.reserve(static_cast<size_t>(k) + 1);
    for (int64_t i = 0; i < v; ++i) {
        if (static_cast<int64_t>(top.size()) == k && !before(p, i, top.back()))
            continue;
        auto at = top.end();
        while (at != top.begin() && before(p, i, *(at - 1)))
            --at;
        top.insert(at, i);
        if (static_cast<int64_t>(top.size()) > k)
            top.pop_back();
    }
    return top;
}

// One row on the CPU in plain loops: a batch-1 step's dozen ATen calls here cost as much as
// the arithmetic.
StepChoice chooseRow(const float* logits, int64_t v, int64_t k, int64_t forced) {
    StepChoice c{torch::empty({1}, torch::kLong), torch::empty({1, 1}), torch::empty({1, k}),
                 torch::empty({1, k}, torch::kLong)};
    std::vector<float> p(logits, logits + v);
    int64_t best = 0;
    for (int64_t i = 1; i < v; ++i)
        best = before(logits, i, best) ? i : best;
    const float top = logits[best];
    float sum = 0;
    for (auto& x : p)
        sum += (x = std::exp(x - top));
    for (auto& x : p)
        x /= sum;
    const int64_t id = forced >= 0 ? forced : best;
    const auto order = topIndices(p.data(), v, k);
    c.ids.data_ptr<int64_t>()[0] = id;
    c.prob.data_ptr<float>()[0] = p[static_cast<size_t>(id)];
    for (int64_t j = 0; j < k; ++j) {
        c.topI.data_ptr<int64_t>()[j] = order[static_cast<size_t>(j)];
        c.topP.data_ptr<float>()[j] = p[static_cast<size_t>(order[static_cast<size_t>(j)])];
    }
    return c;
}

} // namespace

StepChoice chooseTokens(const torch::Tensor& logits, int64_t k, int64_t forced) {
    if (logits.size(0) == 1 && logits.device().is_cpu() && logits.scalar_type() == torch::kFloat)
        return chooseRow(logits.contiguous().data_ptr<float>(), logits.size(1), k, forced);
    auto probs = torch::softmax(logits.to(torch::kFloat), -1); // (N, V)
    auto chosen = logits.argmax(-1);                           // (N)
    if (forced >= 0)
        chosen.fill_(forced);
    auto top = probs.topk(k, -1);
    return {chosen.to(torch::kCPU).contiguous(),
            probs.gather(1, chosen.unsqueeze(1)).to(torch::kCPU).contiguous(),
            std::get<0>(top).to(torch::kCPU).contiguous(),
            std::get<1>(top).to(torch::kCPU).contiguous()};
}

} // namespace cl
