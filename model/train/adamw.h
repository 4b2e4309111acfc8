#pragma once
// The trainer's optimiser.
#include "model/io/model_io.h"

#include <torch/torch.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace cl {

// AdamW written out (a dozen tensor ops) so its state is ours to save and resume.
class AdamW {
  public:
    AdamW(std::vector<std::pair<std::string, torch::Tensor>> params, double weightDecay)
        : m_params(std::move(params)), m_decay(weightDecay) {
        for (auto& [name, p] : m_params) {
            m_m.push_back(torch::zeros_like(p));
            m_v.push_back(torch::zeros_like(p));
        }
    }
    void step(double lr) {
        torch::NoGradGuard ng;
        ++m_step;
        const double c1 = 1 - std::pow(kBeta1, m_step), c2 = 1 - std::pow(kBeta2, m_step);
        for (size_t i = 0; i < m_params.size(); ++i) {
            auto& p = m_params[i].second;
            if (!p.grad().defined())
                continue;
            const auto& g = p.grad();
            if (p.dim() >= 2)
                p.mul_(1 - lr * m_decay); // matrices only: no decay on biases/norms
            m_m[i].mul_(kBeta1).add_(g, 1 - kBeta1);
            m_v[i].mul_(kBeta2).addcmul_(g, g, 1 - kBeta2);
            auto denom = (m_v[i] / c2).sqrt_().add_(kEps);
            p.addcdiv_(m_m[i], denom, -lr / c1);
        }
    }
    // Every moment tensor, in a fixed order (data-parallel ranks start from rank 0's).
    std::vector<torch::Tensor> moments() const {
        std::vector<torch::Tensor> all = m_m;
        all.insert(all.end(), m_v.begin(), m_v.end());
        return all;
    }
    StateDict state() const {
        StateDict s;
        for (size_t i = 0; i < m_params.size(); ++i) {
            s.emplace_back("adam_m." + m_params[i].first, m_m[i]);
            s.emplace_back("adam_v." + m_params[i].first, m_v[i]);
        }
        s.emplace_back("adam_step", torch::tensor({static_cast<double>(m_step)}));
        return s;
    }
    void restore(const StateDict& s) {
        torch::NoGradGuard ng;
        for (const auto& [k, t] : s) {
            if (k == "adam_step")
                m_step = static_cast<int64_t>(t.item<double>());
            for (size_t i = 0; i < m_params.size(); ++i) {
                if (k == "adam_m." + m_params[i].first)
                    m_m[i].copy_(t);
                if (k == "adam_v." + m_params[i].first)
                    m_v[i].copy_(t);
            }
        }
    }

  private:
    static constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;
    std::vector<std::pair<std::string, torch::Tensor>> m_params;
    std::vector<torch::Tensor> m_m, m_v;
    double m_decay;
    int64_t m_step = 0;
};

} // namespace cl
