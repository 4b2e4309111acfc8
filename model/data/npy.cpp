#include "model/data/npy.h"

#include "model/core/files.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace cl {

namespace {

constexpr int64_t kMaxNpyBytes = int64_t(1) << 30;
constexpr float kMaxFeature = 1e6f; // far beyond real image features; larger overflows the model

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

struct Header {
    std::string descr;
    bool fortran = false;
    std::vector<int64_t> shape;
};

// The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (3, 10),
// }. Read by one linear scan (a regex recursed once per character and overflowed the stack on a
// long run of spaces, and found 'shape' inside another key's string).
class HeaderScanner {
  public:
    explicit HeaderScanner(const std::string& text) : m_text(text) {}

    Header parse() {
        Header h;
        bool descr = false, fortran = false, shape = false;
        expect('{');
        while (true) {
            skipSpace();
            if (peek() == '}')
                break;
            const std::string key = quoted();
            skipSpace();
            expect(':');
            skipSpace();
            if (key == "descr") {
                h.descr = quoted();
                descr = true;
            } else if (key == "fortran_order") {
                h.fortran = boolean();
                fortran = true;
            } else if (key == "shape") {
                h.shape = dimensions();
                shape = true;
            } else {
                fail("npy header has an unknown key '" + key + "'");
            }
            skipSpace();
            if (peek() == ',')
                ++m_at;
        }
        if (!descr)
            fail("npy header has no 'descr'");
        if (!fortran)
            fail("npy header has no 'fortran_order'");
        if (!shape)
            fail("npy header has no 'shape'");
        return h;
    }

  private:
    char peek() const { return m_at < m_text.size() ? m_text[m_at] : '\0'; }
    void skipSpace() {
        while (m_at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_at])))
            ++m_at;
    }
    void expect(char c) {
        skipSpace();
        if (peek() != c)
            fail(std::string("npy header is not a dict (expected '") + c + "')");
        ++m_at;
    }
    std::string quoted() {
        const char q = peek();
        if (q != '\'' && q != '"')
            fail("npy header: expected a quoted string");
        const size_t end = m_text.find(q, m_at + 1);
        if (end == std::string::npos)
            fail("npy header: a string is not closed");
        std::string out = m_text.substr(m_at + 1, end - m_at - 1);
        m_at = end + 1;
        return out;
    }
    bool boolean() {
        for (const char* word : {"True", "False"})
            if (m_text.compare(m_at, std::strlen(word), word) == 0) {
                m_at += std::strlen(word);
                return word[0] == 'T';
            }
        fail("npy header: 'fortran_order' is not True or False");
    }
    std::vector<int64_t> dimensions() {
        std::vector<int64_t> dims;
        expect('(');
        while (true) {
            skipSpace();
            if (peek() == ')') {
                ++m_at;
                return dims;
            }
            const size_t start = m_at;
            while (std::isdigit(static_cast<unsigned char>(peek())))
                ++m_at;
            const std::string digits = m_text.substr(start, m_at - start);
            if (digits.empty() || digits.size() > 12)
                fail("npy shape entry is not a dimension");
            dims.push_back(std::stoll(digits));
            skipSpace();
            if (peek() == ',')
                ++m_at;
            else if (peek() != ')')
                fail("npy shape is not a tuple of dimensions");
        }
    }

    const std::string& m_text;
    size_t m_at = 0;
};

Header parseHeader(const std::string& text) {
    return HeaderScanner(text).parse();
}

} // namespace

NpyMatrix parseNpy(const std::string& bytes) {
    if (bytes.size() < 10 || bytes.compare(0, 6, "\x93NUMPY") != 0)
        fail("not a NumPy .npy file (bad magic)");
    const int major = static_cast<uint8_t>(bytes[6]);
    size_t headerLen = 0, offset = 0;
    if (major == 1) {
        headerLen = static_cast<uint8_t>(bytes[8]) | (static_cast<uint8_t>(bytes[9]) << 8);
        offset = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12)
            fail("npy header is truncated");
        uint32_t len;
        std::memcpy(&len, bytes.data() + 8, 4);
        headerLen = len;
        offset = 12;
    } else {
        fail("npy version " + std::to_string(major) + " is not supported");
    }
    if (headerLen > 65536 || offset + headerLen > bytes.size())
        fail("npy header is truncated");
    const Header h = parseHeader(bytes.substr(offset, headerLen));
    offset += headerLen;
    size_t item = 0;
    if (h.descr == "<f4" || h.descr == "|f4")
        item = 4;
    else if (h.descr == "<f8" || h.descr == "|f8")
        item = 8;
    else
        fail("npy dtype '" + h.descr + "' is not supported (float32 or float64, little-endian)");
    if (h.shape.empty() || h.shape.size() > 2)
        fail("npy array has " + std::to_string(h.shape.size()) +
             " dimensions; expected (D,) or (N, D)");
    NpyMatrix out;
    out.rows = h.shape.size() == 2 ? h.shape[0] : 1;
    out.cols = h.shape.back();
    if (out.rows <= 0 || out.cols <= 0)
        fail("npy array is empty");
    const size_t count = static_cast<size_t>(out.rows) * static_cast<size_t>(out.cols);
    if (count / static_cast<size_t>(out.rows) != static_cast<size_t>(out.cols) ||
        count > (bytes.size() - offset) / item)
        fail("npy data is truncated: the header declares " + std::to_string(out.rows) + "x" +
             std::to_string(out.cols) + " values");
    out.data.resize(count);
    const char* p = bytes.data() + offset;
    for (size_t i = 0; i < count; ++i) {
        // Fortran order stores columns first; read element (r, c) from c * rows + r.
        const size_t r = i / out.cols, c = i % out.cols;
        const size_t src = h.fortran ? c * out.rows + r : i;
        if (item == 4) {
            float v;
            std::memcpy(&v, p + src * 4, 4);
            out.data[i] = v;
        } else {
            double v;
            std::memcpy(&v, p + src * 8, 8);
            out.data[i] = static_cast<float>(v);
        }
    }
    return out;
}

std::vector<float> NpyMatrix::finiteRows(int64_t first, int64_t count,
                                         const std::string& name) const {
    if (first < 0 || count < 0 || first > rows || count > rows - first)
        fail("rows " + std::to_string(first) + ".." + std::to_string(first + count - 1) +
             " are outside the " + std::to_string(rows) + " rows of " + name);
    std::vector<float> out(data.begin() + first * cols, data.begin() + (first + count) * cols);
    requireFiniteRows(out, first, cols, name);
    return out;
}

void requireFiniteRows(const std::vector<float>& values, int64_t first, int64_t cols,
                       const std::string& name) {
    for (size_t i = 0; i < values.size(); ++i)
        if (!(std::fabs(values[i]) < kMaxFeature)) {
            const auto at = static_cast<int64_t>(i);
            fail("row " + std::to_string(first + at / cols) + " of " + name + " holds " +
                 (std::isnan(values[i])   ? "NaN"
                  : std::isinf(values[i]) ? "an infinite value"
                                          : "the value " + std::to_string(values[i])) +
                 " (column " + std::to_string(at % cols) +
                 "); features must be finite numbers below 1e6 in magnitude");
        }
}

NpyMatrix readNpy(const std::string& path) {
    const std::string bytes = files::readRegular(path, kMaxNpyBytes, "feature file");
    try {
        return parseNpy(bytes);
    } catch (const std::exception& e) {
        fail(path + ": " + e.what());
    }
}

} // namespace cl
