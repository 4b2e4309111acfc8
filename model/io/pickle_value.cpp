#include "model/io/pickle_value.h"

namespace cl::pickle {

Value Value::boolean(bool v) {
    Value x;
    x.kind = Kind::Bool;
    x.b = v;
    return x;
}
Value Value::integer(int64_t v) {
    Value x;
    x.kind = Kind::Int;
    x.i = v;
    return x;
}
Value Value::real(double v) {
    Value x;
    x.kind = Kind::Float;
    x.f = v;
    return x;
}
Value Value::string(std::string v) {
    Value x;
    x.kind = Kind::String;
    x.s = std::move(v);
    return x;
}
Value Value::list(Items v) {
    Value x;
    x.kind = Kind::List;
    x.items = std::make_shared<Items>(std::move(v));
    return x;
}
Value Value::tuple(Items v) {
    Value x = list(std::move(v));
    x.kind = Kind::Tuple;
    return x;
}
Value Value::dict(Pairs v) {
    Value x;
    x.kind = Kind::Dict;
    x.pairs = std::make_shared<Pairs>(std::move(v));
    return x;
}
Value Value::ofTensor(torch::Tensor t) {
    Value x;
    x.kind = Kind::Tensor;
    x.tensor = std::move(t);
    return x;
}

const Value* Value::find(const std::string& key) const {
    if (kind != Kind::Dict)
        return nullptr;
    for (const auto& [k, v] : *pairs)
        if (k.kind == Kind::String && k.s == key)
            return &v;
    return nullptr;
}

void Value::set(const std::string& key, Value v) {
    pairs->emplace_back(string(key), std::move(v));
}

std::string Value::kindName() const {
    switch (kind) {
    case Kind::None:
        return "None";
    case Kind::Bool:
        return "bool";
    case Kind::Int:
        return "int";
    case Kind::Float:
        return "float";
    case Kind::String:
        return "str";
    case Kind::List:
        return "list";
    case Kind::Tuple:
        return "tuple";
    case Kind::Dict:
        return "dict";
    case Kind::Tensor:
        return "tensor";
    case Kind::Global:
        return "global " + s;
    case Kind::Storage:
        return "storage";
    }
    return "?";
}

} // namespace cl::pickle
