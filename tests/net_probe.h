#pragma once
// What a test sees of the network from outside a process: the addresses a port listens on (as the
// kernel lists them) and a raw connection that sends whatever bytes a hostile peer would.
#include <QFile>
#include <QString>
#include <QStringList>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace cltest {

// The local addresses of the sockets listening on `port`, in /proc/net/tcp's hex form:
// "0100007F" is 127.0.0.1, "00000000" every IPv4 interface, 32 zeros every IPv6 one.
inline QStringList listeningOn(int port) {
    QStringList out;
    for (const char* table : {"/proc/net/tcp", "/proc/net/tcp6"}) {
        QFile f(table);
        if (!f.open(QIODevice::ReadOnly))
            continue;
        for (const QByteArray& line : f.readAll().split('\n')) {
            const auto cols = QString(line).split(' ', Qt::SkipEmptyParts);
            if (cols.size() < 4 || cols[3] != "0A") // LISTEN
                continue;
            const auto local = cols[1].split(':');
            if (local.size() == 2 && local[1].toInt(nullptr, 16) == port)
                out << local[0];
        }
    }
    return out;
}

// A connection to 127.0.0.1:port that has sent `bytes` (-1 when none could be made).
inline int rawPeer(int port, const std::string& bytes) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) != ssize_t(bytes.size())) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

// Whether the other end closed `fd` within `ms` (recv returns 0 or an error).
inline bool closedByPeer(int fd, int ms) {
    timeval tv{ms / 1000, (ms % 1000) * 1000};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char c;
    for (;;) {
        const ssize_t n = ::recv(fd, &c, 1, 0);
        if (n == 0 || (n < 0 && errno != EINTR))
            return n == 0 || errno == ECONNRESET;
    }
}

} // namespace cltest
