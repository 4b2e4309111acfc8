#include "model/nn/image_encoder.h"

#include "model/core/letterbox.h"
#include "model/nn/content_crop.h"
#include "model/nn/positional_encoding.h"

#include <algorithm>
#include <cmath>

namespace cl {

namespace {
torch::nn::Conv2d conv(int64_t in, int64_t out, int64_t kernel, int64_t stride) {
    return torch::nn::Conv2d(
        torch::nn::Conv2dOptions(in, out, kernel).stride(stride).padding(kernel / 2));
}
} // namespace

torch::Tensor positionCode2d(int64_t grid, int64_t width) {
    const auto half = width / 2;
    auto table = sinusoidalTable(grid, half); // (grid, D/2)
    auto rows = table.unsqueeze(1).expand({grid, grid, half});
    auto cols = table.unsqueeze(0).expand({grid, grid, half});
    return torch::cat({rows, cols}, -1).reshape({grid * grid, width});
}

namespace {

// (H, W, 3) bytes -> (1, 3, outH, outW) float 0..255: area-averaged when shrinking, bilinear
// otherwise.
torch::Tensor resizeBytes(const torch::Tensor& bytes, int64_t outH, int64_t outW) {
    const int64_t height = bytes.size(0), width = bytes.size(1);
    constexpr int64_t kBandedPixels = 4'000'000; // below this, one pooling call is cheapest
    if (height >= outH && width >= outW && height * width <= kBandedPixels)
        return torch::adaptive_avg_pool2d(bytes.permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat),
                                          {outH, outW});
    if (height >= outH && width >= outW) {
        // Area averaging one output row at a time: output row i averages exactly the input rows
        // [floor(i H / S), ceil((i + 1) H / S)), as adaptive pooling over the whole image does,
        // so only one band is ever converted to float (a 60-megapixel photo would need 700 MB).
        std::vector<torch::Tensor> rows;
        for (int64_t i = 0; i < outH; ++i) {
            const int64_t y0 = i * height / outH, y1 = ((i + 1) * height + outH - 1) / outH;
            auto band = bytes.narrow(0, y0, y1 - y0)
                            .permute({2, 0, 1})
                            .unsqueeze(0)
                            .to(torch::kFloat); // (1, 3, rows, W)
            rows.push_back(torch::adaptive_avg_pool2d(band, {1, outW}));
        }
        return torch::cat(rows, 2);
    }
    auto x = bytes.permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat); // (1, 3, H, W)
    namespace F = torch::nn::functional;
    return F::interpolate(x, F::InterpolateFuncOptions()
                                 .size(std::vector<int64_t>{outH, outW})
                                 .mode(torch::kBilinear)
                                 .align_corners(false));
}

// The mean colour of the image's outermost pixels: the padding continues the background.
torch::Tensor borderColour(const torch::Tensor& bytes) {
    const int64_t h = bytes.size(0), w = bytes.size(1);
    auto ring = torch::cat(
        {bytes.select(0, 0), bytes.select(0, h - 1), bytes.select(1, 0), bytes.select(1, w - 1)},
        0); // (2W + 2H, 3)
    return ring.to(torch::kFloat).mean(0).reshape({1, 3, 1, 1});
}

} // namespace

torch::Tensor preprocessImage(const uint8_t* rgb, int64_t height, int64_t width, int64_t side,
                              bool letterboxed, CropRect* seen, bool scaleCue) {
    TORCH_CHECK(height > 0 && width > 0, "image has no pixels (", width, "x", height, ")");
    const auto bytes =
        torch::from_blob(const_cast<uint8_t*>(rgb), {height, width, 3}, torch::kUInt8);
    torch::Tensor x;
    const CropRect crop =
        letterboxed ? contentCrop(rgb, height, width) : CropRect{0, 0, width, height};
    if (seen)
        *seen = crop;
    if (!letterboxed) {
        x = resizeBytes(bytes, side, side);
    } else {
        const auto kept = bytes.narrow(0, crop.y0, crop.height).narrow(1, crop.x0, crop.width);
        const Letterbox box = letterbox(crop.width, crop.height, side);
        x = borderColour(kept).expand({1, 3, side, side}).contiguous();
        x.narrow(2, box.y0, box.height)
            .narrow(3, box.x0, box.width)
            .copy_(resizeBytes(kept, box.height, box.width));
    }
    x = (x / 255.0 - 0.5) / 0.5;
    if (!scaleCue)
        return x;
    TORCH_CHECK(letterboxed, "the scale cue needs letterboxed input");
    return torch::cat({x, torch::full({1, 1, side, side}, scaleCueValue(crop, side))}, 1);
}

