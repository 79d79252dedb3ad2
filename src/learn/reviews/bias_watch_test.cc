#include "learn/reviews/bias_watch.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace kaizen::learn {
namespace {

constexpr int64_t kNow = 1752226200000;  // 2025-07-11T09:30:00Z
constexpr int64_t kDay = model::kMsPerDay;
// Window starts: the last window is 2025-06-12..2025-07-11, then 05-13..06-11, 04-13..05-12.
constexpr int64_t kLast = kNow - 10 * kDay;
constexpr int64_t kMiddle = kNow - 40 * kDay;
constexpr int64_t kFirst = kNow - 70 * kDay;

model::ReviewView Review(int64_t at, model::Decision d,
                         std::optional<double> creativity = std::nullopt) {
  model::ReviewView r;
  r.at_ms = at;
  r.decision = d;
  if (creativity) r.scores = {{"naming", 2}, {"creativity", *creativity}};
  return r;
}

model::WorkView Work(int64_t at, bool experimental) {
  model::WorkView w;
  w.at_ms = at;
  w.experimental = experimental;
  return w;
}

std::string Json(const BiasResult& r) {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  WriteJson(w, r);
  return buffer.GetString();
}

class BiasWatchTest : public ::testing::Test {
 protected:
  // One window: `approved` of 10 decisions, and `scores` creativity scores of `creativity`.
  void Window(int64_t at, int approved, int scores, double creativity) {
    for (int i = 0; i < 10; ++i) {
      watch_.Add(Review(at, i < approved ? model::Decision::kApproved : model::Decision::kRejected,
                        i < scores ? std::optional(creativity) : std::nullopt));
    }
  }

