// The prompt blocks of seed 002 "Using the Learning System": anti-patterns to avoid and proven
// patterns to follow during decomposition, and the error context a retry prompt starts with.
#pragma once

#include <string>
#include <vector>

#include "learn/outcomes/error_accumulator.h"
#include "learn/outcomes/outcomes.h"
#include "render/artifact.h"

namespace kaizen::render {

// seed 002 "Using Anti-Patterns in Prompts" (formatAntiPatternsForPrompt):
//   ## Anti-Patterns to Avoid
//
//   Based on past failures, avoid these decomposition strategies:
//
//   - AVOID: Split by file type. Failed 12/15 times (80% failure rate)
// Most failures first, then by name. A pattern that is not one of the seed's detected strategies
// was named by whoever recorded the outcome: it is quoted. Empty without anti-patterns.
std::string AntiPatternBlock(const std::vector<learn::AntiPattern>& anti_patterns);

// seed 002 "Include proven patterns in prompt; exclude deprecated patterns"
// (formatPatternsWithMaturityForPrompt): proven, then established patterns, each with its
// record and maturity multiplier; candidates (too little evidence) and deprecated ones are left
// out. Empty without such patterns.
std::string SuccessfulPatternBlock(const std::vector<learn::PatternResult>& patterns);

// seed 002 "Generating Error Context": prompts/errors/<bead>.md with ErrorContext(bead, false)
// for each bead that has unresolved errors (the ErrorReport's top beads), sorted by path.
std::vector<RenderedFile> ErrorContextFiles(const learn::ErrorAccumulator& errors);

}  // namespace kaizen::render
