#pragma once
// Running a library we cannot vouch for on a file we cannot trust: the work runs in a child
// process that a watchdog kills when it takes more memory or time than the budget allows, so a
// file that makes the library loop, allocate without bound or crash costs a message, not the app.
#include <cstdint>
#include <functional>
#include <string>

namespace cl::io {

struct ChildBudget {
    uint64_t memoryBytes = uint64_t(1) << 30; // growth of the child's resident memory
    double seconds = 20.0;
};

// Runs `work` in a forked child (whatever it throws is the caller's to find out again in its own
// process; only the budget and crashes count here). `afterFork` runs first in the child (to reset
// locks the parent held while forking). Returns "" when the child finished within the budget,
// else why not ("needs more than 1024 MiB of memory", "takes more than 20 s", "crashes (signal
// 11)").
std::string runBounded(const std::function<void()>& work, const ChildBudget& budget,
                       const std::function<void()>& afterFork = {});

} // namespace cl::io
