// Learning from task outcomes (seed 002): evaluation-criterion weights with confidence decay,
// pattern maturity, anti-pattern inversion and per-strategy tallies, folded from `outcome`
// events in log order.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/outcomes/outcome_score.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"

namespace kaizen::learn {

// seed 002 "Pattern Maturity States"
enum class MaturityState : uint8_t { kCandidate, kEstablished, kProven, kDeprecated };

// "candidate" | "established" | "proven" | "deprecated"
std::string_view MaturityStateName(MaturityState state);

// Ratio thresholds are compared with this tolerance, so a count that is on a threshold in exact
// arithmetic (3 of 10 harmful against 0.3) stays on it.
inline constexpr double kRatioTolerance = 1e-9;

// seed 002 "Criterion Weight Calculation": max(floor, helpful / (helpful + harmful)) over decayed
// sums; 1.0 when both sums are 0 (no evidence either way).
double CriterionWeight(double helpful_sum, double harmful_sum, const OutcomeConfig& config);

// seed 002 "When Criteria Get Deprecated": total = helpful + harmful counts (raw, not decayed);
// deprecated when total >= criterion_min_feedback and harmful / total >
// criterion_max_harmful_ratio.
bool CriterionDeprecated(int64_t helpful_count, int64_t harmful_count, const OutcomeConfig& config);

// seed 002 "State Transitions" on decayed counts, checked in this order: deprecated (harmful
// ratio > deprecation_harmful_ratio and total >= maturity_min_feedback), candidate (total <
// maturity_min_feedback), proven (helpful >= proven_min_helpful and harmful ratio <
// proven_max_harmful_ratio), else established. The harmful ratio of no evidence is 0.
MaturityState PatternMaturity(double decayed_helpful, double decayed_harmful,
                              const OutcomeConfig& config);

// seed 002 "Multipliers in Decomposition"
double MaturityMultiplier(MaturityState state, const OutcomeConfig& config);

// seed 002 "Inversion Threshold": total >= anti_pattern_min_observations and failures / total >=
// anti_pattern_failure_ratio (exactly 60% inverts).
bool InvertsToAntiPattern(int64_t success_count, int64_t failure_count,
                          const OutcomeConfig& config);

struct CriterionResult {
  std::string criterion;
  double weight = 1;
  int64_t helpful_count = 0, harmful_count = 0, neutral_count = 0;
  bool deprecated = false;
  double decayed_helpful = 0, decayed_harmful = 0;  // sums of raw_value * decay
  int64_t last_validated_ms = 0;                    // the newest feedback event of any type
};

struct PatternResult {
  std::string content;
  MaturityState state = MaturityState::kCandidate;
  double multiplier = 0;
  int64_t success_count = 0, failure_count = 0;     // by the outcomes' `success` field
  double decayed_helpful = 0, decayed_harmful = 0;  // observations of weight 1, decayed
  int64_t observations = 0;  // every outcome that named the pattern, neutral ones included
};

// seed 002 "Inversion Process"
struct AntiPattern {
  std::string content;  // AVOID: <pattern>. Failed F/T times (P% failure rate)
  std::string reason;   // Failed F/T times (P% failure rate)
  std::string pattern;
  int64_t success_count = 0, failure_count = 0;
  double failure_rate = 0;  // F / T
};

// Per decomposition strategy (the outcome's `strategy` field; outcomes without one are not
// counted): successes by the `success` field, helpful/harmful by the implicit score.
struct StrategyStats {
  std::string strategy;
  int64_t outcomes = 0, successes = 0, helpful = 0, harmful = 0;

  template <class Archive>
  void serialize(Archive& ar);
};

class OutcomeLearner {
 public:
  explicit OutcomeLearner(const OutcomeConfig& config);

  // Folds one `outcome` event: scores it (ScoreOutcome), gives each distinct name in `criteria`
  // one feedback event and each distinct pattern (the `patterns` field plus ExtractPatterns of
  // the description) one observation. Empty names are skipped. Amortized O(1) in the log size;
  // allocates only when a criterion, pattern, strategy or bead id is new (or a vector grows).
  void Add(const model::OutcomeView& outcome);
  // The same with DetectStrategies(outcome.description) computed beforehand.
  void Add(const model::OutcomeView& outcome, uint16_t detected_strategies);

  // seed 001 into seed 002: an automatic signal (CI, a revert, a human rewrite, a rating) about a
  // task already folded is one more observation of each criterion and pattern its outcomes named:
  // helpful when `value` (the signal's normalized 0..1) is at least helpful_threshold, harmful at
  // or below harmful_threshold, else neutral; a harmful one is a failure for anti-pattern
  // inversion, any other a success. False when no folded outcome of `bead_id` named any.
  bool AddSignal(std::string_view bead_id, double value, int64_t at_ms);

