#include "learn/reviews/recent_reviews.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kDay0 = 20'000 * model::kMsPerDay;  // 2024-10-04T00:00:00Z

model::ReviewView Review(std::string_view id, int64_t at_ms, std::string_view server,
                         model::Decision decision = model::Decision::kApproved) {
  model::ReviewView r;
  r.id = id;
  r.at_ms = at_ms;
  r.server_type = server;
  r.task_type = server;
  r.work.type = "mcp-server";
  r.stage = "review";
  r.decision = decision;
  return r;
}

std::vector<ReviewTheme> Themes(std::string_view theme, int8_t polarity) {
  ReviewTheme t;
  t.theme = std::string(theme);
  t.polarity = polarity;
  return {t};
}

TEST(PolarThemes, EachThemeOncePerSideSortedAndNothingLeftFromTheLastReview) {
  std::vector<ReviewTheme> themes(5);
  const std::pair<const char*, int8_t> given[] = {
      {"retries", +1}, {"docs", +1}, {"retries", +1}, {"naming", -1}, {"tests", 0}};
  for (size_t i = 0; i < themes.size(); ++i) {
    themes[i].theme = given[i].first;
    themes[i].polarity = given[i].second;
  }
  PolarThemes sides;
  sides.Split(themes);
  EXPECT_EQ(sides.positive, (std::vector<std::string_view>{"docs", "retries"}));
  EXPECT_EQ(sides.negative, (std::vector<std::string_view>{"naming"}));
  const std::vector<ReviewTheme> next = Themes("security", -1);  // the views are of its names
  sides.Split(next);
  EXPECT_TRUE(sides.positive.empty());
  EXPECT_EQ(sides.negative, (std::vector<std::string_view>{"security"}));
}

TEST(RecentReviews, DigestCountsDecisionsScoresAndThemeSidesPerDay) {
  MemoryConfig config;
  RecentReviews recent(config);
  model::ReviewView a = Review("a", kDay0 + 1000, "shopify", model::Decision::kApproved);
  a.scores = {{"error-handling", 8}, {"naming", 6}};
  model::ReviewView b = Review("b", kDay0 + 2000, "shopify", model::Decision::kRejected);
  b.scores = {{"error-handling", 3}};
  recent.Add(a, Themes("docs", +1), 0);
  recent.Add(b, Themes("retry-logic", -1), 0);
  recent.Add(Review("c", kDay0 + model::kMsPerDay, "stripe", model::Decision::kNeedsWork), {}, 0);

  ASSERT_EQ(recent.days().size(), 2u);
  const DayDigest& d = recent.days().at(model::DayOf(kDay0));
  EXPECT_EQ(d.reviews, 2);
  EXPECT_EQ(d.approved, 1);
  EXPECT_EQ(d.rejected, 1);
  EXPECT_EQ(d.scored_reviews, 2);
  EXPECT_DOUBLE_EQ(d.review_mean_sum, 7 + 3);
  const int eh = QualityDimensionIndex("error-handling");
  ASSERT_GE(eh, 0);
  EXPECT_EQ(d.dimensions[eh].n[7], 1);  // score 8
  EXPECT_EQ(d.dimensions[eh].n[2], 1);  // score 3
  EXPECT_EQ(d.themes.at("docs").positive, 1);
  EXPECT_DOUBLE_EQ(d.themes.at("docs").positive_score_sum, 7);
  EXPECT_EQ(d.themes.at("retry-logic").negative, 1);
  EXPECT_EQ(recent.days().at(model::DayOf(kDay0) + 1).needs_work, 1);
}

TEST(RecentReviews, KeepsOnlyTheNewestReviewsOfADayForQuoting) {
  MemoryConfig config;
  config.quoted_per_day = 2;
  RecentReviews recent(config);
  for (int i = 0; i < 5; ++i) {
    std::string id = "r" + std::to_string(i);
    recent.Add(Review(id, kDay0 + i, "shopify"), {}, 0);
  }
  const DayDigest& d = recent.days().begin()->second;
  EXPECT_EQ(d.reviews, 5);
  ASSERT_EQ(d.kept.size(), 2u);
  EXPECT_EQ(d.kept[0]->id, "r3");
  EXPECT_EQ(d.kept[1]->id, "r4");
}

