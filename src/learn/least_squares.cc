#include "learn/least_squares.h"

#include "learn/state_archive.h"

#include <algorithm>
#include <cmath>

namespace kaizen::learn {

void NormalEquations::Add(std::span<const double> x, double y) {
  // The upper triangle only; Solve() reads it symmetrically.
  for (size_t i = 0; i < k_; ++i) {
    double* row = &xtx_[i * k_];
    for (size_t j = i; j < k_; ++j) row[j] += x[i] * x[j];
    xty_[i] += x[i] * y;
  }
  ++n_;
}

std::optional<std::vector<double>> NormalEquations::Solve(std::span<const size_t> columns,
                                                          double ridge) const {
  const size_t m = columns.size();
  if (n_ == 0 || m == 0) return std::nullopt;
  std::vector<double> a(m * m), b(m);
  double trace = 0;
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < m; ++j) {
      const size_t r = std::min(columns[i], columns[j]), c = std::max(columns[i], columns[j]);
      a[i * m + j] = xtx_[r * k_ + c];
    }
    b[i] = xty_[columns[i]];
    trace += a[i * m + i];
  }
  for (size_t i = 0; i < m; ++i) a[i * m + i] += ridge * trace;
  return SolveCholesky(std::move(a), std::move(b), m);
}

std::optional<std::vector<double>> SolveCholesky(std::vector<double> a, std::vector<double> b,
                                                 size_t m) {
  // A pivot this small relative to the largest diagonal entry means the columns are dependent
  // to within rounding: the solution would be noise.
  constexpr double kTolerance = 1e-12;
  double max_diag = 0;
  for (size_t i = 0; i < m; ++i) max_diag = std::max(max_diag, std::fabs(a[i * m + i]));
  // In place: the lower triangle becomes L with A = L L^T.
  for (size_t j = 0; j < m; ++j) {
    double d = a[j * m + j];
    for (size_t p = 0; p < j; ++p) d -= a[j * m + p] * a[j * m + p];
    if (!std::isfinite(d) || d <= kTolerance * max_diag || d <= 0) return std::nullopt;
    const double l = std::sqrt(d);
    a[j * m + j] = l;
    for (size_t i = j + 1; i < m; ++i) {
      double s = a[i * m + j];
      for (size_t p = 0; p < j; ++p) s -= a[i * m + p] * a[j * m + p];
      a[i * m + j] = s / l;
    }
  }
  // L z = b, then L^T x = z.
  for (size_t i = 0; i < m; ++i) {
    double s = b[i];
    for (size_t p = 0; p < i; ++p) s -= a[i * m + p] * b[p];
    b[i] = s / a[i * m + i];
  }
  for (size_t i = m; i-- > 0;) {
    double s = b[i];
    for (size_t p = i + 1; p < m; ++p) s -= a[p * m + i] * b[p];
    b[i] = s / a[i * m + i];
  }
  for (double v : b) {
    if (!std::isfinite(v)) return std::nullopt;
  }
  return b;
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void NormalEquations::serialize(Archive& ar) {
  ar(n_, xtx_, xty_);
  if constexpr (state::kLoading<Archive>) {
    state::Require(xtx_.size() == k_ * k_ && xty_.size() == k_, "normal equations of another size");
  }
}

KZ_STATE_INSTANTIATE(NormalEquations);

}  // namespace kaizen::learn
