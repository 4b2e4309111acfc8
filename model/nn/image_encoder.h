#pragma once
// Our image encoder (not in the course): a small CNN whose output is a grid of feature tokens with
// a fixed 2D sinusoidal position code, so the seed decoder's cross-attention becomes spatial.
#include "model/core/config.h"
#include "model/core/letterbox.h"

#include <torch/torch.h>

namespace cl {

// Fixed 2D code (grid*grid, D): first D/2 channels encode the row, the rest the column, each with
// the seed's 1D sinusoidal table of width D/2.
torch::Tensor positionCode2d(int64_t grid, int64_t width);

// RGB bytes (H, W, 3) row-major -> normalised (1, 3, S, S) float: area-averaged when shrinking,
// bilinear when growing, then (x / 255 - 0.5) / 0.5. Letterboxed: scaled by one factor into
// the square (api/letterbox.h), the rest filled with the mean colour of the image's border;
// otherwise squashed to the square. Letterboxed images lose the empty background of a long canvas
// first (nn/content_crop.h); `seen`, when given, receives the pixels kept. With `scaleCue`
// (letterboxed only) a fourth plane follows: scaleCueValue() everywhere.
torch::Tensor preprocessImage(const uint8_t* rgb, int64_t height, int64_t width, int64_t side,
                              bool letterboxed = false, CropRect* seen = nullptr,
                              bool scaleCue = false);
// The same for a model's encoder settings.
torch::Tensor preprocessImage(const uint8_t* rgb, int64_t height, int64_t width,
                              const EncoderConfig& encoder, CropRect* seen = nullptr);

// log2 of the fraction of the input's side that the short side of `kept` spans once letterboxed:
// 0 for a square, -1 for a 2:1 canvas (config.h EncoderConfig::scaleCue).
double scaleCueValue(const CropRect& kept, int64_t side);

class ImageEncoderImpl : public torch::nn::Module {
  public:
    ImageEncoderImpl(const EncoderConfig& config, int64_t outDim);

    // images (N, 3, S, S) (or 4 planes with the scale cue) -> features (N, grid*grid, D). With
    // `activations`, also every convolution's ReLU output, first to last (the out-of-world check
    // reads them).
    torch::Tensor forward(const torch::Tensor& images,
                          std::vector<torch::Tensor>* activations = nullptr);

    // The same in two halves: the convolutions on images of any side divisible by stride()
    // -> (N, D, side / stride, side / stride), then a full grid of them -> (N, g*g, D) tokens.
    torch::Tensor trunk(const torch::Tensor& images,
                        std::vector<torch::Tensor>* activations = nullptr);
    torch::Tensor tokens(const torch::Tensor& grid) const;
    // trunk() before its 1x1 output convolution: the last ReLU's grid (N, C, g, g).
    torch::Tensor hidden(const torch::Tensor& images,
                         std::vector<torch::Tensor>* activations = nullptr);
    // Whether tokens() adds pos2d (the model has one and it is switched on).
    bool positionAdded() const { return m_usePosition && m_positionOn; }

    // Input pixels per grid cell, and how far (input pixels) a cell's receptive field reaches
    // from the cell's first pixel either way: a pixel changes only the cells it lies within
    // reach() of.
    int64_t stride() const;
    int64_t reach() const;

    void setPositionEnabled(bool on) { m_positionOn = on; }

    torch::nn::Conv2d stem{nullptr}, mix{nullptr}, out{nullptr};
    torch::nn::ModuleList down{nullptr};
    torch::Tensor pos2d;

  private:
    bool m_positionOn = true;
    bool m_usePosition;
};
TORCH_MODULE(ImageEncoder);

} // namespace cl
