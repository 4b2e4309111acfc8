// libFuzzer target: any text as a course vocabulary JSON, then as the model's Vocabulary.
#include "app/common/vocab_json.h"
#include "model/core/vocabulary.h"

#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        auto words = cl::parseVocabJson(std::string(reinterpret_cast<const char*>(data), size));
        const cl::Vocabulary vocab(std::move(words));
        if (vocab.id(vocab.word(vocab.endId())) != vocab.endId())
            __builtin_trap();
    } catch (const std::exception&) {
    }
    return 0;
}
