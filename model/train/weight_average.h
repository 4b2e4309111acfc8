#pragma once
// An exponential moving average of the weights (Polyak averaging, as in timm's ModelEmaV2): the
// last steps of a run wander around the bottom of the loss valley, and their average sits nearer
// its middle than any one of them. The trainer writes the average into the files people open and
// keeps it in the optimiser's state of the files it resumes from.
#include "model/io/model_io.h"

#include <torch/torch.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace cl {

class WeightAverage {
  public:
    // `decay` in (0, 1): the weight the average keeps at each step (0.999: about the last 1,000
    // steps). Early on the average follows the weights faster ((1 + n) / (10 + n)).
    WeightAverage(std::vector<std::pair<std::string, torch::Tensor>> params, double decay)
        : m_params(std::move(params)), m_decay(decay) {
        torch::NoGradGuard ng;
        for (const auto& [name, p] : m_params)
            m_average.push_back(p.detach().clone());
    }
    // After each optimiser step.
    void update() {
        torch::NoGradGuard ng;
        ++m_updates;
        const double d = std::min(m_decay, (1.0 + m_updates) / (10.0 + m_updates));
        for (size_t i = 0; i < m_params.size(); ++i)
            m_average[i].mul_(d).add_(m_params[i].second.detach(), 1 - d);
    }
    // Exchanges the live weights and the average (call again to undo).
    void swap() {
        torch::NoGradGuard ng;
        for (size_t i = 0; i < m_params.size(); ++i) {
            auto live = m_params[i].second.detach().clone();
            m_params[i].second.detach().copy_(m_average[i]);
            m_average[i].copy_(live);
        }
    }
    StateDict state() const {
        StateDict s;
        for (size_t i = 0; i < m_params.size(); ++i)
            s.emplace_back("average." + m_params[i].first, m_average[i]);
        s.emplace_back("average_updates", torch::tensor({static_cast<double>(m_updates)}));
        return s;
    }
    // Resumes the average saved by state(); a file without one starts it from the weights.
    void restore(const StateDict& s) {
        torch::NoGradGuard ng;
        for (const auto& [k, t] : s) {
            if (k == "average_updates")
                m_updates = static_cast<int64_t>(t.item<double>());
            for (size_t i = 0; i < m_params.size(); ++i)
                if (k == "average." + m_params[i].first && t.sizes() == m_average[i].sizes())
                    m_average[i].copy_(t);
        }
    }

  private:
    std::vector<std::pair<std::string, torch::Tensor>> m_params;
    std::vector<torch::Tensor> m_average;
    double m_decay;
    int64_t m_updates = 0;
};

} // namespace cl
