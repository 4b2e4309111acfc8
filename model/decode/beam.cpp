#include "model/decode/beam.h"

#include "model/decode/greedy.h"
#include "model/nn/linear_rows.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace cl {

namespace {

constexpr int64_t kMaxWidth = 100;

struct Live {
    std::vector<int64_t> ids;
    double logProb = 0;
};

// The decoder's caches for the live hypotheses, one row each.
class BeamCaches {
  public:
    BeamCaches(CaptioningTransformerImpl& model, const torch::Tensor& memory, int64_t steps)
        : m_model(model) {
        for (size_t l = 0; l < model.transformer->size(); ++l) {
            auto& layer = model.transformer->layer(l);
            m_cross.push_back(layer.cross_attn->project(memory, memory));
            m_self.push_back(layer.self_attn->selfCache(1, steps, memory.options()));
        }
    }
    // (B) tokens at position t -> (B, V) log-probabilities of the next token.
    torch::Tensor next(const std::vector<int64_t>& tokens, int64_t t) {
        const auto device = m_cross.front().k.device();
        auto in = torch::tensor(tokens, torch::dtype(torch::kLong)).view({-1, 1}).to(device);
        auto x = m_model.positional_encoding(m_model.embedding(in), t);
        for (size_t l = 0; l < m_self.size(); ++l)
            x = m_model.transformer->layer(l).step(x, m_self[l], m_cross[l], nullptr);
        return torch::log_softmax(linearRows(x, m_model.output).squeeze(1), -1)
            .to(torch::kCPU, torch::kDouble)
            .contiguous();
    }
    // Row i of every cache becomes row parents[i]'s.
    void follow(const std::vector<int64_t>& parents) {
        const auto device = m_cross.front().k.device();
        const auto idx = torch::tensor(parents, torch::dtype(torch::kLong)).to(device);
        for (auto* caches : {&m_self, &m_cross})
            for (auto& c : *caches) {
                c.k = c.k.index_select(0, idx);
                c.v = c.v.index_select(0, idx);
            }
    }

  private:
    CaptioningTransformerImpl& m_model;
    std::vector<KVCache> m_self, m_cross;
};

BeamHypothesis hypothesis(const Live& h, bool finished, const Vocabulary& vocab, double alpha) {
    BeamHypothesis out;
    out.ids = h.ids;
    for (auto id : h.ids)
        out.tokens.push_back(vocab.word(id));
    out.logProb = h.logProb;
    out.score = beamScore(h.logProb, static_cast<int64_t>(h.ids.size()), alpha);
    out.finished = finished;
    return out;
}

void keepBest(std::vector<BeamHypothesis>& list, int64_t k) {
    std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
        return a.score > b.score;
    });
    if (static_cast<int64_t>(list.size()) > k)
        list.resize(static_cast<size_t>(k));
}

// One step: every live hypothesis extended by every token (forced: by that token alone), the
// best 2K candidates weighed. Returns the new live hypotheses and their parents.
std::vector<Live> weigh(const torch::Tensor& logp, const std::vector<Live>& live, int64_t forced,
                        int64_t k, const Vocabulary& vocab, double alpha,
                        std::vector<BeamHypothesis>& finished, std::vector<BeamNode>& nodes,
                        std::vector<int64_t>& parents) {
    const int64_t b = logp.size(0), v = logp.size(1);
    auto cum = logp + torch::tensor([&] {
                   std::vector<double> lp;
                   for (const auto& h : live)
                       lp.push_back(h.logProb);
                   return lp;
               }(),
                                    torch::kDouble)
                          .view({b, 1});
    if (forced >= 0) {
        auto only = torch::full_like(cum, -std::numeric_limits<double>::infinity());
        only.select(1, forced).copy_(cum.select(1, forced));
        cum = only;
    }
    const int64_t m = std::min(b * v, 2 * k);
    const auto [values, flat] = cum.view({-1}).topk(m);
    std::vector<Live> next;
    for (int64_t i = 0; i < m; ++i) {
        const double lp = values[i].item<double>();
        if (!std::isfinite(lp))
            break;
        const int64_t at = flat[i].item<int64_t>(), parent = at / v, id = at % v;
        BeamNode node{parent, id, vocab.word(id), lp, false, id == vocab.endId()};
        Live h{live[size_t(parent)].ids, lp};
        h.ids.push_back(id);
        if (node.finished) {
            finished.push_back(hypothesis(h, true, vocab, alpha));
        } else if (static_cast<int64_t>(next.size()) < k) {
            node.kept = true;
            next.push_back(std::move(h));
            parents.push_back(parent);
        }
        nodes.push_back(std::move(node));
    }
    keepBest(finished, k);
    return next;
}

bool settled(const std::vector<BeamHypothesis>& finished, const std::vector<Live>& live, int64_t k,
             double alpha) {
    if (live.empty())
        return true;
    if (static_cast<int64_t>(finished.size()) < k)
        return false;
    double best = -std::numeric_limits<double>::infinity();
    for (const auto& h : live)
        best = std::max(best, beamScore(h.logProb, static_cast<int64_t>(h.ids.size()), alpha));
    return best <= finished.back().score;
}

} // namespace

double beamScore(double logProb, int64_t length, double lengthPenalty) {
    if (lengthPenalty == 0)
        return logProb;
    return logProb / std::pow((5.0 + double(length)) / 6.0, lengthPenalty);
}

BeamResult beamSearch(CaptioningTransformerImpl& model, const torch::Tensor& memory,
                      const Vocabulary& vocab, const DecodeOptions& options,
                      const BeamOptions& beam) {
    if (beam.width < 1 || beam.width > kMaxWidth)
        throw std::invalid_argument("beam width must be 1 to " + std::to_string(kMaxWidth));
    if (!std::isfinite(beam.lengthPenalty) || beam.lengthPenalty < 0 || beam.lengthPenalty > 10)
        throw std::invalid_argument("length penalty must be 0 to 10");
    if (memory.dim() != 3 || memory.size(0) != 1)
        throw std::invalid_argument("beam search takes one input at a time");
    const int64_t k = beam.width, steps = decodeSteps(model, options);
    const double alpha = beam.lengthPenalty;
    BeamCaches caches(model, memory, steps);
    BeamResult out;
    std::vector<Live> live{Live{}};
    std::vector<int64_t> tokens{vocab.startId()};
    for (int64_t t = 0; t < steps && !settled(out.hypotheses, live, k, alpha); ++t) {
        const auto logp = caches.next(tokens, t);
        const int64_t forced = t < static_cast<int64_t>(options.forcedPrefix.size())
                                   ? options.forcedPrefix[size_t(t)]
                                   : -1;
        if (forced >= logp.size(1))
            throw std::invalid_argument("forced token id out of range");
        std::vector<int64_t> parents;
        out.tree.emplace_back();
        live = weigh(logp, live, forced, k, vocab, alpha, out.hypotheses, out.tree.back(),
                     parents);
        if (live.empty())
            break;
        caches.follow(parents);
        tokens.clear();
        for (const auto& h : live)
            tokens.push_back(h.ids.back());
    }
    // Hypotheses cut at the length limit compete unfinished, as greedy decoding's do.
    for (const auto& h : live)
        if (static_cast<int64_t>(h.ids.size()) >= steps)
            out.hypotheses.push_back(hypothesis(h, false, vocab, alpha));
    keepBest(out.hypotheses, k);
    return out;
}

} // namespace cl
