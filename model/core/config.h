#pragma once
// Every hyper-parameter of a captioning model. Stored verbatim in our checkpoints so a file is
// self-describing (a course state_dict does not even record its head count).
#include <cstdint>
#include <string>

namespace cl {

enum class Layout { Course2021, Course2025 };  // state_dict key names and FFN activation
enum class MemoryKind { Features, ImageGrid }; // one (N, D) token, or an (N, M, D) grid

inline constexpr int64_t kColourPlanes = 3; // an image model's input planes before any cue

struct EncoderConfig {
    int64_t imageSize = 64; // the encoder's input side (images are resized to it)
    int64_t grid = 8;       // output grid side: M = grid * grid memory tokens
    int64_t channels = 64;  // width of the convolutional trunk
    bool position2d = true; // add the fixed 2D sinusoidal code to the grid features
    bool letterbox = false; // fit images without distortion (api/letterbox.h); false: squash
                            // to a square, as models trained before the varied world expect
    // A fourth input plane: log2 of the part of the input's side that the image's short side
    // spans after letterboxing (0 for a square canvas). "Small" and "large" are relative to the
    // short side, which the padding (the background's colour) otherwise hides.
    bool scaleCue = false;
    int64_t inputChannels() const { return kColourPlanes + (scaleCue ? 1 : 0); }
};

struct ModelConfig {
    int64_t vocabSize = 0;
    int64_t inputDim = 512;   // D: feature width (course) or encoder output width
    int64_t wordvecDim = 256; // W
    int64_t numHeads = 2;
    int64_t numLayers = 2;
    int64_t ffnDim = 2048;
    int64_t maxLength = 30; // positional-encoding length, also the longest decode
    double dropout = 0.1;   // training only; inference always runs in eval mode
    Layout layout = Layout::Course2021;
    MemoryKind memory = MemoryKind::Features;
    EncoderConfig encoder;

    int64_t headDim() const { return wordvecDim / numHeads; }
    int64_t memoryTokens() const {
        return memory == MemoryKind::Features ? 1 : encoder.grid * encoder.grid;
    }
    // Throws std::invalid_argument naming the first inconsistent value.
    void validate() const;
};

// Where a checkpoint came from; stored in our checkpoint files.
struct Metadata {
    int64_t steps = 0;     // training steps behind these weights
    std::string dataset;   // e.g. "shapes" or "coco2014 (imported)"
    std::string date;      // ISO 8601, when the file was written
    std::string source;    // the command or file it came from
    std::string headsNote; // imported course models: how the head count was set (not stored
                           // in a state_dict); empty for our own
    std::string evalJson;  // eval figures when stored (training timeline), else empty
    std::string headImportanceJson; // eval --head-importance --store (the Heads panel), else empty
    std::string
        robustnessJson;       // eval --suite DIR --store: {suite folder name: figures}, else empty
    std::string circuitsJson; // eval --circuits --store: patching scored on ground truth
};

// Named configurations, so no benchmark or test builds one field by field.
namespace presets {
ModelConfig notebook(); // the course notebook: D 512, W 256, 2 heads, 2 layers, FFN 2048, V 1004
ModelConfig tinyTest(); // tests/reference.py's goldens: V 12, D 10, W 16, 2 heads, 2 layers, FFN 32
// Our default image model (resources/models/default.pt): W = D = 128, 4 heads, 2 layers, FFN 512,
// a 64-pixel input encoded to an 8 x 8 grid with the 2D position code.
ModelConfig shapesImage(int64_t vocabSize);
} // namespace presets

std::string layoutName(Layout layout);
Layout layoutFromName(const std::string& name); // "2021" or "2025"
std::string memoryKindName(MemoryKind kind);
MemoryKind memoryKindFromName(const std::string& name); // "features" or "image-grid"

} // namespace cl
