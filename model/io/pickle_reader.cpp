#include "model/io/pickle_reader.h"

#include "model/core/errors.h"
#include "model/core/fail.h"
#include "model/io/pickle_tensor.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <unordered_map>

namespace cl::pickle {

namespace {

constexpr size_t kMaxStack = 1 << 20;
constexpr size_t kMaxMemo = 1 << 20;
constexpr int kMaxDepth = 64;

// Breaks nested containers apart without recursion, so a deeply nested (or cyclic) pickle cannot
// overflow the stack in destructors.
void dismantle(std::vector<Value>& values) {
    std::vector<Value> work;
    work.swap(values);
    while (!work.empty()) {
        Value v = std::move(work.back());
        work.pop_back();
        if (v.items && v.items.use_count() == 1) {
            for (auto& child : *v.items)
                work.push_back(std::move(child));
            v.items->clear();
        }
        if (v.pairs && v.pairs.use_count() == 1) {
            for (auto& [k, child] : *v.pairs) {
                work.push_back(std::move(k));
                work.push_back(std::move(child));
            }
            v.pairs->clear();
        }
    }
}

const void* nodeOf(const Value& v) {
    return v.items   ? static_cast<const void*>(v.items.get())
           : v.pairs ? static_cast<const void*>(v.pairs.get())
                     : nullptr;
}

std::vector<const Value*> childrenOf(const Value& v) {
    std::vector<const Value*> out;
    if (v.items)
        for (const auto& c : *v.items)
            out.push_back(&c);
    if (v.pairs)
        for (const auto& [k, c] : *v.pairs) {
            out.push_back(&k);
            out.push_back(&c);
        }
    return out;
}

// True when some container is reached through more than kMaxDepth levels, which includes any
// cycle. Each container is walked once however many times it is shared (a memo-shared DAG of 60
// levels, each using the one below twice, used to be walked path by path: 2^60 steps).
bool tooDeep(const Value& root) {
    struct Frame {
        const Value* value;
        std::vector<const Value*> children;
        size_t next = 0;
        int height = 0; // levels below this one
    };
    std::unordered_map<const void*, int> heights; // finished containers
    std::unordered_map<const void*, bool> open;   // containers on the current path
    std::vector<Frame> path;
    auto enter = [&](const Value& v) {
        open[nodeOf(v)] = true;
        path.push_back({&v, childrenOf(v)});
    };
    if (!nodeOf(root))
        return false;
    enter(root);
    while (!path.empty()) {
        if (static_cast<int>(path.size()) > kMaxDepth + 1)
            return true;
        Frame& f = path.back();
        if (f.next < f.children.size()) {
            const Value& c = *f.children[f.next++];
            const void* node = nodeOf(c);
            if (!node)
                continue;
            if (open.count(node))
                return true; // a cycle
            auto done = heights.find(node);
            if (done == heights.end()) {
                enter(c);
                continue;
            }
            f.height = std::max(f.height, done->second + 1);
        } else {
            const void* node = nodeOf(*f.value);
            const int height = f.height;
            heights[node] = height;
            open.erase(node);
            path.pop_back();
            if (height + static_cast<int>(path.size()) > kMaxDepth)
                return true;
            if (!path.empty())
                path.back().height = std::max(path.back().height, height + 1);
        }
    }
    return false;
}

// A class from a model's own module (cs231n...CaptioningTransformer, torch.nn.modules...Linear):
// the file is a whole model saved with torch.save(model), which only Python can rebuild.
std::string wholeModelHint(const std::string& name) {
    const bool storage = name.size() > 7 && name.compare(name.size() - 7, 7, "Storage") == 0;
    if (name.empty() || !std::isupper(static_cast<unsigned char>(name[0])) || storage)
        return "";
    return " (a whole model saved with torch.save(model)? Save its weights instead: "
           "torch.save(model.state_dict(), 'model.pt'))";
}

class Unpickler {
  public:
    Unpickler(const std::string& data, const StorageLoader& loader)
        : m_data(data), m_loader(loader) {}
    ~Unpickler() {
        for (auto& [k, v] : m_memo)
            m_stack.push_back(std::move(v));
        m_memo.clear();
        dismantle(m_stack);
    }

    Value run();

  private:
    void step(uint8_t op);
    const char* take(size_t n);
    template <typename T> T read() {
        T v;
        std::memcpy(&v, take(sizeof(T)), sizeof(T));
        return v;
    }
    Value pop();
    Value& top();
    Items popToMark();
    void pushGlobal(const std::string& module, const std::string& name);
    void reduce();
    void build();
    void setItems(Items&& kv);
    void append(Items&& values);
    void memoPut(uint32_t key);
    void memoGet(uint32_t key);

