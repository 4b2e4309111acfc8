#pragma once
// The keys and values of the rendezvous store, and what each request does to them (the semantics
// of LibTorch's c10d TCPStore, which Gloo relies on). No sockets here: the server feeds it, the
// fuzzer too. Holds at most kMaxKeys keys and kMaxStoredBytes bytes.
#include "model/rendezvous/wire.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cl::rendezvous {

class StoreState {
  public:
    explicit StoreState(int64_t worldSize) : m_joined(static_cast<std::size_t>(worldSize), false) {}

    // A connection's greeting: admits each rank of this world once. On a refusal the reply says
    // why and `rank` is left alone.
    Reply admit(const Request& hello, int64_t& rank);
    // The rank's connection closed: its place is free again.
    void leave(int64_t rank);

    // What a request of an admitted connection answers; nullopt for a Get or Wait whose keys are
    // not all there yet (ask again after the next change).
    std::optional<Reply> apply(const Request& request);

    // Counts every change, so waiting requests are looked at again only after one.
    uint64_t changes() const { return m_changes; }
    std::size_t storedBytes() const { return m_bytes; }
    std::size_t size() const { return m_values.size(); }

  private:
    Reply put(const std::string& key, std::string value);
    bool has(const std::vector<std::string>& keys) const;

    std::map<std::string, std::string> m_values;
    std::vector<bool> m_joined;
    std::size_t m_bytes = 0;
    uint64_t m_changes = 0;
};

} // namespace cl::rendezvous
