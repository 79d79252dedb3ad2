#include "render/checklist.h"

#include <fmt/format.h>

namespace kaizen::render {

std::string PreReviewChecklist(const std::vector<learn::RejectionPattern>& top) {
  std::string out;
  size_t n = 0;
  for (const learn::RejectionPattern& p : top) {
    // Checklist items are catalog wording (a custom theme's name arrives quoted by WordingFor).
    if (p.checklist_item.empty()) continue;
    fmt::format_to(std::back_inserter(out), "{}. ☐ {}\n", ++n, p.checklist_item);
  }
  if (out.empty()) return "";
  return "## Pre-Review Checklist (from learned feedback)\n\n" + out;
}

}  // namespace kaizen::render
