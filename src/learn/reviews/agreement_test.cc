#include "learn/reviews/agreement.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: four observers,
// twelve units, missing values; the published alphas are 0.743 (nominal) and 0.849 (interval).
const std::vector<std::vector<double>> kPublishedExample = {
    {1, 1, 1},    {2, 2, 3, 2}, {3, 3, 3, 3}, {3, 3, 3, 3}, {2, 2, 2, 2}, {1, 2, 3, 4},
    {4, 4, 4, 4}, {1, 1, 2, 1}, {2, 2, 2, 2}, {5, 5, 5},    {1, 1},       {3}};

TEST(KrippendorffAlpha, MatchesThePublishedExample) {
  EXPECT_NEAR(*KrippendorffAlpha(kPublishedExample, /*interval=*/false), 0.743, 0.0005);
  EXPECT_NEAR(*KrippendorffAlpha(kPublishedExample, /*interval=*/true), 0.849, 0.0005);
}

TEST(KrippendorffAlpha, IsOneForPerfectAgreementAndNegativeForSystematicDisagreement) {
  EXPECT_DOUBLE_EQ(*KrippendorffAlpha({{1, 1}, {5, 5}, {3, 3}}, true), 1.0);
  EXPECT_LT(*KrippendorffAlpha({{1, 5}, {5, 1}, {1, 5}}, true), 0.0);
}

TEST(KrippendorffAlpha, IsUndefinedWithoutVariationOrPairs) {
  EXPECT_FALSE(KrippendorffAlpha({{2, 2}, {2, 2}}, false).has_value());
  EXPECT_FALSE(KrippendorffAlpha({{2}, {3}}, true).has_value());
}

class AgreementTest : public ::testing::Test {
 protected:
  AgreementTracker tracker_;
  int64_t at_ = 1'750'000'000'000;
  std::vector<std::string> ids_;  // the views below point into it

  void Review(const std::string& reviewer, int item, model::Decision d,
              std::optional<double> quality = {}) {
    ids_.push_back("item-" + std::to_string(item));
    model::ReviewView r;
    r.at_ms = at_++;
    r.reviewer = reviewer;
    r.work.artifact_id = ids_.back();
    r.work.version = "v1";
    r.decision = d;
    if (quality) r.scores.push_back(model::ScoreView{"code-quality", *quality});
    tracker_.Add(r);
  }
};

TEST_F(AgreementTest, OnePersonAloneHasNoAgreementToMeasure) {
  for (int i = 0; i < 30; ++i)
    Review("jake", i, i % 3 ? model::Decision::kApproved : model::Decision::kRejected);
  const AgreementResult r = tracker_.Result();
  EXPECT_EQ(r.decisions.items, 0);
  EXPECT_FALSE(r.decisions.alpha.has_value());
  EXPECT_TRUE(r.reviewers.empty());
}

TEST_F(AgreementTest, TwoReviewersWhoAgreeOnTenItemsHaveAlphaOne) {
  for (int i = 0; i < 10; ++i) {
    const model::Decision d = i % 2 ? model::Decision::kApproved : model::Decision::kRejected;
    Review("ana", i, d, 4.0 + i % 5);
    Review("bo", i, d, 4.0 + i % 5);
  }
  const AgreementResult r = tracker_.Result();
  EXPECT_EQ(r.decisions.items, 10);
  EXPECT_EQ(r.decisions.reviewers, 2);
  EXPECT_EQ(r.decisions.values, 20);
  EXPECT_DOUBLE_EQ(*r.decisions.alpha, 1.0);
  EXPECT_DOUBLE_EQ(*r.dimensions.at("code-quality").alpha, 1.0);
  ASSERT_EQ(r.reviewers.size(), 2u);
  EXPECT_EQ(r.reviewers[0].reviewer, "ana");
  EXPECT_EQ(r.reviewers[0].pairs, 10);
  EXPECT_DOUBLE_EQ(*r.reviewers[0].decision_agreement, 1.0);
  EXPECT_TRUE(r.clarifications.empty());
}

TEST_F(AgreementTest, BelowTenSharedItemsTheAlphaIsLeftNull) {
  for (int i = 0; i < 9; ++i) {
    Review("ana", i, i % 2 ? model::Decision::kApproved : model::Decision::kRejected);
    Review("bo", i, i % 2 ? model::Decision::kApproved : model::Decision::kRejected);
  }
  const AgreementResult r = tracker_.Result();
  EXPECT_EQ(r.decisions.items, 9);
  EXPECT_FALSE(r.decisions.alpha.has_value());
}

TEST_F(AgreementTest, ASplitDecisionIsListedForClarificationAndCountsAgainstAgreement) {
  for (int i = 0; i < 10; ++i) {
    Review("ana", i, model::Decision::kApproved);
    Review("bo", i, i == 3 ? model::Decision::kRejected : model::Decision::kApproved);
    Review("cy", i, i % 2 ? model::Decision::kApproved : model::Decision::kNeedsWork);
  }
  const AgreementResult r = tracker_.Result();
  ASSERT_EQ(r.clarifications.size(), 1u);
  EXPECT_EQ(r.clarifications[0].artifact_id, "item-3");
  EXPECT_EQ(r.clarifications[0].decisions.at("bo"), "rejected");
  EXPECT_EQ(r.clarifications[0].decisions.at("ana"), "approved");
  // ana agrees with bo on 9 of 10 and with cy on 5 of 10.
  EXPECT_DOUBLE_EQ(*r.reviewers[0].decision_agreement, 14.0 / 20.0);
  EXPECT_LT(*r.decisions.alpha, 1.0);
}

TEST_F(AgreementTest, AReviewersLaterReviewReplacesTheirEarlierOneAndDeferralsAreNotJudgements) {
  for (int i = 0; i < 10; ++i) {
    Review("ana", i, i % 2 ? model::Decision::kApproved : model::Decision::kRejected);
    Review("bo", i, model::Decision::kApproved);
    Review("bo", i,
           i % 2 ? model::Decision::kApproved : model::Decision::kRejected);  // changed their mind
    Review("cy", i, model::Decision::kDeferred);
    Review("", i, model::Decision::kRejected);  // nobody's
  }
  const AgreementResult r = tracker_.Result();
  EXPECT_EQ(r.decisions.reviewers, 2);
  EXPECT_EQ(r.decisions.values, 20);
  EXPECT_DOUBLE_EQ(*r.decisions.alpha, 1.0);
  EXPECT_TRUE(r.clarifications.empty());
}

}  // namespace
}  // namespace kaizen::learn
