#pragma once
// What this process runs on, for Help ▸ About and bug reports: the LibTorch version and the BLAS
// library actually loaded (Debian's generic libblas.so.3 may be OpenBLAS or the reference BLAS).
#include <string>

namespace cl {

std::string libtorchVersion(); // e.g. "1.13.0"
// The BLAS libraries loaded, resolved through their symlinks (alternatives), and whether the
// batch-1 decode calls CBLAS directly, e.g. "openblas-pthread/libblas.so.3 (CBLAS direct)".
std::string blasInUse();

} // namespace cl
