// libFuzzer target: the rendezvous store (model/rendezvous) as peers on the network reach it.
// The input is a conversation: chunks of bytes, each from one of three connections, cut into
// frames as the server cuts them; greetings admit ranks, requests change the store. Traps when a
// budget is broken or a frame that parsed does not encode back to the same bytes.
#include "model/rendezvous/store_state.h"

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

using namespace cl::rendezvous;

namespace {

struct Peer {
    FrameReader in;
    int64_t rank = -1;
    bool closed = false;
    std::optional<Request> waiting;
};

void check(const Reply& reply) {
    const std::string bytes = encode(reply);
    if (encode(decodeReply(bytes.substr(4))) != bytes)
        __builtin_trap();
}

void handle(StoreState& store, Peer& peer, const std::string& body) {
    const Request r = decodeRequest(body);
    if (encode(r).substr(4) != body)
        __builtin_trap(); // one meaning, one encoding
    if (peer.rank < 0) {
        const Reply reply = store.admit(r, peer.rank);
        check(reply);
        peer.closed = !reply.ok;
        return;
    }
    if (auto reply = store.apply(r))
        check(*reply);
    else
        peer.waiting = r;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1)
        return 0;
    StoreState store(1 + data[0] % 4);
    std::array<Peer, 3> peers;
    size_t at = 1;
    while (at + 3 <= size) {
        Peer& peer = peers[data[at] % peers.size()];
        const size_t n = std::min<size_t>(data[at + 1] | size_t(data[at + 2]) << 8, size - at - 3);
        const char* chunk = reinterpret_cast<const char*>(data + at + 3);
        at += 3 + n;
        if (peer.closed)
            continue;
        try {
            peer.in.feed(chunk, n);
            while (!peer.waiting && !peer.closed) {
                const auto body = peer.in.next();
                if (!body)
                    break;
                handle(store, peer, *body);
            }
        } catch (const std::invalid_argument&) { // the server drops such a peer
            store.leave(peer.rank);
            peer = Peer{};
            peer.closed = true;
        }
        for (auto& p : peers)
            if (p.waiting)
                if (auto reply = store.apply(*p.waiting)) {
                    check(*reply);
                    p.waiting.reset();
                }
        if (store.storedBytes() > kMaxStoredBytes || store.size() > kMaxKeys)
            __builtin_trap();
    }
    return 0;
}
