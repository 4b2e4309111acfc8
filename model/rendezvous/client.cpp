#include "model/rendezvous/client.h"

#include <algorithm>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace cl::rendezvous {

namespace {

// One connection attempt that gives up at the deadline (a far host may never answer).
int connectOnce(const std::string& host, int port, Clock::time_point deadline) {
    return eachAddress(host, port, "reach", [&](const addrinfo& a) {
        const int fd = socket(a.ai_family, a.ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
                              a.ai_protocol);
        if (fd < 0)
            return -1;
        int rc = connect(fd, a.ai_addr, a.ai_addrlen);
        if (rc != 0 && errno == EINPROGRESS) {
            pollfd p{fd, POLLOUT, 0};
            int error = ETIMEDOUT;
            if (poll(&p, 1, msLeft(deadline)) == 1) {
                socklen_t n = sizeof error;
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &n);
            }
            rc = error == 0 ? 0 : -1;
            errno = error;
        }
        if (rc == 0)
            return fd;
        const int e = errno;
        close(fd);
        errno = e;
        return -1;
    });
}

uint32_t frameSize(const std::string& header) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i)
        v |= uint32_t(static_cast<unsigned char>(header[std::size_t(i)])) << (8 * i);
    return v;
}

} // namespace

Client::Client(const std::string& host, int port, int64_t worldSize, int64_t rank,
               Clock::time_point deadline)
    : m_where(endpoint(host, port)) {
    Request hello;
    hello.op = Op::Hello;
    hello.number = worldSize;
    hello.rank = rank;
    for (;;) {
        Reply r;
        try {
            m_fd = connectOnce(host, port, deadline);
            r = exchange(hello, deadline);
        } catch (const std::runtime_error& e) { // not listening yet, or busy: try again
            if (Clock::now() >= deadline)
                throw;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            continue;
        }
        if (!r.ok)
            throw std::runtime_error("the store at " + m_where + " refused this rank: " + r.value);
        return;
    }
}

Client::~Client() {
    if (m_fd >= 0)
        close(m_fd);
}

void Client::sendAll(const std::string& bytes, Clock::time_point deadline) {
    std::size_t sent = 0;
    while (sent < bytes.size()) {
        pollfd p{m_fd, POLLOUT, 0};
        if (poll(&p, 1, msLeft(deadline)) != 1)
            throw std::runtime_error("the store at " + m_where + " took no request in time");
        const ssize_t n = send(m_fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
        if (n < 0 && errno != EAGAIN && errno != EINTR)
            throw std::runtime_error("the store at " + m_where + " closed the connection");
        sent += n > 0 ? std::size_t(n) : 0;
    }
}

std::string Client::receive(std::size_t size, Clock::time_point deadline) {
    std::string out;
    char buffer[65536];
    while (out.size() < size) {
        pollfd p{m_fd, POLLIN, 0};
        if (poll(&p, 1, msLeft(deadline)) != 1)
            throw std::runtime_error("no answer from the store at " + m_where + " in time");
        const ssize_t n = recv(m_fd, buffer, std::min(sizeof buffer, size - out.size()), 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
            throw std::runtime_error("the store at " + m_where + " closed the connection");
        if (n > 0)
            out.append(buffer, std::size_t(n));
    }
    return out;
}

Reply Client::exchange(const Request& request, Clock::time_point deadline) {
    try {
        sendAll(encode(request), deadline);
        const uint32_t size = frameSize(receive(4, deadline));
        if (size > kMaxFrame)
            throw std::runtime_error("the store at " + m_where + " sent a message of " +
                                     std::to_string(size) + " bytes");
        return decodeReply(receive(size, deadline));
    } catch (const std::exception& e) { // the conversation is out of step: end it
        close(m_fd);
        m_fd = -1;
        throw std::runtime_error(e.what());
    }
}

Reply Client::call(const Request& request, std::chrono::milliseconds timeout) {
    if (m_fd < 0)
        throw std::runtime_error("the connection to the store at " + m_where + " was lost");
    const Reply r = exchange(request, Clock::now() + timeout);
    if (!r.ok)
        throw std::runtime_error("the store at " + m_where + " refused: " + r.value);
    return r;
}

} // namespace cl::rendezvous
