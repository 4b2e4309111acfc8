#include "model/api/build_info.h"

#include "model/nn/fast_weights.h"

#include <torch/version.h>

#include <link.h>

#include <climits>
#include <cstdlib>
#include <set>

namespace cl {

std::string libtorchVersion() {
    return TORCH_VERSION;
}

namespace {
int collectBlas(dl_phdr_info* info, size_t, void* out) {
    const std::string name = info->dlpi_name ? info->dlpi_name : "";
    if (name.find("blas") == std::string::npos)
        return 0;
    char resolved[PATH_MAX];
    const std::string path = realpath(name.c_str(), resolved) ? resolved : name;
    // Keep the distinguishing part: ".../openblas-pthread/libblas.so.3" or the file name.
    const auto slash = path.rfind('/');
    const auto parent = slash == std::string::npos ? std::string::npos : path.rfind('/', slash - 1);
    static_cast<std::set<std::string>*>(out)->insert(
        parent == std::string::npos ? path : path.substr(parent + 1));
    return 0;
}
} // namespace

std::string blasInUse() {
    std::set<std::string> found;
    dl_iterate_phdr(collectBlas, &found);
    std::string out;
    for (const auto& f : found)
        out += (out.empty() ? "" : ", ") + f;
    if (out.empty())
        out = "no separate BLAS library loaded";
    return out + (directBlasAvailable() ? " (CBLAS called directly)" : " (through ATen)");
}

} // namespace cl
