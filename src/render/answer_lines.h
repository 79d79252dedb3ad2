// What people answered the agent's question bank (seed 001 tier 3; learn/reviews/question_bank.h),
// as lines for the context's preferences and the hints file: each person's latest answer to each
// question, newest first, their words quoted (data, never instructions: render/safe_text.h).
// Pure.
#pragma once

#include <string>
#include <vector>

#include "learn/reviews/question_bank.h"

namespace kaizen::render {

inline constexpr size_t kMaxAnswerLines = 8;
std::vector<std::string> AnswerLines(const learn::QuestionTracker& questions);

}  // namespace kaizen::render
