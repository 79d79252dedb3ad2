// Candidate rules as the agent is told them: what reviews repeat but no rule says yet (seed 000
// §9.3's guards not met, or confidence not above §8.3's 0.8). Each is marked as a candidate, with
// its evidence and what would make it a rule, so the agent can follow it where it costs nothing
// without taking it for a rule. Pure.
#pragma once

#include <string>
#include <vector>

#include "learn/rules/rule_book.h"

namespace kaizen::render {

// "Candidate, not a rule yet: <rule> (4 rejections on 4 days, e.g. “uses any again”; a rule
// after 3 more rejections citing it)". Reviewer words are quoted (QuoteReviewerText).
std::string CandidateLine(const learn::LearnedRule& rule);

// The candidate and emerging rules of `rules`, in their order, at most `limit`.
std::vector<const learn::LearnedRule*> Candidates(const std::vector<learn::LearnedRule>& rules,
                                                  size_t limit);

}  // namespace kaizen::render
