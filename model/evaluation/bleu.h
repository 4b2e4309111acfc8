#pragma once
// BLEU as the course scores captions: words compared by id, <START>, <END> and <UNK> dropped (and
// <NULL> padding), a hypothesis scored against every reference of its image.
#include "model/core/vocabulary.h"

#include <array>
#include <cstdint>
#include <vector>

namespace cl {

using Words = std::vector<int64_t>;

// The words that count: <START> and <UNK> dropped, everything from <END> on cut, <NULL> dropped.
Words scoredWords(const Words& ids, const Vocabulary& vocab);

// The words of the caption as the model said them: the same, but <UNK> kept (a word the model
// chose). Exact match compares these.
Words captionWords(const Words& ids, const Vocabulary& vocab);

// Sentence BLEU with unigram weight 1 (the course's BLEU_score, but against all references):
// clipped unigram precision times the brevity penalty against the closest reference length
// (ties: the shorter). 0 for an empty hypothesis.
double sentenceBleu1(const Words& hypothesis, const std::vector<Words>& references);

// Corpus BLEU-4 (Papineni et al.): clipped n-gram counts summed over the corpus, uniform weights,
// no smoothing (0 when some order has no match), brevity penalty on the summed lengths.
class CorpusBleu {
  public:
    void add(const Words& hypothesis, const std::vector<Words>& references);
    double score() const;

  private:
    std::array<int64_t, 4> m_matches{}, m_totals{};
    int64_t m_hypLength = 0, m_refLength = 0;
};

} // namespace cl
