#pragma once
// Crafted hostile files for tst_hostile: pickles in zip archives that loop, share, lie about
// their sizes or name code to run; a NumPy file; a vocabulary nested three million deep.
#include "tests/test_util.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace cltest {

using namespace std::string_literals;

inline std::string u32(uint32_t v) {
    return std::string(reinterpret_cast<const char*>(&v), 4);
}

inline std::string unicode(const std::string& s) { // BINUNICODE
    return "X" + u32(static_cast<uint32_t>(s.size())) + s;
}

// A pickle of `body` (protocol 2) in an archive with `records` besides.
inline std::string archive(const std::string& body,
                    std::vector<std::pair<std::string, std::string>> records = {}) {
    records.insert(records.begin(), {"data.pkl", "\x80\x02"s + body + "."});
    return zipWith(records);
}

// 63 levels of tuples, each holding the level below twice through the memo: walked path by path
// that is 2^63 steps.
inline std::string sharedDag() {
    std::string p = "]q\x00"s; // the level below stays on the stack and is paired with its copy
    for (int level = 1; level < 64; ++level)
        p += "h"s + char(level - 1) + "\x86q"s + char(level);
    return archive(p);
}

inline std::string repeatedKey() {
    std::string p = "}";
    for (int i = 0; i < 300000; ++i)
        p += unicode("k") + "K\x01s";
    return archive(p);
}

// A [16384, 16384] view with strides [0, 0] over a 16-element storage.
inline std::string zeroStrides() {
    const std::string p = "ctorch._utils\n_rebuild_tensor_v2\n(" +
                          ("("s + unicode("storage") + "ctorch\nFloatStorage\n" + unicode("0") +
                           unicode("cpu") + "K\x10tQ") +
                          "K\x00M\x00\x40M\x00\x40\x86K\x00K\x00\x86\x89"s +
                          "ccollections\nOrderedDict\n)RtR";
    return archive(p, {{"data/0", std::string(64, '\0')}});
}

inline std::string sharedString() {
    std::string p = "](" + unicode(std::string(4 << 20, 'a')) + "q\x01";
    for (int i = 0; i < 250; ++i)
        p += "h\x01";
    return archive(p + "e");
}

// Patches the inflated size of data.pkl in the central directory (and the local header).
inline std::string declaringPickleOf(uint32_t bytes) {
    std::string z = archive("}");
    for (const std::string& sig : {"PK\x01\x02"s, "PK\x03\x04"s}) {
        const size_t at = z.find(sig);
        const size_t sizeAt = at + (sig[2] == 1 ? 24 : 22);
        z.replace(sizeAt, 4, u32(bytes));
    }
    return z;
}

inline std::string damagedCrc() {
    std::string z = archive("}");
    const size_t at = z.find("\x80\x02}."s);
    z[at + 2] = ']'; // a list, if nobody checked
    return z;
}

inline std::string caseTwins() {
    return zipWith({{"data.pkl", "\x80\x02}."s}, {"DATA.PKL", "\x80\x02]."s}});
}

inline std::string stackGlobal(const std::string& module, const std::string& name) {
    return archive("\x8c"s + char(module.size()) + module + "\x8c"s + char(name.size()) + name +
                   "\x93");
}

inline std::string npyOf(const std::vector<double>& values, int rows) {
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                         std::to_string(rows) + ", " + std::to_string(values.size() / rows) +
                         "), }";
    header.resize(118, ' ');
    header += '\n';
    std::string out = "\x93NUMPY\x01\x00"s + char(header.size()) + '\0' + header;
    out.append(reinterpret_cast<const char*>(values.data()), values.size() * 8);
    return out;
}

inline std::string nestedVocab() {
    std::string v = "{\"idx_to_word\": [";
    for (int i = 0; i < 3000000; ++i)
        v += i ? ",[]" : "[]";
    return v + "]}";
}

} // namespace cltest
