#include "model/data/h5_file.h"

#include "model/core/errors.h"
#include "model/core/files.h"
#include "model/data/bounded_child.h"

#include <hdf5.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <mutex>
#include <stdexcept>

#include <sys/stat.h>

namespace cl::h5 {

namespace {

constexpr int64_t kMaxElements = int64_t(1) << 31;     // per dataset: far above the real files
constexpr int64_t kMaxReadElements = int64_t(1) << 26; // per read: 256 MB of floats
constexpr uint64_t kMaxChunkBytes = uint64_t(64) << 20;
// Names in the root group: the course's files hold a handful. Every one of them is read by the
// probe, so a file cannot hide a dataset behind a thousand dummy links.
constexpr size_t kMaxLinks = 256;
// Declared bytes per stored byte: deflate packs at most about 1032:1, so a dataset declaring more
// than that over what it stores holds unwritten chunks or fill values, and reading it would cost
// time and memory for values that are not there (2^26 caption rows in a 4.5 KB file).
constexpr uint64_t kMaxDeclaredPerStored = 1100;
constexpr uint64_t kSmallDataset = uint64_t(1) << 20; // below this the ratio is not checked

[[noreturn]] void fail(const std::string& message) {
    throw std::runtime_error(message);
}

// Debian's HDF5 is the serial build: not thread-safe, even across files. Every call of ours holds
// this lock (the GUI reads course data on background threads).
std::recursive_mutex& lock() {
    static std::recursive_mutex m;
    return m;
}

uint64_t littleEndian(const unsigned char* p, int bytes) {
    uint64_t v = 0;
    for (int k = bytes - 1; k >= 0; --k)
        v = (v << 8) | p[k];
    return v;
}

// "" when the superblock's addresses lie within the file, else why not. HDF5 reads metadata up to
// the end-of-file address the superblock declares, zero-filling what lies past the real end: a
// 2 KB file declaring an address of 6 EB made it fill 1.7 GB (fuzz_h5). So the base and
// end-of-file addresses must fit the file before HDF5 opens it.
std::string superblockProblem(const unsigned char* sb, uint64_t at, uint64_t fileSize) {
    const int version = sb[8];
    if (version > 3)
        return "an unknown superblock version " + std::to_string(version);
    const int addr = version <= 1 ? sb[13] : sb[9];
    if (addr != 2 && addr != 4 && addr != 8)
        return "a superblock with " + std::to_string(addr) + "-byte addresses";
    const unsigned char* fields = sb + (version == 0 ? 24 : version == 1 ? 28 : 12);
    const uint64_t undefined = addr == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * addr)) - 1;
    const uint64_t base = littleEndian(fields, addr);
    const uint64_t eof = littleEndian(fields + 2 * addr, addr);
    if (base != at)
        return "a damaged HDF5 superblock (its base address lies outside the file)";
    if (eof != undefined && eof > fileSize - at)
        return "a truncated HDF5 file (" + std::to_string(fileSize) + " of " +
               std::to_string(eof + at) + " bytes)";
    return "";
}

// A version 0/1 superblock may point at a driver information block whose 4-byte size HDF5
// allocates before reading: a 2 KB file declaring 2 GB made it allocate 2 GB (fuzz_h5).
std::string driverBlockProblem(std::ifstream& in, const unsigned char* sb, uint64_t at,
                               uint64_t fileSize) {
    const int version = sb[8], addr = sb[13];
    if (version > 1)
        return "";
    const unsigned char* fields = sb + (version == 0 ? 24 : 28);
    const uint64_t undefined = addr == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * addr)) - 1;
    const uint64_t driver = littleEndian(fields + 3 * addr, addr);
    if (driver == undefined)
        return "";
    unsigned char header[8] = {};
    in.clear();
    in.seekg(static_cast<std::streamoff>(at + driver));
    if (!in.read(reinterpret_cast<char*>(header), 8))
        return "a truncated HDF5 file (its driver block is cut off)";
    const uint64_t size = littleEndian(header + 4, 4);
    if (size > fileSize - at - driver)
        return "a damaged HDF5 file (its driver block declares " + std::to_string(size) +
               " bytes where the file holds " + std::to_string(fileSize) + ")";
    return "";
}

