#pragma once
// LibTorch may start with one intra-op thread; call once at start-up.
namespace cl {
// The threads a process uses unless told: OMP_NUM_THREADS when it is a positive number (as
// PyTorch reads it; CTest sets 1 per test), else the cores this process may run on.
int defaultThreadCount();
// n <= 0: defaultThreadCount(). Returns the count in effect. Also keeps large tensor buffers
// in the heap (keepBuffersInHeap), which every entry point wants.
int setThreadCount(int n);
// The count in effect now (LibTorch's intra-op threads, process-wide).
int threadCount();
// Tensors of a decode or training step are allocated and freed again every step, many above
// glibc's mmap threshold: each would be a fresh mmap, page faults and an munmap (about 10% of a
// training step, 20% of a batch-1 decode here). This keeps them in the heap for reuse.
void keepBuffersInHeap();
} // namespace cl
