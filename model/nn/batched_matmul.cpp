#include "model/nn/batched_matmul.h"

#include "model/nn/fast_weights.h"

#include <dlfcn.h>

#include <limits>

namespace cl {

namespace {

using CblasSgemm = void (*)(int order, int transA, int transB, int m, int n, int k, float alpha,
                            const float* a, int lda, const float* b, int ldb, float beta, float* c,
                            int ldc);
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;
constexpr int64_t kAtenLoopBelow = 400; // ATen's bmm: contraction x rows x columns

CblasSgemm cblasSgemm() {
    static const auto f = reinterpret_cast<CblasSgemm>(dlsym(RTLD_DEFAULT, "cblas_sgemm"));
    return directBlasAvailable() ? f : nullptr;
}

// One (N, H, R, C) float tensor as N * H matrices, read in place when one of the last two
// strides is 1 (`stored` transposed, column-major, when it is the second-last's), else copied.
// A dimension of size 1 may have any stride.
struct Matrices {
    torch::Tensor t; // keeps the data alive
    int64_t rows = 0, cols = 0, ld = 1;
    bool stored = false;
    const float* at(int64_t n, int64_t h) const {
        return t.data_ptr<float>() + n * t.stride(0) + h * t.stride(1);
    }
};

bool laidOut(const torch::Tensor& x, int inner, int outer) {
    const int64_t in = x.size(inner), out = x.size(outer);
    return (in <= 1 || x.stride(inner) == 1) &&
           (out <= 1 || x.stride(outer) >= std::max<int64_t>(1, in));
}

Matrices matricesOf(const torch::Tensor& x) {
    Matrices m;
    m.rows = x.size(2);
    m.cols = x.size(3);
    const bool rowMajor = laidOut(x, 3, 2);
    m.stored = !rowMajor && laidOut(x, 2, 3);
    m.t = rowMajor || m.stored ? x : x.contiguous(); // contiguous: row-major
    const int64_t lines = m.stored ? m.cols : m.rows, line = m.stored ? m.rows : m.cols;
    m.ld = lines <= 1 ? std::max<int64_t>(1, line) : m.t.stride(m.stored ? 3 : 2);
    return m;
}

// op(a) @ op(b) for every (n, h), op = transpose where asked -> a new contiguous tensor.
torch::Tensor multiply(const torch::Tensor& a, bool transA, const torch::Tensor& b, bool transB) {
    const Matrices x = matricesOf(a), y = matricesOf(b);
    const int64_t n = a.size(0), h = a.size(1);
    const int64_t m = transA ? x.cols : x.rows, k = transA ? x.rows : x.cols;
    const int64_t cols = transB ? y.rows : y.cols;
    auto out = torch::empty({n, h, m, cols}, a.options()); // every size > 0: batchedMatmulDirect
    const auto gemm = cblasSgemm();
    const int opA = (transA != x.stored) ? kTrans : kNoTrans;
    const int opB = (transB != y.stored) ? kTrans : kNoTrans;
    float* c = out.data_ptr<float>();
    for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < h; ++j, c += m * cols)
            gemm(kRowMajor, opA, opB, int(m), int(cols), int(k), 1.f, x.at(i, j), int(x.ld),
                 y.at(i, j), int(y.ld), 0.f, c, int(cols));
    return out;
}

struct BatchedMatmulFunction : torch::autograd::Function<BatchedMatmulFunction> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& a,
                                 const torch::Tensor& b) {
        ctx->save_for_backward({a, b});
        return multiply(a, false, b, false);
    }
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const auto& g = grads[0];
        torch::Tensor da, db;
        if (torch::GradMode::is_enabled()) { // create_graph: a backward to differentiate again
            if (ctx->needs_input_grad(0))
                da = torch::matmul(g, saved[1].transpose(-2, -1));
            if (ctx->needs_input_grad(1))
                db = torch::matmul(saved[0].transpose(-2, -1), g);
            return {da, db};
        }
        if (ctx->needs_input_grad(0))
            da = multiply(g, false, saved[1], true); // dC b^T
        if (ctx->needs_input_grad(1))
            db = multiply(saved[0], true, g, false); // a^T dC
        return {da, db};
    }
};

bool fitsInt(int64_t v) {
    return v <= std::numeric_limits<int>::max();
}

} // namespace

bool batchedMatmulDirect(const torch::Tensor& a, const torch::Tensor& b) {
    if (!cblasSgemm() || a.dim() != 4 || b.dim() != 4 || !a.device().is_cpu() ||
        !b.device().is_cpu() || a.scalar_type() != torch::kFloat ||
        b.scalar_type() != torch::kFloat)
        return false;
    if (a.size(0) != b.size(0) || a.size(1) != b.size(1) || a.size(3) != b.size(2))
        return false;
    // Below ATen's own threshold its bmm multiplies every matrix in one loop, no BLAS calls.
    if (a.size(2) * a.size(3) * b.size(3) < kAtenLoopBelow)
        return false;
    for (int64_t d = 0; d < 4; ++d)
        if (!fitsInt(a.size(d)) || !fitsInt(b.size(d)) || !fitsInt(a.stride(d)) ||
            !fitsInt(b.stride(d)))
            return false;
    return true;
}

torch::Tensor batchedMatmul(const torch::Tensor& a, const torch::Tensor& b) {
    if (!batchedMatmulDirect(a, b))
        return torch::matmul(a, b);
    return BatchedMatmulFunction::apply(a, b);
}

} // namespace cl
