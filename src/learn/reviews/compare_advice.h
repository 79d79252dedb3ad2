// seed 000 §6.4 A/B learning: when the agent should make two versions and present them as a
// comparison instead of one. Any of the seed's three triggers says yes:
//   - its calibrated confidence on the "right" approach is under max_confidence (65%); the raw
//     confidence it gives goes through the calibration curve (§3.1) first;
//   - two valid approaches exist (the agent says how many it sees);
//   - the reviewers' past judgements of this task type are mixed: kaizen's reading of "Jake has
//     shown mixed preferences for this domain in the past" (the seed gives no measure) is at
//     least mixed_min_reviews decided reviews of the task type, neither approvals nor the rest
//     under mixed_share of them.
// The doors: MCP `should_compare`, and `kaizen check` (which also records the advice).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/delegation/calibration.h"
#include "learn/reviews/approval.h"

namespace kaizen::learn {

struct CompareConfig {
  double max_confidence = 0.65;  // §6.4 "Buba's confidence < 65% on the 'right' approach"
  double mixed_min_reviews = 6;  // kaizen: decided reviews before a split is read as mixed
  double mixed_share = 0.35;     // kaizen: approvals and the rest each at least this share

  ConfigFields Fields();
};

struct CompareQuery {
  std::string task_type;
  std::optional<double> confidence;  // raw 0..1; absent: not a trigger
  int64_t approaches = 1;            // valid approaches the agent sees
};

struct CompareAdvice {
  bool compare = false;
  std::optional<double> calibrated_confidence;
  bool low_confidence = false, several_approaches = false, mixed_preferences = false;
  int64_t approved = 0, decided = 0;  // the task type's reviews
  std::vector<std::string> reasons;   // in words, one per trigger that fired
};

CompareAdvice AdviseComparison(const CompareConfig& config, const CalibrationCurve& calibration,
                               const ApprovalResult& approval, const CompareQuery& query);

// {compare, reasons, calibratedConfidence, triggers: {lowConfidence, severalApproaches,
// mixedPreferences}, taskType: {approved, decided}}.
void WriteJson(base::JsonWriter& w, const CompareAdvice& advice);

}  // namespace kaizen::learn
