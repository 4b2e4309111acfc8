#pragma once
// One readable line from any exception: LibTorch's c10::Error appends a multi-line backtrace to
// what(); people get the first line only.
#include <exception>
#include <new>
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

// Any text bound for a terminal or a message box, once, at the place it is printed: C0 control
// bytes, DEL, the C1 controls (U+0080-U+009F) and bytes that are not UTF-8 become \xNN; valid
// UTF-8 text (a file name in Greek, a Korean word) stays as it is. A vocabulary word, a lesson
// title or a checkpoint's text cannot then retitle the terminal, erase a line or print a fake
// "file accepted" (issue 41).
inline std::string terminalSafe(const std::string& text) {
    static const char* hex = "0123456789abcdef";
    std::string out;
    out.reserve(text.size());
    const auto escape = [&](unsigned char c) {
        out += "\\x";
        out += hex[c >> 4];
        out += hex[c & 15];
    };
    const auto cont = [&](size_t i) {
        return i < text.size() && (static_cast<unsigned char>(text[i]) & 0xc0) == 0x80;
    };
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
            ++i;
            continue;
        }
        // The length of a well-formed UTF-8 sequence starting here (overlong forms and
        // surrogates refused), 0 when there is none.
        size_t n = 0;
        const auto c1 = i + 1 < text.size() ? static_cast<unsigned char>(text[i + 1]) : 0;
        if (c >= 0xc2 && c <= 0xdf && cont(i + 1))
            n = c1 >= 0xa0 || c != 0xc2 ? 2 : 0; // C2 80..9F are the C1 controls
        else if (c >= 0xe0 && c <= 0xef && cont(i + 1) && cont(i + 2))
            n = (c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) ? 0 : 3;
        else if (c >= 0xf0 && c <= 0xf4 && cont(i + 1) && cont(i + 2) && cont(i + 3))
            n = (c == 0xf0 && c1 < 0x90) || (c == 0xf4 && c1 >= 0x90) ? 0 : 4;
        if (n == 0) {
            escape(c);
            ++i;
        } else {
            out.append(text, i, n);
            i += n;
        }
    }
    return out;
}

inline std::string errorLine(const std::exception& e) {
    // The library's own words ("std::bad_alloc", "stoll") say nothing to a person.
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return "out of memory: the input needs more than this machine can give";
    std::string message = e.what();
    const auto end = message.find('\n');
    if (end != std::string::npos)
        message.erase(end);
    return message.empty() ? std::string("unexpected failure") : message;
}

} // namespace cl
