#pragma once
// eachAddress: a template, so its body lives in a header (included by socket_util.h).
#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <stdexcept>
#include <sys/socket.h>

namespace cl::rendezvous {

template <typename F>
int eachAddress(const std::string& host, int port, const char* verb, F&& attempt) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV;
    addrinfo* found = nullptr;
    const std::string service = std::to_string(port);
    const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
    if (rc != 0)
        throw std::runtime_error(std::string("cannot ") + verb + " " + endpoint(host, port) +
                                 " (" + gai_strerror(rc) + ")");
    int lastError = 0;
    for (addrinfo* a = found; a; a = a->ai_next) {
        const int fd = attempt(*a);
        if (fd >= 0) {
            freeaddrinfo(found);
            return fd;
        }
        lastError = errno;
    }
    freeaddrinfo(found);
    throw std::runtime_error(std::string("cannot ") + verb + " " + endpoint(host, port) + " (" +
                             std::strerror(lastError) + ")");
}

} // namespace cl::rendezvous
