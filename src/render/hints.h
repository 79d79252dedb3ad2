// seed 000 §8.2 "Dynamic .goosehints Generation": the learned rules, gates, presentation advice,
// checklist and anti-patterns as a section kaizen owns at the end of any hints file
// (.goosehints, AGENTS.md, CLAUDE.md), below a "DO NOT EDIT BELOW THIS LINE" marker.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "learn/delegation/calibration.h"
#include "learn/delegation/gates.h"
#include "learn/learner.h"
#include "learn/outcomes/outcomes.h"
#include "learn/reviews/communication.h"
#include "learn/rules/rule_book.h"

namespace kaizen::render {

inline constexpr std::string_view kHintsMarker = "DO NOT EDIT BELOW THIS LINE";
inline constexpr std::string_view kHintsMarkerLine =
    "# kaizen (auto-generated section — DO NOT EDIT BELOW THIS LINE)";

// seed 000 §3.1 "If calibrated confidence < 60%, auto-trigger a second self-review pass".
inline constexpr double kSelfReviewConfidence = 0.6;

// Everything the section is made of, taken from a Learner at one `now` (HintsInputFrom) or built
// by hand in tests.
struct HintsInput {
  int64_t now_ms = 0;
  int64_t feedback_events = 0;
  std::vector<learn::LearnedRule> rules;  // all statuses; only active ones are shown
  std::vector<learn::ScoreGate> gates;
  learn::CalibrationResult calibration;
  learn::CommunicationResult communication;
  std::vector<learn::RejectionPattern> top_rejections;  // RejectionPatterns(true)
  std::vector<learn::AntiPattern> anti_patterns;
  std::vector<std::string> after_review;  // render/signal_lines.h
  std::vector<std::string> candidates;    // render/candidates.h CandidateLine, at most 10
  std::vector<std::string> told;          // render/told_lines.h
  std::vector<std::string> answers;       // render/answer_lines.h
};

// The rules and instructions that hold in `project` (any spelling model::ProjectKey reads; empty:
// the global layer only; learn::HoldsIn), with everything else the learner has.
// REQUIRES: the learner folds kHintsParts.
HintsInput HintsInputFrom(const learn::Learner& learner, int64_t now_ms, std::string_view project);
// What HintsInputFrom reads: a learner of these parts alone gives the same hints.
inline const learn::Parts kHintsParts = {learn::Part::kCommunication, learn::Part::kRules,
                                         learn::Part::kEvidence,      learn::Part::kGates,
                                         learn::Part::kCalibration,   learn::Part::kOutcomes,
                                         learn::Part::kSignals,       learn::Part::kProfiles};

// The generated section, starting with
//   # Generated: YYYY-MM-DD | Based on N feedback events | K active rules
// then, each only when it has lines: Code Standards (active rules' prompt_instruction, design
// rules excepted), Design Standards (rules of domain design-aesthetics or design-ux), Quality
// Gates, Review Presentation, the Pre-Review Checklist, seed 002's anti-pattern block, Candidates
// (what reviews repeat that is not a rule yet, with its evidence) and After Review (what happened
// to the agent's work: reverts, rewrites, CI, ratings). When all
// are empty, one "No learned rules yet." line. Ends with a newline.
std::string HintsSection(const HintsInput& input);

// The new bytes of a hints file whose current bytes are `existing` (empty when it does not
// exist): everything up to and including the first line containing kHintsMarker is kept byte
// for byte (a newline is added when that line is the last and has none), and `section` replaces
// the rest. Without a marker the whole file is kept, a newline added if it does not end with one,
// a blank line when it has none at its end, then kHintsMarkerLine and the section. Splicing the
// result again gives the same bytes.
std::string SpliceHints(std::string_view existing, std::string_view section);

}  // namespace kaizen::render
