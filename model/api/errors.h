#pragma once
// One readable line from any exception: LibTorch's c10::Error appends a multi-line backtrace to
// what(); people get the first line only.
#include <exception>
#include <string>

namespace cl {

inline std::string errorLine(const std::exception& e) {
    std::string message = e.what();
    const auto end = message.find('\n');
    if (end != std::string::npos)
        message.erase(end);
    return message.empty() ? std::string("unexpected failure") : message;
}

} // namespace cl
