// libFuzzer target: any bytes as a NumPy feature file.
#include "model/data/npy.h"

#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    try {
        const auto m = cl::parseNpy(std::string(reinterpret_cast<const char*>(data), size));
        if (m.data.size() != static_cast<size_t>(m.rows * m.cols))
            __builtin_trap(); // the reader's own promise
    } catch (const std::exception&) {
    }
    return 0;
}
