// seed 000 §3.2 "Top 5 Rejection Reasons (updated weekly, surfaced in Buba's pre-review prompt)":
// the rejection-pattern registry's checklist items as a numbered checklist.
#pragma once

#include <string>
#include <vector>

#include "learn/rules/rule_book.h"

namespace kaizen::render {

// "## Pre-Review Checklist (from learned feedback)" and one "N. ☐ <checklist item>" line per
// pattern, in the registry's order (most occurrences first). `top` is
// Learner::RejectionPatterns(true), already cut to the registry size. Empty when `top` is.
std::string PreReviewChecklist(const std::vector<learn::RejectionPattern>& top);

}  // namespace kaizen::render