TEST(RecentReviews, KeptTextIsCappedOnAUtf8Boundary) {
  RecentReviews recent(MemoryConfig{});
  std::string reason(KeptReview::kKeptBytes - 1, 'x');
  reason += "é and more";  // the cap falls inside the two-byte é
  model::ReviewView r = Review("a", kDay0, "shopify");
  r.reason = reason;
  recent.Add(r, {}, 0);
  const std::string_view kept = recent.days().begin()->second.kept[0]->reason;
  EXPECT_EQ(kept, std::string(KeptReview::kKeptBytes - 1, 'x'));
}

// Every kept string is a copy: the review's own buffers are reused as soon as it is folded, and
// retired copies are refilled with newer reviews.
TEST(RecentReviews, AKeptReviewOwnsItsTextAfterTheReviewsBuffersAreGoneAndWhenRecycled) {
  MemoryConfig config;
  config.similar_lookback = 2;
  config.quoted_per_day = 1;
  RecentReviews recent(config);
  std::string buffer;
  for (int i = 0; i < 40; ++i) {
    const std::string n = std::to_string(i);
    buffer = "id-" + n + "|jordan-" + n + "|stripe|mcp-server|review|why " + n + "|blocker " + n +
             "|suggest " + n + "|criticism " + n + "|security";
    std::vector<std::string_view> parts;
    for (size_t at = 0, bar; at <= buffer.size(); at = bar + 1) {
      bar = buffer.find('|', at);
      if (bar == std::string::npos) bar = buffer.size();
      parts.push_back(std::string_view(buffer).substr(at, bar - at));
    }
    model::ReviewView r = Review(parts[0], kDay0 + i, parts[2], model::Decision::kRejected);
    r.reviewer = parts[1];
    r.work.type = parts[3];
    r.stage = parts[4];
    r.reason = parts[5];
    r.blockers = {parts[6]};
    r.suggestions = {parts[7]};
    model::AnnotationView criticism;
    criticism.type = "criticism";
    criticism.text = parts[8];
    r.annotations = {criticism};
    r.scores = {{parts[9], 2}};
    recent.Add(r, Themes("error-handling", -1), 0);
    buffer.assign(buffer.size(), '#');  // the line the review was read from is gone
  }
  SimilarityQuery q{"stripe", "", "", {}};
  const std::vector<SimilarReview> similar = recent.Similar(q, kDay0 + 100, 5, 0.7);
  ASSERT_EQ(similar.size(), 2u);
  const KeptReview& k = *similar[0].review;
  EXPECT_EQ(k.id, "id-39");
  EXPECT_EQ(k.reviewer, "jordan-39");
  EXPECT_EQ(k.server_type, "stripe");
  EXPECT_EQ(k.work_type, "mcp-server");
  EXPECT_EQ(k.stage, "review");
  EXPECT_EQ(k.reason, "why 39");
  EXPECT_EQ(k.blockers, (std::vector<std::string_view>{"blocker 39"}));
  EXPECT_EQ(k.suggestions, (std::vector<std::string_view>{"suggest 39"}));
  EXPECT_EQ(k.criticisms, (std::vector<std::string_view>{"criticism 39"}));
  EXPECT_EQ(k.themes, (std::vector<std::string_view>{"error-handling"}));
  ASSERT_EQ(k.scores.size(), 1u);
  EXPECT_EQ(k.scores[0].first, "security");
  EXPECT_EQ(similar[1].review->id, "id-38");
  EXPECT_EQ(similar[1].review->reason, "why 38");
}

