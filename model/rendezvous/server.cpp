#include "model/rendezvous/server.h"

#include "model/rendezvous/socket_util.h"
#include "model/rendezvous/store_state.h"

#include <fcntl.h>
#include <list>
#include <netinet/in.h>
#include <optional>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace cl::rendezvous {

namespace {

struct Connection {
    int fd = -1;
    int64_t rank = -1; // -1 until its greeting is accepted
    FrameReader in;
    std::string out;
    std::optional<Request> waiting; // a Get or Wait for keys not there yet
    uint64_t seenChanges = 0;       // the store's changes when `waiting` was last looked at
    Clock::time_point since;        // connected (a stranger), or the first byte of a message
    bool closing = false;           // close once `out` is sent (a refusal)
};

int listenOn(const std::string& host, int port) {
    return eachAddress(host, port, "listen on", [](const addrinfo& a) {
        const int fd = socket(a.ai_family, a.ai_socktype | SOCK_CLOEXEC, a.ai_protocol);
        if (fd < 0)
            return -1;
        const int one = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, a.ai_addr, a.ai_addrlen) == 0 && listen(fd, 64) == 0)
            return fd;
        const int e = errno;
        close(fd);
        errno = e;
        return -1;
    });
}

int boundPort(int fd) {
    sockaddr_storage a{};
    socklen_t n = sizeof a;
    getsockname(fd, reinterpret_cast<sockaddr*>(&a), &n);
    if (a.ss_family == AF_INET6)
        return ntohs(reinterpret_cast<sockaddr_in6*>(&a)->sin6_port);
    return ntohs(reinterpret_cast<sockaddr_in*>(&a)->sin_port);
}

} // namespace

struct Server::Impl {
    int listener = -1;
    int wake[2] = {-1, -1};
    int port = 0;
    std::chrono::milliseconds greeting;
    StoreState store;
    std::list<Connection> connections;
    std::thread thread;

    Impl(int64_t worldSize, std::chrono::milliseconds g) : greeting(g), store(worldSize) {}
    void serve();
    void accept();
    void read(Connection& c);
    void pump(Connection& c);
    void handle(Connection& c, const std::string& body);
    void answerWaiting(Connection& c);
    void write(Connection& c);
    void drop(Connection& c);
    int strangers() const;
};

int Server::Impl::strangers() const {
    int n = 0;
    for (const auto& c : connections)
        n += c.rank < 0 && c.fd >= 0;
    return n;
}

void Server::Impl::drop(Connection& c) {
    if (c.fd < 0)
        return;
    store.leave(c.rank);
    close(c.fd);
    c.fd = -1;
}

void Server::Impl::accept() {
    const int fd = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd < 0)
        return;
    if (strangers() >= kMaxStrangers) { // busy greeting others: this one may try again
        close(fd);
        return;
    }
    Connection c;
    c.fd = fd;
    c.since = Clock::now();
    connections.push_back(std::move(c));
}

void Server::Impl::handle(Connection& c, const std::string& body) {
    const Request r = decodeRequest(body);
    if (c.rank < 0) {
        const Reply reply = store.admit(r, c.rank);
        c.out += encode(reply);
        c.closing = !reply.ok;
        return;
    }
    if (auto reply = store.apply(r)) {
        c.out += encode(*reply);
    } else {
        c.waiting = r;
        c.seenChanges = store.changes();
    }
}

void Server::Impl::answerWaiting(Connection& c) {
    if (!c.waiting || c.seenChanges == store.changes())
        return;
    c.seenChanges = store.changes();
    if (auto reply = store.apply(*c.waiting)) {
        c.out += encode(*reply);
        c.waiting.reset();
        write(c);
    }
}

void Server::Impl::read(Connection& c) {
    char buffer[65536];
    const ssize_t n = recv(c.fd, buffer, sizeof buffer, 0);
    if (n <= 0) {
        if (n == 0 || (errno != EAGAIN && errno != EINTR))
            drop(c);
        return;
    }
    try {
        if (!c.in.partial() && c.rank >= 0)
            c.since = Clock::now();
        c.in.feed(buffer, std::size_t(n));
    } catch (const std::exception&) { // over budget: the peer is not one of ours
        drop(c);
        return;
    }
    pump(c);
}

// Answers the messages that arrived whole, one at a time: the next waits until this one's reply
// is sent.
void Server::Impl::pump(Connection& c) {
    try {
        while (c.fd >= 0 && c.out.empty() && !c.waiting && !c.closing) {
            auto body = c.in.next();
            if (!body)
                break;
            handle(c, *body);
            if (c.rank >= 0)
                c.since = Clock::now();
        }
    } catch (const std::exception&) { // malformed: the peer is not one of ours
        drop(c);
    }
}

void Server::Impl::write(Connection& c) {
    const ssize_t n = send(c.fd, c.out.data(), c.out.size(), MSG_NOSIGNAL);
    if (n < 0) {
        if (errno != EAGAIN && errno != EINTR)
            drop(c);
        return;
    }
    c.out.erase(0, std::size_t(n));
    if (c.out.empty() && c.closing)
        drop(c);
    else if (c.out.empty())
        pump(c);
}

void Server::Impl::serve() {
    for (;;) {
        std::vector<pollfd> fds{{wake[0], POLLIN, 0}, {listener, POLLIN, 0}};
        std::vector<Connection*> of;
        for (auto& c : connections) {
            const bool busy = !c.out.empty() || c.waiting || c.closing;
            fds.push_back({c.fd, short(c.out.empty() ? (busy ? 0 : POLLIN) : POLLOUT), 0});
            of.push_back(&c);
        }
        if (poll(fds.data(), fds.size(), 200) < 0 && errno != EINTR)
            return;
        if (fds[0].revents)
            return;
        if (fds[1].revents & POLLIN)
            accept();
        const auto now = Clock::now();
        for (std::size_t i = 0; i < of.size(); ++i) {
            Connection& c = *of[i];
            if (fds[i + 2].revents & (POLLERR | POLLHUP | POLLNVAL))
                drop(c);
            else if (fds[i + 2].revents & POLLOUT)
                write(c);
            else if (fds[i + 2].revents & POLLIN)
                read(c);
            // A stranger that does not greet in time, or a message that does not arrive whole.
            const bool late = c.rank < 0 || c.in.partial();
            if (c.fd >= 0 && late && now - c.since > greeting)
                drop(c);
        }
        for (auto& c : connections)
            if (c.fd >= 0)
                answerWaiting(c);
        connections.remove_if([](const Connection& c) { return c.fd < 0; });
    }
}

Server::Server(const std::string& host, int port, int64_t worldSize,
               std::chrono::milliseconds greeting)
    : m_impl(std::make_unique<Impl>(worldSize, greeting)) {
    m_impl->listener = listenOn(host, port);
    setNonBlocking(m_impl->listener);
    m_impl->port = boundPort(m_impl->listener);
    if (pipe2(m_impl->wake, O_CLOEXEC) != 0) {
        close(m_impl->listener);
        throw std::runtime_error("cannot start the rendezvous store (no pipe)");
    }
    m_impl->thread = std::thread([impl = m_impl.get()] { impl->serve(); });
}

Server::~Server() {
    const char stop = 1;
    (void)!::write(m_impl->wake[1], &stop, 1);
    m_impl->thread.join();
    for (auto& c : m_impl->connections)
        m_impl->drop(c);
    close(m_impl->listener);
    close(m_impl->wake[0]);
    close(m_impl->wake[1]);
}

int Server::port() const {
    return m_impl->port;
}

} // namespace cl::rendezvous
