// The memory files of seed 000 §5.1, kept lean by the compression schedule of §5.2:
//   memory/feedback-patterns.md     recurring themes, anti-patterns, positive patterns, the last
//                                   7 days quoted, 8-30 days as ISO-week aggregates
//   memory/quality-standards.md     gates, target scores, calibration corrections
//   memory/reviewer-preferences.md  one section per reviewerId (the seed's jake-preferences.md)
//   memory/improvement-log.md       what changed and why, newest day first
// Each is a pure function of (log, config, now) and stays within memory.budget_bytes: whole
// lines of the lowest priority are left out first, and the file says how many.
//
// Compression (§5.2), by age in UTC days before now's day:
//   0..recent_days          reviews quoted (reason, blockers, suggestions, criticisms)
//   ..weekly_days           counted per ISO week (reviews, decisions, mean score, top themes)
//   ..pattern_days          only as theme patterns (recurring themes, anti/positive patterns)
//   older                   only durable rules (and their promotions and retirements)
// Per-reviewer models fold the reviewer's whole history (they are tastes, not events).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "learn/learner.h"
#include "render/artifact.h"

namespace kaizen::render {

// The four files, in the order above.
std::vector<RenderedFile> MemoryFiles(const learn::Learner& learner, int64_t now_ms);

std::string FeedbackPatternsFile(const learn::Learner& learner, int64_t now_ms);
std::string QualityStandardsFile(const learn::Learner& learner, int64_t now_ms);
std::string ReviewerPreferencesFile(const learn::Learner& learner, int64_t now_ms);
std::string ImprovementLogFile(const learn::Learner& learner, int64_t now_ms);

// Whole lines (text ends with '\n') and how much they matter.
struct MemoryBlock {
  std::string text;
  int priority = 0;
};
inline constexpr int kAlwaysKept = 1000;  // titles: never left out

// Joins the blocks within budget_bytes: leaves out the lowest-priority blocks first (among
// equals, the later one first), never a block of priority kAlwaysKept, and then ends the text
// with "> N lines left out to stay within the B-byte budget (memory.budget_bytes)".
std::string FitToBudget(const std::vector<MemoryBlock>& blocks, size_t budget_bytes);

// The ISO 8601 week of a UTC day number: "2025-W28".
std::string IsoWeek(int64_t day);

}  // namespace kaizen::render
