#include "model/data/bounded_child.h"

#include <chrono>
#include <climits>
#include <csignal>
#include <cstring>
#include <fstream>
#include <thread>

#include <spawn.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace cl::io {

namespace {

// Resident bytes of process `pid` (0 when it cannot be read: it has just exited).
uint64_t residentBytes(pid_t pid) {
    std::ifstream statm("/proc/" + std::to_string(pid) + "/statm");
    uint64_t size = 0, resident = 0;
    if (!(statm >> size >> resident))
        return 0;
    return resident * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

std::string stopped(pid_t pid, const std::string& why) {
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    return why;
}

std::string verdict(int status) {
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return "";
    if (WIFSIGNALED(status))
        return "crashes (signal " + std::to_string(WTERMSIG(status)) + ")";
    return "fails (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
}

bool executable(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

std::string ownFolder() {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return "";
    const std::string exe(buf, static_cast<size_t>(n));
    return exe.substr(0, exe.rfind('/'));
}

} // namespace

std::string runBounded(const std::vector<std::string>& argv, const ChildBudget& budget) {
    std::vector<char*> args;
    for (const auto& a : argv)
        args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int err = posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ);
    if (err != 0)
        return std::string("cannot be started: ") + std::strerror(err);
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    for (;;) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid)
            return verdict(status);
        if (residentBytes(pid) > budget.memoryBytes)
            return stopped(pid, "needs more than " + std::to_string(budget.memoryBytes >> 20) +
                                    " MiB of memory");
        if (std::chrono::duration<double>(Clock::now() - start).count() > budget.seconds)
            return stopped(pid, "takes more than " +
                                    std::to_string(static_cast<int>(budget.seconds)) + " s");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

std::string h5ProbeProgram() {
    const std::string name = "captionlens-h5probe";
    const std::string here = ownFolder();
    std::vector<std::string> places;
    if (!here.empty())
        places = {here + "/" + name, here + "/../libexec/captionlens/" + name};
#ifdef CL_H5PROBE_BUILD_PATH
    places.push_back(CL_H5PROBE_BUILD_PATH);
#endif
    for (const auto& p : places)
        if (executable(p))
            return p;
    return "";
}

} // namespace cl::io
