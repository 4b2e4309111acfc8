#include "model/core/vocabulary.h"

#include <sstream>
#include <stdexcept>

namespace cl {

Vocabulary::Vocabulary(std::vector<std::string> words) : m_words(std::move(words)) {
    if (m_words.empty())
        throw std::invalid_argument("vocabulary is empty");
    for (size_t i = 0; i < m_words.size(); ++i) {
        if (!m_ids.emplace(m_words[i], static_cast<int64_t>(i)).second)
            throw std::invalid_argument("vocabulary has the word '" + m_words[i] + "' twice (ids " +
                                        std::to_string(m_ids[m_words[i]]) + " and " +
                                        std::to_string(i) + ")");
    }
    for (const char* special : {"<NULL>", "<START>", "<END>"})
        if (!m_ids.count(special))
            throw std::invalid_argument(std::string("vocabulary lacks the special token ") +
                                        special);
    m_null = m_ids["<NULL>"];
    m_start = m_ids["<START>"];
    m_end = m_ids["<END>"];
    m_unk = id("<UNK>");
}

const std::string& Vocabulary::word(int64_t i) const {
    if (i < 0 || i >= size())
        throw std::out_of_range("token id " + std::to_string(i) + " is outside the vocabulary of " +
                                std::to_string(size()));
    return m_words[static_cast<size_t>(i)];
}

int64_t Vocabulary::id(const std::string& w) const {
    auto it = m_ids.find(w);
    return it == m_ids.end() ? -1 : it->second;
}

bool Vocabulary::isSpecial(int64_t i) const {
    return i == m_null || i == m_start || i == m_end;
}

std::vector<int64_t> Vocabulary::encode(const std::string& text) const {
    std::vector<int64_t> ids;
    std::istringstream in(text);
    for (std::string w; in >> w;) {
        const auto i = id(w);
        if (i < 0)
            throw std::invalid_argument("the word '" + w + "' is not in the vocabulary");
        ids.push_back(i);
    }
    return ids;
}

Vocabulary Vocabulary::numbered(int64_t size) {
    std::vector<std::string> words = {"<NULL>", "<START>", "<END>", "<UNK>"};
    for (int64_t i = 4; i < size; ++i)
        words.push_back("w" + std::to_string(i));
    return Vocabulary(words);
}

} // namespace cl
