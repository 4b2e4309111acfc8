#pragma once
// The course's coco2014_vocab.json: {"idx_to_word": [...], "word_to_idx": {...}}. Ids come from
// idx_to_word (the dict is not in index order); word_to_idx, when present, must agree.
#include <string>
#include <vector>

namespace cl {

// Throws std::runtime_error naming the first problem (wrong type, duplicate, disagreement).
std::vector<std::string> readVocabJson(const std::string& path);
std::vector<std::string> parseVocabJson(const std::string& text);

} // namespace cl