    const std::string& m_data;
    const StorageLoader& m_loader;
    size_t m_pos = 0;
    size_t m_opcodeAt = 0;
    bool m_stopped = false;
    std::vector<Value> m_stack;
    std::vector<size_t> m_marks;
    std::unordered_map<uint32_t, Value> m_memo;
    using KeyIndex = std::unordered_map<std::string, size_t>;
    std::unordered_map<const Pairs*, std::pair<std::weak_ptr<Pairs>, KeyIndex>> m_dictIndex;
    TensorRebuilder m_tensors{m_loader};
};

const char* Unpickler::take(size_t n) {
    if (n > m_data.size() - m_pos)
        fail("pickle is truncated at byte " + std::to_string(m_pos) + " (needs " +
             std::to_string(n) + " more)");
    const char* p = m_data.data() + m_pos;
    m_pos += n;
    return p;
}

Value Unpickler::pop() {
    if (m_stack.empty() || (!m_marks.empty() && m_stack.size() <= m_marks.back()))
        fail("pickle stack underflow at byte " + std::to_string(m_opcodeAt));
    Value v = std::move(m_stack.back());
    m_stack.pop_back();
    return v;
}

Value& Unpickler::top() {
    if (m_stack.empty())
        fail("pickle stack underflow at byte " + std::to_string(m_opcodeAt));
    return m_stack.back();
}

Items Unpickler::popToMark() {
    if (m_marks.empty())
        fail("pickle has no MARK at byte " + std::to_string(m_opcodeAt));
    const size_t mark = m_marks.back();
    m_marks.pop_back();
    Items items(std::make_move_iterator(m_stack.begin() + static_cast<long>(mark)),
                std::make_move_iterator(m_stack.end()));
    m_stack.resize(mark);
    return items;
}

void Unpickler::pushGlobal(const std::string& module, const std::string& name) {
    const std::string full = module + "." + name;
    if (!isAllowedGlobal(full))
        fail("refusing to load: the file references " + printable(full) + wholeModelHint(name));
    Value g;
    g.kind = Value::Kind::Global;
    g.s = full;
    m_stack.push_back(std::move(g));
}

void Unpickler::reduce() {
    Value args = pop();
    Value callable = pop();
    if (callable.kind != Value::Kind::Global || args.kind != Value::Kind::Tuple)
        fail("pickle REDUCE without a global and an argument tuple at byte " +
             std::to_string(m_opcodeAt));
    m_stack.push_back(m_tensors.call(callable.s, *args.items));
}

void Unpickler::build() {
    Value state = pop();
    // OrderedDict state is its `_metadata` attribute (state_dict versions): not needed.
    if (top().kind != Value::Kind::Dict && top().kind != Value::Kind::Tensor)
        fail("pickle BUILD on a " + top().kindName() + " is not supported");
    std::vector<Value> drop{std::move(state)};
    dismantle(drop);
}

void Unpickler::setItems(Items&& kv) {
    if (kv.size() % 2)
        fail("pickle SETITEMS with an odd number of values");
    Value& d = top();
    if (d.kind != Value::Kind::Dict)
        fail("pickle SETITEMS on a " + d.kindName());
    // String keys are indexed per dict, so n insertions cost n, not n^2 (300k SETITEMs of one
    // key took 31 s).
    auto& pairs = *d.pairs;
    auto& [owner, index] = m_dictIndex[d.pairs.get()];
    if (owner.expired()) { // a new dict at the address of one since freed
        owner = d.pairs;
        index.clear();
    }
    for (size_t i = 0; i < kv.size(); i += 2) {
        if (kv[i].kind == Value::Kind::String) {
            auto [it, fresh] = index.emplace(kv[i].s.str(), pairs.size());
            if (!fresh) {
                pairs[it->second].second = std::move(kv[i + 1]);
                continue;
            }
        }
        pairs.emplace_back(std::move(kv[i]), std::move(kv[i + 1]));
    }
}

void Unpickler::append(Items&& values) {
    Value& l = top();
    if (l.kind != Value::Kind::List)
        fail("pickle APPEND on a " + l.kindName());
    for (auto& v : values)
        l.items->push_back(std::move(v));
}

void Unpickler::memoPut(uint32_t key) {
    if (m_memo.size() >= kMaxMemo)
        fail("pickle memo exceeds " + std::to_string(kMaxMemo));
    m_memo[key] = top();
}

void Unpickler::memoGet(uint32_t key) {
    auto it = m_memo.find(key);
    if (it == m_memo.end())
        fail("pickle refers to memo entry " + std::to_string(key) + " that was never stored");
    m_stack.push_back(it->second);
}

void Unpickler::step(uint8_t op) {
    switch (op) {
    case 0x80:
        take(1);
        break; // PROTO
    case 0x95:
        take(8);
        break; // FRAME
    case '(':
        m_marks.push_back(m_stack.size());
        break;
    case '.':
        m_stopped = true;
        break;
    case 'N':
        m_stack.push_back(Value::none());
        break;
    case 0x88:
        m_stack.push_back(Value::boolean(true));
        break;
    case 0x89:
        m_stack.push_back(Value::boolean(false));
        break;
    case 'J':
        m_stack.push_back(Value::integer(read<int32_t>()));
        break;
    case 'K':
        m_stack.push_back(Value::integer(read<uint8_t>()));
        break;
    case 'M':
        m_stack.push_back(Value::integer(read<uint16_t>()));
        break;
    case 0x8a: { // LONG1: little-endian two's complement of n bytes
        const auto n = read<uint8_t>();
        if (n > 8)
            fail("pickle integer of " + std::to_string(n) + " bytes is too large");
        const char* p = take(n);
        uint64_t v = 0;
        for (int k = n - 1; k >= 0; --k)
            v = (v << 8) | static_cast<uint8_t>(p[k]);
        if (n > 0 && n < 8 && (static_cast<uint8_t>(p[n - 1]) & 0x80))
            v |= ~0ULL << (8 * n);
        m_stack.push_back(Value::integer(static_cast<int64_t>(v)));
        break;
    }
    case 'G': { // BINFLOAT, big-endian
        const char* p = take(8);
        uint64_t bits = 0;
        for (int k = 0; k < 8; ++k)
            bits = (bits << 8) | static_cast<uint8_t>(p[k]);
        double d;
        std::memcpy(&d, &bits, 8);
        m_stack.push_back(Value::real(d));
        break;
    }
    case 'X':
    case 'B': { // BINUNICODE, BINBYTES
        const auto n = read<uint32_t>();
        m_stack.push_back(Value::string(std::string(take(n), n)));
        break;
    }
    case 0x8c:
    case 'C':
    case 'U': { // SHORT_BINUNICODE, SHORT_BINBYTES, SHORT_BINSTRING
        const auto n = read<uint8_t>();
        m_stack.push_back(Value::string(std::string(take(n), n)));
        break;
    }
    case '}':
        m_stack.push_back(Value::dict());
        break;
    case ']':
        m_stack.push_back(Value::list());
        break;
    case ')':
        m_stack.push_back(Value::tuple());
        break;
    case 't':
        m_stack.push_back(Value::tuple(popToMark()));
        break;
    case 0x85: {
        auto a = pop();
        m_stack.push_back(Value::tuple({a}));
        break;
    }
    case 0x86: {
        auto b = pop(), a = pop();
        m_stack.push_back(Value::tuple({a, b}));
        break;
    }
    case 0x87: {
        auto c = pop(), b = pop(), a = pop();
        m_stack.push_back(Value::tuple({a, b, c}));
        break;
    }
    case 's': {
        auto v = pop(), k = pop();
        setItems({k, v});
        break;
    }
    case 'u':
        setItems(popToMark());
        break;
    case 'a': {
        auto v = pop();
        append({v});
        break;
    }
    case 'e':
        append(popToMark());
        break;
    case 'c': { // GLOBAL "module\nname\n"
        auto line = [this] {
            const size_t end = m_data.find('\n', m_pos);
            if (end == std::string::npos || end - m_pos > 256)
                fail("pickle GLOBAL is malformed");
            std::string s = m_data.substr(m_pos, end - m_pos);
            m_pos = end + 1;
            return s;
        };
        const auto module = line();
        pushGlobal(module, line());
        break;
    }
    case 0x93: { // STACK_GLOBAL
        auto name = pop(), module = pop();
        if (name.kind != Value::Kind::String || module.kind != Value::Kind::String)
            fail("pickle STACK_GLOBAL without two strings");
        pushGlobal(module.s, name.s);
        break;
    }
    case 'R':
        reduce();
        break;
    case 'b':
        build();
        break;
    case 'Q': {
        auto pid = pop();
        m_stack.push_back(m_tensors.persistentLoad(pid));
        break;
    }
    case 'q':
        memoPut(read<uint8_t>());
        break;
    case 'r':
        memoPut(read<uint32_t>());
        break;
    case 0x94:
        memoPut(static_cast<uint32_t>(m_memo.size()));
        break;
    case 'h':
        memoGet(read<uint8_t>());
        break;
    case 'j':
        memoGet(read<uint32_t>());
        break;
    default: {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", op);
        fail(std::string("pickle opcode ") + hex + " at byte " + std::to_string(m_opcodeAt) +
             " is not one that tensor checkpoints use");
    }
    }
}

Value Unpickler::run() {
    while (!m_stopped) {
        m_opcodeAt = m_pos;
        step(static_cast<uint8_t>(*take(1)));
        if (m_stack.size() > kMaxStack)
            fail("pickle stack exceeds " + std::to_string(kMaxStack));
    }
    if (m_stack.size() != 1)
        fail("pickle ended with " + std::to_string(m_stack.size()) +
             " values on the stack instead of one");
    Value result = pop();
    if (tooDeep(result)) {
        m_stack.push_back(std::move(result));
        fail("pickle nests containers deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    return result;
}

} // namespace

Value unpickle(const std::string& data, const StorageLoader& loadStorage) {
    return Unpickler(data, loadStorage).run();
}

} // namespace cl::pickle
