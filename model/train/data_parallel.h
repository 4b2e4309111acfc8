#pragma once
// Data-parallel training on LibTorch's c10d: the ranks meet at a store that rank 0 hosts
// (model/rendezvous), then sum through ProcessGroupGloo. A world of one rank communicates nothing. Every failure (a rank
// that never comes, dies or stops answering within the timeout) throws one readable line.
#include "model/core/parallel_options.h"

#include <torch/torch.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace cl {

// Throws std::invalid_argument on a world size, rank or timeout out of range.
void checkParallelOptions(const ParallelOptions& options);

// Whether this build has c10d with Gloo; without it a world of more than one rank is refused.
bool dataParallelAvailable();

class DataParallel {
  public:
    explicit DataParallel(const ParallelOptions& options);
    ~DataParallel();
    DataParallel(const DataParallel&) = delete;
    DataParallel& operator=(const DataParallel&) = delete;

    int64_t rank() const { return m_rank; }
    int64_t size() const { return m_size; }
    bool leader() const { return m_rank == 0; }

    // Throws unless every rank gave the same text for `what` (options that must agree).
    void agree(const std::string& what, const std::string& text);
    // Rank 0's values, in place, on every rank.
    void broadcast(const std::vector<torch::Tensor>& tensors);
    // Sums in place over the ranks.
    void sum(const torch::Tensor& tensor);
    // Sums every defined gradient of `params` over the ranks, in buckets (one allreduce each,
    // all in flight at once).
    void sumGradients(const std::vector<torch::Tensor>& params);

  private:
    struct Group;
    void meet(const ParallelOptions& options, std::chrono::milliseconds timeout);
    int64_t m_rank = 0, m_size = 1;
    std::unique_ptr<Group> m_group;
};

} // namespace cl