// The root group's local heap (version 0/1 superblocks) declares the size of its data segment,
// and HDF5 allocates that much before it reads: a 2 KB file declaring 4 GB made it allocate 4 GB
// (fuzz_h5). The segment must lie within the file.
std::string heapProblem(std::ifstream& in, const unsigned char* sb, uint64_t at, uint64_t heapAt) {
    const int addr = sb[13], length = sb[14];
    if (length != 2 && length != 4 && length != 8)
        return "a superblock with " + std::to_string(length) + "-byte lengths";
    unsigned char header[8 + 8 + 8 + 8] = {};
    in.clear();
    in.seekg(static_cast<std::streamoff>(heapAt));
    if (!in.read(reinterpret_cast<char*>(header), 8 + 2 * length + addr))
        return "a truncated HDF5 file (its root group's heap is cut off)";
    in.clear();
    in.seekg(0, std::ios::end);
    const auto fileSize = static_cast<uint64_t>(std::max<std::streamoff>(in.tellg(), 0));
    const uint64_t size = littleEndian(header + 8, length);
    const uint64_t data = littleEndian(header + 8 + 2 * length, addr);
    if (size > fileSize || data > fileSize || at + data + size > fileSize)
        return "a damaged HDF5 file (its root group's heap declares " + std::to_string(size) +
               " bytes where the file holds " + std::to_string(fileSize) + ")";
    return "";
}

// Versions 0 and 1 name the root group's B-tree and local heap in the superblock: they must be
// there. HDF5 1.10.8 crashed (a null memcpy in its metadata accumulator) on a file whose
// metadata had moved 18 bytes while the superblock still pointed at the old places (fuzz_h5).
std::string rootGroupProblem(std::ifstream& in, const unsigned char* sb, uint64_t at) {
    const int version = sb[8], addr = sb[13];
    if (version > 1)
        return "";
    const unsigned char* entry = sb + (version == 0 ? 24 : 28) + 4 * addr;
    if (littleEndian(entry + 2 * addr, 4) != 1)
        return ""; // the root entry caches no symbol table
    const unsigned char* scratch = entry + 2 * addr + 8;
    for (const auto& [offset, magic] :
         {std::pair<uint64_t, const char*>{littleEndian(scratch, addr), "TREE"},
          {littleEndian(scratch + addr, addr), "HEAP"}}) {
        char found[4] = {};
        in.clear();
        in.seekg(static_cast<std::streamoff>(at + offset));
        if (!in.read(found, 4) || std::memcmp(found, magic, 4) != 0)
            return std::string("a damaged HDF5 file (its root group's ") +
                   (magic[0] == 'T' ? "B-tree" : "heap") + " is not where the superblock says)";
    }
    return heapProblem(in, sb, at, at + littleEndian(scratch + addr, addr));
}

