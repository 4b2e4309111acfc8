#include "app/common/vocab_json.h"

#include "model/core/json_limits.h"
#include "model/core/files.h"

#include <nlohmann/json.hpp>

#include <stdexcept>

namespace cl {

namespace {
[[noreturn]] void fail(const std::string& m) {
    throw std::runtime_error(m);
}
constexpr int64_t kMaxVocabBytes = 16L << 20;
} // namespace

std::vector<std::string> parseVocabJson(const std::string& text) {
    checkJsonBudget(text, 8, 1u << 20,
                    "the vocabulary JSON"); // {"idx_to_word": [...], ...} is 2 deep
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        fail(std::string("vocabulary is not valid JSON: ") + e.what());
    }
    if (!j.is_object() || !j.contains("idx_to_word"))
        fail("vocabulary JSON lacks \"idx_to_word\"");
    const auto& list = j["idx_to_word"];
    if (!list.is_array())
        fail("vocabulary \"idx_to_word\" is not a list");
    std::vector<std::string> words;
    for (size_t i = 0; i < list.size(); ++i) {
        if (!list[i].is_string())
            fail("vocabulary \"idx_to_word\"[" + std::to_string(i) + "] is not a string");
        words.push_back(list[i].get<std::string>());
    }
    if (j.contains("word_to_idx")) {
        const auto& map = j["word_to_idx"];
        if (!map.is_object())
            fail("vocabulary \"word_to_idx\" is not an object");
        for (auto it = map.begin(); it != map.end(); ++it) {
            if (!it.value().is_number_integer())
                fail("word_to_idx[\"" + it.key() + "\"] is not an integer");
            const auto id = it.value().get<long long>();
            if (id < 0 || id >= static_cast<long long>(words.size()) || words[id] != it.key())
                fail("word_to_idx says \"" + it.key() + "\" is " + std::to_string(id) +
                     " but idx_to_word disagrees");
        }
        if (map.size() != words.size())
            fail("word_to_idx has " + std::to_string(map.size()) + " words but idx_to_word has " +
                 std::to_string(words.size()));
    }
    return words;
}

std::vector<std::string> readVocabJson(const std::string& path) {
    const std::string bytes = files::readRegular(path, kMaxVocabBytes, "vocabulary");
    try {
        return parseVocabJson(bytes);
    } catch (const std::exception& e) {
        fail(path + ": " + e.what());
    }
}

} // namespace cl
