#pragma once
// A restricted unpickler for PyTorch checkpoints, in the spirit of torch.load(weights_only=True):
// it knows the opcodes tensor dicts use and a short list of globals; any other global is refused
// by name, so nothing a file contains can run code.
#include "model/io/pickle_value.h"

#include <functional>

namespace cl::pickle {

// Loads the raw storage "data/<key>" as a 1-D tensor of `numel` elements of `dtype`.
using StorageLoader =
    std::function<torch::Tensor(const std::string& key, c10::ScalarType dtype, int64_t numel)>;

// Unpickles `data`; throws std::runtime_error with a specific message on anything unexpected.
Value unpickle(const std::string& data, const StorageLoader& loadStorage);

// Reads a PyTorch zip checkpoint (torch.save since 1.6): archive/data.pkl and its storages.
Value loadFile(const std::string& path);

} // namespace cl::pickle
