// libFuzzer target, structure-aware (issue 41): the input chooses how a course feature file is
// built (how many other objects, what "features" is: a dataset, a soft or external link, a group;
// its rank, shape, number type, layout, chunks, filters, external raw storage, which rows are
// written) and HDF5 itself writes that file; our reader then opens it and reads up to four rows.
// Byte fuzzing (fuzz_h5) rarely gets past the superblock; this target reaches the rules on links,
// storage, declared-against-stored sizes and chunk budgets. It traps when the reader accepts a
// file whose values come from elsewhere, or returns a wrong number of values.
#include "model/data/course_data.h"

#include <fuzzer/FuzzedDataProvider.h>
#include <hdf5.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

const std::string kDir = "/tmp/fuzz_h5_structure-" + std::to_string(getpid());
const std::string kPath = kDir + ".h5", kOther = kDir + "-other.h5", kRaw = kDir + ".bin";

enum class Shape { Dataset, SoftLink, ExternalLink, Group };

hid_t numberType(FuzzedDataProvider& in) {
    switch (in.ConsumeIntegralInRange<int>(0, 5)) {
    case 0:
        return H5Tcopy(H5T_NATIVE_FLOAT);
    case 1:
        return H5Tcopy(H5T_NATIVE_DOUBLE);
    case 2:
        return H5Tcopy(H5T_NATIVE_INT32);
    case 3:
        return H5Tcopy(H5T_NATIVE_INT8);
    case 4: { // a float of a width no real file has
        const hid_t t = H5Tcopy(H5T_NATIVE_FLOAT);
        H5Tset_precision(t, in.ConsumeIntegralInRange<size_t>(1, 32));
        return t;
    }
    default:
        return H5Tcopy(H5T_C_S1);
    }
}

// The dataset's creation properties: layout, chunks, filters, external storage.
hid_t creation(FuzzedDataProvider& in, int rank, const hsize_t* dims, bool* external) {
    const hid_t plist = H5Pcreate(H5P_DATASET_CREATE);
    const int layout = in.ConsumeIntegralInRange<int>(0, 3);
    if (layout == 1) {
        H5Pset_layout(plist, H5D_COMPACT);
    } else if (layout == 2) {
        hsize_t chunk[3];
        for (int d = 0; d < rank; ++d)
            chunk[d] = in.ConsumeIntegralInRange<hsize_t>(1, dims[d] > 0 ? dims[d] : 1);
        H5Pset_chunk(plist, rank, chunk);
        if (in.ConsumeBool())
            H5Pset_shuffle(plist);
        if (in.ConsumeBool())
            H5Pset_deflate(plist, in.ConsumeIntegralInRange<unsigned>(0, 9));
        if (in.ConsumeBool())
            H5Pset_fletcher32(plist);
    } else if (layout == 3) {
        *external = true;
        H5Pset_external(plist, kRaw.c_str(), 0, H5F_UNLIMITED);
    }
    return plist;
}

// Values in one chunk of a chunked layout (1 otherwise).
hsize_t chunkElements(hid_t plist) {
    hsize_t chunk[3] = {1, 1, 1}, total = 1;
    if (H5Pget_layout(plist) != H5D_CHUNKED)
        return 1;
    const int rank = H5Pget_chunk(plist, 3, chunk);
    const hsize_t most = hsize_t(1) << 40; // saturates: three dimensions of 2^28 overflow
    for (int d = 0; d < rank; ++d)
        total = chunk[d] > 0 && total > most / chunk[d] ? most : total * chunk[d];
    return total;
}

void addFeatures(FuzzedDataProvider& in, hid_t file) {
    const int rank = in.ConsumeIntegralInRange<int>(1, 3);
    hsize_t dims[3];
    for (int d = 0; d < rank; ++d) // now and then a shape far larger than what gets written
        dims[d] = in.ConsumeBool() ? in.ConsumeIntegralInRange<hsize_t>(0, 16)
                                   : in.ConsumeIntegralInRange<hsize_t>(0, hsize_t(1) << 28);
    bool external = false;
    const hid_t type = numberType(in), plist = creation(in, rank, dims, &external);
    const hid_t space = H5Screate_simple(rank, dims, nullptr);
    const hid_t set =
        H5Dcreate2(file, "features", type, space, H5P_DEFAULT, plist, H5P_DEFAULT);
    // The first row written, if it and its chunk are small: the rest stays unwritten (fill values).
    // HDF5 holds a whole chunk in memory to write into it (two buffers of 972 MB for one input of
    // the 30-minute run: the harness's own out-of-memory, not the reader's, which refuses chunks
    // over 64 MiB unread).
    if (set >= 0 && rank <= 2 && dims[0] > 0 && (rank == 1 ? 1 : dims[1]) <= 4096 &&
        chunkElements(plist) <= (hsize_t(1) << 22)) {
        const hsize_t start[2] = {0, 0}, count[2] = {1, rank == 1 ? 1 : dims[1]};
        const hid_t mem = H5Screate_simple(rank, count, nullptr);
        H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr);
        std::vector<float> row(count[1], in.ConsumeFloatingPoint<float>());
        H5Dwrite(set, H5T_NATIVE_FLOAT, mem, space, H5P_DEFAULT, row.data());
        H5Sclose(mem);
    }
    if (set >= 0)
        H5Dclose(set);
    H5Sclose(space);
    H5Pclose(plist);
    H5Tclose(type);
}

