#pragma once
// LibTorch may start with one intra-op thread; call once at start-up.
namespace cl {
// n <= 0: every hardware thread. Returns the count in effect.
int setThreadCount(int n);
} // namespace cl
