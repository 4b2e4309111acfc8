#include "model/rendezvous/store_state.h"

#include <charconv>

namespace cl::rendezvous {

namespace {

Reply refuse(std::string why) {
    return Reply{false, std::move(why), 0};
}

Reply number(int64_t n) {
    return Reply{true, {}, n};
}

std::optional<int64_t> parseNumber(const std::string& text) {
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return v;
}

} // namespace

Reply StoreState::admit(const Request& hello, int64_t& rank) {
    if (hello.op != Op::Hello || hello.magic != kMagic)
        return refuse("not a CaptionLens rank (no greeting)");
    if (hello.version != kVersion)
        return refuse("protocol version " + std::to_string(hello.version) + " (this rank speaks " +
                      std::to_string(kVersion) + "): every rank needs the same CaptionLens");
    if (hello.number != int64_t(m_joined.size()))
        return refuse("a world of " + std::to_string(hello.number) + " ranks (rank 0's has " +
                      std::to_string(m_joined.size()) + "): every rank needs the same command");
    if (hello.rank < 0 || hello.rank >= int64_t(m_joined.size()))
        return refuse("rank " + std::to_string(hello.rank) + " is outside this world");
    if (m_joined[std::size_t(hello.rank)])
        return refuse("rank " + std::to_string(hello.rank) + " has joined already");
    m_joined[std::size_t(hello.rank)] = true;
    rank = hello.rank;
    return Reply{};
}

void StoreState::leave(int64_t rank) {
    if (rank >= 0 && rank < int64_t(m_joined.size()))
        m_joined[std::size_t(rank)] = false;
}

bool StoreState::has(const std::vector<std::string>& keys) const {
    for (const auto& k : keys)
        if (m_values.count(k) == 0)
            return false;
    return true;
}

Reply StoreState::put(const std::string& key, std::string value) {
    const auto it = m_values.find(key);
    const std::size_t old = it == m_values.end() ? 0 : key.size() + it->second.size();
    if (it == m_values.end() && m_values.size() >= kMaxKeys)
        return refuse("the store holds its " + std::to_string(kMaxKeys) + " keys already");
    if (m_bytes - old + key.size() + value.size() > kMaxStoredBytes)
        return refuse("the store is full (" + std::to_string(kMaxStoredBytes >> 20) + " MiB)");
    m_bytes = m_bytes - old + key.size() + value.size();
    m_values[key] = std::move(value);
    ++m_changes;
    return Reply{};
}

std::optional<Reply> StoreState::apply(const Request& r) {
    const std::string key = r.keys.empty() ? std::string() : r.keys.front();
    switch (r.op) {
    case Op::Hello:
        return refuse("a second greeting");
    case Op::Set:
        return put(key, r.value);
    case Op::Get:
        if (!has(r.keys))
            return std::nullopt;
        return Reply{true, m_values.at(key), 0};
    case Op::Wait:
        if (!has(r.keys))
            return std::nullopt;
        return Reply{};
    case Op::Check:
        return number(has(r.keys) ? 1 : 0);
    case Op::NumKeys:
        return number(int64_t(m_values.size()));
    case Op::Delete: {
        const auto it = m_values.find(key);
        if (it == m_values.end())
            return number(0);
        m_bytes -= key.size() + it->second.size();
        m_values.erase(it);
        ++m_changes;
        return number(1);
    }
    case Op::Add: {
        const auto it = m_values.find(key);
        int64_t sum = r.number;
        if (it != m_values.end()) {
            const auto old = parseNumber(it->second);
            if (!old)
                return refuse("key '" + key.substr(0, 40) + "' does not hold a number");
            if (__builtin_add_overflow(*old, r.number, &sum))
                return refuse("key '" + key.substr(0, 40) + "' would overflow");
        }
        Reply stored = put(key, std::to_string(sum));
        return stored.ok ? number(sum) : stored;
    }
    case Op::CompareSet: {
        // As TCPStore: a missing key is set only when the caller expected nothing; the reply is
        // the value the key holds afterwards (the expected one when a missing key stays missing).
        const auto it = m_values.find(key);
        if (it == m_values.end()) {
            if (!r.expected.empty())
                return Reply{true, r.expected, 0};
            Reply stored = put(key, r.value);
            return stored.ok ? Reply{true, r.value, 0} : stored;
        }
        if (it->second == r.expected) {
            Reply stored = put(key, r.value);
            if (!stored.ok)
                return stored;
        }
        return Reply{true, m_values.at(key), 0};
    }
    }
    return refuse("unknown request");
}

} // namespace cl::rendezvous
