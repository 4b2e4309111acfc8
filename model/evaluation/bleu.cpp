#include "model/evaluation/bleu.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

namespace cl {

namespace {

std::map<Words, int64_t> ngrams(const Words& w, size_t n) {
    std::map<Words, int64_t> out;
    for (size_t i = 0; i + n <= w.size(); ++i)
        ++out[Words(w.begin() + static_cast<long>(i), w.begin() + static_cast<long>(i + n))];
    return out;
}

// Matches of the hypothesis's n-grams, each clipped by its most frequent count in one reference.
int64_t clippedMatches(const Words& hyp, const std::vector<Words>& refs, size_t n) {
    std::map<Words, int64_t> most;
    for (const auto& r : refs)
        for (const auto& [g, c] : ngrams(r, n))
            most[g] = std::max(most[g], c);
    int64_t matches = 0;
    for (const auto& [g, c] : ngrams(hyp, n)) {
        auto it = most.find(g);
        matches += it == most.end() ? 0 : std::min(c, it->second);
    }
    return matches;
}

int64_t closestLength(int64_t hyp, const std::vector<Words>& refs) {
    int64_t best = -1;
    for (const auto& r : refs) {
        const auto len = static_cast<int64_t>(r.size());
        if (best < 0 || std::llabs(len - hyp) < std::llabs(best - hyp) ||
            (std::llabs(len - hyp) == std::llabs(best - hyp) && len < best))
            best = len;
    }
    return std::max<int64_t>(best, 0);
}

double brevity(int64_t hyp, int64_t ref) {
    if (hyp == 0)
        return 0;
    return hyp > ref ? 1.0 : std::exp(1.0 - static_cast<double>(ref) / static_cast<double>(hyp));
}

} // namespace

namespace {

Words wordsBefore(const Words& ids, const Vocabulary& vocab, int64_t dropped) {
    Words out;
    for (auto id : ids) {
        if (id == vocab.endId())
            break;
        if (id != vocab.startId() && id != vocab.nullId() && id != dropped)
            out.push_back(id);
    }
    return out;
}

} // namespace

Words scoredWords(const Words& ids, const Vocabulary& vocab) {
    return wordsBefore(ids, vocab, vocab.id("<UNK>"));
}

Words captionWords(const Words& ids, const Vocabulary& vocab) {
    return wordsBefore(ids, vocab, vocab.startId());
}

double sentenceBleu1(const Words& hyp, const std::vector<Words>& refs) {
    if (hyp.empty() || refs.empty())
        return 0;
    const auto c = static_cast<int64_t>(hyp.size());
    const double precision =
        static_cast<double>(clippedMatches(hyp, refs, 1)) / static_cast<double>(c);
    return brevity(c, closestLength(c, refs)) * precision;
}

void CorpusBleu::add(const Words& hyp, const std::vector<Words>& refs) {
    const auto c = static_cast<int64_t>(hyp.size());
    for (size_t n = 1; n <= 4; ++n) {
        m_matches[n - 1] += clippedMatches(hyp, refs, n);
        m_totals[n - 1] += std::max<int64_t>(0, c - static_cast<int64_t>(n) + 1);
    }
    m_hypLength += c;
    m_refLength += closestLength(c, refs);
}

double CorpusBleu::score() const {
    double logSum = 0;
    for (size_t n = 0; n < 4; ++n) {
        if (m_matches[n] == 0 || m_totals[n] == 0)
            return 0;
        logSum +=
            0.25 * std::log(static_cast<double>(m_matches[n]) / static_cast<double>(m_totals[n]));
    }
    return brevity(m_hypLength, m_refLength) * std::exp(logSum);
}

} // namespace cl
