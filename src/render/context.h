// Contextual memory retrieval (seed 000 §5.3 getRelevantFeedback): what the agent should read
// before a task of a given server type, work type, stage and set of quality dimensions.
//
//   preferences    per-reviewer taste, condensed (the most active reviewers first)
//   standards      the gates of the task's dimensions and the calibration corrections
//   patterns       rules (active, then candidates) matching the task: applies_to covers the
//                  server type (or is "all"), work_types cover the work type, the domain is one
//                  of the dimensions; a field the query leaves empty matches everything. Rules
//                  carry no stage: the stage only weighs in the similarity of past reviews.
//   recentSimilar  the newest similar_limit reviews with Similarity >= min_similarity
//                  (learn/reviews/recent_reviews.h defines the measure)
//   antiPatterns   the rejection-pattern registry for the server type, then seed 002 outcome
//                  anti-patterns (these carry no server type)
//   afterReview    seed 001 signals: what happened to the agent's work after review (reverts,
//                  people rewriting its lines, CI, ratings) and the latest failed outcomes
//
// Cost: bounded per call whatever the history holds (a ring of similar_lookback reviews, the
// rule book, the gates' 30 daily histograms, the reviewers' counts); no scan of the log.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"
#include "learn/learner.h"

namespace kaizen::render {

struct ContextQuery {
  std::string server_type, work_type, stage;
  std::vector<std::string> dimensions;  // seed 000 QualityDimension names
  // The project the task is in (issue 30 item 5), any spelling model::ProjectKey reads: its
  // rules and instructions on top of the global layer's. Empty: the global layer only.
  std::string project;
};

// "a,b" into dimension names; InvalidArgument names the bad value and the 13 valid ones.
Status ParseDimensions(std::string_view csv, std::vector<std::string>* out);

struct ContextPattern {
  std::string id, status, instruction;  // instruction: sanitized prompt_instruction
  double confidence = 0;
  std::vector<std::string> matched_on;  // serverType | type | domain, or "all"
};

struct ContextReview {
  std::string id, at, reviewer, decision, server_type, work_type, stage;  // sanitized labels
  double similarity = 0;
  std::string words;  // the reviewer's reason and blockers, each quoted (QuoteReviewerText)
};

struct ContextAntiPattern {
  std::string source;  // rejection-pattern | outcome
  std::string text;    // sanitized
  int64_t occurrences = 0;
  std::optional<double> failure_rate;  // outcome anti-patterns
};

struct ContextResult {
  ContextQuery query;  // sanitized
  int64_t now_ms = 0;
  std::vector<std::string> preferences;  // one line each, reviewer names quoted
  std::vector<std::string> standards;
  std::vector<ContextPattern> patterns;
  std::vector<ContextReview> recent_similar;  // newest first
  std::vector<ContextAntiPattern> anti_patterns;
  std::vector<std::string> after_review;  // render/signal_lines.h
  std::vector<std::string> told;          // render/told_lines.h
  size_t budget_tokens = 0;               // 0: not trimmed
  std::map<std::string, size_t> trimmed;  // section key -> items left out
};

// Everything relevant, untrimmed. Pure: same learner, query and now, same result.
// REQUIRES: the learner folds kContextParts.
ContextResult Context(const learn::Learner& learner, const ContextQuery& query, int64_t now_ms);
// What Context reads: a learner of these parts alone gives the same context.
inline const learn::Parts kContextParts = {learn::Part::kProfiles,    learn::Part::kGates,
                                           learn::Part::kCalibration, learn::Part::kRecent,
                                           learn::Part::kRules,       learn::Part::kEvidence,
                                           learn::Part::kOutcomes,    learn::Part::kSignals};

std::string ContextMarkdown(const ContextResult& result);
std::string ContextJson(const ContextResult& result);  // one object and a newline

enum class ContextFormat { kMarkdown, kJson };
// Tokens are estimated as bytes / 4, rounded up.
inline size_t EstimateTokens(size_t bytes) { return (bytes + 3) / 4; }
// Leaves out the lowest-priority items until the rendering fits budget_tokens, recording in
// result->trimmed how many per section, and returns the rendering. Trim order (first to go):
// recentSimilar (oldest first), preferences, standards, patterns, antiPatterns, each from its
// end. When even the empty sections are over the budget, returns them anyway.
std::string RenderContext(ContextResult* result, ContextFormat format, size_t budget_tokens);

}  // namespace kaizen::render
