#pragma once
// What a command about one input reads: an image for image models, one row of a feature file
// for feature models (the course's). The wrong kind, a missing row or a bad file is refused in
// one line.
#include "model/api/captioner.h"

#include <string>
#include <vector>

namespace cl::cli {

struct ModelInput {
    bool image = false; // an image model: `rgb`; else `row`
    RgbImage rgb;
    std::vector<float> row;
};

ModelInput readModelInput(const Captioner& model, const std::string& image,
                          const std::string& features, int64_t row);

} // namespace cl::cli
