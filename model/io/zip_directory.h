#pragma once
// The central directory of a zip archive, read before any record is inflated: names, declared
// sizes and CRCs, so a reader can refuse a bomb (a tiny file declaring a gigabyte record), two
// records that differ only in case (zip lookups ignore case), and damaged data (the bundled zip
// reader does not check CRCs).
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace cl::zip {

struct Entry {
    std::string name;
    uint32_t crc = 0;
    uint64_t compressedSize = 0;
    uint64_t size = 0; // inflated
};

class Directory {
  public:
    // Parses the end-of-central-directory record (zip64 too) and every entry; throws one line on
    // a malformed directory, more than `maxEntries` entries, or two names equal but for case.
    Directory(const std::string& bytes, size_t maxEntries);

    // Entries by lower-cased name, the way the zip reader looks them up.
    const Entry* find(const std::string& name) const;
    const std::map<std::string, Entry>& entries() const { return m_entries; }
    // The folder every record of a PyTorch archive sits in ("archive/").
    const std::string& prefix() const { return m_prefix; }
    uint64_t totalSize() const { return m_total; }

  private:
    std::map<std::string, Entry> m_entries;
    std::string m_prefix;
    uint64_t m_total = 0;
};

uint32_t crc32(const void* data, size_t size);

} // namespace cl::zip
