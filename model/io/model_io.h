#pragma once
// Moving weights between a model and a state_dict, strictly: every key, every shape.
#include "model/io/checkpoint.h"
#include "model/nn/captioning_transformer.h"

namespace cl {

// Copies a state_dict into the model. Throws naming the first missing, unexpected or misshapen
// key. Returns warnings (e.g. non-finite weights) that do not stop the load.
std::vector<std::string> loadStateDict(torch::nn::Module& model, const StateDict& stateDict);
// Parameters and buffers, in registration order, with their state_dict names.
StateDict stateDictOf(const torch::nn::Module& model);

// Throws unless every width of the config is a size of some tensor and the layer count matches:
// checked before a model is built, so a forged config cannot make us allocate gigabytes.
void checkConfigAgainstTensors(const ModelConfig& config, const StateDict& stateDict);

// Builds the model a checkpoint describes, with its weights, in eval mode.
CaptioningTransformer buildModel(const Checkpoint& checkpoint, int64_t nullId,
                                 std::vector<std::string>* warnings = nullptr);

} // namespace cl
