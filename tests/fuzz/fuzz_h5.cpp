// libFuzzer target: any bytes as a course feature file (.h5) — the HDF5 library parses the
// file, our reader checks the dataset's shape and type and reads a few rows by hyperslab. HDF5
// needs a path, so each input is written to a file of this process's own.
#include "model/data/course_data.h"

#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = "/tmp/fuzz_h5-" + std::to_string(getpid()) + ".h5";
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    try {
        int64_t width = 0;
        const int64_t rows = cl::h5FeatureRows(path, &width);
        if (rows > 0) {
            const auto values = cl::h5Features(path, 0, rows < 4 ? rows : 4);
            if (static_cast<int64_t>(values.size()) != (rows < 4 ? rows : 4) * width)
                __builtin_trap();
        }
    } catch (const std::exception&) {
    }
    return 0;
}