// The HDF5 signature sits at offset 0, 512, 1024, ... (after an optional user block); the
// superblock after it must describe this file.
std::string signatureProblem(const std::string& path) {
    static const char kSig[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    const auto fileSize = static_cast<uint64_t>(std::max<std::streamoff>(in.tellg(), 0));
    unsigned char sb[128] = {};
    for (std::streamoff at = 0; at <= 8192; at = at ? at * 2 : 512) {
        in.clear();
        in.seekg(at);
        if (!in.read(reinterpret_cast<char*>(sb), 8))
            return "not an HDF5 file";
        if (std::memcmp(sb, kSig, 8) != 0)
            continue;
        in.read(reinterpret_cast<char*>(sb) + 8, sizeof sb - 8);
        if (in.gcount() < static_cast<std::streamsize>(sizeof sb - 8))
            return "a truncated HDF5 superblock";
        const std::string problem = superblockProblem(sb, static_cast<uint64_t>(at), fileSize);
        if (!problem.empty())
            return problem;
        const std::string driver = driverBlockProblem(in, sb, uint64_t(at), fileSize);
        return driver.empty() ? rootGroupProblem(in, sb, static_cast<uint64_t>(at)) : driver;
    }
    return "not an HDF5 file";
}

// What identifies the file's contents between the child's read and ours.
bool sameFile(const struct stat& a, const struct stat& b) {
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size &&
           a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

struct Inventory {
    std::vector<std::string> names;
    std::string problem;
};

// Hard links only: a soft or external link (and external raw storage, Dataset::checkStorage) can
// name any file on the machine, a FIFO included; the course's files use none of them.
herr_t collectName(hid_t, const char* name, const H5L_info_t* info, void* out) {
    auto& inventory = *static_cast<Inventory*>(out);
    if (info->type != H5L_TYPE_HARD) {
        inventory.problem = std::string("it holds ") +
                            (info->type == H5L_TYPE_SOFT ? "a soft" : "an external") + " link '" +
                            printable(name, 60) +
                            "' (the course's files have none, and a link can name any file)";
        return 1;
    }
    if (inventory.names.size() == kMaxLinks) {
        inventory.problem = "it holds more than " + std::to_string(kMaxLinks) +
                            " objects (the course's files hold a handful)";
        return 1;
    }
    inventory.names.emplace_back(name);
    return 0;
}

// The files whose probe passed, as they were then: a command that opens the same file twice
// (caption --features) probes it once.
std::vector<struct stat>& probedFiles() {
    static std::vector<struct stat> files;
    return files;
}

} // namespace

// The checks above close what the fuzzer found, not every loop or crash HDF5 may still hold: a
// 2 KB file made HDF5 1.10.8 allocate without bound (tests/golden/h5_open_finding.h5). So the
// child reads every dataset we could read, in blocks, and the parent's watchdog bounds it.
void File::readEverything(const std::string& path) { // captionlens-h5probe's work
    const File file(path, false);
    for (const std::string& name : file.names()) {
        try {
            const Dataset data(file, name);
            // No values to read (a width of 0 divided the block size by zero: fuzz_h5_structure).
            if (data.dims().size() > 2 || data.kind() == Dataset::Kind::Other ||
                data.cols() <= 0 || data.rows() <= 0)
                continue;
            const int64_t block = std::max<int64_t>(1, (int64_t(1) << 20) / data.cols());
            for (int64_t first = 0; first < data.rows(); first += block) {
                const int64_t count = std::min(block, data.rows() - first);
                if (data.kind() == Dataset::Kind::Float)
                    data.readFloats(first, count);
                else
                    data.readInts(first, count);
            }
        } catch (const std::exception&) {
        }
    }
}

int64_t openObjects() {
    const std::lock_guard<std::recursive_mutex> hold(lock());
    return static_cast<int64_t>(H5Fget_obj_count(H5F_OBJ_ALL, H5F_OBJ_ALL));
}

File::File(const std::string& path, bool probe) : m_path(path) {
    const std::lock_guard<std::recursive_mutex> hold(lock());
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); // errors are ours to report, in one line
    const std::string why = files::notRegularReason(path);
    if (!why.empty())
        fail("cannot open " + path + ": " + (why.compare(0, 2, "a ") ? why : "it is " + why));
    const std::string problem = signatureProblem(path);
    if (!problem.empty())
        fail("cannot read " + path + ": " + problem);
    struct stat before = {}, after = {};
    if (probe)
        probeInChild(before);
    // Closing the file closes whatever of it is still open (a dataset a failed check left).
    const hid_t access = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_fclose_degree(access, H5F_CLOSE_STRONG);
    m_id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, access);
    H5Pclose(access);
    if (m_id < 0)
        fail("cannot read " + path + ": a damaged or truncated HDF5 file");
    if (probe && (stat(path.c_str(), &after) != 0 || !sameFile(before, after))) {
        H5Fclose(m_id); // a constructor that throws runs no destructor
        fail("cannot read " + path + ": it changed while being read");
    }
    try {
        names();
    } catch (...) {
        H5Fclose(m_id);
        throw;
    }
}

std::vector<std::string> File::names() const {
    const std::lock_guard<std::recursive_mutex> hold(lock());
    Inventory inventory;
    if (H5Literate(m_id, H5_INDEX_NAME, H5_ITER_NATIVE, nullptr, collectName, &inventory) < 0 &&
        inventory.problem.empty())
        inventory.problem = "its root group is damaged";
    if (!inventory.problem.empty())
        fail("cannot read " + m_path + ": " + inventory.problem);
    return inventory.names;
}

void File::probeInChild(struct stat& before) const {
    if (stat(m_path.c_str(), &before) != 0)
        fail("cannot open " + m_path + ": it has gone");
    for (const struct stat& probed : probedFiles())
        if (sameFile(probed, before))
            return;
    // A fresh process: the reader's own memory (HDF5 and the C++ runtime, a few MB) plus
    // what the real files take in 8 MB blocks and HDF5's caches.
    io::ChildBudget budget;
    budget.memoryBytes = uint64_t(256) << 20;
#ifdef CL_SANITIZED
    // Instrumented builds count shadow memory and the allocator's quarantine as resident: the
    // ASan suite once saw the probe of a small test file pass 256 MiB (not reproduced since).
    budget.memoryBytes *= 4;
#endif
    budget.seconds = 20.0 + static_cast<double>(before.st_size) / 50e6; // 50 MB/s at worst
    const std::string program = io::h5ProbeProgram();
    if (program.empty())
        fail("cannot check " + m_path + ": the HDF5 probe captionlens-h5probe is not installed "
             "next to this program");
    const std::string why = io::runBounded({program, m_path}, budget);
    if (!why.empty())
        fail("cannot read " + m_path + ": HDF5 " + why + " reading it (a damaged file)");
    if (probedFiles().size() == 64)
        probedFiles().erase(probedFiles().begin());
    probedFiles().push_back(before);
}

