// rss_probe RESULT COMMAND [ARGS...]: runs COMMAND, writes "<peak RSS in KiB> <seconds>" to
// RESULT and exits with COMMAND's status. A small process of its own, so the peak is COMMAND's
// alone: a child forked from a large test process inherits that process's high-water mark.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: rss_probe RESULT COMMAND [ARGS...]\n");
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    const pid_t pid = fork();
    if (pid == 0) {
        execv(argv[2], argv + 2);
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    if (pid < 0 || wait4(pid, &status, 0, &usage) != pid)
        return 2;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (FILE* f = std::fopen(argv[1], "w")) {
        std::fprintf(f, "%ld %.3f\n", usage.ru_maxrss, seconds);
        std::fclose(f);
    }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
