// Bias awareness (seed 000 §9.4): is the agent becoming overly conservative, i.e. is approval
// rising while creativity falls, and how much of the exploration budget ("10% of outputs can
// deliberately try new patterns ... clearly marked as experimental") is in use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/state_fwd.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct BiasConfig {
  double window_days = 30;           // §9.3 "30-day rolling averages"
  double approval_rise = 0.05;       // approval up by at least this (rate, 0..1), first to last
  double creativity_drop = 0.5;      // while mean creativity falls by at least this many points
  double min_scores = 5;             // creativity scores each window needs to be judged
  double exploration_budget = 0.10;  // §9.4 "10% of outputs"

  ConfigFields Fields();
};

struct BiasWindow {
  int64_t first_day = 0, last_day = 0;  // UTC days since 1970-01-01, inclusive
  int64_t approved = 0, decided = 0;    // decided: approved, rejected or needs-work
  std::optional<double> approval_rate;  // nullopt without decisions
  std::optional<double> creativity;     // mean `creativity` score; nullopt without scores
  int64_t creativity_n = 0;
};

struct ExplorationUse {
  double budget = 0;
  int64_t used = 0;             // experimental work events in the last window
  int64_t total = 0;            // all work events in the last window
  std::optional<double> share;  // used / total; nullopt without work
  double remaining = 0;         // max(0, budget x total - used)
};

struct BiasResult {
  std::vector<BiasWindow> windows;  // three consecutive windows ending at now, oldest first
  bool overly_conservative = false;
  std::optional<std::string> action;  // set when overly conservative
  ExplorationUse exploration;
};

class BiasWatch {
 public:
  explicit BiasWatch(const BiasConfig& config) : config_(config) {}

  void Add(const model::ReviewView& review);
  void AddWork(const model::WorkView& work);

  // The windows are whole UTC days: the last one ends with now's day.
  BiasResult Result(int64_t now_ms) const;

 private:
  struct Day {
    int64_t approved = 0, decided = 0;
    double creativity_sum = 0;
    int64_t creativity_n = 0;
    int64_t work = 0, experimental = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  BiasConfig config_;
  std::unordered_map<int64_t, Day> days_;
};

// Where `artifact_id` falls in [0, 1), the same on every machine and in every version: FNV-1a
// (64-bit) of its bytes, mixed by the splitmix64 finalizer (FNV alone barely moves the high bits
// for ids that differ in their last character), top 53 bits scaled by 2^-53.
double ExplorationDraw(std::string_view artifact_id);

// §9.4 exploration budget: whether this artifact is one of the `budget` share of outputs that
// should deliberately try something new. Deterministic per id, so a retry decides the same.
inline bool ShouldExplore(std::string_view artifact_id, double budget) {
  return ExplorationDraw(artifact_id) < budget;
}

void WriteJson(base::JsonWriter& w, const BiasResult& result);  // key `biasWatch`

}  // namespace kaizen::learn
