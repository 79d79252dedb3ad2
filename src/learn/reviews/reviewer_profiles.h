// The per-person preferences file of seed 000 §5.1 ("jake-preferences.md"), one model per
// reviewerId: decision patterns from decision speed by task type (§3.1, §3.4), communication from
// format effectiveness and review windows (§3.4, §3.5), code style from the themes a reviewer
// praises and rejects, design taste from the comparisons they decide (§3.3).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/reviews/communication.h"
#include "learn/reviews/decision_speed.h"
#include "learn/reviews/recent_reviews.h"
#include "learn/reviews/review_themes.h"
#include "learn/signal_weight.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"

namespace kaizen::learn {

struct TaskSpeed {
  std::string task_type;
  int64_t decided = 0, approved = 0;
  double avg_seconds = 0;
};

struct ThemeLean {
  std::string theme;
  int64_t positive = 0, negative = 0;
};

// How often work with an attribute (`type:<work type>`, `server:<server type>`,
// `model:<model>`) won or lost a comparison this reviewer decided (A or B preferred).
struct AttributeRecord {
  std::string attribute;
  int64_t won = 0, lost = 0;
};

// Which dimension's winner was also the preferred option.
struct DecidingDimension {
  std::string dimension;
  int64_t agreed = 0, decided = 0;
};

struct ReviewerProfile {
  std::string reviewer;  // empty: reviews without a reviewerId
  int64_t reviews = 0, approved = 0, rejected = 0, needs_work = 0, deferred = 0;
  // §3.1: decided task types with min_reviews+ reviews and a mean time to decide below
  // speed.fast_seconds and an approval rate of fast_approval_rate or more; fastest first.
  std::vector<TaskSpeed> approves_quickly;
  // Mean time to decide above speed.slow_seconds; slowest first.
  std::vector<TaskSpeed> deliberates_on;
  // Task types rejected (or sent back) every time, min_reviews+ times; by count.
  std::vector<TaskSpeed> always_rejects;
  CommunicationResult communication;           // this reviewer's reviews only
  std::optional<std::string> worst_window;     // lowest engagement with min_reviews+ reviews
  std::vector<ThemeLean> praised, criticized;  // themes with min_signals+ on that side, by count
  int64_t comparisons = 0;
  std::vector<AttributeRecord> comparison_winners;     // won >= 1, by won - lost, then attribute
  std::vector<DecidingDimension> deciding_dimensions;  // by agreed, then dimension
};

class ReviewerProfiles {
 public:
  ReviewerProfiles(const MemoryConfig& memory, const SpeedConfig& speed,
                   const CommunicationConfig& communication, const SignalWeightConfig& weights);
  ~ReviewerProfiles();
  ReviewerProfiles(const ReviewerProfiles&) = delete;
  ReviewerProfiles& operator=(const ReviewerProfiles&) = delete;

  // Folds one review into its reviewer's model, in log order; `themes` are ReviewThemes(review).
  void Add(const model::ReviewView& review, const std::vector<ReviewTheme>& themes);

  // Reviewers by name, the unnamed ("") last. O(reviewers).
  std::vector<std::pair<std::string, int64_t>> Reviewers() const;
  // One reviewer's profile; nullopt when they never reviewed. O(their task types and themes).
  std::optional<ReviewerProfile> Profile(std::string_view reviewer) const;
  // Every profile, in Reviewers() order.
  std::vector<ReviewerProfile> Result() const;

 private:
  struct State;
  // Each reviewer's State in key order, built with this tracker's configs before it is loaded.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
  MemoryConfig memory_;
  SpeedConfig speed_;
  CommunicationConfig communication_;
  SignalWeightConfig weights_;
  std::unordered_map<std::string, std::unique_ptr<State>, StringHash, std::equal_to<>> states_;
  PolarThemes sides_;  // the current review's, kept so that Add allocates no vector
};

// One profile as a JSON object (the dashboard's per-reviewer preferences).
void WriteJson(base::JsonWriter& w, const ReviewerProfile& p);

}  // namespace kaizen::learn
