#include "model/api/npy.h"

#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace cl {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

struct Header {
    std::string descr;
    bool fortran = false;
    std::vector<int64_t> shape;
};

Header parseHeader(const std::string& text) {
    Header h;
    std::smatch m;
    if (!std::regex_search(text, m, std::regex(R"('descr'\s*:\s*'([^']*)')")))
        fail("npy header has no 'descr'");
    h.descr = m[1];
    if (!std::regex_search(text, m, std::regex(R"('fortran_order'\s*:\s*(True|False))")))
        fail("npy header has no 'fortran_order'");
    h.fortran = m[1] == "True";
    if (!std::regex_search(text, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))")))
        fail("npy header has no 'shape'");
    std::stringstream dims(m[1].str());
    for (std::string part; std::getline(dims, part, ',');) {
        part = std::regex_replace(part, std::regex(R"(\s+)"), "");
        if (part.empty())
            continue;
        if (part.size() > 12 || part.find_first_not_of("0123456789") != std::string::npos)
            fail("npy shape entry '" + part + "' is not a dimension");
        h.shape.push_back(std::stoll(part));
    }
    return h;
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

NpyMatrix readNpy(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        fail("cannot open " + path + ": no such file");
    std::ostringstream buf;
    buf << in.rdbuf();
    try {
        return parseNpy(buf.str());
    } catch (const std::exception& e) {
        fail(path + ": " + e.what());
    }
}

} // namespace cl
