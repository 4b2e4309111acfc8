#pragma once
// The few POSIX socket steps the rendezvous server and client share.
#include <chrono>
#include <string>

namespace cl::rendezvous {

// The addresses `host` names, for `port`, each tried in turn by `attempt` (which returns a file
// descriptor or -1 and sets errno); returns the first descriptor, or throws std::runtime_error
// "cannot VERB HOST:PORT (reason)".
template <typename F>
int eachAddress(const std::string& host, int port, const char* verb, F&& attempt);

void setNonBlocking(int fd);
// "HOST:PORT", with brackets around an IPv6 address.
std::string endpoint(const std::string& host, int port);

using Clock = std::chrono::steady_clock;
// Milliseconds left until `deadline`, at least 0, at most a day (for poll()).
int msLeft(Clock::time_point deadline);

} // namespace cl::rendezvous

#include "model/rendezvous/socket_util_impl.h"
