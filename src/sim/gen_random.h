// The random draws of `kaizen gen` (gen_history.h), and the rounding its fields go through.
// Header-only and inline: about 20 draws per event put these on the generator's hot path.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "sim/xoshiro.h"

namespace kaizen::sim::gen {

// ---- Randomness ------------------------------------------------------------------------------

// The generator (sim/xoshiro.h), and the distributions a history draws from.
class Rng : public Xoshiro256 {
 public:
  using Xoshiro256::Xoshiro256;

  // A standard normal by table lookup: about 20 are drawn per event, and Box-Muller's log and
  // sincos were a tenth of the run time. Tails stop near +-3.8, which no field here misses.
  double Normal() {
    const auto& table = NormalTable();
    const uint64_t r = Next();
    const size_t k = r >> 52;
    const double f = static_cast<double>((r >> 20) & 0xFFFFFFFFu) * 0x1.0p-32;
    return table[k] + (table[k + 1] - table[k]) * f;
  }
  double Exp(double mean) { return -std::log(1.0 - U()) * mean; }
  double LogNormal(double median, double sigma) { return median * std::exp(sigma * Normal()); }
  template <typename Container>
  const auto& Pick(const Container& c) {
    return c[Below(static_cast<uint32_t>(std::size(c)))];
  }
  template <size_t N>
  int Weighted(const std::array<double, N>& w) {
    double total = 0;
    for (double x : w) total += x;
    double u = U() * total;
    for (size_t i = 0; i < N; ++i) {
      if (u < w[i]) return static_cast<int>(i);
      u -= w[i];
    }
    for (size_t i = N; i-- > 0;) {
      if (w[i] > 0) return static_cast<int>(i);
    }
    return 0;
  }

 private:
  static const std::array<double, 4097>& NormalTable() {
    static const std::array<double, 4097> table = [] {
      std::array<double, 4097> t{};
      for (size_t i = 0; i < t.size(); ++i) {
        t[i] = InverseNormal(
            std::clamp(static_cast<double>(i) / 4096.0, 1.0 / 16384, 1 - 1.0 / 16384));
      }
      return t;
    }();
    return table;
  }
  // Acklam's rational approximation of the inverse normal CDF (relative error < 1.2e-9).
  static double InverseNormal(double p) {
    static constexpr double a[] = {-3.969683028665376e+01, 2.209460984245205e+02,
                                   -2.759285104469687e+02, 1.383577518672690e+02,
                                   -3.066479806614716e+01, 2.506628277459239e+00};
    static constexpr double b[] = {-5.447609879822406e+01, 1.615858368580409e+02,
                                   -1.556989798598866e+02, 6.680131188771972e+01,
                                   -1.328068155288572e+01};
    static constexpr double c[] = {-7.784894002430293e-03, -3.223964580411365e-01,
                                   -2.400758277161838e+00, -2.549732539343734e+00,
                                   4.374664141464968e+00,  2.938163982698783e+00};
    static constexpr double d[] = {7.784695709041462e-03, 3.224671290700398e-01,
                                   2.445134137142996e+00, 3.754408661907416e+00};
    const auto tail = [&](double q) {
      return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
             ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    };
    if (p < 0.02425) return tail(std::sqrt(-2 * std::log(p)));
    if (p > 1 - 0.02425) return -tail(std::sqrt(-2 * std::log(1 - p)));
    const double q = p - 0.5, r = q * q;
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
           (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  }
};

inline double Clamp(double v, double lo, double hi) { return std::min(hi, std::max(lo, v)); }
// Half away from zero, like std::llround, without the call into libm.
inline int64_t Round(double x) { return static_cast<int64_t>(x < 0 ? x - 0.5 : x + 0.5); }

}  // namespace kaizen::sim::gen