torch::Tensor preprocessImage(const uint8_t* rgb, int64_t height, int64_t width,
                              const EncoderConfig& e, CropRect* seen) {
    return preprocessImage(rgb, height, width, e.imageSize, e.letterbox, seen, e.scaleCue);
}

double scaleCueValue(const CropRect& kept, int64_t side) {
    const Letterbox box = letterbox(kept.width, kept.height, side);
    return std::log2(double(std::min(box.width, box.height)) / double(side));
}

ImageEncoderImpl::ImageEncoderImpl(const EncoderConfig& c, int64_t outDim)
    : m_usePosition(c.position2d) {
    const auto ch = c.channels;
    // Every convolution but the last two halves the resolution: imageSize -> grid.
    const bool stemDown = c.imageSize > c.grid;
    stem = register_module("stem", conv(c.inputChannels(), ch / 2, 3, stemDown ? 2 : 1));
    down = register_module("down", torch::nn::ModuleList());
    int64_t in = ch / 2;
    for (int64_t side = stemDown ? c.imageSize / 2 : c.imageSize; side > c.grid; side /= 2) {
        TORCH_CHECK(side % 2 == 0, "encoder image size ", c.imageSize,
                    " is not the grid times a power of two");
        down->push_back(conv(in, ch, 3, 2));
        in = ch;
    }
    mix = register_module("mix", conv(in, ch, 3, 1));
    out = register_module("out", conv(ch, outDim, 1, 1));
    pos2d = register_buffer("pos2d", positionCode2d(c.grid, outDim));
}

torch::Tensor ImageEncoderImpl::forward(const torch::Tensor& images,
                                        std::vector<torch::Tensor>* activations) {
    return tokens(trunk(images, activations));
}

torch::Tensor ImageEncoderImpl::trunk(const torch::Tensor& images,
                                      std::vector<torch::Tensor>* activations) {
    return out(hidden(images, activations)); // (N, D, g, g)
}

torch::Tensor ImageEncoderImpl::hidden(const torch::Tensor& images,
                                       std::vector<torch::Tensor>* activations) {
    auto keep = [&](torch::Tensor t) {
        if (activations)
            activations->push_back(t);
        return t;
    };
    auto x = keep(torch::relu(stem(images)));
    for (const auto& layer : *down)
        x = keep(torch::relu(layer->as<torch::nn::Conv2d>()->forward(x)));
    return keep(torch::relu(mix(x))); // (N, C, g, g)
}

torch::Tensor ImageEncoderImpl::tokens(const torch::Tensor& grid) const {
    auto x = grid.flatten(2).transpose(1, 2); // (N, g*g, D)
    if (positionAdded())
        x = x + pos2d;
    return x;
}

int64_t ImageEncoderImpl::stride() const {
    int64_t s = stem->options.stride()->at(0);
    for (const auto& layer : *down)
        s *= layer->as<torch::nn::Conv2d>()->options.stride()->at(0);
    return s;
}

int64_t ImageEncoderImpl::reach() const {
    // Each convolution adds (kernel - 1) / 2 of its input's pixels, at the stride so far.
    int64_t r = 0, s = 1;
    auto add = [&](const torch::nn::Conv2dImpl& c) {
        r += (c.options.kernel_size()->at(0) - 1) / 2 * s;
        s *= c.options.stride()->at(0);
    };
    add(*stem);
    for (const auto& layer : *down)
        add(*layer->as<torch::nn::Conv2d>());
    add(*mix);
    add(*out);
    return r;
}

} // namespace cl
