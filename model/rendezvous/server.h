#pragma once
// Rank 0's rendezvous store on the network: listens on the address --master names and nowhere
// else, serves every connection from one thread with poll(), so a peer that sends half a message
// and holds its socket delays no one. Budgets: each rank of the world joins once; at most
// kMaxStrangers connections wait for their greeting, each for at most `greeting`; a message must
// arrive whole within `greeting` of its first byte; lengths and totals as in wire.h.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace cl::rendezvous {

inline constexpr int kMaxStrangers = 8;

class Server {
  public:
    // Throws std::runtime_error with one readable line when it cannot listen there (an address
    // of another machine, a port in use).
    Server(const std::string& host, int port, int64_t worldSize,
           std::chrono::milliseconds greeting);
    ~Server(); // stops serving and joins its thread
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    int port() const; // the port bound (the one asked for, or the system's pick for 0)

  private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace cl::rendezvous
