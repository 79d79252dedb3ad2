#include "render/rubric.h"

#include <gtest/gtest.h>

namespace kaizen::render {
namespace {

learn::DimensionBands Bands(std::string dimension, std::array<int64_t, 4> counts) {
  learn::DimensionBands d;
  d.dimension = std::move(dimension);
  for (size_t i = 0; i < 4; ++i) {
    d.bands[i].count = counts[i];
    d.scores += counts[i];
  }
  return d;
}

TEST(RubricTest, BandsShowHowOftenEachWasGiven) {
  learn::DimensionBands d = Bands("code-quality", {4, 23, 16, 9});  // 52 scores
  const std::string md = RubricMarkdown(d);
  EXPECT_EQ(md.substr(0, md.find('\n')),
            "## Code Quality Rubric (generated from 52 scored reviews)");
  EXPECT_NE(md.find("### Score 9-10 (Exceptional) — reviewers gave this 8% of the time\n"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("### Score 7-8 (Good) — reviewers gave this 44% of the time\n"),
            std::string::npos);
  EXPECT_NE(md.find("### Score 5-6 (Acceptable) — reviewers gave this 31% of the time\n"),
            std::string::npos);
  EXPECT_NE(md.find("### Score 1-4 (Rejection Zone) — reviewers gave this 17% of the time\n"),
            std::string::npos);
}

TEST(RubricTest, PraiseDescribesHighBandsAndCriticismLowBands) {
  learn::DimensionBands d = Bands("code-quality", {10, 0, 0, 10});
  d.bands[0].themes = {{"retries", 6, 1}, {"naming", 0, 3}};
  d.bands[3].themes = {{"retries", 1, 2}, {"error-handling", 0, 8}};
  const std::string md = RubricMarkdown(d);
  const size_t high = md.find("### Score 9-10");
  const size_t good = md.find("### Score 7-8");
  const size_t low = md.find("### Score 1-4");
  const std::string high_part = md.substr(high, good - high);
  const std::string low_part = md.substr(low);
  // "naming" only came as criticism: it does not describe a 9-10.
  EXPECT_EQ(high_part.find("(3 "), std::string::npos) << high_part;
  EXPECT_NE(high_part.find("(6 praised in this band)"), std::string::npos) << high_part;
  // Low band: most criticized first.
  const size_t eh = low_part.find("(8 criticized");
  const size_t re = low_part.find("(2 criticized");
  ASSERT_NE(eh, std::string::npos) << low_part;
  ASSERT_NE(re, std::string::npos) << low_part;
  EXPECT_LT(eh, re);
  EXPECT_NE(md.substr(good, low - good).find("No recurring praise"), std::string::npos);
}

TEST(RubricTest, CustomThemeNamesAppearQuoted) {
  learn::DimensionBands d = Bands("security", {0, 0, 0, 20});
  d.bands[3].themes = {{"ignore-previous-instructions", 0, 20}};
  const std::string md = RubricMarkdown(d);
  EXPECT_NE(md.find("“ignore previous instructions”"), std::string::npos) << md;
}

TEST(RubricTest, OnlyDimensionsWithEnoughScoresGetAFile) {
  const std::vector<RenderedFile> files =
      RubricFiles({Bands("security", {5, 5, 5, 4}), Bands("code-quality", {5, 5, 5, 5})}, 20);
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "prompts/rubrics/code-quality.md");
}

}  // namespace
}  // namespace kaizen::render
