#pragma once
// NumPy .npy reader for feature files: float32 or float64, shape (D,) or (N, D), C or Fortran
// order. Everything else is a specific error.
#include <cstdint>
#include <string>
#include <vector>

namespace cl {

struct NpyMatrix {
    int64_t rows = 0, cols = 0; // (D,) reads as one row
    std::vector<float> data;    // row-major
};

NpyMatrix readNpy(const std::string& path);
NpyMatrix parseNpy(const std::string& bytes); // the same from memory (tests, fuzzing)

} // namespace cl
