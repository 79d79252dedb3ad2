// What the four memory files share at the end (the budget) and how they are listed; each file's
// renderer has a file of its own (memory_*.cc), their shared helpers memory_files_internal.h.
#include "render/memory_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "model/timestamp.h"

namespace kaizen::render {

std::string IsoWeek(int64_t day) {
  // 1970-01-01 was a Thursday; ISO weeks start on Monday and belong to their Thursday's year.
  const int64_t weekday = ((day + 3) % 7 + 7) % 7;  // 0 = Monday
  const int64_t thursday = day - weekday + 3;
  const int year = model::ToCivil(thursday * model::kMsPerDay).year;
  const int64_t week = (thursday - model::DaysFromCivil(year, 1, 1)) / 7 + 1;
  return fmt::format("{}-W{:02}", year, week);
}

std::string FitToBudget(const std::vector<MemoryBlock>& blocks, size_t budget_bytes) {
  size_t total = 0;
  for (const MemoryBlock& b : blocks) total += b.text.size();
  std::vector<bool> left_out(blocks.size(), false);
  std::vector<size_t> order;
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].priority < kAlwaysKept) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::make_tuple(blocks[a].priority, -static_cast<int64_t>(a)) <
           std::make_tuple(blocks[b].priority, -static_cast<int64_t>(b));
  });
  auto note = [&](size_t lines) {
    return fmt::format(
        "\n> {} line(s) left out to stay within the {}-byte budget (memory.budget_bytes).\n", lines,
        budget_bytes);
  };
  size_t lines = 0;
  for (size_t i : order) {
    if (total + (lines ? note(lines).size() : 0) <= budget_bytes) break;
    left_out[i] = true;
    total -= blocks[i].text.size();
    lines += static_cast<size_t>(std::count(blocks[i].text.begin(), blocks[i].text.end(), '\n'));
  }
  std::string out;
  out.reserve(total + 128);
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (!left_out[i]) out += blocks[i].text;
  }
  if (lines > 0) out += note(lines);
  return out;
}

std::vector<RenderedFile> MemoryFiles(const learn::Learner& learner, int64_t now_ms) {
  return {
      {"memory/feedback-patterns.md", FeedbackPatternsFile(learner, now_ms)},
      {"memory/quality-standards.md", QualityStandardsFile(learner, now_ms)},
      {"memory/reviewer-preferences.md", ReviewerPreferencesFile(learner, now_ms)},
      {"memory/improvement-log.md", ImprovementLogFile(learner, now_ms)},
  };
}

}  // namespace kaizen::render
