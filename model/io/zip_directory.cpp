#include "model/io/zip_directory.h"

#include "model/core/errors.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <stdexcept>

namespace cl::zip {

namespace {

constexpr uint32_t kEndOfDirectory = 0x06054b50;
constexpr uint32_t kZip64Locator = 0x07064b50;
constexpr uint32_t kZip64End = 0x06064b50;
constexpr uint32_t kDirectoryEntry = 0x02014b50;

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error("damaged zip archive (" + message + ")");
}

// Little-endian reads with bounds checks.
class Cursor {
  public:
    Cursor(const std::string& bytes, uint64_t at) : m_bytes(bytes), m_at(at) {}
    template <int N> uint64_t read() {
        if (m_at > m_bytes.size() || static_cast<size_t>(N) > m_bytes.size() - m_at)
            fail("a directory record runs past the end of the file");
        uint64_t v = 0;
        for (int k = N - 1; k >= 0; --k)
            v = (v << 8) | static_cast<uint8_t>(m_bytes[m_at + static_cast<size_t>(k)]);
        m_at += N;
        return v;
    }
    std::string take(uint64_t n) {
        if (m_at > m_bytes.size() || n > m_bytes.size() - m_at)
            fail("a directory record runs past the end of the file");
        std::string s = m_bytes.substr(m_at, n);
        m_at += n;
        return s;
    }
    uint64_t at() const { return m_at; }

  private:
    const std::string& m_bytes;
    uint64_t m_at;
};

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

struct Span {
    uint64_t count = 0;
    uint64_t offset = 0;
};

uint64_t findEnd(const std::string& bytes) {
    if (bytes.size() < 22)
        fail("too short for a zip directory");
    const uint64_t lowest = bytes.size() > 22 + 65535 ? bytes.size() - 22 - 65535 : 0;
    for (uint64_t at = bytes.size() - 22;; --at) {
        if (Cursor(bytes, at).read<4>() == kEndOfDirectory)
            return at;
        if (at == lowest)
            fail("no end-of-directory record");
    }
}

Span directorySpan(const std::string& bytes) {
    const uint64_t end = findEnd(bytes);
    Cursor c(bytes, end + 10);
    Span span;
    span.count = c.read<2>();
    c.read<4>(); // directory size
    span.offset = c.read<4>();
    if (span.count != 0xffff && span.offset != 0xffffffff)
        return span;
    if (end < 20 || Cursor(bytes, end - 20).read<4>() != kZip64Locator)
        fail("zip64 sizes without a zip64 locator");
    Cursor locator(bytes, end - 16);
    Cursor z(bytes, locator.read<8>());
    if (z.read<4>() != kZip64End)
        fail("the zip64 end record is missing");
    Cursor fields(bytes, z.at() + 20);
    span.count = fields.read<8>();
    fields.read<8>(); // directory size
    span.offset = fields.read<8>();
    return span;
}

void applyZip64(Entry& e, uint64_t& offset, const std::string& extra) {
    Cursor c(extra, 0);
    while (c.at() + 4 <= extra.size()) {
        const uint64_t id = c.read<2>(), size = c.read<2>();
        Cursor field(extra, c.at());
        c.take(size);
        if (id != 1)
            continue;
        if (e.size == 0xffffffff)
            e.size = field.read<8>();
        if (e.compressedSize == 0xffffffff)
            e.compressedSize = field.read<8>();
        if (offset == 0xffffffff)
            offset = field.read<8>();
    }
}

} // namespace

Directory::Directory(const std::string& bytes, size_t maxEntries) {
    const Span span = directorySpan(bytes);
    if (span.count > maxEntries)
        fail("it holds " + std::to_string(span.count) + " records; at most " +
             std::to_string(maxEntries));
    Cursor c(bytes, span.offset);
    for (uint64_t i = 0; i < span.count; ++i) {
        if (c.read<4>() != kDirectoryEntry)
            fail("directory entry " + std::to_string(i) + " has a bad signature");
        c.take(12);
        Entry e;
        e.crc = static_cast<uint32_t>(c.read<4>());
        e.compressedSize = c.read<4>();
        e.size = c.read<4>();
        const uint64_t nameLength = c.read<2>(), extraLength = c.read<2>(), comment = c.read<2>();
        c.take(8);
        uint64_t offset = c.read<4>();
        e.name = c.take(nameLength);
        applyZip64(e, offset, c.take(extraLength));
        c.take(comment);
        if (offset >= bytes.size() || e.compressedSize > bytes.size())
            fail("record " + printable(e.name) + " lies outside the file");
        if (i == 0)
            m_prefix = e.name.substr(0, e.name.find('/') + 1);
        m_total += e.size;
        if (!m_entries.emplace(lower(e.name), e).second)
            throw std::runtime_error("the archive holds two records named " + printable(e.name) +
                                     " (names differ only in case or not at all)");
    }
}

const Entry* Directory::find(const std::string& name) const {
    auto it = m_entries.find(lower(name));
    return it == m_entries.end() ? nullptr : &it->second;
}

uint32_t crc32(const void* data, size_t size) {
    static const std::array<uint32_t, 256> table = [] {
        std::array<uint32_t, 256> t{};
        for (uint32_t n = 0; n < 256; ++n) {
            uint32_t c = n;
            for (int k = 0; k < 8; ++k)
                c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
            t[n] = c;
        }
        return t;
    }();
    uint32_t c = 0xffffffffu;
    const auto* p = static_cast<const uint8_t*>(data);
    for (size_t i = 0; i < size; ++i)
        c = table[(c ^ p[i]) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

} // namespace cl::zip
