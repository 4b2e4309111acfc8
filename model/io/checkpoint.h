#pragma once
// Checkpoint files. Ours: a torch.load-able dict
//   {"format": "captionlens-checkpoint", "version": 1, "config": {...}, "vocab": [words by id],
//    "state_dict": {course key: tensor}, "metadata": {...}, optionally "world_stats": {name: tensor}}
// and the course's bare state_dict (torch.save(model.state_dict(), f)), which import converts.
#include "model/core/config.h"

#include <torch/torch.h>

#include <string>
#include <utility>
#include <vector>

namespace cl {

using StateDict = std::vector<std::pair<std::string, torch::Tensor>>;

struct Checkpoint {
    ModelConfig config;
    std::vector<std::string> vocab;
    StateDict stateDict;
    Metadata meta;
    // Optimiser state for --resume ("adam_m.<key>", "adam_v.<key>"); empty in shipped files.
    StateDict trainState;
    // The out-of-world check's statistics (model/novelty/world_stats.h); empty when uncalibrated.
    StateDict worldStats;
};

inline constexpr const char* kFormatTag = "captionlens-checkpoint";
inline constexpr int64_t kFormatVersion = 1;

// Throws std::runtime_error naming the problem (and, for a course file, how to convert it).
Checkpoint readCheckpoint(const std::string& path);
void writeCheckpoint(const std::string& path, const Checkpoint& checkpoint);

// A bare state_dict: every value must be a tensor. A {'model'|'state_dict'|'model_state_dict':
// state_dict} wrapper and a DataParallel 'module.' prefix are taken off, each with a note.
StateDict readStateDict(const std::string& path, std::vector<std::string>* notes = nullptr);

// Course state_dicts: "2021" or "2025" key names, decided from the keys.
Layout detectLayout(const StateDict& stateDict);
// Reads every shape from the tensors; checks them against the vocabulary size and head count.
ModelConfig courseConfig(const StateDict& stateDict, int64_t vocabSize, int64_t heads,
                         Layout layout);

std::string isoDateNow();

} // namespace cl
