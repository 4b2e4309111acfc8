#include "model/core/files.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace cl::files {

namespace {

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

std::string kindOf(mode_t mode) {
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISFIFO(mode))
        return "a FIFO (named pipe)";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "not a regular file";
}

std::string mib(int64_t bytes) {
    return std::to_string(bytes >> 20) + " MiB";
}

class Fd {
  public:
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd() {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    int get() const { return m_fd; }

  private:
    int m_fd;
};

void writeAll(int fd, const std::string& bytes, const std::string& path) {
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail("cannot write " + path + ": " + std::strerror(errno));
        done += static_cast<size_t>(n);
    }
}

// A FIFO or terminal, written through. O_NONBLOCK: a FIFO that no program reads is refused at
// once (ENXIO) instead of waiting for a reader forever; once open, writes block as usual.
void writeDirect(const std::string& path, const std::string& bytes) {
    Fd fd(::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (fd.get() < 0 && errno == ENXIO)
        fail("cannot write " + path + ": it is a FIFO (named pipe) that no program reads");
    if (fd.get() < 0)
        fail("cannot write " + path + ": " + std::strerror(errno));
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
        fail("cannot write " + path + ": " + std::strerror(errno));
    writeAll(fd.get(), bytes, path);
}

void writeAtomically(const std::string& path, const std::string& bytes, mode_t mode) {
    std::string tmp = path + ".XXXXXX";
    Fd fd(::mkstemp(tmp.data()));
    if (fd.get() < 0)
        fail("cannot write " + path + ": " + std::strerror(errno));
    try {
        writeAll(fd.get(), bytes, path);
        if (::fsync(fd.get()) != 0)
            fail("cannot write " + path + ": " + std::strerror(errno));
        ::fchmod(fd.get(), mode);
    } catch (...) {
        std::remove(tmp.c_str());
        throw;
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        fail("cannot replace " + path + ": " + why);
    }
}

// The file a symbolic link finally names (relative links resolve against the link's folder).
std::string linkTarget(std::string path) {
    for (int hops = 0; hops < 40; ++hops) {
        struct stat st {};
        if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode))
            return path;
        std::string target(PATH_MAX, '\0');
        const ssize_t n = ::readlink(path.c_str(), target.data(), target.size());
        if (n < 0)
            fail("cannot follow the link " + path + ": " + std::strerror(errno));
        target.resize(static_cast<size_t>(n));
        const auto slash = path.rfind('/');
        if (target.front() != '/' && slash != std::string::npos)
            target = path.substr(0, slash + 1) + target;
        path = target;
    }
    fail("cannot follow the link " + path + ": too many levels of links");
}

} // namespace

std::string notRegularReason(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return errno == ENOENT || errno == ENOTDIR ? "no such file" : std::strerror(errno);
    return S_ISREG(st.st_mode) ? std::string() : kindOf(st.st_mode);
}

std::string readRegular(const std::string& path, int64_t maxBytes, const std::string& what) {
    // O_NONBLOCK: opening a FIFO for reading must not wait for a writer.
    Fd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK));
    if (fd.get() < 0) {
        const std::string why = errno == ENOENT ? "no such file" : std::strerror(errno);
        fail("cannot open " + what + " " + path + ": " + why);
    }
    struct stat st {};
    if (::fstat(fd.get(), &st) != 0)
        fail("cannot open " + what + " " + path + ": " + std::strerror(errno));
    if (!S_ISREG(st.st_mode))
        fail("cannot open " + what + " " + path + ": it is " + kindOf(st.st_mode));
    if (st.st_size > maxBytes)
        fail("cannot open " + what + " " + path + ": it is " + mib(st.st_size) + ", over the " +
             mib(maxBytes) + " a " + what + " may have");
    std::string bytes(static_cast<size_t>(st.st_size), '\0');
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            fail("cannot read " + what + " " + path + ": " + std::strerror(errno));
        if (n == 0)
            break; // the file shrank while we read it
        done += static_cast<size_t>(n);
    }
    bytes.resize(done);
    return bytes;
}

void write(const std::string& path, const std::string& bytes) {
    if (path == "-") {
        std::fwrite(bytes.data(), 1, bytes.size(), stdout);
        if (std::fflush(stdout) != 0)
            fail("cannot write to standard output");
        return;
    }
    const std::string target = linkTarget(path);
    struct stat st {};
    if (::stat(target.c_str(), &st) != 0) {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        return writeAtomically(target, bytes, 0666 & ~mask);
    }
    if (S_ISREG(st.st_mode))
        return writeAtomically(target, bytes, st.st_mode & 07777);
    if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode))
        return writeDirect(target, bytes);
    fail("cannot write " + path + ": it is " + kindOf(st.st_mode));
}

void replace(const std::string& from, const std::string& to) {
    const std::string from_ = notRegularReason(from);
    if (!from_.empty())
        fail("cannot move " + from + " into place: " + from_);
    struct stat st {};
    if (::stat(to.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        fail("cannot replace " + to + ": it is " + notRegularReason(to) +
             ", and only a regular file is replaced");
    if (std::rename(from.c_str(), to.c_str()) != 0)
        fail("cannot replace " + to + ": " + std::strerror(errno));
}

} // namespace cl::files
