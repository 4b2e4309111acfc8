#pragma once
// Running a library we cannot vouch for on a file we cannot trust: the work runs in a separate
// program, spawned (posix_spawn: a fresh process image, nothing copied from ours, so no lock
// another of our threads held and no allocator state comes along) and killed by a watchdog when
// it takes more memory or time than the budget allows, so a file that makes the library loop,
// allocate without bound or crash costs a message, not the app.
#include <cstdint>
#include <string>
#include <vector>

namespace cl::io {

struct ChildBudget {
    uint64_t memoryBytes = uint64_t(1) << 30; // the child's resident memory
    double seconds = 20.0;
};

// Runs argv[0] (a path) with arguments argv[1..] and waits. Returns "" when it exited with
// status 0 within the budget, else why not ("needs more than 1024 MiB of memory", "takes more
// than 20 s", "crashes (signal 11)", "fails (exit status 3)", "cannot be started: ...").
std::string runBounded(const std::vector<std::string>& argv, const ChildBudget& budget);

// The program that reads an HDF5 file in full for the probe (captionlens-h5probe): next to the
// running program, in ../libexec/captionlens/ from it (an installed prefix), or in the build
// tree; "" when none is there.
std::string h5ProbeProgram();

} // namespace cl::io