// Writes the file the input describes; returns whether "features" reads values from elsewhere.
bool build(FuzzedDataProvider& in) {
    const hid_t file = H5Fcreate(kPath.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (file < 0)
        return false;
    const int others = in.ConsumeBool() ? in.ConsumeIntegralInRange<int>(0, 8)
                                        : in.ConsumeIntegralInRange<int>(250, 262);
    for (int i = 0; i < others; ++i) {
        const hsize_t one = 1;
        const hid_t space = H5Screate_simple(1, &one, nullptr);
        const hid_t set = H5Dcreate2(file, ("d" + std::to_string(i)).c_str(), H5T_NATIVE_FLOAT,
                                     space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        H5Dclose(set);
        H5Sclose(space);
    }
    bool elsewhere = false;
    switch (static_cast<Shape>(in.ConsumeIntegralInRange<int>(0, 3))) {
    case Shape::Dataset:
        addFeatures(in, file);
        break;
    case Shape::SoftLink:
        H5Lcreate_soft("/d0", file, "features", H5P_DEFAULT, H5P_DEFAULT);
        elsewhere = true;
        break;
    case Shape::ExternalLink:
        H5Lcreate_external(kOther.c_str(), "/features", file, "features", H5P_DEFAULT,
                           H5P_DEFAULT);
        elsewhere = true;
        break;
    case Shape::Group:
        H5Gclose(H5Gcreate2(file, "features", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
        break;
    }
    H5Fclose(file);
    return elsewhere;
}

// Whether the file's "features" keeps its values in another file (external raw storage).
bool externalStorage() {
    const hid_t file = H5Fopen(kPath.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (file < 0)
        return false;
    bool external = false;
    if (H5Lexists(file, "features", H5P_DEFAULT) > 0) {
        H5L_info_t link{};
        if (H5Lget_info(file, "features", &link, H5P_DEFAULT) >= 0 && link.type == H5L_TYPE_HARD) {
            const hid_t set = H5Dopen2(file, "features", H5P_DEFAULT);
            if (set >= 0) {
                const hid_t plist = H5Dget_create_plist(set);
                external = H5Pget_external_count(plist) > 0;
                H5Pclose(plist);
                H5Dclose(set);
            }
        }
    }
    H5Fclose(file);
    return external;
}

// The files of this process go with it: sparse, but gigabytes long each (a run leaves one per
// worker and per replayed input).
void removeFiles() {
    for (const std::string* path : {&kPath, &kOther, &kRaw})
        std::remove(path->c_str());
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    std::atexit(removeFiles);
    // The other file an external link or external storage names: real, readable, in /tmp.
    if (FILE* f = std::fopen(kRaw.c_str(), "wb")) {
        const std::vector<char> bytes(4096, 7);
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
    }
    const hid_t other = H5Fcreate(kOther.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    const hsize_t dims[2] = {2, 4};
    const hid_t space = H5Screate_simple(2, dims, nullptr);
    H5Dclose(H5Dcreate2(other, "features", H5T_NATIVE_FLOAT, space, H5P_DEFAULT, H5P_DEFAULT,
                        H5P_DEFAULT));
    H5Sclose(space);
    H5Fclose(other);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    FuzzedDataProvider in(data, size);
    const bool linked = build(in);
    const bool elsewhere = linked || externalStorage();
    try {
        int64_t width = 0;
        const int64_t rows = cl::h5FeatureRows(kPath, &width);
        if (elsewhere)
            __builtin_trap(); // a file whose values come from another file was accepted
        if (rows > 0) {
            const int64_t n = rows < 4 ? rows : 4;
            if (static_cast<int64_t>(cl::h5Features(kPath, 0, n).size()) != n * width)
                __builtin_trap();
        }
    } catch (const std::exception&) {
    }
    return 0;
}
