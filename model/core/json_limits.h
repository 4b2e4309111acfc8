#pragma once
// A depth budget for JSON text, checked before parsing: nlohmann-json recurses once per level, so
// a small file nesting 100,000 arrays overflowed the stack (a vocabulary, a checkpoint's stored
// eval figures). A value budget too: 60 MB of empty arrays became 2.5 GB of parsed values.
#include <algorithm>
#include <stdexcept>
#include <string>

namespace cl {

struct JsonShape {
    int depth = 0;     // the deepest nesting of arrays and objects
    size_t values = 0; // an upper bound on the number of values (containers and separators)
};

// One linear scan, strings (and their escapes) skipped.
inline JsonShape jsonShape(const std::string& text) {
    JsonShape shape;
    int depth = 0;
    bool inString = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            shape.depth = std::max(shape.depth, ++depth);
            ++shape.values;
        } else if (c == ']' || c == '}') {
            --depth;
        } else if (c == ',' || c == ':') {
            ++shape.values;
        }
    }
    return shape;
}

// Throws one line when `text` nests deeper than `depthLimit` or holds more than `valueLimit`
// values.
inline void checkJsonBudget(const std::string& text, int depthLimit, size_t valueLimit,
                            const std::string& what) {
    const JsonShape shape = jsonShape(text);
    if (shape.depth > depthLimit)
        throw std::runtime_error(what + " nests " + std::to_string(shape.depth) +
                                 " levels deep; at most " + std::to_string(depthLimit));
    if (shape.values > valueLimit)
        throw std::runtime_error(what + " holds over " + std::to_string(valueLimit) +
                                 " values, more than it can need");
}

} // namespace cl
