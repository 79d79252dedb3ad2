// Seed 000 §3.5 "Format Effectiveness Tracking", §3.4 "Notification Timing Optimization" and
// "Session Fatigue Detection": which presentation and which hours get fast, complete, rich
// reviews, and when a reviewer has earned a break.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/reviews/detail_level.h"
#include "learn/signal_weight.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct CommunicationConfig {
  double fast_seconds = 30;  // a format decided this fast or faster has decision_speed 1
  double rich_fields = 4;    // a review filling this many optional fields has richness 1
  double min_reviews = 5;    // seed 000 §9.3: no conclusion from fewer than 5 data points

  ConfigFields Fields();
};

// seed 000 §3.5: effectiveness = decision_speed x feedback_quality x completion_rate, where
//   decision_speed   = min(1, fast_seconds / mean seconds to decide) (1 when the mean is 0);
//   feedback_quality = mean richness of its reviews (Richness below);
//   completion_rate  = share of reviews with a decision other than deferred.
// The seed's table only ranks formats; these definitions keep each factor in 0..1.
struct EngagementStats {
  int64_t n = 0;
  double avg_seconds = 0;  // mean timeToDecisionMs / 1000, deferred reviews included
  double richness = 0;
  double completion_rate = 0;
  double score = 0;  // the product: "effectiveness" of a format, "engagement" of a window
};

// min(1, fields / rich_fields) where fields = meta.fieldsModified, or when more, the optional
// parts the review visibly filled (free text, annotations): clients that don't report
// fieldsModified still get credit for what they wrote.
double Richness(const model::ReviewView& review, const CommunicationConfig& config);
double DecisionSpeed(double avg_seconds, const CommunicationConfig& config);
// seed 000 §3.4: "You've reviewed 6 items — want me to batch the rest for later?"
std::string BreakSuggestion(int64_t reviewed);

struct FatigueStats {
  double threshold = 0;  // SignalWeightConfig::fatigue_after
  double weight = 0;     // SignalWeightConfig::fatigue_weight
  int64_t fatigued_reviews = 0;
  int64_t sessions_needing_break = 0;                       // sessions that reached the threshold
  std::optional<double> fresh_richness, fatigued_richness;  // nullopt without such reviews
  std::optional<double> fresh_seconds, fatigued_seconds;
  std::optional<std::string> break_suggestion;  // for the newest session at the threshold
};

struct CommunicationResult {
  std::map<std::string, EngagementStats> formats;  // presentationFormat, "unspecified" if none
  std::optional<std::string> best_format;  // highest score with >= min_reviews, ties by name
  std::map<std::string, EngagementStats> windows;    // timeOfDay
  std::map<std::string, EngagementStats> day_types;  // "weekday" | "weekend"
  std::vector<std::string> best_windows;             // top 2 timeOfDay windows with >= min_reviews
  FatigueStats fatigue;
  std::vector<SectionStats>
      detail_level;  // seed 000 §3.5 detail level (learn/reviews/detail_level.h)
};

class CommunicationLearner {
 public:
  CommunicationLearner(const CommunicationConfig& config, const SignalWeightConfig& weights);

  // Reviews in log order.
  void Add(const model::ReviewView& review);
  CommunicationResult Result() const;

  // seed 000 §3.4: suggest a break from the fatigue_after-th review of a session on.
  bool SuggestBreak(int64_t session_fatigue) const;

 private:
  struct Tally {
    int64_t n = 0, completed = 0;
    double seconds = 0, richness = 0;  // sums, folded in log order
    void Add(double review_seconds, double review_richness, bool review_completed);
    EngagementStats Stats(const CommunicationConfig& config) const;
    template <class Archive>
    void serialize(Archive& ar);
  };
  template <typename T>
  using StringMap = std::unordered_map<std::string, T, StringHash, std::equal_to<>>;
  // A handful of keys (formats, time-of-day windows), read only through Sorted: open addressing
  // without a node per key.
  using TallyMap = absl::flat_hash_map<std::string, Tally, StringHash, std::equal_to<>>;

  static std::map<std::string, EngagementStats> Sorted(const TallyMap& tallies,
                                                       const CommunicationConfig& config);
  // newest_tired_ is saved as its key and pointed back at tired_sessions_'s own copy.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  CommunicationConfig config_;
  SignalWeightConfig weights_;
  TallyMap formats_, windows_;
  Tally weekday_, weekend_;
  Tally fresh_, fatigued_;
  StringMap<int64_t> tired_sessions_;  // session -> highest sessionFatigue, once at threshold
  const std::string* newest_tired_ = nullptr;  // key in tired_sessions_ of the newest one
  int64_t newest_tired_ms_ = 0;
  DetailLevelTracker detail_;
};

// The `communication` object of `kaizen analyze --json`.
void WriteJson(base::JsonWriter& w, const CommunicationResult& r);

}  // namespace kaizen::learn
