#include "model/rendezvous/wire.h"

#include <stdexcept>

namespace cl::rendezvous {

namespace {

void putU32(std::string& out, uint32_t v) {
    for (int i = 0; i < 4; ++i)
        out += static_cast<char>((v >> (8 * i)) & 0xff);
}

void putI64(std::string& out, int64_t v) {
    const auto u = static_cast<uint64_t>(v);
    for (int i = 0; i < 8; ++i)
        out += static_cast<char>((u >> (8 * i)) & 0xff);
}

void putText(std::string& out, const std::string& text) {
    putU32(out, static_cast<uint32_t>(text.size()));
    out += text;
}

std::string frame(const std::string& body) {
    std::string out;
    putU32(out, static_cast<uint32_t>(body.size()));
    return out + body;
}

uint32_t readU32(const char* p) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v |= uint32_t(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
}

// Reads fields off a body; every read checks what is left first.
class Fields {
  public:
    explicit Fields(std::string_view body) : m_rest(body) {}
    uint8_t byte() {
        need(1, "a byte");
        const auto v = static_cast<uint8_t>(m_rest[0]);
        m_rest.remove_prefix(1);
        return v;
    }
    uint32_t u32(const char* what) {
        need(4, what);
        const uint32_t v = readU32(m_rest.data());
        m_rest.remove_prefix(4);
        return v;
    }
    int64_t i64(const char* what) {
        need(8, what);
        uint64_t u = 0;
        for (int i = 0; i < 8; ++i)
            u |= uint64_t(static_cast<unsigned char>(m_rest[std::size_t(i)])) << (8 * i);
        m_rest.remove_prefix(8);
        return static_cast<int64_t>(u);
    }
    std::string text(const char* what, std::size_t limit) {
        const uint32_t n = u32(what);
        if (n > limit)
            throw std::invalid_argument(std::string(what) + " of " + std::to_string(n) +
                                        " bytes is over the " + std::to_string(limit) + " allowed");
        need(n, what);
        std::string v(m_rest.substr(0, n));
        m_rest.remove_prefix(n);
        return v;
    }
    void end() const {
        if (!m_rest.empty())
            throw std::invalid_argument(std::to_string(m_rest.size()) +
                                        " bytes after the end of the message");
    }

  private:
    void need(std::size_t n, const char* what) const {
        if (m_rest.size() < n)
            throw std::invalid_argument(std::string("the message ends inside ") + what);
    }
    std::string_view m_rest;
};

bool oneKey(Op op) {
    return op == Op::Set || op == Op::Get || op == Op::Add || op == Op::CompareSet ||
           op == Op::Delete;
}

} // namespace

std::string encode(const Request& r) {
    std::string body(1, static_cast<char>(r.op));
    if (r.op == Op::Hello) {
        putU32(body, r.magic);
        putU32(body, r.version);
        putI64(body, r.number);
        putI64(body, r.rank);
    } else if (r.op == Op::Check || r.op == Op::Wait) {
        putU32(body, static_cast<uint32_t>(r.keys.size()));
        for (const auto& k : r.keys)
            putText(body, k);
    } else if (oneKey(r.op)) {
        putText(body, r.keys.empty() ? std::string() : r.keys.front());
        if (r.op == Op::CompareSet)
            putText(body, r.expected);
        if (r.op == Op::Set || r.op == Op::CompareSet)
            putText(body, r.value);
        if (r.op == Op::Add)
            putI64(body, r.number);
    }
    return frame(body);
}

std::string encode(const Reply& r) {
    std::string body(1, r.ok ? '\0' : '\1');
    putText(body, r.value);
    putI64(body, r.number);
    return frame(body);
}

Request decodeRequest(std::string_view body) {
    Fields f(body);
    Request r;
    const uint8_t op = f.byte();
    if (op < uint8_t(Op::Hello) || op > uint8_t(Op::Wait))
        throw std::invalid_argument("unknown request " + std::to_string(op));
    r.op = static_cast<Op>(op);
    if (r.op == Op::Hello) {
        r.magic = f.u32("the greeting");
        r.version = f.u32("the version");
        r.number = f.i64("the world size");
        r.rank = f.i64("the rank");
    } else if (r.op == Op::Check || r.op == Op::Wait) {
        const uint32_t n = f.u32("the key count");
        if (n == 0 || n > kMaxKeysPerRequest)
            throw std::invalid_argument("a request for " + std::to_string(n) +
                                        " keys (1 to " + std::to_string(kMaxKeysPerRequest) +
                                        " allowed)");
        for (uint32_t i = 0; i < n; ++i)
            r.keys.push_back(f.text("a key", kMaxKey));
    } else if (oneKey(r.op)) {
        r.keys.push_back(f.text("a key", kMaxKey));
        if (r.op == Op::CompareSet)
            r.expected = f.text("a value", kMaxValue);
        if (r.op == Op::Set || r.op == Op::CompareSet)
            r.value = f.text("a value", kMaxValue);
        if (r.op == Op::Add)
            r.number = f.i64("the increment");
    }
    f.end();
    return r;
}

Reply decodeReply(std::string_view body) {
    Fields f(body);
    Reply r;
    const uint8_t status = f.byte();
    if (status > 1)
        throw std::invalid_argument("unknown reply status " + std::to_string(status));
    r.ok = status == 0;
    r.value = f.text("a value", kMaxValue);
    r.number = f.i64("a number");
    f.end();
    return r;
}

void FrameReader::feed(const char* data, std::size_t size) {
    m_buffer.append(data, size);
    if (m_buffer.size() >= 4 && readU32(m_buffer.data()) > kMaxFrame)
        throw std::invalid_argument("a message of " + std::to_string(readU32(m_buffer.data())) +
                                    " bytes (at most " + std::to_string(kMaxFrame) + ")");
    if (m_buffer.size() > 2 * (kMaxFrame + 4))
        throw std::invalid_argument("more than two messages sent without waiting for a reply");
}

std::optional<std::string> FrameReader::next() {
    if (m_buffer.size() < 4)
        return std::nullopt;
    const uint32_t n = readU32(m_buffer.data());
    if (n > kMaxFrame)
        throw std::invalid_argument("a message of " + std::to_string(n) + " bytes (at most " +
                                    std::to_string(kMaxFrame) + ")");
    if (m_buffer.size() < 4 + std::size_t(n))
        return std::nullopt;
    std::string body = m_buffer.substr(4, n);
    m_buffer.erase(0, 4 + std::size_t(n));
    if (m_buffer.size() >= 4 && readU32(m_buffer.data()) > kMaxFrame)
        throw std::invalid_argument("a message of " + std::to_string(readU32(m_buffer.data())) +
                                    " bytes (at most " + std::to_string(kMaxFrame) + ")");
    return body;
}

} // namespace cl::rendezvous
