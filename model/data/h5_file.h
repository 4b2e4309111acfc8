#pragma once
// A small RAII layer over the HDF5 C API for the course's data files: read-only, rows read
// lazily by hyperslab (the real train features are 82,783 x 512 floats; showing one row must not
// load them all), every failure one line naming the file and the dataset.
#include <cstdint>
#include <sys/stat.h>
#include <string>
#include <vector>

namespace cl::h5 {

// Every HDF5 handle open in the process.
int64_t openObjects();

class File {
  public:
    // Only a regular HDF5 file (signature checked first); throws one line otherwise.
    // HDF5 first reads the whole file in a separate process (captionlens-h5probe) within a
    // memory and time budget (model/data/bounded_child.h); a file it cannot read there is
    // refused with one line.
    explicit File(const std::string& path) : File(path, true) {}
    ~File();
    File(const File&) = delete;
    File& operator=(const File&) = delete;
    int64_t id() const { return m_id; }
    const std::string& path() const { return m_path; }
    bool has(const std::string& dataset) const;
    // The names in the root group; throws when there are more than 256 or any is a soft or
    // external link (checked on opening, too).
    std::vector<std::string> names() const;
    // Reads every dataset we could read, in blocks: the probe program's work (h5probe_main.cpp),
    // never run in this process on an unchecked file.
    static void readEverything(const std::string& path);

  private:
    File(const std::string& path, bool probe);
    void probeInChild(struct stat& before) const; // fills `before`

    int64_t m_id = -1;
    std::string m_path;
};

class Dataset {
  public:
    enum class Kind { Integer, Float, Other };
    // Throws "<file> lacks the dataset '<name>'" and the like.
    Dataset(const File& file, const std::string& name);
    ~Dataset();
    Dataset(const Dataset&) = delete;
    Dataset& operator=(const Dataset&) = delete;

    const std::vector<int64_t>& dims() const { return m_dims; }
    Kind kind() const { return m_kind; }
    int64_t rows() const { return m_dims.empty() ? 0 : m_dims[0]; }
    int64_t cols() const { return m_dims.size() < 2 ? 1 : m_dims[1]; }
    // Throws unless the dataset has `rank` dimensions of `kind` (a wrong file named the same).
    void require(size_t rank, Kind kind) const;

    // Rows first..first+count-1 (1-D or 2-D), converted by HDF5 to the asked type.
    std::vector<int64_t> readInts(int64_t first, int64_t count) const;
    std::vector<float> readFloats(int64_t first, int64_t count) const;

  private:
    void describe(); // dims and kind
    void checkStorage() const;
    void checkHeld(uint64_t declaredBytes) const;
    void checkChunks(size_t elementBytes) const;
    void checkCompactSize(uint64_t neededBytes) const;
    void read(int64_t first, int64_t count, int64_t memType, void* out) const;
    int64_t m_id = -1;
    std::string m_where;
    std::vector<int64_t> m_dims;
    Kind m_kind = Kind::Other;
};

} // namespace cl::h5
