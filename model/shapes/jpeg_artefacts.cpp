// JPEG's lossy step without a codec: what a photo saved at some quality looks like after
// decoding. JFIF YCbCr, chroma averaged over 2x2 pixels, 8x8 DCT-II, the IJG quality scaling of
// the standard tables (ITU T.81 Annex K), rounding, then back.
#include "model/shapes/scene_look.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cl::shapes {

namespace {

constexpr int kLuma[64] = {16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
                           14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
                           18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
                           49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};
constexpr int kChroma[64] = {17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
                             24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
                             99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
                             99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99};

struct Plane {
    int w, h;
    std::vector<double> v;
    double& at(int x, int y) { return v[static_cast<size_t>(y) * w + x]; }
};

const std::array<std::array<double, 8>, 8>& cosines() {
    static const auto table = [] {
        std::array<std::array<double, 8>, 8> c{};
        for (int u = 0; u < 8; ++u)
            for (int x = 0; x < 8; ++x)
                c[u][x] = (u == 0 ? std::sqrt(0.125) : 0.5) * std::cos((2 * x + 1) * u * M_PI / 16);
        return c;
    }();
    return table;
}

// One 8x8 block through DCT, quantisation and inverse DCT; edge blocks repeat the last pixel.
void quantiseBlock(Plane& p, int bx, int by, const std::array<double, 64>& q) {
    const auto& c = cosines();
    double in[8][8], tmp[8][8], coef[8][8];
    for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 8; ++x)
            in[y][x] = p.at(std::min(bx + x, p.w - 1), std::min(by + y, p.h - 1)) - 128;
    for (int y = 0; y < 8; ++y)
        for (int u = 0; u < 8; ++u) {
            tmp[y][u] = 0;
            for (int x = 0; x < 8; ++x)
                tmp[y][u] += c[u][x] * in[y][x];
        }
    for (int v = 0; v < 8; ++v)
        for (int u = 0; u < 8; ++u) {
            double s = 0;
            for (int y = 0; y < 8; ++y)
                s += c[v][y] * tmp[y][u];
            coef[v][u] = std::round(s / q[size_t(v * 8 + u)]) * q[size_t(v * 8 + u)];
        }
    for (int v = 0; v < 8; ++v)
        for (int x = 0; x < 8; ++x) {
            tmp[v][x] = 0;
            for (int u = 0; u < 8; ++u)
                tmp[v][x] += c[u][x] * coef[v][u];
        }
    for (int y = 0; y < 8 && by + y < p.h; ++y)
        for (int x = 0; x < 8 && bx + x < p.w; ++x) {
            double s = 0;
            for (int v = 0; v < 8; ++v)
                s += c[v][y] * tmp[v][x];
            p.at(bx + x, by + y) = s + 128;
        }
}

std::array<double, 64> table(const int* base, int quality) {
    const int scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
    std::array<double, 64> q{};
    for (int i = 0; i < 64; ++i)
        q[size_t(i)] = std::clamp((base[i] * scale + 50) / 100, 1, 255);
    return q;
}

void quantisePlane(Plane& p, const std::array<double, 64>& q) {
    for (int by = 0; by < p.h; by += 8)
        for (int bx = 0; bx < p.w; bx += 8)
            quantiseBlock(p, bx, by, q);
}

} // namespace

void jpegArtefacts(std::vector<uint8_t>& rgb, int w, int h, int quality) {
    quality = std::clamp(quality, 1, 100);
    const int cw = (w + 1) / 2, ch = (h + 1) / 2;
    Plane y{w, h, std::vector<double>(size_t(w) * h)};
    Plane cb{cw, ch, std::vector<double>(size_t(cw) * ch)}, cr = cb;
    std::vector<int> counts(size_t(cw) * ch, 0);
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) {
            const uint8_t* p = &rgb[(size_t(j) * w + i) * 3];
            y.at(i, j) = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
            cb.at(i / 2, j / 2) += -0.168736 * p[0] - 0.331264 * p[1] + 0.5 * p[2];
            cr.at(i / 2, j / 2) += 0.5 * p[0] - 0.418688 * p[1] - 0.081312 * p[2];
            ++counts[size_t(j / 2) * cw + i / 2];
        }
    for (size_t k = 0; k < counts.size(); ++k) {
        cb.v[k] = cb.v[k] / counts[k] + 128;
        cr.v[k] = cr.v[k] / counts[k] + 128;
    }
    quantisePlane(y, table(kLuma, quality));
    quantisePlane(cb, table(kChroma, quality));
    quantisePlane(cr, table(kChroma, quality));
    for (int j = 0; j < h; ++j)
        for (int i = 0; i < w; ++i) {
            const double l = y.at(i, j), b = cb.at(i / 2, j / 2) - 128, r = cr.at(i / 2, j / 2) - 128;
            uint8_t* p = &rgb[(size_t(j) * w + i) * 3];
            const double out[3] = {l + 1.402 * r, l - 0.344136 * b - 0.714136 * r, l + 1.772 * b};
            for (int k = 0; k < 3; ++k)
                p[k] = static_cast<uint8_t>(std::clamp(std::lround(out[k]), 0L, 255L));
        }
}

} // namespace cl::shapes
