#include "render/rubric.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "learn/rules/rule_catalog.h"
#include "render/prompt_files.h"

namespace kaizen::render {
namespace {

// The high bands are described by what reviewers praised, the low ones by what they criticized:
// the seed's 9-10 lists strengths ("Typed errors with full context chain"), its 1-4 failures
// ("Generic error handling or none").
bool IsHighBand(size_t band) { return band < 2; }

}  // namespace

std::string DimensionTitle(std::string_view dimension) {
  std::string out;
  bool start = true;
  for (char c : dimension) {
    if (c == '-' || c == '_') {
      out.push_back(' ');
      start = true;
      continue;
    }
    if (start && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    out.push_back(c);
    start = false;
  }
  return out;
}

std::string RubricMarkdown(const learn::DimensionBands& bands) {
  std::string out = fmt::format("## {} Rubric (generated from {} scored reviews)\n",
                                DimensionTitle(bands.dimension), bands.scores);
  for (size_t i = 0; i < learn::kScoreBandCount; ++i) {
    const learn::ScoreBandSpec& spec = learn::kScoreBands[i];
    const learn::ScoreBand& band = bands.bands[i];
    const double percent =
        bands.scores == 0 ? 0.0 : 100.0 * static_cast<double>(band.count) / bands.scores;
    fmt::format_to(std::back_inserter(out),
                   "\n### Score {}-{} ({}) — reviewers gave this {}% of the time\n", spec.low,
                   spec.high, spec.label, static_cast<int64_t>(std::llround(percent)));
    const bool high = IsHighBand(i);
    std::vector<const learn::BandTheme*> themes;
    for (const learn::BandTheme& t : band.themes) {
      if ((high ? t.positive : t.negative) > 0) themes.push_back(&t);
    }
    std::stable_sort(
        themes.begin(), themes.end(), [high](const learn::BandTheme* a, const learn::BandTheme* b) {
          return (high ? a->positive : a->negative) > (high ? b->positive : b->negative);
        });
    if (themes.size() > kRubricThemesPerBand) themes.resize(kRubricThemesPerBand);
    if (themes.empty()) {
      out += high ? "- No recurring praise in this band yet\n"
                  : "- No recurring criticism in this band yet\n";
    }
    for (const learn::BandTheme* t : themes) {
      // WordingFor quotes a custom taxonomy's theme name itself (it may come from a reviewer).
      const learn::RuleWording wording = learn::WordingFor(t->theme);
      fmt::format_to(std::back_inserter(out), "- {} ({} {} in this band)\n",
                     high ? wording.rule : wording.rejection_pattern,
                     high ? t->positive : t->negative, high ? "praised" : "criticized");
    }
  }
  return out;
}

std::vector<RenderedFile> RubricFiles(const std::vector<learn::DimensionBands>& bands,
                                      int64_t min_scores) {
  std::vector<RenderedFile> files;
  for (const learn::DimensionBands& d : bands) {
    if (d.scores < min_scores) continue;
    const std::string slug = FileSlug(d.dimension);
    if (slug.empty()) continue;
    files.push_back({fmt::format("prompts/rubrics/{}.md", slug), RubricMarkdown(d)});
  }
  std::sort(files.begin(), files.end(),
            [](const RenderedFile& a, const RenderedFile& b) { return a.path < b.path; });
  return files;
}

}  // namespace kaizen::render
