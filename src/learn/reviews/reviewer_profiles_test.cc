#include "learn/reviews/reviewer_profiles.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kDay0 = 20'000 * model::kMsPerDay;

class ReviewerProfilesTest : public ::testing::Test {
 protected:
  ReviewerProfiles profiles_{MemoryConfig{}, SpeedConfig{}, CommunicationConfig{},
                             SignalWeightConfig{}};

  void Add(std::string_view reviewer, std::string_view task, model::Decision d, double seconds,
           std::vector<ReviewTheme> themes = {}) {
    model::ReviewView r;
    r.at_ms = kDay0 + static_cast<int64_t>(++n_) * 1000;
    r.reviewer = reviewer;
    r.task_type = task;
    r.server_type = task;
    r.decision = d;
    r.time_to_decision_ms = seconds * 1000;
    r.time_of_day = "morning";
    profiles_.Add(r, themes);
  }
  static std::vector<ReviewTheme> Theme(std::string_view theme, int8_t polarity) {
    ReviewTheme t;
    t.theme = std::string(theme);
    t.polarity = polarity;
    return {t};
  }
  int n_ = 0;
};

TEST_F(ReviewerProfilesTest, ReviewersAreSortedByNameWithTheUnnamedLast) {
  Add("", "shopify", model::Decision::kApproved, 10);
  Add("zoe", "shopify", model::Decision::kApproved, 10);
  Add("amy", "shopify", model::Decision::kApproved, 10);
  Add("amy", "shopify", model::Decision::kRejected, 10);
  auto reviewers = profiles_.Reviewers();
  ASSERT_EQ(reviewers.size(), 3u);
  EXPECT_EQ(reviewers[0], (std::pair<std::string, int64_t>{"amy", 2}));
  EXPECT_EQ(reviewers[1].first, "zoe");
  EXPECT_EQ(reviewers[2].first, "");
  EXPECT_FALSE(profiles_.Profile("nobody").has_value());
}

TEST_F(ReviewerProfilesTest, FastApprovalsAndDeliberationComeFromDecisionSpeedByTaskType) {
  for (int i = 0; i < 5; ++i) Add("jake", "shopify", model::Decision::kApproved, 12);
  for (int i = 0; i < 5; ++i)
    Add("jake", "stripe", i ? model::Decision::kApproved : model::Decision::kRejected, 400);
  for (int i = 0; i < 4; ++i) Add("jake", "ghl", model::Decision::kApproved, 5);  // too few reviews
  for (int i = 0; i < 5; ++i) Add("jake", "notion", model::Decision::kRejected, 60);
  ReviewerProfile p = *profiles_.Profile("jake");
  ASSERT_EQ(p.approves_quickly.size(), 1u);
  EXPECT_EQ(p.approves_quickly[0].task_type, "shopify");
  EXPECT_DOUBLE_EQ(p.approves_quickly[0].avg_seconds, 12);
  ASSERT_EQ(p.deliberates_on.size(), 1u);
  EXPECT_EQ(p.deliberates_on[0].task_type, "stripe");
  ASSERT_EQ(p.always_rejects.size(), 1u);
  EXPECT_EQ(p.always_rejects[0].task_type, "notion");
  EXPECT_EQ(p.reviews, 19);
  EXPECT_EQ(p.rejected, 6);
}

TEST_F(ReviewerProfilesTest, ThemesNeedMinSignalsOnTheirSide) {
  for (int i = 0; i < 3; ++i)
    Add("jake", "shopify", model::Decision::kRejected, 60, Theme("retry", -1));
  for (int i = 0; i < 2; ++i)
    Add("jake", "shopify", model::Decision::kApproved, 60, Theme("docs", +1));
  ReviewerProfile p = *profiles_.Profile("jake");
  ASSERT_EQ(p.criticized.size(), 1u);
  EXPECT_EQ(p.criticized[0].theme, "retry");
  EXPECT_EQ(p.criticized[0].negative, 3);
  EXPECT_TRUE(p.praised.empty());
}

TEST_F(ReviewerProfilesTest, ComparisonsCreditThePreferredOptionsDistinctAttributes) {
  model::ReviewView r;
  r.at_ms = kDay0;
  r.reviewer = "jake";
  r.decision = model::Decision::kApproved;
  model::ComparisonView c;
  c.option_a.type = "design";
  c.option_a.model = "opus";
  c.option_b.type = "code-module";
  c.option_b.model = "opus";  // shared: no evidence
  c.preferred = "A";
  c.dimensions = {{"design-ux", 'A'}, {"performance", 'B'}, {"naming", 'T'}};
  r.comparison = c;
  profiles_.Add(r, {});
  profiles_.Add(r, {});
  ReviewerProfile p = *profiles_.Profile("jake");
  EXPECT_EQ(p.comparisons, 2);
  ASSERT_EQ(p.comparison_winners.size(), 1u);
  EXPECT_EQ(p.comparison_winners[0].attribute, "type:design");
  EXPECT_EQ(p.comparison_winners[0].won, 2);
  ASSERT_EQ(p.deciding_dimensions.size(), 1u);
  EXPECT_EQ(p.deciding_dimensions[0].dimension, "design-ux");
  EXPECT_EQ(p.deciding_dimensions[0].agreed, 2);
}

}  // namespace
}  // namespace kaizen::learn
