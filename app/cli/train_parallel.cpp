#include "app/cli/train_parallel.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cl::cli {

namespace {

std::string masterText; // --master as given

long long number(const std::string& text, const char* name, long long lo, long long hi) {
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || v < lo || v > hi)
        throw std::invalid_argument(std::string(name) + ": '" + text.substr(0, 40) +
                                    "' is not a whole number in " + std::to_string(lo) + ".." +
                                    std::to_string(hi));
    return v;
}

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

// "HOST:PORT", "[v6]:PORT".
void parseMaster(const std::string& text, ParallelOptions& o) {
    const auto colon = text.rfind(':');
    std::string host = colon == std::string::npos ? "" : text.substr(0, colon);
    if (host.size() > 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    if (host.empty() || colon + 1 >= text.size())
        throw std::invalid_argument("--master: '" + text.substr(0, 80) +
                                    "' is not HOST:PORT (e.g. 10.0.0.1:29500)");
    o.host = host;
    o.port = static_cast<int>(number(text.substr(colon + 1), "--master port", 1, 65535));
}

} // namespace

void addParallelOptions(CLI::App& cmd, ParallelOptions& o) {
    const char* group = "Data-parallel (c10d)";
    cmd.add_option("--world-size", o.worldSize,
                   "Ranks training together (default $WORLD_SIZE or 1); each draws its own "
                   "--batch scenes per step")
        ->group(group)
        ->check(CLI::Range(int64_t(1), int64_t(1024)));
    cmd.add_option("--rank", o.rank, "This process's rank, 0 to N-1 (default $RANK or 0)")
        ->group(group)
        ->check(CLI::Range(int64_t(0), int64_t(1023)));
    cmd.add_option("--master", masterText,
                   "Rank 0's HOST:PORT, where the ranks meet (default "
                   "$MASTER_ADDR:$MASTER_PORT or 127.0.0.1:29500)")
        ->group(group);
    cmd.add_option("--timeout", o.timeoutSeconds,
                   "Seconds to wait for the other ranks, at the start and at every step")
        ->group(group)
        ->check(CLI::Range(1.0, 86400.0))
        ->capture_default_str();
}

void resolveParallel(const CLI::App& cmd, ParallelOptions& o) {
    if (cmd.count("--world-size") == 0 && env("WORLD_SIZE"))
        o.worldSize = number(env("WORLD_SIZE"), "WORLD_SIZE", 1, 1024);
    if (cmd.count("--rank") == 0 && env("RANK"))
        o.rank = number(env("RANK"), "RANK", 0, 1023);
    if (cmd.count("--master") > 0) {
        parseMaster(masterText, o);
    } else {
        if (env("MASTER_ADDR"))
            o.host = env("MASTER_ADDR");
        if (env("MASTER_PORT"))
            o.port = static_cast<int>(number(env("MASTER_PORT"), "MASTER_PORT", 1, 65535));
    }
    if (o.rank >= o.worldSize)
        throw std::invalid_argument("--rank " + std::to_string(o.rank) +
                                    " is not below --world-size " + std::to_string(o.worldSize));
}

} // namespace cl::cli
