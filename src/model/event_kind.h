// The nine kinds of event in the one log (docs/event-model.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kaizen::model {

enum class EventKind : uint8_t {
  kFeedback = 0,  // seed 000 FeedbackEvent: a human review
  kWork,          // seed 000 WorkProductRef submitted for review, with the agent's prediction
  kOutcome,       // seed 002 swarm_record_outcome: implicit task signals
  kError,         // seed 002 ErrorAccumulator entry, or the resolution of one
  kReward,        // seed 001 RewardSignal
  kCorrection,    // seed 004 correction event: original -> corrected
  kLoop,          // seed 003 QualityMetrics of one refinement iteration
  kAdmin,         // rule audits, consent changes, deletion requests
  kPrompt,        // what a person told an agent in its session that judges its last turn
};
inline constexpr int kEventKindCount = 9;

std::string_view KindName(EventKind kind);
std::optional<EventKind> ParseKind(std::string_view name);
// "feedback, work, outcome, ..." for error messages.
std::string_view KindList();

}  // namespace kaizen::model
