#pragma once
// A depth budget for JSON text, checked before parsing: nlohmann-json recurses once per level, so
// a small file nesting 100,000 arrays overflowed the stack (a vocabulary, a checkpoint's stored
// eval figures).
#include <algorithm>
#include <stdexcept>
#include <string>

namespace cl {

// The deepest nesting of arrays and objects, strings (and their escapes) skipped.
inline int jsonDepth(const std::string& text) {
    int depth = 0, deepest = 0;
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
            deepest = std::max(deepest, ++depth);
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

// Throws std::runtime_error("<what> nests N levels; at most <limit>").
inline void checkJsonDepth(const std::string& text, int limit, const std::string& what) {
    const int depth = jsonDepth(text);
    if (depth > limit)
        throw std::runtime_error(what + " nests " + std::to_string(depth) +
                                 " levels deep; at most " + std::to_string(limit));
}

} // namespace cl
