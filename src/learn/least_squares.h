// Ordinary least squares through running sums (seed 000 §3.3 "Design Quality Predictor": "a
// regression on historical (features, score) pairs"). Only X^T X and X^T y are kept, so adding a
// sample is O(k^2) with k fixed and small (the 13 quality dimensions), and no sample is stored.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "learn/state_fwd.h"

namespace kaizen::learn {

class NormalEquations {
 public:
  // REQUIRES: k >= 1.
  explicit NormalEquations(size_t k) : k_(k), xtx_(k * k, 0.0), xty_(k, 0.0) {}

  // Adds one sample. REQUIRES: x.size() == k().
  void Add(std::span<const double> x, double y);

  // The least-squares coefficients restricted to `columns` (indices into 0..k-1, each once): the
  // solution of (A + ridge * trace(A) * I) w = b, where A and b are X^T X and X^T y over those
  // columns. The tiny ridge keeps near-collinear columns solvable. Returns nullopt when there
  // are no samples or columns, or the system is singular even so (a zero or non-finite pivot).
  // w[i] belongs to columns[i].
  std::optional<std::vector<double>> Solve(std::span<const size_t> columns,
                                           double ridge = 1e-6) const;

  size_t k() const { return k_; }
  int64_t n() const { return n_; }

 private:
  // Saves n_ and the sums; k_ comes from the constructor, and a load of another k fails.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  size_t k_;
  int64_t n_ = 0;
  std::vector<double> xtx_;  // row-major k x k; only the upper triangle (j >= i) is kept
  std::vector<double> xty_;
};

// Solves A x = b for a symmetric positive definite m x m matrix (row-major) by Cholesky
// decomposition. Returns nullopt when A is not positive definite (a pivot <= tolerance * the
// largest diagonal entry, or not finite). REQUIRES: a.size() == m * m, b.size() == m.
std::optional<std::vector<double>> SolveCholesky(std::vector<double> a, std::vector<double> b,
                                                 size_t m);

}  // namespace kaizen::learn
