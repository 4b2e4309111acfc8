#pragma once
// PyTorch zip checkpoints (the torch.save format since 1.6): reading with our restricted
// unpickler and writing files that Python's torch.load reads.
#include "model/io/pickle_value.h"

namespace cl::pickle {

// Protocol-2 pickle of `root`; tensors become ('storage', ...) persistent ids whose data is
// appended to `storages` (record key = index).
std::string serialize(const Value& root, std::vector<torch::Tensor>& storages);

// Writes `root` as a zip checkpoint, atomically (temporary file, then rename).
void saveFile(const std::string& path, const Value& root);

// Writes `bytes` to `path` through a temporary file and a rename, so a crash or a full disk never
// leaves a half-written file in place of a good one.
void writeFileAtomically(const std::string& path, const std::string& bytes);

} // namespace cl::pickle
