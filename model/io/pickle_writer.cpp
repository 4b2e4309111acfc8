#include "model/io/pickle_archive.h"
#include "model/io/pickle_tensor.h"

#include <cstring>
#include <stdexcept>

namespace cl::pickle {

namespace {

class Pickler {
  public:
    explicit Pickler(std::vector<torch::Tensor>& storages) : m_storages(storages) {}
    std::string run(const Value& root) {
        m_out += "\x80\x02";
        write(root);
        m_out += '.';
        return m_out;
    }

  private:
    void op(char c) { m_out += c; }
    template <typename T> void raw(T v) {
        m_out.append(reinterpret_cast<const char*>(&v), sizeof v);
    }
    void str(const std::string& s) {
        op('X');
        raw(static_cast<uint32_t>(s.size()));
        m_out += s;
    }
    void integer(int64_t v) {
        if (v >= INT32_MIN && v <= INT32_MAX) {
            op('J');
            raw(static_cast<int32_t>(v));
        } else {
            op('\x8a');
            raw(static_cast<uint8_t>(8));
            raw(v);
        }
    }
    void real(double d) {
        uint64_t bits;
        std::memcpy(&bits, &d, 8);
        op('G');
        for (int k = 7; k >= 0; --k)
            m_out += static_cast<char>((bits >> (8 * k)) & 0xff);
    }
    void global(const std::string& module, const std::string& name) {
        m_out += 'c' + module + '\n' + name + '\n';
    }
    void ints(c10::IntArrayRef v) {
        op('(');
        for (auto x : v)
            integer(x);
        op('t');
    }
    void tensor(const torch::Tensor& t0);
    void write(const Value& v);

    std::string m_out;
    std::vector<torch::Tensor>& m_storages;
};

void Pickler::tensor(const torch::Tensor& t0) {
    auto t = t0.detach().to(torch::kCPU).contiguous();
    const auto key = std::to_string(m_storages.size());
    m_storages.push_back(t);
    const auto storage = storageName(t.scalar_type());
    global("torch._utils", "_rebuild_tensor_v2");
    op('(');
    op('('); // persistent id tuple
    str("storage");
    global("torch", storage.substr(6));
    str(key);
    str("cpu");
    integer(t.numel());
    op('t');
    op('Q');
    integer(0);
    ints(t.sizes());
    ints(t.strides());
    op('\x89');
    global("collections", "OrderedDict");
    op(')');
    op('R');
    op('t');
    op('R');
}

void Pickler::write(const Value& v) {
    using K = Value::Kind;
    switch (v.kind) {
    case K::None:
        op('N');
        break;
    case K::Bool:
        op(v.b ? '\x88' : '\x89');
        break;
    case K::Int:
        integer(v.i);
        break;
    case K::Float:
        real(v.f);
        break;
    case K::String:
        str(v.s);
        break;
    case K::Tensor:
        tensor(v.tensor);
        break;
    case K::List:
    case K::Tuple:
        op(v.kind == K::List ? ']' : '(');
        if (v.kind == K::List && !v.items->empty())
            op('(');
        for (const auto& x : *v.items)
            write(x);
        if (v.kind == K::List) {
            if (!v.items->empty())
                op('e');
        } else {
            op('t');
        }
        break;
    case K::Dict:
        op('}');
        if (v.pairs->empty())
            break;
        op('(');
        for (const auto& [k, x] : *v.pairs) {
            write(k);
            write(x);
        }
        op('u');
        break;
    default:
        throw std::invalid_argument("cannot pickle a " + v.kindName());
    }
}

} // namespace

std::string serialize(const Value& root, std::vector<torch::Tensor>& storages) {
    return Pickler(storages).run(root);
}

} // namespace cl::pickle
