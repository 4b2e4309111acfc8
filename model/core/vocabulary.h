#pragma once
// Words by id, with the special tokens looked up by name (never assumed to be 0..3).
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace cl {

class Vocabulary {
  public:
    Vocabulary() = default;
    // Throws std::invalid_argument on an empty list, a duplicate word or a missing special token.
    explicit Vocabulary(std::vector<std::string> words);
    // The four special tokens, then w4, w5, ... up to `size` words (benchmarks, self-checks).
    static Vocabulary numbered(int64_t size);

    int64_t size() const { return static_cast<int64_t>(m_words.size()); }
    const std::string& word(int64_t id) const; // "<id N>" text when out of range is an error
    int64_t id(const std::string& word) const; // -1 when absent
    const std::vector<std::string>& words() const { return m_words; }

    int64_t nullId() const { return m_null; }
    int64_t startId() const { return m_start; }
    int64_t endId() const { return m_end; }
    bool isSpecial(int64_t id) const;

    // Splits text on spaces and maps each word (unknown words are an error naming them).
    std::vector<int64_t> encode(const std::string& text) const;

  private:
    std::vector<std::string> m_words;
    std::unordered_map<std::string, int64_t> m_ids;
    int64_t m_null = -1, m_start = -1, m_end = -1, m_unk = -1;
};

} // namespace cl
