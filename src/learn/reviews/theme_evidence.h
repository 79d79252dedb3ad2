// What the reviews say about each theme, and when that evidence may become a rule: the
// overfitting guards of seed 000 §9.3 (5+ points over 3+ days), the rule weight of §3.2, rule
// effectiveness (§7.2), and contradictions between approving and rejecting signals (§9.2).
//
// A review's signals: each extracted free-text theme, polar by the decision (approved +,
// rejected or needs-work -), and each annotation category, polar by the annotation type
// (praise +, criticism -). Signals with no polarity carry no evidence and are not kept.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/reviews/review_themes.h"
#include "learn/signal_weight.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"  // StringHash
#include "model/inputs.h"

namespace kaizen::learn {

struct EvidenceConfig {
  double rule_min_points = 5;             // §9.3 "No rule is formed from fewer than 5 data points"
  double rule_min_days = 3;               // §9.3 "spread across at least 3 different days"
  double volume_threshold = 3;            // §9.2 "Don't form a rule until ... 3+ times"
  double equal_strength_ratio = 0.8;      // §9.2 "two equally-strong signals": weaker/stronger
  double context_one_sided = 0.8;         // §9.2 context matching: share of the majority polarity
  double effectiveness_window_days = 30;  // §7.2 rule effectiveness, before vs after
  // kaizen: a theme below the §9.3 guards that reviews already repeat is an *emerging*
  // candidate, told to the agent as a candidate with its evidence, never enforced as a rule:
  // §9.2's "3+ times", on 2+ days so one bad afternoon is not a pattern.
  double emerging_min_points = 3;
  double emerging_min_days = 2;

  ConfigFields Fields();
};

// A theme whose negative signals passed the §9.3 guards, or (emerging) the lower guards of an
// emerging candidate.
struct RuleCandidate {
  std::string theme;
  bool emerging = false;         // below the §9.3 guards: introduced_at_ms is 0
  int64_t points = 0;            // negative signals
  int64_t days = 0;              // distinct UTC days among them
  int64_t introduced_at_ms = 0;  // the signal that first met both guards
  double weight = 0;             // §3.2 (occurrences x avg severity) / total reviews
  // §7.2: mean dimension score in the window after introduction minus the window before;
  // nullopt while either window has no scores.
  std::optional<double> effectiveness;
  int64_t effectiveness_days = 0;  // UTC days with scores in the window after introduction
};

// How the context split explains a contradiction.
struct ContextSplit {
  std::string by;                   // "serverType" or "stage"
  std::vector<std::string> prefer;  // contexts whose signals are (mostly) positive; sorted
  std::vector<std::string> avoid;   // sorted
};

struct ThemeStance {
  std::string theme;
  double positive = 0, negative = 0;  // sum of StaticWeight x RecencyWeight(now)
  int64_t positive_count = 0, negative_count = 0;
  std::string status;                    // clarify | contextual | prefer | avoid
  std::optional<std::string> question;   // when status is clarify
  std::optional<ContextSplit> contexts;  // when status is contextual
};

// Mean-score inputs of one UTC day: every dimension score of every review that day.
struct DayScores {
  int64_t day = 0;  // days since 1970-01-01 (UTC)
  double sum = 0;
  int64_t n = 0;
};

class ThemeEvidence {
 public:
  ThemeEvidence(const EvidenceConfig& config, const SignalWeightConfig& weights);

  // Folds one review. Reviews come in log order: a candidate is introduced by the signal, in
  // that order, that first meets both guards.
  void Add(const model::ReviewView& review, const std::vector<ReviewTheme>& themes);
  // The same with ReviewThemes(review) under the default taxonomy.
  void Add(const model::ReviewView& review);

  // Themes that are rule candidates, by weight (highest first), then theme. Only scores on days
  // up to now's UTC day count toward effectiveness.
  std::vector<RuleCandidate> Candidates(int64_t now_ms) const;
  // Themes below the §9.3 guards with emerging_min_points+ negative signals on
  // emerging_min_days+ days, more negative than positive: by weight, then theme.
  std::vector<RuleCandidate> Emerging() const;

  // Every theme with volume (one side has volume_threshold+ signals), sorted by theme.
  std::vector<ThemeStance> Contradictions(int64_t now_ms) const;

  // Per-day score sums, oldest first (for the KPIs).
  std::vector<DayScores> ScoreDays() const;
  int64_t total_reviews() const { return total_reviews_; }

 private:
  // One review's stance on one theme: 16 bytes, since a large log holds hundreds of thousands
  // (1M events: 571,000).
  struct Signal {
    int64_t at_ms;
    uint32_t context;      // contexts_ index: the review's (server type, stage)
    uint8_t weight_class;  // WeightClass of the review: its StaticWeight is class_weights_[it]
    int8_t polarity;       // +1 or -1
    template <class Archive>
    void serialize(Archive& ar);
  };
  static_assert(sizeof(Signal) == 16);
  // A review's StaticWeight depends only on its confidence level (5), whether it is fatigued
  // (2) and its override (3): 30 classes, each weight computed once by StaticWeight itself.
  static constexpr size_t kWeightClasses = 5 * 2 * 3;
  static uint8_t WeightClass(const SignalWeightConfig& weights, const model::ReviewView& review);
  // A review's server type and stage, as interned names (0 = none).
  struct Context {
    uint32_t server = 0, stage = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct Theme {
    std::vector<Signal> signals;  // log order
    int64_t positive = 0, negative = 0;
    double negative_severity = 0;  // sum of §3.2 severity scores of negative signals
    std::unordered_set<int64_t> negative_days;
    int64_t last_negative_day = INT64_MIN;  // in log order most signals repeat the last day
    std::optional<int64_t> introduced_at_ms;
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct DaySum {
    double sum = 0;
    int64_t n = 0;
    template <class Archive>
    void serialize(Archive& ar);
  };

  void AddSignal(std::string_view theme, const Signal& signal, double severity);
  uint32_t Intern(std::string_view name);
  uint32_t ContextOf(uint32_t server, uint32_t stage);
  std::optional<double> WindowMean(int64_t first_day, int64_t last_day) const;
  ThemeStance Stance(const std::string& name, const Theme& theme, int64_t now_ms) const;
  // class_weights_ comes from the config; name_ids_ and context_ids_ are rebuilt from names_ and
  // contexts_.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);

  EvidenceConfig config_;
  SignalWeightConfig weights_;
  int64_t total_reviews_ = 0;
  std::unordered_map<std::string, Theme, StringHash, std::equal_to<>> themes_;
  std::array<double, kWeightClasses> class_weights_;
  std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>> name_ids_;
  std::vector<std::string> names_{""};                  // id -> server type or stage
  std::unordered_map<uint64_t, uint32_t> context_ids_;  // (server << 32 | stage) -> id
  std::vector<Context> contexts_;
  std::unordered_map<int64_t, DaySum> day_scores_;
};

void WriteJson(base::JsonWriter& w, const std::vector<ThemeStance>& stances);  // `contradictions`
void WriteJson(base::JsonWriter& w,
               const std::vector<RuleCandidate>& candidates);  // `ruleCandidates`

}  // namespace kaizen::learn
