// The pre-review self-check (seed 000 §6.1): before work goes to the reviewer, every active
// learned rule that carries a machine check is evaluated on it, the reviewer's score is
// predicted, and a calibrated confidence (§6.2) says how likely an approval is. Pure: what the
// machine checks found (checks/machine_check.h runs them), the rules and the learner's state in,
// a SelfCheckResult out.
//
// The seed is silent on predictScore and computeRawConfidence; kaizen's choices:
//
//   history    the task type's decided reviews, except the *addressed* ones: a rejection (or
//              needs-work) with a negative theme whose rule's check ran and passed now, and no
//              negative theme of an active rule that was violated or could not be checked.
//              Its complaint was checked away, so it no longer speaks against this work.
//              (Negative themes that are no active rule are noise the rule book has not
//              confirmed; they neither address nor block.)
//   d_i        per dimension i scored in that history (n_i scores, mean m_i), shrunk toward
//              prior_score: d_i = (n_i m_i + k prior_score) / (n_i + k), k = score_shrinkage.
//   score      §3.3 predictor over the d_i (learned dimension weights, PreferenceLearner::
//              PredictScore) minus score_penalty(severity) of each violation; prior_score
//              when the task type has no scores; clamped to 1..10.
//   raw        Beta-smoothed approval rate times the chance that no violation sinks the
//              review: (approved + s prior_confidence) / (decided + s) x prod(1 - risk(sev)),
//              s = prior_strength.
//   confidence calibration().Calibrate(raw) (§3.1/§6.2).
//   gates      a learned gate (§3.1) whose dimension's d_i, less score_penalty(severity) of
//              each violation whose rule's domain is that dimension, falls below its threshold adds
//              a violation `gate-<dimension>`: major for a hard gate, moderate for a soft one. It
//              is `fixable` when this work's own violations in the dimension are part of what
//              puts it under; otherwise the task type's history alone does, and no change to the
//              work moves it: it costs score and confidence but does not decide the gate.
//   passed     §6.1: no fixable violation of severity major or above.
//
// The gate (decidedBy), in order:
//   violation         not passed: the agent fixes the work (a new version) and checks again.
//   second_pass_due   a self-review trigger fired -- calibrated confidence under
//                     confidence_threshold (§3.1 "If calibrated confidence < 60%, auto-trigger a
//                     second self-review pass before sending") or score under min_score (§8.2
//                     "Overall predicted score must be >= 6.5 or self-review is triggered") -- and
//                     this version has not been checked before. Both are predictions from past
//                     reviews, which the work cannot always move, so they ask for one pass, not
//                     for a score nothing may reach.
//   second_pass_done  a trigger fired, but this version (the same bytes) was checked before: the
//                     agent made its second pass and found nothing to change. Ready, with the
//                     prediction recorded, so the review calibrates it (§6.2).
//   ready             no trigger fired.
// Whether the version was checked before is read from the log (its `work` event), so the
// answer is a pure function of the log; a changed version gets its own first pass.
//
// A violation counts once per rule whatever the number of places its check flagged: ten
// `any` types are one habit, not ten.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <absl/container/flat_hash_map.h>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/delegation/autonomy.h"
#include "learn/delegation/calibration.h"
#include "learn/delegation/gates.h"
#include "learn/reviews/preferences.h"
#include "learn/reviews/review_themes.h"
#include "learn/rules/rule_book.h"
#include "learn/state_fwd.h"
#include "model/inputs.h"
#include "text/text_analysis.h"

namespace kaizen::learn {

struct SelfCheckConfig {
  double confidence_threshold = 0.60;  // §3.1 "calibrated confidence < 60%": a second pass
  double min_score = 6.5;              // §8.2 "Overall predicted score must be >= 6.5"
  double prior_score = 7;              // kaizen: a task type with no scores starts above min_score
  double score_shrinkage = 5;          // pseudo-scores of prior_score (§9.3: 5 data points)
  double prior_confidence = 0.7;       // kaizen: a new task type with a clean check passes
  double prior_strength = 2;           // pseudo-reviews of prior_confidence
  double score_penalty_minor = 0.25;   // points off the predicted score per violated rule
  double score_penalty_moderate = 0.5;
  double score_penalty_major = 1.5;
  double score_penalty_critical = 3;
  double risk_minor = 0.05;  // chance a violation alone makes the reviewer reject
  double risk_moderate = 0.15;
  double risk_major = 0.35;
  double risk_critical = 0.6;
  double timeout_seconds = 60;  // an external command check is killed after this

  // Keys `check.*` (<home>/config/checks.json "check" object).
  ConfigFields Fields();
  double ScorePenalty(std::string_view severity) const;
  double Risk(std::string_view severity) const;
};

// The decided reviews of each task type, grouped by decision and negative themes, so the
// self-check can leave out the ones a passing check addresses. Folds in O(themes + scores).
class ReviewHistory {
 public:
  // Folds a decided review (others are ignored) with its negative themes (ReviewThemes:
  // free text, reason, blockers, suggestions, criticism annotation categories).
  // REQUIRES: the review's work product is resolved (Learner::Add does it).
  void Add(const model::ReviewView& review, const text::ThemeTaxonomy& taxonomy);
  // The same with the review's themes already found (ReviewThemes, as Learner::Prepare does).
  void Add(const model::ReviewView& review, const std::vector<ReviewTheme>& themes);

