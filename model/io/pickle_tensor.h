#pragma once
// The allowed globals of a tensor checkpoint pickle and how each is rebuilt.
#include "model/io/pickle_reader.h"

#include <map>

namespace cl::pickle {

bool isAllowedGlobal(const std::string& fullName);
// "torch.FloatStorage" -> Float, ...; throws for anything else.
c10::ScalarType storageDtype(const std::string& fullName);
std::string storageName(c10::ScalarType dtype); // the inverse, for the writer

class TensorRebuilder {
  public:
    explicit TensorRebuilder(const StorageLoader& loader) : m_loader(loader) {}
    // BINPERSID: ('storage', torch.XStorage, key, location, numel) -> a Storage value.
    Value persistentLoad(const Value& pid);
    // REDUCE of an allowed global with its arguments.
    Value call(const std::string& global, const Items& args);

  private:
    Value rebuildTensor(const Items& args);
    torch::Tensor storage(const Value& ref);

    const StorageLoader& m_loader;
    std::map<std::string, torch::Tensor> m_storages; // shared by views of one storage
    int64_t m_storageElements = 0;                   // loaded, all storages together
    int64_t m_viewElements = 0;                      // materialised, all views together
};

} // namespace cl::pickle
