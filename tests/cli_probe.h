#pragma once
// The real CLI in a child process under rss_probe (tests/rss_probe.cpp), which measures the CLI
// alone: exit status, peak memory, seconds, and what it wrote. For tests that feed it hostile
// input (tst_hostile); the target defines CL_CLI and CL_RSS_PROBE.
#include "tests/test_util.h"

#include <QString>

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace cltest {

// A byte that moves a terminal's cursor, retitles it or starts an escape sequence; newline ends
// the one line a refusal is.
inline bool hasControlBytes(const std::string& text) {
    for (unsigned char c : text)
        if ((c < 0x20 && c != '\n') || c == 0x7f)
            return true;
    return false;
}

struct Run {
    int status = -1;
    long maxRssKb = 0;
    double seconds = 0;
    std::string out, err;
};

// Runs the CLI with `args` under rss_probe (which measures the CLI alone); stdout and stderr go to
// files in `dir`. Killed after 90 s.
inline Run runCli(const QString& dir, const std::vector<std::string>& args) {
    const std::string outPath = (dir + "/stdout").toStdString();
    const std::string errPath = (dir + "/stderr").toStdString();
    const std::string probePath = (dir + "/probe").toStdString();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_addopen(&actions, 2, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    std::vector<std::string> all{CL_RSS_PROBE, probePath, CL_CLI};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    Run run;
    pid_t pid = 0;
    ::unlink(probePath.c_str());
    const int spawned = posix_spawn(&pid, CL_RSS_PROBE, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0)
        return run;
    const auto start = std::chrono::steady_clock::now();
    while (waitpid(pid, &run.status, WNOHANG) != pid) {
        if (std::chrono::steady_clock::now() - start > std::chrono::seconds(90)) {
            kill(pid, SIGKILL);
            waitpid(pid, &run.status, 0);
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::sscanf(cltest::readBytes(probePath).c_str(), "%ld %lf", &run.maxRssKb, &run.seconds);
    run.out = cltest::readBytes(outPath);
    run.err = cltest::readBytes(errPath);
    return run;
}

} // namespace cltest
