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

    // Rows first..first+count-1, row-major. Throws one line for a range outside the matrix, or
    // naming the first row and column holding NaN, an infinity or a magnitude of 1e6 or more (a
    // model fed those captions nothing, silently). `name` is the file, for the message.
    std::vector<float> finiteRows(int64_t first, int64_t count, const std::string& name) const;
};

// The check of finiteRows for rows from anywhere (a course's .h5 features): `first` is the number
// of the first row, for the message.
void requireFiniteRows(const std::vector<float>& values, int64_t first, int64_t cols,
                       const std::string& name);

NpyMatrix readNpy(const std::string& path);
NpyMatrix parseNpy(const std::string& bytes); // the same from memory (tests, fuzzing)

} // namespace cl
