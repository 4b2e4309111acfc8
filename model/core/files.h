#pragma once
// Reading and writing the files people hand us, safely: only regular files are read, each within
// a size budget; writes replace regular files atomically and write FIFOs, devices and "-"
// (standard output) directly, never renaming a file over them.
#include <cstdint>
#include <string>

namespace cl::files {

// Why `path` cannot be read as a regular file ("no such file", "a directory", "a FIFO (named
// pipe)", "a character device", ...), or "" when it can. Symbolic links are followed.
std::string notRegularReason(const std::string& path);

// The whole of a regular file of at most `maxBytes`; otherwise throws one line naming `what`
// ("vocabulary", "feature file", ...) and the reason. Never blocks on a FIFO.
std::string readRegular(const std::string& path, int64_t maxBytes, const std::string& what);

// Writes `bytes` to `path`: "-" is standard output; a FIFO or character device is written
// directly; a symbolic link writes its target; a regular (or new) file is replaced atomically
// through a temporary file in the same folder. Directories, sockets and block devices are
// refused. Throws one line on failure, leaving any previous file intact.
void write(const std::string& path, const std::string& bytes);

// Moves the regular file `from` over `to` in one step (rename(2), same file system): a reader of
// `to` sees the old file or the new one, never none. `to` must be a regular file or not exist;
// throws one line otherwise or on failure, leaving `to` as it was.
void replace(const std::string& from, const std::string& to);

} // namespace cl::files
