#include "model/data/bounded_child.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <thread>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

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

} // namespace

std::string runBounded(const std::function<void()>& work, const ChildBudget& budget,
                       const std::function<void()>& afterFork) {
    std::fflush(nullptr); // nothing buffered is written twice
    const pid_t pid = fork();
    if (pid < 0)
        return "cannot start a process to read it";
    if (pid == 0) {
        if (afterFork)
            afterFork();
        try {
            work();
        } catch (...) {
        }
        _exit(0); // no destructors, no atexit handlers of the parent's
    }
    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const uint64_t baseline = residentBytes(pid);
    for (;;) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid)
            return verdict(status);
        if (residentBytes(pid) > baseline + budget.memoryBytes)
            return stopped(pid, "needs more than " + std::to_string(budget.memoryBytes >> 20) +
                                    " MiB of memory");
        if (std::chrono::duration<double>(Clock::now() - start).count() > budget.seconds)
            return stopped(pid, "takes more than " +
                                    std::to_string(static_cast<int>(budget.seconds)) + " s");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

} // namespace cl::io
