#pragma once
// The values a PyTorch tensor checkpoint pickle can hold, and nothing else: no objects, no code.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace cl::pickle {

// Immutable text shared between copies: a memoised string fetched again and again (a memo GET)
// costs a reference, not another copy of its bytes.
class Text {
  public:
    Text() : m_text(empty()) {}
    Text(std::string s) : m_text(std::make_shared<const std::string>(std::move(s))) {}
    Text(const char* s) : Text(std::string(s)) {}
    operator const std::string&() const { return *m_text; }
    const std::string& str() const { return *m_text; }

    friend bool operator==(const Text& a, const Text& b) { return *a.m_text == *b.m_text; }
    friend bool operator==(const Text& a, const std::string& b) { return *a.m_text == b; }
    friend bool operator!=(const Text& a, const std::string& b) { return *a.m_text != b; }
    friend bool operator==(const Text& a, const char* b) { return *a.m_text == b; }
    friend bool operator!=(const Text& a, const char* b) { return *a.m_text != b; }
    friend std::string operator+(const std::string& a, const Text& b) { return a + *b.m_text; }
    friend std::string operator+(const char* a, const Text& b) { return a + *b.m_text; }

  private:
    static const std::shared_ptr<const std::string>& empty() {
        static const auto e = std::make_shared<const std::string>();
        return e;
    }
    std::shared_ptr<const std::string> m_text;
};

struct Value;
using Items = std::vector<Value>;
using Pairs = std::vector<std::pair<Value, Value>>;

struct Value {
    enum class Kind { None, Bool, Int, Float, String, List, Tuple, Dict, Tensor, Global, Storage };
    Kind kind = Kind::None;
    bool b = false;
    int64_t i = 0; // Int, or a Storage's element count
    double f = 0.0;
    Text s;                       // String, a Global's "module.name", or a Storage's record key
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
