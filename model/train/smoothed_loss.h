#pragma once
// The training loss as the curve and the status line show it: an exponential moving average of
// the steps' losses with Adam's bias correction. Started from the first loss instead, the average
// kept 0.98^k of that untrained loss after k steps (13 % after 100) and lay well above the raw
// loss for the first few hundred steps.
#include <cmath>

namespace cl {

class SmoothedLoss {
  public:
    explicit SmoothedLoss(double decay = 0.98) : m_decay(decay) {}
    void add(double loss) {
        m_sum = m_decay * m_sum + (1 - m_decay) * loss;
        m_weight = m_decay * m_weight + (1 - m_decay);
    }
    // The mean of the losses so far, recent ones weighted most; 0 before the first.
    double value() const { return m_weight > 0 ? m_sum / m_weight : 0; }

  private:
    double m_decay, m_sum = 0, m_weight = 0;
};

} // namespace cl