File::~File() {
    const std::lock_guard<std::recursive_mutex> hold(lock());
    if (m_id >= 0)
        H5Fclose(m_id);
}

bool File::has(const std::string& dataset) const {
    const std::lock_guard<std::recursive_mutex> hold(lock());
    return H5Lexists(m_id, dataset.c_str(), H5P_DEFAULT) > 0;
}

Dataset::Dataset(const File& file, const std::string& name)
    : m_where(file.path() + " dataset '" + name + "'") {
    const std::lock_guard<std::recursive_mutex> hold(lock());
    if (!file.has(name))
        fail(file.path() + " lacks the dataset '" + name + "'");
    H5L_info_t link{};
    if (H5Lget_info(file.id(), name.c_str(), &link, H5P_DEFAULT) < 0 ||
        link.type != H5L_TYPE_HARD)
        fail("cannot read " + m_where + ": it is a link to another file or place");
    m_id = H5Dopen2(file.id(), name.c_str(), H5P_DEFAULT);
    if (m_id < 0)
        fail("cannot read " + m_where);
    try {
        describe();
    } catch (...) {
        H5Dclose(m_id); // a constructor that throws runs no destructor
        throw;
    }
}

void Dataset::describe() {
    const hid_t space = H5Dget_space(m_id);
    const int rank = space < 0 ? -1 : H5Sget_simple_extent_ndims(space);
    if (rank < 0 || rank > 4) {
        H5Sclose(space);
        fail("cannot read " + m_where + ": an unsupported shape");
    }
    hsize_t dims[4] = {};
    H5Sget_simple_extent_dims(space, dims, nullptr);
    H5Sclose(space);
    int64_t elements = 1;
    for (int d = 0; d < rank; ++d) {
        m_dims.push_back(static_cast<int64_t>(dims[d]));
        if (dims[d] > static_cast<hsize_t>(kMaxElements) ||
            __builtin_mul_overflow(elements, static_cast<int64_t>(dims[d]), &elements) ||
            elements > kMaxElements)
            fail("cannot read " + m_where + ": it declares more than 2^31 values");
    }
    const hid_t type = H5Dget_type(m_id);
    const H5T_class_t cls = H5Tget_class(type);
    const size_t bytes = H5Tget_size(type);
    const size_t bits = H5Tget_precision(type);
    H5Tclose(type);
    m_kind = cls == H5T_INTEGER ? Kind::Integer : cls == H5T_FLOAT ? Kind::Float : Kind::Other;
    // Numbers of 1 to 8 bytes only: a float type declaring 4 GB per element made HDF5 allocate a
    // conversion buffer of that size (fuzz_h5).
    if (m_kind != Kind::Other && (bytes < 1 || bytes > 8 || bits < 1 || bits > 8 * bytes))
        fail("cannot read " + m_where + ": its numbers are " + std::to_string(bytes) +
             " bytes each, not 1 to 8");
    checkStorage();
    checkChunks(bytes);
    checkCompactSize(static_cast<uint64_t>(elements) * bytes);
    checkHeld(static_cast<uint64_t>(elements) * bytes);
}

// A compact dataset keeps its values inside its header, and HDF5 1.10.8 copies as many bytes as
// the shape needs from however many the header holds: a header holding 2 bytes for 48 made it
// read past its buffer (fuzz_h5, heap-buffer-overflow). The two must agree.
void Dataset::checkCompactSize(uint64_t needed) const {
    const hid_t plist = H5Dget_create_plist(m_id);
    const bool compact = plist >= 0 && H5Pget_layout(plist) == H5D_COMPACT;
    if (plist >= 0)
        H5Pclose(plist);
    if (compact && H5Dget_storage_size(m_id) < needed)
        fail("cannot read " + m_where + ": it holds fewer values than its shape says");
}

