#pragma once
// The rendezvous protocol of data-parallel training: the frames the ranks exchange with the store
// rank 0 hosts (README.md here). Torch-free. Every length is checked against a budget before
// anything is allocated for it, so a peer's nine bytes cannot cost a gigabyte (issue 41).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cl::rendezvous {

inline constexpr uint32_t kMagic = 0x56524c43; // "CLRV"
inline constexpr uint32_t kVersion = 1;
inline constexpr std::size_t kMaxKey = 1024;
inline constexpr std::size_t kMaxValue = std::size_t(1) << 20;
inline constexpr std::size_t kMaxKeysPerRequest = 64;
inline constexpr std::size_t kMaxFrame = 2 * kMaxValue + 2 * kMaxKey + 64; // a compare-and-set
inline constexpr std::size_t kMaxStoredBytes = std::size_t(64) << 20;
inline constexpr std::size_t kMaxKeys = std::size_t(1) << 16;

enum class Op : uint8_t { Hello = 1, Set, Get, Add, CompareSet, Check, Delete, NumKeys, Wait };

struct Request {
    Op op = Op::NumKeys;
    std::vector<std::string> keys; // Check, Wait: several; NumKeys, Hello: none; others: one
    std::string value;             // Set, CompareSet: the new value
    std::string expected;          // CompareSet
    int64_t number = 0;            // Add: the increment; Hello: the world size
    int64_t rank = 0;              // Hello
    uint32_t magic = kMagic, version = kVersion; // Hello
};

struct Reply {
    bool ok = true;
    std::string value;  // Get, CompareSet: the value; a refusal: its reason
    int64_t number = 0; // Add: the sum; Check, Delete: 0 or 1; NumKeys: the count
};

// A frame: a little-endian u32 body length, then the body.
std::string encode(const Request& request);
std::string encode(const Reply& reply);
// One frame's body; throws std::invalid_argument with the reason on anything malformed or over
// budget (a frame either parses whole or not at all).
Request decodeRequest(std::string_view body);
Reply decodeReply(std::string_view body);

// Cuts a byte stream into frame bodies: feed() what arrived, then next() until it has none.
class FrameReader {
  public:
    // Throws std::invalid_argument as soon as a frame declares more than kMaxFrame bytes.
    void feed(const char* data, std::size_t size);
    std::optional<std::string> next();
    // Bytes of a frame that has not arrived whole.
    bool partial() const { return !m_buffer.empty(); }

  private:
    std::string m_buffer;
};

} // namespace cl::rendezvous