TEST(Similarity, FullMatchIsOneAndAnotherServerTypeStaysBelowTheSeedBar) {
  KeptReview r;
  r.server_type = "shopify";
  r.work_type = "mcp-server";
  r.stage = "review";
  r.scores = {{"security", 7}, {"naming", 5}};
  SimilarityQuery q{"shopify", "mcp-server", "review", {"security", "naming"}};
  EXPECT_DOUBLE_EQ(Similarity(q, r), 1.0);
  q.server_type = "stripe";
  EXPECT_NEAR(Similarity(q, r), 0.6, 1e-12);
  EXPECT_LT(Similarity(q, r), MemoryConfig{}.min_similarity);
}

TEST(Similarity, DimensionsCountByJaccardAndEmptyQueryFieldsMatch) {
  KeptReview r;
  r.server_type = "shopify";
  r.stage = "build";
  r.scores = {{"security", 7}, {"naming", 5}};
  // server 0.4 + type (empty query) 0.2 + stage mismatch 0 + Jaccard {security}/{security,
  // naming, dx} = 1/3 x 0.2.
  SimilarityQuery q{"shopify", "", "review", {"security", "dx"}};
  EXPECT_NEAR(Similarity(q, r), 0.4 + 0.2 + 0.2 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(Similarity(SimilarityQuery{}, r), 1.0);
}

TEST(RecentReviews, SimilarListsTheNewestSimilarAtOrBeforeNow) {
  MemoryConfig config;
  RecentReviews recent(config);
  for (int i = 0; i < 8; ++i) {
    std::string id = "s" + std::to_string(i);
    recent.Add(Review(id, kDay0 + i * 1000, i % 2 ? "shopify" : "stripe"), {}, 0);
  }
  SimilarityQuery q{"shopify", "mcp-server", "review", {}};
  // Shopify reviews are s1, s3, s5, s7; s7 is after now.
  std::vector<SimilarReview> got = recent.Similar(q, kDay0 + 6000, 2, 0.7);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].review->id, "s5");
  EXPECT_EQ(got[1].review->id, "s3");
  EXPECT_DOUBLE_EQ(got[0].similarity, 1.0);
  EXPECT_TRUE(recent.Similar({"ghl", "", "", {}}, kDay0 + 9000, 5, 0.7).empty());
}

TEST(RecentReviews, SimilarLooksBackOnlySimilarLookbackReviewsOfTheServerType) {
  MemoryConfig config;
  config.similar_lookback = 3;
  RecentReviews recent(config);
  for (int i = 0; i < 10; ++i) {
    recent.Add(Review("r" + std::to_string(i), kDay0 + i, "shopify"), {}, 0);
  }
  std::vector<SimilarReview> got = recent.Similar({"shopify", "", "", {}}, kDay0 + 100, 5, 0.7);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[2].review->id, "r7");
}

TEST(RecentReviews, RecordsEachAutonomyLevelChangeOfATaskType) {
  RecentReviews recent(MemoryConfig{});
  recent.Add(Review("a", kDay0, "shopify"), {}, 0);
  recent.Add(Review("b", kDay0 + 1, "shopify"), {}, 1);
  recent.Add(Review("c", kDay0 + 2, "shopify"), {}, 1);
  recent.Add(Review("d", kDay0 + 3, "shopify"), {}, 0);
  ASSERT_EQ(recent.level_changes().size(), 2u);
  EXPECT_EQ(recent.level_changes()[0].task_type, "shopify");
  EXPECT_EQ(recent.level_changes()[0].from, 0);
  EXPECT_EQ(recent.level_changes()[0].to, 1);
  EXPECT_EQ(recent.level_changes()[0].at_ms, kDay0 + 1);
  EXPECT_EQ(recent.level_changes()[1].to, 0);
}

TEST(MemoryConfig, FieldsAreNamedUnderMemory) {
  MemoryConfig config;
  for (const ConfigField& f : config.Fields()) {
    EXPECT_EQ(f.name.substr(0, 7), "memory.") << f.name;
    EXPECT_GE(*f.value, f.min) << f.name;
    EXPECT_LE(*f.value, f.max) << f.name;
  }
}

}  // namespace
}  // namespace kaizen::learn