  int64_t outcome_count() const { return outcome_count_; }
  int64_t signal_count() const { return signal_count_; }

  // Sorted by name. Decay is evaluated at `now_ms`; future events count as fresh.
  std::vector<CriterionResult> Criteria(int64_t now_ms) const;
  std::vector<PatternResult> Patterns(int64_t now_ms) const;
  // Independent of time and of maturity: a deprecated pattern may or may not be an anti-pattern.
  std::vector<AntiPattern> AntiPatterns() const;
  std::vector<StrategyStats> Strategies() const;

  // seed 002 "Debugging Pattern Issues": why a pattern has its state (or a criterion its
  // weight), as plain text lines: counts, decayed sums, ratios, each threshold and which one
  // decided, and the newest 10 observations. Returns false (and leaves *text alone) for a name
  // never seen. REQUIRES: text != nullptr.
  bool ExplainPattern(std::string_view name, int64_t now_ms, std::string* text) const;
  bool ExplainCriterion(std::string_view name, int64_t now_ms, std::string* text) const;

 private:
  // One outcome as seen by one criterion or pattern: 16 bytes, since a large log holds
  // hundreds of thousands. Bead ids are kept only for the newest few (Recent).
  struct Observation {
    int64_t at_ms;
    uint8_t raw_hundredths;
    FeedbackType type;
    bool success;
    template <class Archive>
    void serialize(Archive& ar);
  };
  static_assert(sizeof(Observation) == 16);
  // One of the newest observations of an Evidence, for the explanations.
  struct Recent {
    int64_t at_ms = 0;
    int64_t seq = 0;  // log position: breaks timestamp ties, later first
    std::string bead_id;
    Observation observation{};
    template <class Archive>
    void serialize(Archive& ar);
  };
  static constexpr size_t kNewestShown = 10;
  struct Evidence {
    std::string name;
    std::vector<Observation> observations{};  // log order
    int64_t successes = 0, failures = 0;
    std::vector<Recent> newest{};  // at most kNewestShown, unordered
    template <class Archive>
    void serialize(Archive& ar);
  };
  struct Folded;  // decayed sums and counts of one Evidence at a time

  using Index = std::unordered_map<std::string, uint32_t, StringHash, std::equal_to<>>;

  template <typename T>
  static uint32_t Intern(Index& index, std::vector<T>& table, std::string_view name);
  void StartDistinct();                    // empties current_
  void AddDistinct(uint32_t evidence_id);  // to current_, unless already there
  void Record(Evidence& evidence, const Observation& observation, std::string_view bead_id);
  // Keeps what `outcome` named (current_ holds its patterns) under its bead id.
  void RememberBead(const model::OutcomeView& outcome);
  Folded Fold(const Evidence& evidence, int64_t now_ms) const;
  void AppendNewest(const Evidence& evidence, int64_t now_ms, bool with_contribution,
                    std::string* text) const;

  OutcomeConfig config_;
  int64_t outcome_count_ = 0;
  int64_t signal_count_ = 0;  // AddSignal calls that reached some evidence
  // What each bead's outcomes named, so a later signal about the bead reaches the same evidence.
  // Only beads whose outcomes named a criterion or pattern are kept.
  struct BeadEvidence {
    std::vector<uint32_t> criteria, patterns;
    template <class Archive>
    void serialize(Archive& ar);
  };
  std::unordered_map<std::string, BeadEvidence, StringHash, std::equal_to<>> beads_;
  Index criterion_index_;
  std::vector<Evidence> criteria_;
  Index pattern_index_;
  std::vector<Evidence> patterns_;
  Index strategy_index_;
  std::vector<StrategyStats> strategies_;
  std::vector<uint32_t> current_;  // evidence ids of the outcome being added (reused)
  // stamp_[id] == generation_: id is in current_ (criteria and patterns take turns with them).
  std::vector<uint64_t> stamp_;
  uint64_t generation_ = 0;

  // outcomes_state.cc. The name indexes are rebuilt from the tables; current_, stamp_ and
  // generation_ are scratch space of one Add (a stamp below the generation means "not current").
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
};

// The `criteria`, `patterns`, `antiPatterns` and `strategies` arrays of `kaizen analyze --json`.
void WriteJson(base::JsonWriter& w, const std::vector<CriterionResult>& criteria);
void WriteJson(base::JsonWriter& w, const std::vector<PatternResult>& patterns);
void WriteJson(base::JsonWriter& w, const std::vector<AntiPattern>& anti_patterns);
void WriteJson(base::JsonWriter& w, const std::vector<StrategyStats>& strategies);

}  // namespace kaizen::learn
