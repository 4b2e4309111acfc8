// captionlens-h5probe FILE: reads every dataset of an HDF5 file we could read, then exits 0. The
// app and the CLI spawn it before they open a course .h5 file themselves, under a watchdog
// (model/data/bounded_child.h): a file that makes HDF5 loop, allocate without bound or crash
// ends this process, not theirs. Not meant to be run by hand.
#include "model/data/h5_file.h"

#include <cstdio>
#include <exception>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: captionlens-h5probe FILE (run by CaptionLens)\n");
        return 2;
    }
    try {
        cl::h5::File::readEverything(argv[1]);
    } catch (const std::exception&) {
        // A file HDF5 refuses cleanly is the caller's to report, from its own checks.
    }
    return 0;
}
