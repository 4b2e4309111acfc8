// DataParallel in a build without c10d's Gloo process group (CAPTIONLENS_DISTRIBUTED off, or its
// headers not found, as with a pip PyTorch): a world of one rank trains as usual, a larger one is
// refused in one line before anything starts.
#include "model/train/data_parallel.h"

#include <stdexcept>

namespace cl {

struct DataParallel::Group {};

bool dataParallelAvailable() {
    return false;
}

DataParallel::DataParallel(const ParallelOptions& o) : m_rank(o.rank), m_size(o.worldSize) {
    checkParallelOptions(o);
    if (o.worldSize > 1)
        throw std::runtime_error("data-parallel training (--world-size " +
                                 std::to_string(o.worldSize) +
                                 ") is not available in this build: it was built without "
                                 "LibTorch's c10d/Gloo headers (scripts/install-deps.sh installs "
                                 "libgloo-dev)");
}

DataParallel::~DataParallel() = default;

void DataParallel::agree(const std::string&, const std::string&) {}
void DataParallel::broadcast(const std::vector<torch::Tensor>&) {}
void DataParallel::sum(const torch::Tensor&) {}
void DataParallel::sumGradients(const std::vector<torch::Tensor>&) {}

} // namespace cl
