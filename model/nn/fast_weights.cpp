#include "model/nn/fast_weights.h"

#include "model/nn/captioning_transformer.h"

#include <dlfcn.h>

#include <atomic>
#include <limits>

namespace cl {

namespace {

// The process's CBLAS GEMV where LibTorch's BLAS exports one (Debian: libblas.so.3 is OpenBLAS),
// else nullptr. ATen's addmv calls the same kernel but spends microseconds around it.
using CblasSgemv = void (*)(int order, int trans, int m, int n, float alpha, const float* a,
                            int lda, const float* x, int incx, float beta, float* y, int incy);
std::atomic<bool> directBlas{true};

CblasSgemv cblasSgemv() {
    static const auto f = reinterpret_cast<CblasSgemv>(dlsym(RTLD_DEFAULT, "cblas_sgemv"));
    return directBlas.load(std::memory_order_relaxed) ? f : nullptr;
}

Gemv gemvOf(const torch::Tensor& w, const torch::Tensor& b) {
    return {w.contiguous(), b.contiguous()};
}

Gemv gemvOf(const std::pair<torch::Tensor, torch::Tensor>& weightAndBias) {
    return gemvOf(weightAndBias.first, weightAndBias.second);
}

std::shared_ptr<const FastWeights> build(CaptioningTransformerImpl& model) {
    auto w = std::make_shared<FastWeights>();
    for (size_t i = 0; i < model.transformer->size(); ++i) {
        auto& l = model.transformer->layer(i);
        auto &s = *l.self_attn, &c = *l.cross_attn;
        w->layers.push_back(
            {gemvOf(s.stackedQkv()), gemvOf(s.proj->weight, s.proj->bias),
             gemvOf(c.query->weight, c.query->bias), gemvOf(c.proj->weight, c.proj->bias),
             gemvOf(l.fc1()->weight, l.fc1()->bias), gemvOf(l.fc2()->weight, l.fc2()->bias)});
    }
    w->output = gemvOf(model.output->weight, model.output->bias);
    return w;
}

} // namespace

void Gemv::operator()(const FastVector& x, FastVector& y) const {
    const int64_t out = w.size(0), in = w.size(1);
    const auto f = cblasSgemv();
    if (!f || in > std::numeric_limits<int>::max() || out > std::numeric_limits<int>::max()) {
        at::addmv_out(y.t, b, w, x.t);
        return;
    }
    std::copy_n(b.data_ptr<float>(), out, y.p);
    const int m = static_cast<int>(out), n = static_cast<int>(in);
    f(101 /* row major */, 111 /* no transpose */, m, n, 1.f, w.data_ptr<float>(), n, x.p, 1, 1.f,
      y.p, 1);
}

std::shared_ptr<const FastWeights> fastWeightsOf(CaptioningTransformerImpl& model) {
    return model.fastWeightsSlot().get(signatureOf(model.parameters()),
                                       [&] { return build(model); });
}

bool directBlasAvailable() {
    return cblasSgemv() != nullptr;
}

void setDirectBlas(bool on) {
    directBlas = on;
}

} // namespace cl