  BiasConfig config_;
  BiasWatch watch_{config_};
};

TEST_F(BiasWatchTest, EmptyHasNullWindowsAndNoExploration) {
  EXPECT_EQ(Json(watch_.Result(kNow)),
            R"({"windows":[)"
            R"({"from":"2025-04-13","to":"2025-05-12","approvalRate":null,"creativity":null,)"
            R"("creativityN":0},)"
            R"({"from":"2025-05-13","to":"2025-06-11","approvalRate":null,"creativity":null,)"
            R"("creativityN":0},)"
            R"({"from":"2025-06-12","to":"2025-07-11","approvalRate":null,"creativity":null,)"
            R"("creativityN":0}],)"
            R"("overlyConservative":false,"action":null,)"
            R"("exploration":{"budget":0.1,"used":0,"total":0,"share":null,"remaining":0.0}})");
}

TEST_F(BiasWatchTest, FlagsWhenApprovalRisesWhileCreativityFalls) {
  // Exactly at both thresholds: 0.70 - 0.65 (0.04999999999999993 in binary) and 7.0 - 6.5.
  for (int i = 0; i < 20; ++i) {
    watch_.Add(Review(kFirst, i < 13 ? model::Decision::kApproved : model::Decision::kRejected,
                      i < 5 ? std::optional(7.0) : std::nullopt));
    watch_.Add(Review(kLast, i < 14 ? model::Decision::kApproved : model::Decision::kNeedsWork,
                      i < 5 ? std::optional(6.5) : std::nullopt));
  }
  Window(kMiddle, 8, 5, 6.8);
  BiasResult r = watch_.Result(kNow);
  ASSERT_EQ(r.windows.size(), 3u);
  EXPECT_DOUBLE_EQ(*r.windows[0].approval_rate, 0.65);
  EXPECT_DOUBLE_EQ(*r.windows[1].approval_rate, 0.8);
  EXPECT_DOUBLE_EQ(*r.windows[2].approval_rate, 0.7);
  EXPECT_DOUBLE_EQ(*r.windows[0].creativity, 7.0);
  EXPECT_DOUBLE_EQ(*r.windows[2].creativity, 6.5);
  EXPECT_EQ(r.windows[2].creativity_n, 5);
  EXPECT_TRUE(r.overly_conservative);
  EXPECT_EQ(r.action, "inject more experimental variation");
  EXPECT_EQ(Json(r).substr(Json(r).find("\"overly")),
            R"("overlyConservative":true,"action":"inject more experimental variation",)"
            R"("exploration":{"budget":0.1,"used":0,"total":0,"share":null,"remaining":0.0}})");
}

TEST_F(BiasWatchTest, SmallerCreativityDropDoesNotFlag) {
  Window(kFirst, 7, 5, 7.0);
  Window(kMiddle, 8, 5, 6.8);
  Window(kLast, 9, 5, 6.6);  // approval +0.2, creativity -0.4
  BiasResult r = watch_.Result(kNow);
  EXPECT_FALSE(r.overly_conservative);
  EXPECT_FALSE(r.action.has_value());
}

TEST_F(BiasWatchTest, SmallerApprovalRiseDoesNotFlag) {
  Window(kFirst, 5, 5, 8.0);
  for (int i = 0; i < 25; ++i) {  // 13 of 25 approved: 0.52, a rise of 0.02
    watch_.Add(Review(kLast, i < 13 ? model::Decision::kApproved : model::Decision::kRejected,
                      i < 5 ? std::optional(5.0) : std::nullopt));
  }
  Window(kMiddle, 5, 5, 7.0);
  EXPECT_FALSE(watch_.Result(kNow).overly_conservative);
}

TEST_F(BiasWatchTest, EveryWindowNeedsFiveCreativityScores) {
  Window(kFirst, 5, 5, 8.0);
  Window(kMiddle, 7, 4, 7.0);
  Window(kLast, 9, 5, 5.0);
  EXPECT_FALSE(watch_.Result(kNow).overly_conservative);
  watch_.Add(
      Review(kMiddle, model::Decision::kDeferred, 7.0));  // deferred: a score, not a decision
  BiasResult r = watch_.Result(kNow);
  EXPECT_EQ(r.windows[1].creativity_n, 5);
  EXPECT_EQ(r.windows[1].decided, 10);
  EXPECT_TRUE(r.overly_conservative);
}

TEST_F(BiasWatchTest, WindowsAreWholeUtcDaysEndingWithToday) {
  const int64_t today_start = kNow - 9 * 3600000 - 30 * 60000;              // 2025-07-11T00:00:00Z
  watch_.Add(Review(today_start + kDay - 1, model::Decision::kApproved));   // today: last
  watch_.Add(Review(today_start + kDay, model::Decision::kRejected));       // tomorrow: none
  watch_.Add(Review(today_start - 29 * kDay, model::Decision::kRejected));  // 06-12: last
  watch_.Add(Review(today_start - 29 * kDay - 1, model::Decision::kApproved));  // 06-11: middle
  watch_.Add(Review(today_start - 89 * kDay, model::Decision::kApproved));      // 04-13: first
  watch_.Add(Review(today_start - 89 * kDay - 1, model::Decision::kRejected));  // 04-12: none
  BiasResult r = watch_.Result(kNow);
  EXPECT_EQ(r.windows[2].decided, 2);
  EXPECT_DOUBLE_EQ(*r.windows[2].approval_rate, 0.5);
  EXPECT_EQ(r.windows[1].decided, 1);
  EXPECT_EQ(r.windows[0].decided, 1);
  EXPECT_DOUBLE_EQ(*r.windows[0].approval_rate, 1.0);
}

// ---- Exploration budget -----------------------------------------------------------------------

TEST_F(BiasWatchTest, ExplorationCountsExperimentalWorkInTheLastWindow) {
  for (int i = 0; i < 20; ++i) watch_.AddWork(Work(kLast, i == 0));
  for (int i = 0; i < 5; ++i) watch_.AddWork(Work(kMiddle, true));  // outside
  ExplorationUse e = watch_.Result(kNow).exploration;
  EXPECT_DOUBLE_EQ(e.budget, 0.1);
  EXPECT_EQ(e.used, 1);
  EXPECT_EQ(e.total, 20);
  EXPECT_DOUBLE_EQ(*e.share, 0.05);
  EXPECT_DOUBLE_EQ(e.remaining, 1.0);  // 0.1 x 20 - 1
}

TEST_F(BiasWatchTest, OverspentBudgetHasNothingRemaining) {
  for (int i = 0; i < 20; ++i) watch_.AddWork(Work(kLast, i < 5));
  ExplorationUse e = watch_.Result(kNow).exploration;
  EXPECT_EQ(e.used, 5);
  EXPECT_DOUBLE_EQ(*e.share, 0.25);
  EXPECT_DOUBLE_EQ(e.remaining, 0);
}

TEST(ExplorationDraw, IsPinnedAcrossVersions) {
  // FNV-1a 64 then the splitmix64 finalizer; changing either moves which artifacts explore.
  EXPECT_DOUBLE_EQ(ExplorationDraw(""), 0.9576734252420561);
  EXPECT_DOUBLE_EQ(ExplorationDraw("a"), 0.010753497314070604);
  EXPECT_DOUBLE_EQ(ExplorationDraw("mcp-shopify-001"), 0.8601874578363687);
  EXPECT_DOUBLE_EQ(ExplorationDraw("artifact-42"), 0.4243788104101506);
}

TEST(ShouldExplore, PicksAboutTheBudgetShareOfIds) {
  int picked = 0;
  for (int i = 0; i < 10000; ++i) {
    picked += ShouldExplore("artifact-" + std::to_string(i), 0.10) ? 1 : 0;
  }
  EXPECT_EQ(picked, 1006);
  EXPECT_TRUE(ShouldExplore("a", 0.1));
  EXPECT_FALSE(ShouldExplore("artifact-42", 0.1));
  EXPECT_TRUE(ShouldExplore("artifact-42", 0.5));
  EXPECT_FALSE(ShouldExplore("a", 0));
  EXPECT_TRUE(ShouldExplore("", 1));
}

}  // namespace
}  // namespace kaizen::learn
