#pragma once
// Where a rank of data-parallel training finds the others (train --world-size, --rank, --host,
// --port; model/train/data_parallel.h checks and uses them).
#include <string>

namespace cl {

struct ParallelOptions {
    int64_t worldSize = 1, rank = 0;
    std::string host = "127.0.0.1";
    int port = 29500;
    double timeoutSeconds = 300; // rendezvous and every collective; then the rank gives up
};

} // namespace cl
