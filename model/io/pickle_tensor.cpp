#include "model/io/pickle_tensor.h"

#include "model/core/errors.h"
#include "model/core/fail.h"
#include <algorithm>
#include <stdexcept>

namespace cl::pickle {

namespace {

constexpr int64_t kViewSlack = 4;           // a view's elements per storage element, at most
constexpr int64_t kViewAllowance = 1 << 20; // besides, for broadcasts over tiny storages

const std::map<std::string, c10::ScalarType>& storageTypes() {
    static const std::map<std::string, c10::ScalarType> types = {
        {"torch.FloatStorage", c10::ScalarType::Float},
        {"torch.DoubleStorage", c10::ScalarType::Double},
        {"torch.HalfStorage", c10::ScalarType::Half},
        {"torch.BFloat16Storage", c10::ScalarType::BFloat16},
        {"torch.LongStorage", c10::ScalarType::Long},
        {"torch.IntStorage", c10::ScalarType::Int},
        {"torch.ShortStorage", c10::ScalarType::Short},
        {"torch.CharStorage", c10::ScalarType::Char},
        {"torch.ByteStorage", c10::ScalarType::Byte},
        {"torch.BoolStorage", c10::ScalarType::Bool},
    };
    return types;
}

std::vector<int64_t> intTuple(const Value& v, const char* what) {
    if (v.kind != Value::Kind::Tuple && v.kind != Value::Kind::List)
        fail(std::string("tensor ") + what + " is a " + v.kindName() + ", not a tuple");
    if (v.items->size() > 16)
        fail(std::string("tensor ") + what + " has more than 16 dimensions");
    std::vector<int64_t> out;
    for (const auto& x : *v.items) {
        if (x.kind != Value::Kind::Int || x.i < 0)
            fail(std::string("tensor ") + what + " holds a negative or non-integer value");
        out.push_back(x.i);
    }
    return out;
}

// Largest element offset a (size, stride, offset) view touches, with overflow checks.
int64_t lastOffset(const std::vector<int64_t>& size, const std::vector<int64_t>& stride,
                   int64_t offset) {
    int64_t last = offset;
    for (size_t d = 0; d < size.size(); ++d) {
        if (size[d] == 0)
            return -1; // empty tensor touches nothing
        int64_t span;
        if (__builtin_mul_overflow(size[d] - 1, stride[d], &span) ||
            __builtin_add_overflow(last, span, &last))
            fail("tensor size and stride overflow");
    }
    return last;
}

} // namespace

bool isAllowedGlobal(const std::string& name) {
    return name == "collections.OrderedDict" || name == "torch._utils._rebuild_tensor_v2" ||
           name == "torch._utils._rebuild_parameter" || storageTypes().count(name) > 0;
}

c10::ScalarType storageDtype(const std::string& name) {
    auto it = storageTypes().find(name);
    if (it == storageTypes().end())
        fail("unsupported storage type " + printable(name));
    return it->second;
}

std::string storageName(c10::ScalarType dtype) {
    for (const auto& [name, type] : storageTypes())
        if (type == dtype)
            return name;
    fail(std::string("no storage type for dtype ") + c10::toString(dtype));
}

Value TensorRebuilder::persistentLoad(const Value& pid) {
    const auto& it = pid.items;
    if (pid.kind != Value::Kind::Tuple || it->size() != 5 || (*it)[0].s != "storage" ||
        (*it)[1].kind != Value::Kind::Global || (*it)[2].kind != Value::Kind::String ||
        (*it)[4].kind != Value::Kind::Int || (*it)[4].i < 0)
        fail("pickle persistent id is not a ('storage', type, key, location, numel) tuple");
    Value ref;
    ref.kind = Value::Kind::Storage;
    ref.dtype = storageDtype((*it)[1].s);
    ref.s = (*it)[2].s;
    ref.i = (*it)[4].i;
    return ref;
}

torch::Tensor TensorRebuilder::storage(const Value& ref) {
    auto found = m_storages.find(ref.s);
    if (found != m_storages.end()) {
        if (found->second.scalar_type() != ref.dtype || found->second.numel() != ref.i)
            fail("storage " + printable(ref.s) +
                 " is declared twice with different types or sizes");
        return found->second;
    }
    auto t = m_loader(ref.s, ref.dtype, ref.i);
    m_storages.emplace(ref.s, t);
    m_storageElements += ref.i;
    return t;
}

Value TensorRebuilder::rebuildTensor(const Items& a) {
    // _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, hooks[, metadata])
    if (a.size() < 4 || a[0].kind != Value::Kind::Storage || a[1].kind != Value::Kind::Int)
        fail("_rebuild_tensor_v2 has unexpected arguments");
    const auto size = intTuple(a[2], "size");
    const auto stride = intTuple(a[3], "stride");
    const int64_t offset = a[1].i;
    if (size.size() != stride.size())
        fail("tensor size and stride have different lengths");
    if (offset < 0)
        fail("tensor storage offset is negative");
    const auto last = lastOffset(size, stride, offset);
    if (last >= a[0].i)
        fail("tensor of size " + c10::str(c10::IntArrayRef(size)) + " reaches element " +
             std::to_string(last) + " of a storage holding " + std::to_string(a[0].i));
    // A view may describe no more elements than its storage holds, give or take a broadcast row:
    // zero strides over 16 elements used to materialise [16384, 16384] (1 GiB), and many views
    // of one storage may together hold no more than a few times all storages.
    int64_t elements = 1;
    for (auto n : size)
        if (__builtin_mul_overflow(elements, n, &elements))
            fail("tensor size " + c10::str(c10::IntArrayRef(size)) + " overflows");
    if (elements > kViewSlack * std::max<int64_t>(a[0].i, 1))
        fail("tensor of size " + c10::str(c10::IntArrayRef(size)) + " describes " +
             std::to_string(elements) + " elements over a storage of " + std::to_string(a[0].i) +
             " (zero or overlapping strides)");
    auto base = storage(a[0]);
    m_viewElements += elements;
    if (m_viewElements > kViewSlack * m_storageElements + kViewAllowance)
        fail("the tensors' views describe " + std::to_string(m_viewElements) +
             " elements, far more than their storages hold");
    if (last < 0)
        return Value::ofTensor(torch::empty(size, base.options()));
    return Value::ofTensor(base.as_strided(size, stride, offset).clone());
}

Value TensorRebuilder::call(const std::string& global, const Items& args) {
    if (global == "torch._utils._rebuild_tensor_v2")
        return rebuildTensor(args);
    if (global == "torch._utils._rebuild_parameter") {
        if (args.empty() || args[0].kind != Value::Kind::Tensor)
            fail("_rebuild_parameter without a tensor");
        return args[0];
    }
    if (global == "collections.OrderedDict") {
        Value d = Value::dict();
        if (!args.empty())
            fail("OrderedDict built from arguments is not supported");
        return d;
    }
    fail("refusing to call " + printable(global));
}

} // namespace cl::pickle
