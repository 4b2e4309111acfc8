#pragma once
// The shapes world's own integer RNG (splitmix64): std:: distributions differ between standard
// libraries, and scenes must not.
#include <cstdint>

namespace cl::shapes {

class Rng {
  public:
    explicit Rng(uint64_t seed) : m_state(seed * 0x9E3779B97F4A7C15ULL + 0xD1B54A32D192ED03ULL) {}
    uint64_t next() {
        uint64_t z = (m_state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
    double uniform(double a, double b) {
        return a + (b - a) * (next() >> 11) * (1.0 / 9007199254740992.0);
    }
    bool chance(double p) { return uniform(0, 1) < p; }

  private:
    uint64_t m_state;
};

// A stateless hash of one value (pixel noise).
inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

} // namespace cl::shapes
