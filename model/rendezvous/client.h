#pragma once
// A rank's connection to the rendezvous store: one request at a time, each with a deadline.
#include "model/rendezvous/socket_util.h"
#include "model/rendezvous/wire.h"

#include <chrono>
#include <cstdint>
#include <string>

namespace cl::rendezvous {

class Client {
  public:
    // Connects to HOST:PORT, trying again until `deadline` (rank 0 may not listen yet), and
    // greets the store as `rank` of `worldSize`. Throws std::runtime_error with the store's
    // reason when it refuses, or when the deadline passes.
    Client(const std::string& host, int port, int64_t worldSize, int64_t rank,
           Clock::time_point deadline);
    ~Client();
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    // Sends one request and returns its reply, which must come within `timeout`. Throws
    // std::runtime_error on a refusal, a timeout or a broken connection; after a timeout or a
    // broken connection every later call throws too.
    Reply call(const Request& request, std::chrono::milliseconds timeout);

  private:
    Reply exchange(const Request& request, Clock::time_point deadline);
    void sendAll(const std::string& bytes, Clock::time_point deadline);
    std::string receive(std::size_t size, Clock::time_point deadline);
    int m_fd = -1;
    std::string m_where; // HOST:PORT
};

} // namespace cl::rendezvous
