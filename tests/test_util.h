#pragma once
// Shared helpers of the model tests. Include torch before Qt (the `slots` macro clash).
#include <torch/torch.h>

#include <caffe2/serialize/inline_container.h>

#include <QTest>

#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace cltest {

// A zip archive with the given records, as torch.save lays them out.
inline std::string zipWith(const std::vector<std::pair<std::string, std::string>>& records) {
    std::string out;
    caffe2::serialize::PyTorchStreamWriter w([&](const void* d, size_t n) {
        out.append(static_cast<const char*>(d), n);
        return n;
    });
    for (const auto& [name, data] : records)
        w.writeRecord(name, data.data(), data.size());
    w.writeEndOfFile();
    return out;
}

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
