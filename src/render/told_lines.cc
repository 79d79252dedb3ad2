#include "render/told_lines.h"

#include <fmt/format.h>

#include "model/timestamp.h"
#include "render/safe_text.h"

namespace kaizen::render {

std::vector<std::string> ToldLines(const learn::SessionPrompts& prompts, std::string_view project) {
  std::vector<std::string> out;
  for (const learn::ToldInstruction& t : prompts.Told(kMaxToldLines, project)) {
    out.push_back(fmt::format("{} ({}{}, last {})", QuoteReviewerText(t.text), t.judgement,
                              t.times > 1 ? fmt::format(", said {} times", t.times) : "",
                              model::FormatDay(t.last_ms)));
  }
  return out;
}

}  // namespace kaizen::render