  struct Group {
    std::vector<std::string> themes;  // negative themes, sorted, distinct
    bool approved = false;
    int64_t reviews = 0;
    std::map<std::string, std::pair<double, int64_t>, std::less<>> scores;  // dimension -> (sum, n)
    template <class Archive>
    void serialize(Archive& ar);
  };
  // The groups of a task type ("unspecified" when empty); nullptr when never reviewed.
  const std::map<std::string, Group>* Of(std::string_view task_type) const;

 private:
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
  std::map<std::string, std::map<std::string, Group>, std::less<>> by_task_type_;
  std::string key_;  // Add's scratch: task type, '\0', the group's key; kept for its capacity
  // The groups met so far by task type and key, hashed: a decided review finds its group without
  // walking the ordered map's string keys (the map keeps the order the self-check reads). Not
  // state: a copy, or a state loaded, starts it again.
  struct Indexed {
    Group* group = nullptr;
    // The group's score dimensions met so far (views of its map's keys), searched in a line: a
    // handful, where the map's nodes, one allocation each, miss the cache on every step.
    std::vector<std::pair<std::string_view, std::pair<double, int64_t>*>> dimensions;
  };
  struct GroupIndex {
    absl::flat_hash_map<std::string, Indexed> of;
    GroupIndex() = default;
    GroupIndex(const GroupIndex&) {}
    GroupIndex& operator=(const GroupIndex&) {
      of.clear();
      return *this;
    }
  } index_;
};

// What the machine checks found for one rule (checks/machine_check.h).
struct CheckFinding {
  std::string location;  // "src/a.ts:12", "src/a.ts", or "" for a command's verdict
  std::string detail;
};
struct RuleCheck {
  std::string rule_id;
  bool applied = false;                // some check of the rule matched a file or ran
  std::vector<CheckFinding> findings;  // empty and applied: the rule passed
  std::string fix;                     // the check's own fix text; empty: the rule's
};

struct SelfCheckViolation {
  std::string rule;         // rule id, or gate-<dimension>
  std::string description;  // the rule as a person reads it
  std::string severity;     // minor | moderate | major | critical
  bool fixable = true;      // changing the work can clear it (see `gates` above)
  bool auto_fixable = false;
  std::string suggestion;
  std::vector<CheckFinding> findings;
};

struct SelfCheckResult {
  // seed 000 §6.1
  bool passed = true;
  double score = 0;       // predicted reviewer score, 1..10
  double confidence = 0;  // calibrated
  std::vector<SelfCheckViolation> violations;
  std::vector<std::string> recommendations;  // suggestions of the auto-fixable violations
  // kaizen
  double raw_confidence = 0;
  bool ready_for_review = true;
  std::string decided_by = "ready";   // violation | second_pass_due | second_pass_done | ready
  std::vector<std::string> triggers;  // self-review triggers that fired, whatever decided
  std::vector<std::string> reasons;   // why not ready (empty when ready)
  bool checked_before = false;        // this version was checked before (SelfCheckInput)
  std::string task_type;
  std::vector<std::string> rules_checked;    // active rules with a check that applied, sorted
  std::vector<std::string> rules_unchecked;  // active rules with no check that applied, sorted
  int64_t history_reviews = 0;               // decided reviews the prediction rests on
  int64_t addressed_reviews = 0;             // rejections left out as addressed
  int autonomy_level = 0;                    // §6.3 level of the task type
  double review_rate = 1;                    // share of outputs reviewed at that level
};

struct SelfCheckInput {
  std::string task_type;
  const std::vector<LearnedRule>* rules = nullptr;  // only kActive ones are enforced
  const std::vector<RuleCheck>* checks = nullptr;   // any order; ids of no rule are ignored
  const ReviewHistory* history = nullptr;
  const std::vector<ScoreGate>* gates = nullptr;
  const PreferenceLearner* preferences = nullptr;
  const CalibrationCurve* calibration = nullptr;
  const AutonomyTracker* autonomy = nullptr;  // may be nullptr
  // The log already holds a `work` event of this artifact version: a check of these same bytes
  // ran before, so a self-review trigger now means the second pass is done.
  bool checked_before = false;
};

// REQUIRES: every pointer but autonomy is set.
SelfCheckResult RunSelfCheck(const SelfCheckInput& input, const SelfCheckConfig& config);

// {passed, score, confidence, rawConfidence, readyForReview, decidedBy, triggers, checkedBefore,
// reasons, violations: [{rule, description, severity, fixable, autoFixable, suggestion,
// findings: [{location, detail}]}],
// recommendations, taskType, rulesChecked, rulesUnchecked, historyReviews, addressedReviews,
// autonomyLevel, reviewRate} as the members of an open object.
void WriteJsonMembers(base::JsonWriter& w, const SelfCheckResult& result);

}  // namespace kaizen::learn
