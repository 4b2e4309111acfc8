#pragma once
// The values a PyTorch tensor checkpoint pickle can hold, and nothing else: no objects, no code.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cl::pickle {

struct Value;
using Items = std::vector<Value>;
using Pairs = std::vector<std::pair<Value, Value>>;

struct Value {
    enum class Kind { None, Bool, Int, Float, String, List, Tuple, Dict, Tensor, Global, Storage };
    Kind kind = Kind::None;
    bool b = false;
    int64_t i = 0; // Int, or a Storage's element count
    double f = 0.0;
    std::string s;                // String, a Global's "module.name", or a Storage's record key
    std::shared_ptr<Items> items; // List, Tuple (shared: pickle memo entries alias them)
    std::shared_ptr<Pairs> pairs; // Dict, in insertion order
    torch::Tensor tensor;
    c10::ScalarType dtype = c10::ScalarType::Float; // Storage element type

    static Value none() { return {}; }
    static Value boolean(bool v);
    static Value integer(int64_t v);
    static Value real(double v);
    static Value string(std::string v);
    static Value list(Items v = {});
    static Value tuple(Items v = {});
    static Value dict(Pairs v = {});
    static Value ofTensor(torch::Tensor t);

    bool isDict() const { return kind == Kind::Dict; }
    // Dict lookup by string key; nullptr when absent or not a dict.
    const Value* find(const std::string& key) const;
    void set(const std::string& key, Value v); // appends to a Dict
    std::string kindName() const;
};

} // namespace cl::pickle
