#include "model/nn/content_crop.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace cl {

namespace {

constexpr int64_t kWorkShort = 128;   // the analysis runs at the training canvas' short side
constexpr double kMinAspect = 1.15;   // squarer canvases are fitted whole
constexpr float kEdgeFloor = 10.f;    // a step of this many levels in any channel is drawing,
constexpr float kNoiseFactor = 4.f;   // unless the background's own steps (median) say noise
constexpr float kNoiseOffset = 6.f;   // needs more: then 4 x median + 6
constexpr double kLineShare = 0.6;    // a row or column this full of edges is a frame or sheet
constexpr double kMargin = 0.25;      // of the short side, kept on each side of the drawing
constexpr double kWorthCutting = 0.9; // crop only when the window is shorter than this share

// A wide float RGB image: the long side along x (tall images are transposed into it).
struct Work {
    int64_t w = 0, h = 0;
    std::vector<float> px; // (h, w, 3)
};

// Area-averaged down to a short side of at most kWorkShort, transposed when tall.
Work shrink(const uint8_t* rgb, int64_t height, int64_t width) {
    const bool tall = height > width;
    const int64_t longSide = tall ? height : width, shortSide = tall ? width : height;
    const double f = std::max(1.0, double(shortSide) / kWorkShort);
    Work out;
    out.w = std::max<int64_t>(1, std::llround(longSide / f));
    out.h = std::max<int64_t>(1, std::llround(shortSide / f));
    out.px.assign(size_t(out.w * out.h * 3), 0.f);
    if (f == 1.0) { // already small: a copy, transposed when tall
        for (int64_t y = 0; y < out.h; ++y)
            for (int64_t x = 0; x < out.w; ++x) {
                const uint8_t* p = rgb + ((tall ? x * width + y : y * width + x) * 3);
                float* q = &out.px[size_t((y * out.w + x) * 3)];
                q[0] = p[0], q[1] = p[1], q[2] = p[2];
            }
        return out;
    }
    for (int64_t y = 0; y < out.h; ++y) {
        const int64_t s0 = y * shortSide / out.h,
                      s1 = std::max(s0 + 1, (y + 1) * shortSide / out.h);
        for (int64_t x = 0; x < out.w; ++x) {
            const int64_t l0 = x * longSide / out.w,
                          l1 = std::max(l0 + 1, (x + 1) * longSide / out.w);
            double sum[3] = {0, 0, 0};
            for (int64_t s = s0; s < s1; ++s)
                for (int64_t l = l0; l < l1; ++l) {
                    const int64_t row = tall ? l : s, col = tall ? s : l;
                    const uint8_t* p = rgb + (row * width + col) * 3;
                    sum[0] += p[0], sum[1] += p[1], sum[2] += p[2];
                }
            const double n = double((s1 - s0) * (l1 - l0));
            for (int c = 0; c < 3; ++c)
                out.px[size_t((y * out.w + x) * 3 + c)] = float(sum[c] / n);
        }
    }
    return out;
}

// One pass of a 3-tap box filter along x (dx = 3) or y (dx = 3 w), edges clamped.
void boxPass(const std::vector<float>& in, std::vector<float>& out, int64_t w, int64_t h,
             bool alongX) {
    const int64_t n = alongX ? w : h, step = alongX ? 3 : 3 * w;
    for (int64_t line = 0; line < (alongX ? h : w); ++line) {
        const int64_t base = alongX ? line * w * 3 : line * 3;
        for (int64_t i = 0; i < n; ++i) {
            const int64_t lo = base + std::max<int64_t>(i - 1, 0) * step;
            const int64_t hi = base + std::min<int64_t>(i + 1, n - 1) * step;
            const int64_t at = base + i * step;
            for (int c = 0; c < 3; ++c)
                out[size_t(at + c)] =
                    (in[size_t(lo + c)] + in[size_t(at + c)] + in[size_t(hi + c)]) / 3.f;
        }
    }
}

// 3 x 3 box blur: sensor noise and paper grain shrink by a factor of three.
Work blur(const Work& in) {
    Work out = in;
    std::vector<float> rows(in.px.size());
    boxPass(in.px, rows, in.w, in.h, true);
    boxPass(rows, out.px, in.w, in.h, false);
    return out;
}

// Pixels where the colour steps over two pixels, across or along, by more than the background's
// noise does: the threshold follows the median step, which background pixels (most of any
// canvas) set. A thin faint outline on a clean slide counts; grain on a photographed sheet does
// not.
struct Steps {
    std::vector<float> d; // (h, w): the largest step at each pixel
    float threshold = 0;  // a step at least this large is an edge
};

Steps steps(const Work& b) {
    std::vector<float> d(size_t(b.w * b.h), 0.f);
    for (int64_t y = 2; y < b.h; ++y)
        for (int64_t x = 2; x < b.w; ++x) {
            const float* p = &b.px[size_t((y * b.w + x) * 3)];
            const float* left = p - 6;
            const float* up = p - 6 * b.w;
            float m = 0;
            for (int c = 0; c < 3; ++c)
                m = std::max({m, std::abs(p[c] - left[c]), std::abs(p[c] - up[c])});
            d[size_t(y * b.w + x)] = m;
        }
    // The median step, to a level: steps are 0..255.
    std::array<int64_t, 256> histogram{};
    for (float v : d)
        ++histogram[size_t(std::min(v, 255.f))];
    int64_t seen = 0, median = 0;
    while (median < 255 && (seen += histogram[size_t(median)]) * 2 < int64_t(d.size()))
        ++median;
    return {std::move(d), std::max(kEdgeFloor, kNoiseFactor * float(median) + kNoiseOffset)};
}

// The first and last columns holding drawing. {-1, -1} when there is none, or when edges run
// almost end to end along a row or column: a frame or the edge of a photographed sheet, which a
// crop would cut open into a shape no canvas has.
std::pair<int64_t, int64_t> drawnColumns(const Steps& s, int64_t w, int64_t h) {
    std::vector<int64_t> rowCount(size_t(h), 0), colCount(size_t(w), 0);
    for (int64_t y = 0; y < h; ++y)
        for (int64_t x = 0; x < w; ++x) {
            const bool edge = s.d[size_t(y * w + x)] >= s.threshold;
            rowCount[size_t(y)] += edge;
            colCount[size_t(x)] += edge;
        }
    const bool framed = std::any_of(rowCount.begin(), rowCount.end(),
                                    [&](int64_t n) { return n > kLineShare * w; }) ||
                        std::any_of(colCount.begin(), colCount.end(),
                                    [&](int64_t n) { return n > kLineShare * h; });
    int64_t first = -1, last = -1;
    for (int64_t x = 0; x < w && !framed; ++x) {
        if (colCount[size_t(x)] < 2)
            continue;
        if (first < 0)
            first = x;
        last = x;
    }
    return {first, last};
}

} // namespace

CropRect contentCrop(const uint8_t* rgb, int64_t height, int64_t width) {
    const CropRect whole{0, 0, width, height};
    const bool tall = height > width;
    const int64_t longSide = tall ? height : width, shortSide = tall ? width : height;
    if (shortSide <= 0 || longSide < kMinAspect * shortSide)
        return whole;
    const Work work = shrink(rgb, height, width);
    const auto [first, last] = drawnColumns(steps(blur(work)), work.w, work.h);
    if (first < 0)
        return whole;
    // Back to the image's pixels along the long side; the edge test looks two pixels back.
    const double scale = double(longSide) / work.w;
    const double lo = (first - 2) * scale, hi = (last + 1) * scale;
    const double margin = kMargin * shortSide;
    const double length = std::max(double(shortSide), hi - lo + 2 * margin);
    if (length >= kWorthCutting * longSide)
        return whole;
    const int64_t len = std::llround(length);
    const int64_t start =
        std::clamp<int64_t>(std::llround((lo + hi) / 2 - length / 2), 0, longSide - len);
    return tall ? CropRect{0, start, width, len} : CropRect{start, 0, len, height};
}

} // namespace cl
