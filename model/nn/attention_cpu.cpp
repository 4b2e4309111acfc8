#include "model/nn/attention_cpu.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace cl {

namespace {

// q.k with eight running sums, which the compiler turns into one vector register.
float dot(const float* q, const float* k, int64_t n) {
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int u = 0; u < 8; ++u)
            acc[u] += q[i + u] * k[i + u];
    for (; i < n; ++i)
        acc[0] += q[i] * k[i];
    return ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
}

} // namespace

void attendHead(const float* q, const float* k, const float* v, int64_t len, int64_t hs,
                int64_t stride, float scale, float keep, float* w, float* out) {
    float top = -INFINITY;
    for (int64_t j = 0; j < len; ++j) {
        w[j] = dot(q, k + j * stride, hs) * scale;
        top = std::max(top, w[j]);
    }
    float sum = 0;
    for (int64_t j = 0; j < len; ++j)
        sum += (w[j] = std::exp(w[j] - top));
    std::fill_n(out, hs, 0.f);
    for (int64_t j = 0; j < len; ++j) {
        w[j] /= sum;
        for (int64_t i = 0; i < hs; ++i)
            out[i] += w[j] * v[j * stride + i];
    }
    for (int64_t i = 0; i < hs; ++i)
        out[i] *= keep;
}

bool attendHeadsCpuApplies(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v) {
    for (const auto* t : {&q, &k, &v})
        if (!t->defined() || !t->device().is_cpu() || t->scalar_type() != torch::kFloat)
            return false;
    return k.dim() == 4 && v.sizes() == k.sizes() && k.stride(3) == 1 && v.stride(3) == 1 &&
           k.stride(2) == v.stride(2) && k.stride(1) == v.stride(1) &&
           k.stride(0) == v.stride(0) && q.dim() == 2 && q.size(0) == k.size(0) &&
           q.size(1) == k.size(1) * k.size(3);
}

namespace {

// Every size the loops below index with, checked: a wrong tensor is an exception, not a read
// past the end of a buffer.
void checkAttendSizes(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                      const torch::Tensor& keep) {
    for (const auto* t : {&q, &k, &v})
        TORCH_CHECK(t->defined() && t->device().is_cpu() && t->scalar_type() == torch::kFloat,
                    "attendHeadsCpu: q, k and v must be float tensors on the CPU");
    TORCH_CHECK(k.dim() == 4, "attendHeadsCpu: k must be (N, H, T, hs), got ", k.sizes());
    TORCH_CHECK(v.sizes() == k.sizes(), "attendHeadsCpu: v ", v.sizes(), " differs from k ",
                k.sizes());
    TORCH_CHECK(k.stride(3) == 1 && v.stride(3) == 1 && k.stride(2) == v.stride(2) &&
                    k.stride(1) == v.stride(1) && k.stride(0) == v.stride(0),
                "attendHeadsCpu: k and v need the same strides, unit over hs");
    TORCH_CHECK(q.dim() == 2 && q.size(0) == k.size(0) && q.size(1) == k.size(1) * k.size(3),
                "attendHeadsCpu: q must be (N, H*hs) = (", k.size(0), ", ",
                k.size(1) * k.size(3), "), got ", q.sizes());
    TORCH_CHECK(!keep.defined() || keep.numel() == k.size(1), "attendHeadsCpu: keep must have ",
                k.size(1), " values (one per head), got ", keep.numel());
}

} // namespace

std::pair<torch::Tensor, torch::Tensor> attendHeadsCpu(const torch::Tensor& q,
                                                       const torch::Tensor& k,
                                                       const torch::Tensor& v,
                                                       const torch::Tensor& keep, float scale) {
    checkAttendSizes(q, k, v, keep);
    const int64_t n = k.size(0), heads = k.size(1), t = k.size(2), hs = k.size(3);
    const auto qc = q.contiguous();
    auto weights = torch::empty({n * heads, t});
    auto out = torch::empty({n, heads * hs});
    std::vector<float> keepOf(static_cast<size_t>(heads), 1.f);
    if (keep.defined()) {
        const auto kc = keep.to(torch::kFloat).contiguous();
        std::copy_n(kc.data_ptr<float>(), heads, keepOf.begin());
    }
    const float *pq = qc.data_ptr<float>(), *pk = k.data_ptr<float>(), *pv = v.data_ptr<float>();
    float *pw = weights.data_ptr<float>(), *po = out.data_ptr<float>();
    at::parallel_for(0, n * heads, 16, [&](int64_t begin, int64_t end) {
        for (int64_t r = begin; r < end; ++r) {
            const int64_t b = r / heads, h = r % heads, at = b * k.stride(0) + h * k.stride(1);
            attendHead(pq + r * hs, pk + at, pv + at, t, hs, k.stride(2), scale, keepOf[h],
                       pw + r * t, po + r * hs);
        }
    });
    return {weights, out};
}

} // namespace cl
