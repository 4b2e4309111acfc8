#pragma once
// LibTorch may start with one intra-op thread; call once at start-up.
namespace cl {
// n <= 0: every hardware thread. Returns the count in effect. Also keeps large tensor buffers
// in the heap (keepBuffersInHeap), which every entry point wants.
int setThreadCount(int n);
// Tensors of a decode or training step are allocated and freed again every step, many above
// glibc's mmap threshold: each would be a fresh mmap, page faults and an munmap (about 10% of a
// training step, 20% of a batch-1 decode here). This keeps them in the heap for reuse.
void keepBuffersInHeap();
} // namespace cl
