#include "model/train/data_parallel.h"

#include <stdexcept>
#include <string>

namespace cl {

void checkParallelOptions(const ParallelOptions& o) {
    if (o.worldSize < 1 || o.worldSize > 1024)
        throw std::invalid_argument("--world-size must be 1 to 1024, not " +
                                    std::to_string(o.worldSize));
    if (o.rank < 0 || o.rank >= o.worldSize)
        throw std::invalid_argument("--rank must be 0 to " + std::to_string(o.worldSize - 1) +
                                    " in a world of " + std::to_string(o.worldSize) + ", not " +
                                    std::to_string(o.rank));
    if (!(o.timeoutSeconds >= 1 && o.timeoutSeconds <= 86400))
        throw std::invalid_argument("--timeout must be 1 to 86400 seconds");
}

} // namespace cl
