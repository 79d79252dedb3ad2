// Decision speed as a quality signal (seed 000 §3.1): how long the reviewer took, crossed with
// the verdict. Fast rejections ("obvious flaw Buba should have caught") are the highest-value
// learning signals, so the newest ones are kept whole.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/state_fwd.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct SpeedConfig {
  double fast_seconds = 30;            // §3.1 "Fast decisions (< 30 sec)"
  double slow_seconds = 300;           // §3.1 "Slow decisions (> 5 min)"
  double recent_fast_rejections = 20;  // how many of the newest fast rejections are listed

  ConfigFields Fields();
};

enum class Speed : uint8_t { kFast, kMedium, kSlow };
std::string_view SpeedName(Speed s);  // "fast" | "medium" | "slow"

struct FastRejection {
  std::string id;
  int64_t at_ms = 0;
  std::string task_type, artifact_id, reason;
  std::vector<std::string> blockers;

  template <class Archive>
  void serialize(Archive& ar);
};

struct SpeedQuadrant {
  int64_t approved = 0;
  int64_t rejected = 0;  // rejected or needs-work

  template <class Archive>
  void serialize(Archive& ar);
};

struct DecisionSpeedResult {
  double fast_seconds = 0, slow_seconds = 0;
  int64_t decided = 0;
  std::array<SpeedQuadrant, 3> quadrants{};  // indexed by Speed
  int64_t fast_rejections = 0;
  int64_t rejections = 0;
  std::optional<double> fast_rejection_share;  // fast_rejections / rejections
  std::vector<FastRejection> recent;           // newest first
};

class DecisionSpeedLearner {
 public:
  explicit DecisionSpeedLearner(const SpeedConfig& config);

  // Folds a decided review (deferred ones have no verdict to judge). O(recent_fast_rejections)
  // for a fast rejection, O(1) otherwise.
  void Add(const model::ReviewView& review);

  DecisionSpeedResult Result() const;

  // fast < fast_seconds, slow > slow_seconds; exactly either bound is medium.
  Speed Classify(double time_to_decision_ms) const;

 private:
  struct Kept {
    FastRejection item;
    uint64_t seq = 0;  // log position: breaks timestamp ties, later is newer
    template <class Archive>
    void serialize(Archive& ar);
  };
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
  SpeedConfig config_;
  std::array<SpeedQuadrant, 3> quadrants_{};
  uint64_t seq_ = 0;
  std::vector<Kept> recent_;  // at most recent_fast_rejections, oldest first
};

// Key `decisionSpeed`: {fastSeconds, slowSeconds, decided, quadrants: {fast: {approved,
// rejected}, medium: {...}, slow: {...}}, fastRejections: {count, share, recent: [{id, at,
// taskType, artifactId, reason, blockers}]}}.
void WriteJson(base::JsonWriter& w, const DecisionSpeedResult& result);

}  // namespace kaizen::learn
