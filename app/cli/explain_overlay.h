#pragma once
// A saliency map drawn over its image for captionlens-cli explain: the map's positive part,
// bilinear over the image where the model's input lies, on a heat ramp over a grey copy.
#include "model/api/captioner.h"

namespace cl::cli {

RgbImage explanationOverlay(const RgbImage& image, const Explanation& e, const SaliencyMap& map);

} // namespace cl::cli
