#pragma once
// PyTorch zip checkpoints (the torch.save format since 1.6): reading with our restricted
// unpickler and writing files that Python's torch.load reads.
#include "model/io/pickle_value.h"

namespace cl::pickle {

// Protocol-2 pickle of `root`; tensors become ('storage', ...) persistent ids whose data is
// appended to `storages` (record key = index).
std::string serialize(const Value& root, std::vector<torch::Tensor>& storages);

// Writes `root` as a zip checkpoint through files::write (atomic for regular files).
void saveFile(const std::string& path, const Value& root);

} // namespace cl::pickle
