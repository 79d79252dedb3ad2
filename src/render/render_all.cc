#include "render/render_all.h"

#include <algorithm>

#include "render/checklist.h"
#include "render/correction_patterns.h"
#include "render/memory_files.h"
#include "render/pattern_blocks.h"
#include "render/prompt_files.h"
#include "render/rubric.h"

namespace kaizen::render {
namespace {

void AddIfNotEmpty(std::string_view path, std::string content, std::vector<RenderedFile>* out) {
  if (content.empty()) return;
  out->push_back({std::string(path), std::move(content)});
}

void Append(std::vector<RenderedFile> more, std::vector<RenderedFile>* out) {
  for (RenderedFile& f : more) out->push_back(std::move(f));
}

}  // namespace

std::vector<RenderedFile> RenderAll(const learn::Learner& learner, int64_t now_ms) {
  std::vector<RenderedFile> files;
  Append(PromptFiles(learner.Rules(now_ms)), &files);
  // §8.4 has no count of its own; §3.1's 20+ scores per dimension (the gates' min_scores) is the
  // point where a dimension's score distribution is trusted.
  Append(RubricFiles(learner.score_bands().Result(),
                     static_cast<int64_t>(learner.config().gates.min_scores)),
         &files);
  AddIfNotEmpty(kChecklistPath, PreReviewChecklist(learner.RejectionPatterns(/*top=*/true)),
                &files);
  AddIfNotEmpty(kAntiPatternsPath, AntiPatternBlock(learner.outcomes().AntiPatterns()), &files);
  AddIfNotEmpty(kProvenPatternsPath, SuccessfulPatternBlock(learner.outcomes().Patterns(now_ms)),
                &files);
  Append(ErrorContextFiles(learner.errors()), &files);
  Append(MemoryFiles(learner, now_ms), &files);
  Append(CorrectionPatternFiles(learner, now_ms), &files);
  std::sort(files.begin(), files.end(),
            [](const RenderedFile& a, const RenderedFile& b) { return a.path < b.path; });
  return files;
}

}  // namespace kaizen::render
