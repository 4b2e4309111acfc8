#include "model/shapes/scene_look.h"

#include "model/shapes/rng.h"

#include <algorithm>
#include <cmath>

namespace cl::shapes {

namespace {

uint8_t toByte(double v) {
    return static_cast<uint8_t>(std::clamp(std::lround(v), 0L, 255L));
}

// Smooth value noise in [-1, 1]: random values on a `cell`-pixel lattice, bilinear between.
double valueNoise(uint64_t seed, double x, double y, double cell) {
    const double gx = x / cell, gy = y / cell;
    const auto ix = static_cast<int64_t>(std::floor(gx)), iy = static_cast<int64_t>(std::floor(gy));
    const double fx = gx - ix, fy = gy - iy;
    auto at = [&](int64_t a, int64_t b) {
        const uint64_t h = mix64(seed ^ (static_cast<uint64_t>(a) * 0x9E3779B1ULL) ^
                                 (static_cast<uint64_t>(b) << 32));
        return (h >> 11) * (2.0 / 9007199254740992.0) - 1.0;
    };
    const double top = at(ix, iy) + (at(ix + 1, iy) - at(ix, iy)) * fx;
    const double bottom = at(ix, iy + 1) + (at(ix + 1, iy + 1) - at(ix, iy + 1)) * fx;
    return top + (bottom - top) * fy;
}

void paintFrame(const SceneSpec& spec, std::vector<uint8_t>& rgb) {
    const int w = spec.width(), h = spec.height(), f = spec.look.frame;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (x < f || y < f || x >= w - f || y >= h - f)
                for (int k = 0; k < 3; ++k)
                    rgb[(static_cast<size_t>(y) * w + x) * 3 + k] = spec.look.frameRgb[k];
}

// Brightness across the page and a soft shadow, as a phone photo of paper has.
void paintLight(const SceneSpec& spec, std::vector<uint8_t>& rgb) {
    static const double dirs[8][2] = {{1, 0},   {0.7071, 0.7071},   {0, 1},  {-0.7071, 0.7071},
                                      {-1, 0},  {-0.7071, -0.7071}, {0, -1}, {0.7071, -0.7071}};
    const auto& l = spec.look;
    const int w = spec.width(), h = spec.height();
    const double* d = dirs[l.lightDirection & 7];
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const double u = (x + 0.5) / w - 0.5, v = (y + 0.5) / h - 0.5;
            double gain = 1 + l.light * 2 * (u * d[0] + v * d[1]);
            const double sx = (x + 0.5) / w - l.shadowX, sy = (y + 0.5) / h - l.shadowY;
            gain *= 1 - l.shadow * std::exp(-(sx * sx + sy * sy) / 0.08);
            uint8_t* px = &rgb[(static_cast<size_t>(y) * w + x) * 3];
            for (int k = 0; k < 3; ++k)
                px[k] = toByte(px[k] * gain);
        }
}

// Separable Gaussian blur, edges clamped.
void blur(std::vector<uint8_t>& rgb, int w, int h, double sigma) {
    const int r = std::max(1, static_cast<int>(std::ceil(3 * sigma)));
    std::vector<double> kernel(static_cast<size_t>(2 * r + 1));
    double sum = 0;
    for (int i = -r; i <= r; ++i)
        sum += kernel[size_t(i + r)] = std::exp(-i * i / (2 * sigma * sigma));
    for (auto& k : kernel)
        k /= sum;
    std::vector<double> tmp(rgb.size());
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c) {
                double acc = 0;
                for (int i = -r; i <= r; ++i)
                    acc += kernel[size_t(i + r)] *
                           rgb[(static_cast<size_t>(y) * w + std::clamp(x + i, 0, w - 1)) * 3 + c];
                tmp[(static_cast<size_t>(y) * w + x) * 3 + c] = acc;
            }
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c) {
                double acc = 0;
                for (int i = -r; i <= r; ++i)
                    acc += kernel[size_t(i + r)] *
                           tmp[(static_cast<size_t>(std::clamp(y + i, 0, h - 1)) * w + x) * 3 + c];
                rgb[(static_cast<size_t>(y) * w + x) * 3 + c] = toByte(acc);
            }
}

void sensorNoise(std::vector<uint8_t>& rgb, int amplitude, uint64_t seed) {
    for (size_t i = 0; i < rgb.size(); ++i) {
        const int n = static_cast<int>(mix64(seed ^ (i * 0x632BE59BD9B4E019ULL)) %
                                       static_cast<uint64_t>(2 * amplitude + 1)) -
                      amplitude;
        rgb[i] = toByte(rgb[i] + n);
    }
}

} // namespace

void paintTexture(const SceneSpec& spec, std::vector<uint8_t>& rgb) {
    const double a = spec.look.texture;
    if (a <= 0)
        return;
    const int w = spec.width(), h = spec.height();
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            // Fibres: coarse blotches plus fine grain.
            const double g = a * (0.6 * valueNoise(spec.look.seed, x, y, 23) +
                                  0.4 * valueNoise(spec.look.seed + 1, x, y, 3));
            uint8_t* px = &rgb[(static_cast<size_t>(y) * w + x) * 3];
            for (int k = 0; k < 3; ++k)
                px[k] = toByte(px[k] + g);
        }
}

void applyLook(const SceneSpec& spec, std::vector<uint8_t>& rgb) {
    const auto& l = spec.look;
    const int w = spec.width(), h = spec.height();
    if (l.frame > 0)
        paintFrame(spec, rgb);
    if (l.light > 0 || l.shadow > 0)
        paintLight(spec, rgb);
    if (hasPhotoLight(l))
        paintPhotoLight(spec, rgb);
    if (l.blur > 0)
        blur(rgb, w, h, l.blur);
    if (l.sensorNoise > 0)
        sensorNoise(rgb, l.sensorNoise, l.seed + 2);
    if (l.jpegQuality > 0)
        jpegArtefacts(rgb, w, h, l.jpegQuality);
}

} // namespace cl::shapes
