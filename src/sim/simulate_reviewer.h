// The simulated reviewer: preferences the agent is never told (hard and soft score gates, patterns
// whose work fails more often), a bar that rises with the mean score, and the time-of-day and
// fatigue habits of a person (seed 000 §3.1 "Decision Speed", §3.4 "fatigue", §9.3).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "sim/simulate.h"

namespace kaizen::sim {

// "A score below `below` on `dim` is not approved with probability `reject`": what seed 000 §3.1
// calls a minimum score threshold, here hidden for kaizen to find.
struct HiddenGate {
  Dim dim;
  int below;
  double reject;
  bool hard;                  // >= 95%: a hard gate in seed 000 §3.1's terms; else soft
  std::string_view decision;  // rejected | needs-work
  std::string_view reason;
};
inline constexpr std::array<HiddenGate, 3> kHiddenGates = {{
    {Dim::kErrorHandling, 6, 0.97, true, "rejected",
     "Errors from the API are swallowed; failure paths are not handled"},
    {Dim::kTestCoverage, 5, 0.95, true, "needs-work",
     "Not enough tests: the main paths are untested"},
    {Dim::kNaming, 4, 0.85, false, "needs-work", "Names do not say what things are"},
}};

// Patterns whose work fails more often (and reads worse) than the favoured ones.
inline constexpr std::array<Pattern, 2> kDisfavoured = {Pattern::kSplitByFileType,
                                                        Pattern::kOneFilePerSubtask};
inline constexpr std::array<Pattern, 2> kFavoured = {Pattern::kSplitByFeature,
                                                     Pattern::kTestsAlongside};

// The review sessions of a day: morning and afternoon are the reviewer's best windows; in the
// evening they decide faster and more harshly.
enum class ReviewWindow : uint8_t { kMorning, kAfternoon, kEvening };
std::string_view WindowName(ReviewWindow w);  // morning | afternoon | evening

struct Review {
  std::string_view decision;  // approved | rejected | needs-work
  bool approved = false;
  const HiddenGate* gate = nullptr;  // the gate that decided, if one did
  int score_count = 0;
  std::array<Dim, 6> dims{};  // scored dimensions, in the order written
  std::array<int, 6> scores{};
  double mean = 0;  // of the scores
  Dim worst = Dim::kCodeQuality;
  std::string_view reason, severity, suggestion;  // severity and suggestion empty when approved
  std::string_view confidence;                    // very-sure | fairly-sure | somewhat-unsure
  bool would_delegate = false, needs_expert = false;
  int64_t time_to_decision_ms = 0;
};

class HiddenReviewer {
 public:
  explicit HiddenReviewer(uint64_t seed) : seed_(seed) {}

  // Reviews `item` in a session of `window`, as the session's `position`-th review (1-based).
  // Scores 4-6 dimensions: error handling and test coverage always, then 2-4 of naming and the
  // task type's pool. A score is the item's quality plus noise, lower in the evening. Then the
  // gates of the scored dimensions in kHiddenGates order; if none fires, approval with a
  // probability rising with the mean score.
  // Deterministic in (seed, item.day, item.index, item's quality, window, position).
  Review Judge(const WorkItem& item, ReviewWindow window, int position) const;

 private:
  uint64_t seed_;
};

// The approval probability of a review no gate stopped: rises with the mean score, lower in the
// evening. Exposed for tests.
double ApprovalProbability(double mean_score, bool evening);

}  // namespace kaizen::sim
