#include "model/api/threads.h"

#include <ATen/Parallel.h>

#include <dlfcn.h>
#include <sched.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <cstdlib>
#include <thread>

namespace cl {

void keepBuffersInHeap() {
#ifdef __GLIBC__
    // Step-sized buffers (up to tens of MB) stay in the heap; a huge photo still gets its own
    // mapping and goes back to the system when closed.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}

int defaultThreadCount() {
    if (const char* env = std::getenv("OMP_NUM_THREADS")) {
        char* end = nullptr;
        const long v = std::strtol(env, &end, 10);
        if (end != env && *end == '\0' && v > 0 && v <= 4096)
            return static_cast<int>(v);
    }
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return std::max(1, CPU_COUNT(&set));
    return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

int setThreadCount(int n) {
    keepBuffersInHeap();
    if (n <= 0)
        n = defaultThreadCount();
    // OpenBLAS (Debian's libblas.so.3 with libopenblas0-pthread) runs its own thread pool under
    // LibTorch's: both at once oversubscribe the cores and spin (measured: 2x slower training).
    // LibTorch parallelises across ops, so BLAS gets one thread.
    using SetThreads = void (*)(int);
    if (auto f = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
        f(1);
    at::set_num_threads(n);
    return at::get_num_threads();
}

int threadCount() {
    return at::get_num_threads();
}

} // namespace cl
