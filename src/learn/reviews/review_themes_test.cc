#include "learn/reviews/review_themes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text/text_analysis.h"

namespace kaizen::learn {
namespace {

// A review with more annotation categories than a linear scan is kept for: each category once
// per polarity, in first-seen order, with the highest severity any of its annotations gave.
TEST(ReviewThemesTest, ManyAnnotationCategoriesAreEachKeptOncePerSideInFirstSeenOrder) {
  std::vector<std::string> categories;
  for (int i = 0; i < 40; ++i) categories.push_back("cat-" + std::to_string(i));
  model::ReviewView review;
  for (int round = 0; round < 2; ++round) {
    for (const std::string& c : categories) {
      review.annotations.push_back({"criticism", round == 0 ? "minor" : "critical", c, "text"});
    }
  }
  review.annotations.push_back({"praise", "", "cat-3", "good"});
  const std::vector<ReviewTheme> themes = ReviewThemes(review, text::ThemeTaxonomy::Default());
  ASSERT_EQ(themes.size(), 41u);
  for (int i = 0; i < 40; ++i) {
    EXPECT_EQ(themes[i].theme, categories[i]);
    EXPECT_EQ(themes[i].polarity, -1);
    EXPECT_EQ(themes[i].severity, themes[0].severity);  // critical, from the second round
  }
  EXPECT_GT(themes[0].severity, 1);
  EXPECT_EQ(themes[40].theme, "cat-3");
  EXPECT_EQ(themes[40].polarity, 1);
}

}  // namespace
}  // namespace kaizen::learn
