#include "model/core/config.h"

#include <stdexcept>

namespace cl {

namespace {
void require(bool ok, const std::string& message) {
    if (!ok)
        throw std::invalid_argument(message);
}
} // namespace

void ModelConfig::validate() const {
    require(vocabSize >= 4, "vocabulary has " + std::to_string(vocabSize) +
                                " words; it needs at least <NULL>, <START>, <END> and one word");
    require(wordvecDim > 0 && wordvecDim % 2 == 0,
            "word vector width " + std::to_string(wordvecDim) + " must be positive and even");
    require(numHeads > 0 && wordvecDim % numHeads == 0, "head count " + std::to_string(numHeads) +
                                                            " does not divide the width " +
                                                            std::to_string(wordvecDim));
    require(numLayers > 0 && numLayers <= 64,
            "layer count " + std::to_string(numLayers) + " is out of range (1..64)");
    require(inputDim > 0, "input width must be positive");
    require(ffnDim > 0, "feed-forward width must be positive");
    require(maxLength > 1 && maxLength <= 4096,
            "max length " + std::to_string(maxLength) + " is out of range (2..4096)");
    if (memory == MemoryKind::ImageGrid) {
        // Each stride-2 convolution halves the side until the grid: 48 over a grid of 8
        // would end at 6 cells and fail mid-run on a shape mismatch.
        const int64_t ratio = encoder.grid > 0 ? encoder.imageSize / encoder.grid : 0;
        require(encoder.grid > 0 && encoder.imageSize % encoder.grid == 0 && ratio > 0 &&
                    (ratio & (ratio - 1)) == 0,
                "encoder image size " + std::to_string(encoder.imageSize) + " is not the grid (" +
                    std::to_string(encoder.grid) + ") times a power of two");
        require(encoder.imageSize <= 1024 && encoder.grid <= 64,
                "encoder image size (at most 1024) or grid (at most 64) is out of range");
        require(encoder.channels > 0, "encoder channel count must be positive");
        require(inputDim % 4 == 0, "image models need an input width divisible by 4");
        require(!encoder.scaleCue || encoder.letterbox,
                "the encoder's scale cue needs letterboxed input (a squashed image has no scale)");
    }
}

namespace presets {

ModelConfig notebook() {
    ModelConfig c;
    c.vocabSize = 1004;
    c.inputDim = 512;
    c.wordvecDim = 256;
    c.numHeads = 2;
    c.numLayers = 2;
    c.ffnDim = 2048;
    c.maxLength = 30;
    return c;
}

ModelConfig tinyTest() {
    ModelConfig c;
    c.vocabSize = 12;
    c.inputDim = 10;
    c.wordvecDim = 16;
    c.numHeads = 2;
    c.numLayers = 2;
    c.ffnDim = 32;
    c.maxLength = 12;
    return c;
}

ModelConfig shapesImage(int64_t vocabSize) {
    ModelConfig c;
    c.vocabSize = vocabSize;
    c.inputDim = c.wordvecDim = 128;
    c.numHeads = 4;
    c.numLayers = 2;
    c.ffnDim = 512;
    c.maxLength = 20;
    c.memory = MemoryKind::ImageGrid;
    c.encoder = {64, 8, 64, true};
    return c;
}

} // namespace presets

std::string layoutName(Layout layout) {
    return layout == Layout::Course2021 ? "2021" : "2025";
}

Layout layoutFromName(const std::string& name) {
    if (name == "2021")
        return Layout::Course2021;
    if (name == "2025")
        return Layout::Course2025;
    throw std::invalid_argument("unknown layout '" + name + "' (expected 2021 or 2025)");
}

std::string memoryKindName(MemoryKind kind) {
    return kind == MemoryKind::Features ? "features" : "image-grid";
}

MemoryKind memoryKindFromName(const std::string& name) {
    if (name == "features")
        return MemoryKind::Features;
    if (name == "image-grid")
        return MemoryKind::ImageGrid;
    throw std::invalid_argument("unknown memory kind '" + name +
                                "' (expected features or image-grid)");
}

} // namespace cl
