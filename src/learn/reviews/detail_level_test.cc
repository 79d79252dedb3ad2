#include "learn/reviews/detail_level.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

model::ReviewView Shown(std::vector<model::SectionView> sections) {
  model::ReviewView r;
  r.sections = std::move(sections);
  return r;
}

TEST(DetailLevel, ASectionNobodyReadsIsDroppedOneAlwaysOpenedIsExpanded) {
  DetailLevelTracker t;
  for (int i = 0; i < 6; ++i) {
    t.Add(Shown({{"Architecture Decisions", 300, false},                 // scrolled past
                 {"Test Coverage", 9000, i < 4},                         // opened 4 of 6
                 {"Error Handling", i == 0 ? 5000.0 : 800.0, false}}));  // read once
  }
  const std::vector<SectionStats> s = t.Result();
  ASSERT_EQ(s.size(), 3u);  // by name
  EXPECT_EQ(s[0].advice, "drop");
  EXPECT_EQ(s[0].name, "Architecture Decisions");
  EXPECT_EQ(s[0].read, 0);
  EXPECT_DOUBLE_EQ(s[0].mean_visible_seconds, 0.3);
  EXPECT_EQ(s[1].name, "Error Handling");
  EXPECT_EQ(s[1].advice, "drop");  // 1 of 6 read: under a fifth
  EXPECT_EQ(s[2].name, "Test Coverage");
  EXPECT_EQ(s[2].advice, "expand");
  EXPECT_EQ(s[2].expanded, 4);
}

TEST(DetailLevel, NoAdviceBeforeFiveReviewsShowedTheSection) {
  DetailLevelTracker t;
  for (int i = 0; i < 4; ++i) t.Add(Shown({{"Risks", 0, false}}));
  EXPECT_EQ(t.Result().at(0).advice, "");
  t.Add(Shown({{"Risks", 0, false}}));
  EXPECT_EQ(t.Result().at(0).advice, "drop");
}

}  // namespace
}  // namespace kaizen::learn
