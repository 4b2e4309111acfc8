#pragma once
// The facade of model/: load a checkpoint, caption images or feature rows, get plain traces.
// No torch types cross this header, so the GUI and the CLI include it freely.
#include "model/core/beam.h"
#include "model/core/config.h"
#include "model/core/explain.h"
#include "model/core/head_importance.h"
#include "model/core/trace.h"
#include "model/core/vocabulary.h"
#include "model/core/lens.h"
#include "model/core/patching.h"
#include "model/core/walkthrough.h"

#include <memory>

namespace cl {

struct RgbImage {
    int64_t width = 0, height = 0;
    std::vector<uint8_t> pixels; // row-major RGB, width * height * 3 bytes
};

struct ModelInfo {
    std::string path;
    ModelConfig config;
    Metadata meta;
    int64_t parameters = 0;
    std::vector<std::string> warnings; // e.g. non-finite weights
    bool worldCalibrated = false;      // traces carry the out-of-world check
    std::vector<std::string> vocab;    // the words, by id (panels name any candidate)
};

class Captioner {
  public:
    // Throws std::runtime_error with a readable message for any bad file or device.
    static std::unique_ptr<Captioner> open(const std::string& path,
                                           const std::string& device = "cpu");
    ~Captioner();
    Captioner(const Captioner&) = delete;
    Captioner& operator=(const Captioner&) = delete;

    const ModelInfo& info() const;
    const Vocabulary& vocab() const;

    // Decoding switches state on the model's modules for the call (positional encoding, heads
    // off), so it is not const: one Captioner serves one thread at a time.
    // rows: count * inputDim floats (feature models).
    std::vector<CaptionTrace> captionFeatures(const std::vector<float>& rows, int64_t count,
                                              const DecodeOptions& options);
    // Teacher-forced cross-entropy of ground-truth captions (count rows of `length` word ids, as
    // the course stores them: <START> ... <END> <NULL>...) given their feature rows: the summed
    // loss over every non-<NULL> target token (including <END>), and that token count.
    struct CaptionLoss {
        double sum = 0;
        int64_t tokens = 0;
    };
    CaptionLoss featureCaptionLoss(const std::vector<float>& rows,
                                   const std::vector<int64_t>& captions, int64_t count,
                                   int64_t length);
    // Image models; images of any size are resized by the model (image_encoder.h).
    std::vector<CaptionTrace> captionImages(const std::vector<RgbImage>& images,
                                            const DecodeOptions& options);
    // The same decode re-running the full prefix like the seed's sample() (reference, bench).
    std::vector<CaptionTrace> captionImagesFullRerun(const std::vector<RgbImage>& images,
                                                     const DecodeOptions& options);

    // Beam search (api/beam.h), one input at a time; each trace is the best hypothesis decoded
    // again with every attention map (and, for images, the out-of-world check).
    std::vector<BeamCaption> beamImages(const std::vector<RgbImage>& images,
                                        const DecodeOptions& options, const BeamOptions& beam);
    std::vector<BeamCaption> beamFeatures(const std::vector<float>& rows, int64_t count,
                                          const DecodeOptions& options, const BeamOptions& beam);

    // Explains one word of the image's caption by every method asked (api/explain.h): the
    // greedy caption, or the one options.forcedPrefix starts. Image models only.
    Explanation explainImage(const RgbImage& image, const DecodeOptions& options,
                             const ExplainOptions& explain);

    // The Q . K walkthrough (api/walkthrough.h) of the caption's step options.step: the greedy
    // caption, or the one decode.forcedPrefix starts. Images, or one feature row.
    AttentionWalkthrough walkthroughImage(const RgbImage& image, const DecodeOptions& decode,
                                          const WalkthroughOptions& options);
    AttentionWalkthrough walkthroughFeatures(const std::vector<float>& row,
                                             const DecodeOptions& decode,
                                             const WalkthroughOptions& options);

    // The logit lens and direct logit attribution (core/lens.h) of the greedy caption, or the
    // one decode.forcedPrefix starts: `top` words per position and layer. Images, or one row.
    LensReport lensImage(const RgbImage& image, const DecodeOptions& decode, int64_t top);
    LensReport lensFeatures(const std::vector<float>& row, const DecodeOptions& decode,
                            int64_t top);

    // Activation patching (core/patching.h) of a clean and a corrupted image, every site; the
    // position where the greedy captions part unless options.position says.
    PatchReport patchImages(const RgbImage& clean, const RgbImage& corrupt,
                            const DecodeOptions& decode, const PatchOptions& options);
    // The same for two rows of a feature model (the course's kind: one memory token).
    PatchReport patchFeatures(const std::vector<float>& clean, const std::vector<float>& corrupt,
                              const DecodeOptions& decode, const PatchOptions& options);
    // The same pair with only `sites` patched, all at once: that run's normalised metric.
    double patchImagesTogether(const RgbImage& clean, const RgbImage& corrupt,
                               const DecodeOptions& decode, const PatchOptions& options,
                               const std::vector<PatchSite>& sites);

    // What switching each head off alone costs the caption (api/head_importance.h): the greedy
    // caption with every head on (options.headsOff is ignored), or the one options.forcedPrefix
    // starts, scored as one batch. Images, or one feature row.
    HeadImportance headImportanceImage(const RgbImage& image, const DecodeOptions& options);
    HeadImportance headImportanceFeatures(const std::vector<float>& row,
                                          const DecodeOptions& options);

  private:
    struct Impl;
    explicit Captioner(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> d;
};

// "cpu" or "cuda"; throws when the device is unknown or this LibTorch cannot use it.
void checkDevice(const std::string& device);

} // namespace cl
