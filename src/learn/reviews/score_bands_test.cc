#include "learn/reviews/score_bands.h"

#include <gtest/gtest.h>

namespace kaizen::learn {
namespace {

ReviewTheme Theme(std::string name, int8_t polarity) {
  ReviewTheme t;
  t.theme = std::move(name);
  t.polarity = polarity;
  return t;
}

TEST(ScoreBandsTest, ScoresFallIntoTheSeedsFourBands) {
  EXPECT_EQ(ScoreBandOf(10), 0u);
  EXPECT_EQ(ScoreBandOf(9), 0u);
  EXPECT_EQ(ScoreBandOf(8.4), 1u);
  EXPECT_EQ(ScoreBandOf(8.5), 0u);  // rounds half up
  EXPECT_EQ(ScoreBandOf(7), 1u);
  EXPECT_EQ(ScoreBandOf(6), 2u);
  EXPECT_EQ(ScoreBandOf(5), 2u);
  EXPECT_EQ(ScoreBandOf(4.49), 3u);
  EXPECT_EQ(ScoreBandOf(1), 3u);
  EXPECT_EQ(ScoreBandOf(-3), 3u);  // out of range clamps
  EXPECT_EQ(ScoreBandOf(42), 0u);
}

TEST(ScoreBandsTest, CountsBandsPerDimensionAndThemesByPolarity) {
  ScoreBands bands;
  model::ReviewView high;
  high.scores = {{"code-quality", 9}, {"design-aesthetics", 6}};
  bands.Add(high, {Theme("typed-errors", +1), Theme("naming", -1)});
  model::ReviewView low;
  low.scores = {{"code-quality", 3}};
  bands.Add(low, {Theme("missing-retry", -1), Theme("naming", -1), Theme("neutral", 0)});
  model::ReviewView low2;
  low2.scores = {{"code-quality", 2}};
  bands.Add(low2, {Theme("missing-retry", -1)});

  const std::vector<DimensionBands> result = bands.Result();
  ASSERT_EQ(result.size(), 2u);
  EXPECT_EQ(result[0].dimension, "code-quality");  // sorted by name
  EXPECT_EQ(result[1].dimension, "design-aesthetics");

  const DimensionBands& code = result[0];
  EXPECT_EQ(code.scores, 3);
  EXPECT_EQ(code.bands[0].count, 1);
  EXPECT_EQ(code.bands[1].count, 0);
  EXPECT_EQ(code.bands[3].count, 2);
  ASSERT_EQ(code.bands[0].themes.size(), 2u);
  EXPECT_EQ(code.bands[0].themes[0].theme, "naming");  // tie on count: by name
  EXPECT_EQ(code.bands[0].themes[1].theme, "typed-errors");
  EXPECT_EQ(code.bands[0].themes[1].positive, 1);
  ASSERT_EQ(code.bands[3].themes.size(), 2u);  // the polarity-0 theme is not evidence
  EXPECT_EQ(code.bands[3].themes[0].theme, "missing-retry");
  EXPECT_EQ(code.bands[3].themes[0].negative, 2);
  EXPECT_EQ(code.bands[3].themes[0].positive, 0);

  // The review's themes also count for its other scored dimension.
  EXPECT_EQ(result[1].bands[2].count, 1);
  EXPECT_EQ(result[1].bands[2].themes.size(), 2u);
}

TEST(ScoreBandsTest, ReviewsWithoutScoresAddNothing) {
  ScoreBands bands;
  model::ReviewView r;
  bands.Add(r, {Theme("naming", -1)});
  EXPECT_TRUE(bands.Result().empty());
}

}  // namespace
}  // namespace kaizen::learn
