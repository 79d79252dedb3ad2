// The random numbers of `kaizen gen` and `kaizen simulate`: xoshiro256** (Blackman and Vigna)
// seeded through splitmix64. Fast, and fully specified, so a seed gives the same history on every
// platform, which std::*_distribution does not promise (it differs between standard libraries).
#pragma once

#include <array>
#include <cstdint>

namespace kaizen::sim {

// One step of splitmix64: advances *x and returns its mix (also a good 64-bit hash of a sequence).
inline uint64_t SplitMix64(uint64_t* x) {
  uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Xoshiro256 {
 public:
  explicit Xoshiro256(uint64_t seed) {
    uint64_t x = seed;
    for (uint64_t& s : s_) s = SplitMix64(&x);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, 1), from the top 53 bits.
  double U() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  // Uniform in 0..n-1: the top 32 bits scaled by n (a bias below n / 2^32, nothing here notices).
  uint32_t Below(uint32_t n) {
    return static_cast<uint32_t>(((Next() >> 32) * static_cast<uint64_t>(n)) >> 32);
  }
  // Uniform in lo..hi, both included. REQUIRES: lo <= hi.
  int Between(int lo, int hi) {
    return lo + static_cast<int>(Below(static_cast<uint32_t>(hi - lo + 1)));
  }
  // True with probability p.
  bool Chance(double p) { return U() < p; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  std::array<uint64_t, 4> s_{};
};

}  // namespace kaizen::sim
