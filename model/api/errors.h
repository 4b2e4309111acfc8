#pragma once
// One readable line from any exception: LibTorch's c10::Error appends a multi-line backtrace to
// what(); people get the first line only.
#include <exception>
#include <string>

namespace cl {

// Text from a file, fit for a one-line message: bytes outside printable ASCII become \xNN (a
// newline in a pickle global's name made the error name an allowed global; raw bytes reached the
// terminal), and long text is cut to `limit` characters.
inline std::string printable(const std::string& text, size_t limit = 120) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    for (unsigned char c : text) {
        if (out.size() >= limit)
            return out + "...";
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

inline std::string errorLine(const std::exception& e) {
    std::string message = e.what();
    const auto end = message.find('\n');
    if (end != std::string::npos)
        message.erase(end);
    return message.empty() ? std::string("unexpected failure") : message;
}

} // namespace cl
