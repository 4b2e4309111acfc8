#include "model/io/pickle_archive.h"

#include "model/core/errors.h"
#include "model/core/fail.h"
#include "model/core/files.h"
#include "model/io/pickle_reader.h"
#include "model/io/zip_directory.h"

#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <cstring>
#include <sstream>
#include <stdexcept>

namespace cl::pickle {

namespace {

constexpr int64_t kMaxFileBytes = int64_t(4) << 30;

std::string describeNonZip(const std::string& bytes) {
    if (bytes.empty())
        return "the file is empty";
    if (bytes.size() >= 2 && static_cast<uint8_t>(bytes[0]) == 0x80)
        return "it is in torch.save's legacy format (PyTorch before 1.6, or "
               "_use_new_zipfile_serialization=False); re-save it in the zip format: "
               "torch.save(torch.load('old.pt'), 'new.pt')";
    return "it is not a PyTorch zip checkpoint";
}

// The budget, checked on the zip directory before anything is inflated: data.pkl at most 64 MiB,
// small records (version, byteorder) at most 1 MiB, all records together at most twice the file
// plus 64 MiB; each storage record no larger than its declared tensor data plus 4 KiB. Every
// record read is checked against its CRC.
constexpr uint64_t kMaxPickleBytes = uint64_t(64) << 20;
constexpr uint64_t kMaxSmallRecord = uint64_t(1) << 20;
constexpr uint64_t kStorageSlack = 4096;
constexpr size_t kMaxRecords = 100000;

void checkBudget(const zip::Directory& dir, uint64_t fileSize) {
    for (const auto& [key, e] : dir.entries()) {
        const std::string rest = e.name.substr(std::min(e.name.size(), dir.prefix().size()));
        const bool storage = rest.compare(0, 5, "data/") == 0;
        const uint64_t limit = rest == "data.pkl" ? kMaxPickleBytes
                               : storage          ? fileSize
                                                  : kMaxSmallRecord;
        if (e.size > limit)
            fail("record " + printable(e.name) + " would inflate to " + std::to_string(e.size) +
                 " bytes, over its budget of " + std::to_string(limit));
    }
    if (dir.totalSize() > 2 * fileSize + kMaxPickleBytes)
        fail("the records would inflate to " + std::to_string(dir.totalSize()) +
             " bytes, far more than a " + std::to_string(fileSize) + "-byte checkpoint holds");
}

// One record, inflated within its declared size and checked against its CRC.
std::tuple<at::DataPtr, size_t> readRecord(caffe2::serialize::PyTorchStreamReader& zip,
                                           const zip::Directory& dir, const std::string& name) {
    const zip::Entry* e = dir.find(dir.prefix() + name);
    if (!e || !zip.hasRecord(name))
        fail("the archive lacks the record " + printable(name));
    auto [data, size] = zip.getRecord(name);
    if (size != e->size || zip::crc32(data.get(), size) != e->crc)
        fail("record " + printable(name) + " is damaged (its CRC does not match)");
    return {std::move(data), size};
}

Value loadArchive(caffe2::serialize::PyTorchStreamReader& zip, const zip::Directory& dir,
                  int64_t fileSize) {
    if (!dir.find(dir.prefix() + "data.pkl"))
        fail("the archive has no data.pkl");
    if (zip.hasRecord("byteorder")) {
        auto [data, size] = readRecord(zip, dir, "byteorder");
        if (std::string(static_cast<const char*>(data.get()), size) != "little")
            fail("big-endian checkpoints are not supported");
    }
    StorageLoader loader = [&](const std::string& key, c10::ScalarType dtype, int64_t numel) {
        const auto record = "data/" + key;
        const int64_t want = numel * static_cast<int64_t>(c10::elementSize(dtype));
        if (numel > fileSize || want > fileSize)
            fail("storage " + printable(key) + " declares " + std::to_string(numel) +
                 " elements, more than the file holds");
        const zip::Entry* e = dir.find(dir.prefix() + record);
        if (!e)
            fail("the archive lacks the storage record " + printable(record));
        if (static_cast<int64_t>(e->size) < want ||
            e->size > static_cast<uint64_t>(want) + kStorageSlack)
            fail("storage " + printable(key) + " holds " + std::to_string(e->size) + " bytes but " +
                 std::to_string(want) + " are declared");
        auto [data, size] = readRecord(zip, dir, record);
        auto t = torch::empty({numel}, torch::TensorOptions().dtype(dtype));
        std::memcpy(t.data_ptr(), data.get(), static_cast<size_t>(want));
        return t;
    };
    auto [pkl, pklSize] = readRecord(zip, dir, "data.pkl");
    const std::string pickle(static_cast<const char*>(pkl.get()), pklSize);
    pkl.clear();
    return unpickle(pickle, loader);
}

} // namespace

Value loadFile(const std::string& path) {
    const std::string bytes = files::readRegular(path, kMaxFileBytes, "checkpoint");
    if (bytes.size() < 4 || bytes.compare(0, 4, "PK\x03\x04") != 0)
        fail("cannot read " + path + ": " + describeNonZip(bytes));
    std::unique_ptr<zip::Directory> dir;
    try {
        dir = std::make_unique<zip::Directory>(bytes, kMaxRecords);
        checkBudget(*dir, bytes.size());
    } catch (const std::exception& e) {
        fail("cannot read " + path + ": " + e.what());
    }
    std::istringstream stream(bytes);
    std::unique_ptr<caffe2::serialize::PyTorchStreamReader> zip;
    try {
        zip = std::make_unique<caffe2::serialize::PyTorchStreamReader>(&stream);
    } catch (const c10::Error& e) {
        fail("cannot read " + path + ": damaged zip archive (" + e.what_without_backtrace() + ")");
    }
    try {
        return loadArchive(*zip, *dir, static_cast<int64_t>(bytes.size()));
    } catch (const c10::Error& e) {
        fail("cannot read " + path + ": " + e.what_without_backtrace());
    } catch (const std::exception& e) {
        fail("cannot read " + path + ": " + e.what());
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
    files::write(path, zipped);
}

} // namespace cl::pickle
