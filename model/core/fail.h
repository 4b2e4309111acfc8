#pragma once
// The readers' one way to refuse: a std::runtime_error whose message says what was wrong. One
// definition for every file (the model target is a unity build: per-file copies collide).
#include <stdexcept>
#include <string>

namespace cl {

[[noreturn]] inline void fail(const std::string& message) {
    throw std::runtime_error(message);
}

} // namespace cl
