// seed 000 §8.4 "Quality Rubric Generation": for each dimension with enough scores, what each score
// band looks like in reviewers' own feedback, and how often they gave it. The agent scores itself
// against it before submission.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "learn/reviews/score_bands.h"
#include "render/artifact.h"

namespace kaizen::render {

// How many themes a band lists (the seed's example shows 4-5 lines per band).
inline constexpr size_t kRubricThemesPerBand = 5;

// "code-quality" -> "Code Quality".
std::string DimensionTitle(std::string_view dimension);

// One markdown rubric: the header "## <Title> Rubric (generated from N scored reviews)", then per
// band "### Score 9-10 (Exceptional) — reviewers gave this P% of the time" (P rounded to a whole
// percent) and its themes: in the 9-10 and 7-8 bands the themes that came as praise (worded as
// the rule they honour), in 5-6 and 1-4 those that came as criticism (worded as the rejection
// pattern), most frequent first. A band with no such theme says so.
std::string RubricMarkdown(const learn::DimensionBands& bands);

// prompts/rubrics/<dimension>.md for each dimension with at least `min_scores` scores (§3.1's
// "20+ feedback events per dimension", GatesConfig::min_scores), sorted by path.
std::vector<RenderedFile> RubricFiles(const std::vector<learn::DimensionBands>& bands,
                                      int64_t min_scores);

}  // namespace kaizen::render
