// Minimum score thresholds (seed 000 §3.1 "Minimum Score Thresholds (learned)"): per dimension,
// the score below which the reviewer (nearly) always rejects. A hard gate blocks submission; a
// soft gate warns. Computed over a rolling window (§9.3 "30-day rolling averages, not daily
// snapshots, for threshold calibration") so an old habit does not gate forever.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/reviews/quality_index.h"
#include "learn/signal_weight.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"  // StringHash
#include "model/inputs.h"

namespace kaizen::learn {

struct GatesConfig {
  double min_scores = 20;   // §3.1 "After 20+ feedback events per dimension"
  double window_days = 30;  // §9.3 "30-day rolling averages ... for threshold calibration"
  double hard = 0.95;       // §3.1 "95% rejection rate -> HARD GATE"
  double soft = 0.80;       // §3.1 "80% rejection rate -> SOFT GATE (warn Buba)"
  double min_below = 5;     // §9.3 "No rule is formed from fewer than 5 data points"

  ConfigFields Fields();
};

enum class GateKind : uint8_t { kHard, kSoft };
std::string_view GateKindName(GateKind kind);  // "hard" | "soft"

// "A score must be >= threshold": below it the weighted rejection rate reached the gate's level.
struct ScoreGate {
  std::string dimension;
  int threshold = 0;          // 2..10
  double rejection_rate = 0;  // weighted share of non-approvals among scores < threshold
  int64_t n_below = 0;        // scores < threshold in the window
  GateKind kind = GateKind::kHard;
  int64_t scores = 0;  // scores of this dimension in the window
};

class GateLearner {
 public:
  GateLearner(const GatesConfig& config, const SignalWeightConfig& weights);
  GateLearner(const GateLearner&) = delete;  // quality_ points into dimensions_
  GateLearner& operator=(const GateLearner&) = delete;

  // Counts each score of a decided review in its UTC day's histogram. O(1) amortized; allocates
  // only for a new dimension or a new day.
  void Add(const model::ReviewView& review);

  // The gates at `now`, over the window_days UTC days ending with now's UTC day (so a score
  // later on now's day counts too: the histogram is per day). Sorted by dimension, hard first.
  std::vector<ScoreGate> Gates(int64_t now_ms) const;

  // Writes the table t -> (scores below t, weighted rejection rate), the thresholds and why a
  // gate is or is not there. False (and *text untouched) when the dimension was never scored.
  bool ExplainGate(std::string_view dimension, int64_t now_ms, std::string* text) const;

 private:
  static constexpr int kBuckets = 10;  // scores 1..10
  struct Cell {
    int64_t n = 0;
    double weight = 0;  // sum of StaticWeight, in log order
    template <class Archive>
    void serialize(Archive& ar);
  };
  // [bucket = rounded score - 1][approved]
  struct Histogram {
    Cell cells[kBuckets][2];
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct Dimension {
    std::map<int64_t, Histogram> days;  // UTC day number -> that day's scores
    int64_t last_day = 0;
    Histogram* last = nullptr;  // the day Add touched last: logs run in day order
    // Saves `days` only: last_day and last are a cache of days[last_day], and null finds the
    // same node.
    template <class Archive>
    void serialize(Archive& ar);
  };
  // What the window holds for one dimension, and the rejection table derived from it.
  struct Table {
    int64_t scores = 0;
    int64_t below[kBuckets + 1] = {};               // [t] for t = 2..10
    std::optional<double> rate[kBuckets + 1] = {};  // [t]; nullopt when no weight below t
    int hard = 0, soft = 0;                         // 0: no gate
  };
  Table Compute(const Dimension& dim, int64_t now_ms) const;
  // Saves dimensions_; quality_ is a cache of its lookups by name, rebuilt as scores arrive.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  GatesConfig config_;
  SignalWeightConfig weights_;
  std::unordered_map<std::string, Dimension, StringHash, std::equal_to<>> dimensions_;
  // The seed's dimensions by QualityIndex, once seen: a score finds its entry without hashing.
  std::array<Dimension*, kQualityDimensionCount> quality_{};
};

// Key `gates`: [{dimension, threshold, rejectionRate, n, kind, scores}].
void WriteJson(base::JsonWriter& w, const std::vector<ScoreGate>& gates);

}  // namespace kaizen::learn
