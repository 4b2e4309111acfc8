#include "model/io/pickle_archive.h"

#include "model/io/pickle_reader.h"

#include <caffe2/serialize/inline_container.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <unistd.h>

namespace cl::pickle {

namespace {

constexpr int64_t kMaxFileBytes = int64_t(4) << 30;

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

std::string readWholeFile(const std::string& path) {
    struct stat st {};
    if (stat(path.c_str(), &st) != 0)
        fail("cannot open " + path + ": no such file");
    if (!S_ISREG(st.st_mode))
        fail(path + " is not a regular file");
    if (st.st_size > kMaxFileBytes)
        fail(path + " is larger than 4 GiB");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        fail("cannot open " + path + " for reading");
    std::string bytes(static_cast<size_t>(st.st_size), '\0');
    in.read(bytes.data(), st.st_size);
    if (in.gcount() != st.st_size)
        fail("could not read all of " + path);
    return bytes;
}

std::string describeNonZip(const std::string& bytes) {
    if (bytes.empty())
        return "the file is empty";
    if (bytes.size() >= 2 && static_cast<uint8_t>(bytes[0]) == 0x80)
        return "it is a legacy (pre-1.6) torch.save file; re-save it with a current PyTorch";
    return "it is not a PyTorch zip checkpoint";
}

} // namespace

Value loadFile(const std::string& path) {
    const std::string bytes = readWholeFile(path);
    if (bytes.size() < 4 || bytes.compare(0, 4, "PK\x03\x04") != 0)
        fail("cannot read " + path + ": " + describeNonZip(bytes));
    std::istringstream stream(bytes);
    std::unique_ptr<caffe2::serialize::PyTorchStreamReader> zip;
    try {
        zip = std::make_unique<caffe2::serialize::PyTorchStreamReader>(&stream);
    } catch (const c10::Error& e) {
        fail("cannot read " + path + ": damaged zip archive (" + e.what_without_backtrace() + ")");
    }
    if (!zip->hasRecord("data.pkl"))
        fail("cannot read " + path + ": the archive has no data.pkl");
    // Two records of one name: zip readers disagree on which one counts, so we refuse to guess.
    std::set<std::string> names;
    for (const auto& name : zip->getAllRecords())
        if (!names.insert(name).second)
            fail("cannot read " + path + ": the archive holds two records named " + name);
    if (zip->hasRecord("byteorder")) {
        auto [data, size] = zip->getRecord("byteorder");
        if (std::string(static_cast<const char*>(data.get()), size) != "little")
            fail("cannot read " + path + ": big-endian checkpoints are not supported");
    }
    const int64_t fileSize = static_cast<int64_t>(bytes.size());
    StorageLoader loader = [&](const std::string& key, c10::ScalarType dtype, int64_t numel) {
        const auto record = "data/" + key;
        const int64_t want = numel * static_cast<int64_t>(c10::elementSize(dtype));
        if (numel > fileSize || want > fileSize)
            fail("storage " + key + " declares " + std::to_string(numel) +
                 " elements, more than the file holds");
        if (!zip->hasRecord(record))
            fail("the archive lacks the storage record " + record);
        auto [data, size] = zip->getRecord(record);
        if (static_cast<int64_t>(size) < want)
            fail("storage " + key + " holds " + std::to_string(size) + " bytes but " +
                 std::to_string(want) + " are declared");
        auto t = torch::empty({numel}, torch::TensorOptions().dtype(dtype));
        std::memcpy(t.data_ptr(), data.get(), static_cast<size_t>(want));
        return t;
    };
    auto [pkl, pklSize] = zip->getRecord("data.pkl");
    const std::string pickle(static_cast<const char*>(pkl.get()), pklSize);
    try {
        return unpickle(pickle, loader);
    } catch (const c10::Error& e) {
        fail("cannot read " + path + ": " + e.what_without_backtrace());
    } catch (const std::exception& e) {
        fail("cannot read " + path + ": " + e.what());
    }
}

void writeFileAtomically(const std::string& path, const std::string& bytes) {
    const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out)
            fail("cannot write " + tmp);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            std::remove(tmp.c_str());
            fail("could not write all of " + path + " (disk full?)");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        fail("cannot replace " + path);
    }
}

void saveFile(const std::string& path, const Value& root) {
    std::vector<torch::Tensor> storages;
    const std::string pickle = serialize(root, storages);
    std::string zipped;
    {
        caffe2::serialize::PyTorchStreamWriter writer([&](const void* data, size_t n) {
            zipped.append(static_cast<const char*>(data), n);
            return n;
        });
        writer.writeRecord("data.pkl", pickle.data(), pickle.size());
        writer.writeRecord("byteorder", "little", 6);
        for (size_t i = 0; i < storages.size(); ++i) {
            const auto& t = storages[i];
            writer.writeRecord("data/" + std::to_string(i), t.data_ptr(), t.nbytes());
        }
        writer.writeEndOfFile();
    }
    writeFileAtomically(path, zipped);
}

} // namespace cl::pickle
