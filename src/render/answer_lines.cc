#include "render/answer_lines.h"

#include <fmt/format.h>

#include "model/timestamp.h"
#include "render/safe_text.h"

namespace kaizen::render {

std::vector<std::string> AnswerLines(const learn::QuestionTracker& questions) {
  std::vector<std::string> out;
  for (const learn::QuestionAnswer& a : questions.Answers()) {
    if (out.size() >= kMaxAnswerLines) break;
    out.push_back(
        fmt::format("Asked {}, {} answered {} ({})", QuoteReviewerText(a.question),
                    a.person.empty() ? std::string("someone") : QuoteReviewerText(a.person),
                    QuoteReviewerText(a.answer), model::FormatDay(a.at_ms)));
  }
  return out;
}

}  // namespace kaizen::render
