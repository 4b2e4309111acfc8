#pragma once
// Shared helpers of the model tests. Include torch before Qt (the `slots` macro clash).
#include <torch/torch.h>

#include <QTest>

#include <fstream>
#include <iterator>
#include <string>

namespace cltest {

inline std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

inline std::string dataPath(const char* name) {
    return std::string(CL_TEST_DATA) + "/" + name;
}

// Max |a - b| with a readable failure message.
inline bool near(const torch::Tensor& a, const torch::Tensor& b, double tol, std::string* why) {
    if (a.sizes() != b.sizes()) {
        *why = "shapes differ: " + c10::str(a.sizes()) + " vs " + c10::str(b.sizes());
        return false;
    }
    const double diff = (a.to(torch::kDouble) - b.to(torch::kDouble)).abs().max().item<double>();
    *why = "max abs difference " + std::to_string(diff);
    return diff <= tol;
}

} // namespace cltest

#define CL_COMPARE_TENSORS(a, b, tol)                                                              \
    do {                                                                                           \
        std::string why_;                                                                          \
        QVERIFY2(cltest::near((a), (b), (tol), &why_), why_.c_str());                              \
    } while (0)
