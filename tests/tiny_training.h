#pragma once
// The smallest shapes model worth training in a test (one layer, two heads, width 32, an 8-channel
// encoder, two scenes a step, no out-of-world calibration): a checkpoint in milliseconds.
#include "model/api/trainer.h"

#include <string>

namespace cltest {

inline cl::TrainOptions tinyTraining(const std::string& out, int64_t steps = 1) {
    cl::TrainOptions o;
    o.steps = steps;
    o.batch = 2;
    o.heads = 2;
    o.layers = 1;
    o.width = 32;
    o.ffn = 64;
    o.encoderChannels = 8;
    o.calibrationScenes = 0;
    o.out = out;
    return o;
}

} // namespace cltest