// Values kept in the file itself: external raw storage names other files (any on the machine, a
// FIFO included) and a virtual dataset maps other files' datasets; the course's files use neither.
void Dataset::checkStorage() const {
    const hid_t plist = H5Dget_create_plist(m_id);
    if (plist < 0)
        fail("cannot read " + m_where + ": damaged storage layout");
    const H5D_layout_t layout = H5Pget_layout(plist);
    const int external = H5Pget_external_count(plist);
    H5Pclose(plist);
    if (external != 0)
        fail("cannot read " + m_where + ": its values are stored in other files");
    if (layout != H5D_COMPACT && layout != H5D_CONTIGUOUS && layout != H5D_CHUNKED)
        fail("cannot read " + m_where + ": its values are mapped from other files");
}

void Dataset::checkHeld(uint64_t declared) const {
    const uint64_t stored = H5Dget_storage_size(m_id);
    if (declared > kSmallDataset && declared / kMaxDeclaredPerStored > stored)
        fail("cannot read " + m_where + ": it declares " + std::to_string(declared) +
             " bytes of values but stores " + std::to_string(stored));
}

// HDF5 reads a whole chunk to return part of it: a chunk declared huge is refused up front.
void Dataset::checkChunks(size_t elementBytes) const {
    const hid_t plist = H5Dget_create_plist(m_id);
    if (plist < 0)
        fail("cannot read " + m_where + ": damaged storage layout");
    hsize_t chunk[4] = {};
    const bool chunked = H5Pget_layout(plist) == H5D_CHUNKED;
    const int rank = chunked ? H5Pget_chunk(plist, 4, chunk) : 0;
    H5Pclose(plist);
    uint64_t total = elementBytes;
    for (int d = 0; d < rank; ++d)
        if (__builtin_mul_overflow(total, static_cast<uint64_t>(chunk[d]), &total) ||
            total > kMaxChunkBytes)
            fail("cannot read " + m_where + ": its chunks are over 64 MiB each");
}

Dataset::~Dataset() {
    const std::lock_guard<std::recursive_mutex> hold(lock());
    if (m_id >= 0)
        H5Dclose(m_id);
}

void Dataset::require(size_t rank, Kind kind) const {
    if (m_dims.size() != rank || m_kind != kind)
        fail(m_where + " should be a " + std::to_string(rank) + "-D array of " +
             (kind == Kind::Integer ? "integers" : "floats") + ", not what the file holds");
}

void Dataset::read(int64_t first, int64_t count, int64_t memType, void* out) const {
    if (m_dims.empty() || m_dims.size() > 2 || first < 0 || count < 0 || first > rows() ||
        count > rows() - first)
        fail("cannot read rows " + std::to_string(first) + ".." +
             std::to_string(first + count - 1) + " of " + m_where);
    if (count * cols() > kMaxReadElements)
        fail("cannot read " + m_where + ": too many values at once");
    if (count == 0)
        return;
    const std::lock_guard<std::recursive_mutex> hold(lock());
    const hsize_t start[2] = {static_cast<hsize_t>(first), 0};
    const hsize_t size[2] = {static_cast<hsize_t>(count), static_cast<hsize_t>(cols())};
    const int rank = static_cast<int>(m_dims.size());
    const hid_t file = H5Dget_space(m_id);
    const hid_t mem = H5Screate_simple(rank, size, nullptr);
    herr_t status = H5Sselect_hyperslab(file, H5S_SELECT_SET, start, nullptr, size, nullptr);
    if (status >= 0)
        status = H5Dread(m_id, memType, mem, file, H5P_DEFAULT, out);
    H5Sclose(mem);
    H5Sclose(file);
    if (status < 0)
        fail("cannot read " + m_where + ": the data is damaged or truncated");
}

std::vector<int64_t> Dataset::readInts(int64_t first, int64_t count) const {
    if (m_kind != Kind::Integer)
        fail(m_where + " does not hold integers");
    std::vector<int64_t> out(static_cast<size_t>(std::max<int64_t>(0, count) * cols()));
    read(first, count, H5T_NATIVE_INT64, out.data());
    return out;
}

std::vector<float> Dataset::readFloats(int64_t first, int64_t count) const {
    if (m_kind != Kind::Float)
        fail(m_where + " does not hold floats");
    std::vector<float> out(static_cast<size_t>(std::max<int64_t>(0, count) * cols()));
    read(first, count, H5T_NATIVE_FLOAT, out.data());
    return out;
}

} // namespace cl::h5
