#include "learn/delegation/autonomy.h"

#include <gtest/gtest.h>

#include <string>

#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

const int64_t kDay1 = model::DaysFromCivil(2025, 7, 10) * model::kMsPerDay;  // 2025-07-10T00:00:00Z
const int64_t kDay2 = kDay1 + model::kMsPerDay;

class AutonomyTest : public ::testing::Test {
 protected:
  AutonomyTracker tracker_{AutonomyConfig{}};
  int64_t at_ = kDay1;

  // Reviews `pattern` in order: 'A' approved, 'R' rejected, 'N' needs-work, 'D' deferred.
  void Reviews(std::string_view pattern, std::string_view task = "shopify", double seconds = 60) {
    for (char c : pattern) {
      model::ReviewView r;
      r.at_ms = at_;
      r.task_type = task;
      r.time_to_decision_ms = seconds * 1000;
      r.decision = c == 'A'   ? model::Decision::kApproved
                   : c == 'R' ? model::Decision::kRejected
                   : c == 'N' ? model::Decision::kNeedsWork
                              : model::Decision::kDeferred;
      tracker_.Add(r);
    }
  }
  void Approvals(int n, std::string_view task = "shopify", double seconds = 60) {
    Reviews(std::string(n, 'A'), task, seconds);
  }
  TaskAutonomy Task(std::string_view name) {
    for (TaskAutonomy& t : tracker_.Result()) {
      if (t.task_type == name) return t;
    }
    ADD_FAILURE() << "no task type " << name;
    return {};
  }
};

template <typename T>
std::string Json(const T& value) {
  rapidjson::StringBuffer buf;
  base::JsonWriter w(buf);
  WriteJson(w, value);
  return buf.GetString();
}

TEST_F(AutonomyTest, EmptyHasNothing) {
  EXPECT_TRUE(tracker_.Result().empty());
  EXPECT_TRUE(tracker_.Regressions().empty());
  EXPECT_TRUE(tracker_.Days().empty());
  EXPECT_EQ(tracker_.Level("shopify"), 0);
  EXPECT_EQ(Json(tracker_.Result()), "{}");
  EXPECT_EQ(Json(tracker_.Regressions()), "[]");
  std::string text = "untouched";
  EXPECT_FALSE(tracker_.ExplainAutonomy("shopify", &text));
  EXPECT_EQ(text, "untouched");
}

TEST_F(AutonomyTest, TenthApprovalReachesLevelOne) {
  Approvals(9);
  EXPECT_EQ(tracker_.Level("shopify"), 0);
  Approvals(1);
  EXPECT_EQ(tracker_.Level("shopify"), 1);
  EXPECT_DOUBLE_EQ(Task("shopify").review_rate, 0.8);
}

TEST_F(AutonomyTest, LevelTwoNeedsARateAboveEightyFivePercentNotEqual) {
  Reviews("RRRRRR");  // rejections before level 1: no regression check at level 0
  Approvals(34);      // 34 / 40 = 0.85 exactly
  EXPECT_EQ(tracker_.Level("shopify"), 1);
  Approvals(1);  // 35 / 41 = 0.854
  EXPECT_EQ(tracker_.Level("shopify"), 2);
}

TEST_F(AutonomyTest, UnbrokenApprovalsClimbToLevelsThreeAndFour) {
  Approvals(24);
  EXPECT_EQ(tracker_.Level("shopify"), 1);
  Approvals(1);
  EXPECT_EQ(tracker_.Level("shopify"), 2);
  Approvals(24);
  EXPECT_EQ(tracker_.Level("shopify"), 2);
  Approvals(1);
  EXPECT_EQ(tracker_.Level("shopify"), 3);
  Approvals(49);
  EXPECT_EQ(tracker_.Level("shopify"), 3);
  Approvals(1);
  EXPECT_EQ(tracker_.Level("shopify"), 4);
  EXPECT_DOUBLE_EQ(Task("shopify").review_rate, 0.05);
}

TEST_F(AutonomyTest, OneRejectionInTheWindowRegressesLevelTwoUntilFiveNewApprovals) {
  Approvals(20);  // level 1 after the 10th; checks on reviews 11..20
  at_ = kDay2;
  Approvals(5);  // level 2 after the 25th; checks on 21..25
  ASSERT_EQ(tracker_.Level("shopify"), 2);
  Reviews("R");  // window AAAAR: 0.8 < 0.85
  EXPECT_EQ(tracker_.Level("shopify"), 1);
  TaskAutonomy t = Task("shopify");
  EXPECT_TRUE(t.regressed);
  EXPECT_EQ(t.window_size, 0);
  EXPECT_FALSE(t.recent_rate.has_value());
  ASSERT_EQ(tracker_.Regressions().size(), 1u);
  const Regression r = tracker_.Regressions()[0];
  EXPECT_EQ(r.task_type, "shopify");
  EXPECT_EQ(r.from, 2);
  EXPECT_EQ(r.to, 1);
  EXPECT_EQ(r.at_ms, kDay2);
  EXPECT_EQ(r.Reason(), "Approval rate 0.8 < threshold 0.85");

  // Cumulative 29/30 would allow level 2, but the window must fill again first.
  Approvals(4);
  EXPECT_EQ(tracker_.Level("shopify"), 1);
  EXPECT_TRUE(Task("shopify").regressed);
  Approvals(1);
  EXPECT_EQ(tracker_.Level("shopify"), 2);
  EXPECT_FALSE(Task("shopify").regressed);

  const auto& days = tracker_.Days();
  ASSERT_EQ(days.size(), 2u);
  const DelegationDay& d1 = days.at(kDay1 / model::kMsPerDay);
  EXPECT_EQ(d1.level_checks, 10u);
  EXPECT_EQ(d1.regressions, 0u);
  const DelegationDay& d2 = days.at(kDay2 / model::kMsPerDay);
  EXPECT_EQ(d2.level_checks, 7u);  // reviews 21..26 and 31
  EXPECT_EQ(d2.regressions, 1u);
}

TEST_F(AutonomyTest, LevelOneRegressesBelowHalfAndReturnsOnAFullWindowAtHalf) {
  Approvals(10);
  ASSERT_EQ(tracker_.Level("shopify"), 1);
  Reviews("RR");  // AAARR: 0.6 holds
  EXPECT_EQ(tracker_.Level("shopify"), 1);
  Reviews("N");  // AARRN: 0.4 < 0.5
  EXPECT_EQ(tracker_.Level("shopify"), 0);
  ASSERT_EQ(tracker_.Regressions().size(), 1u);
  EXPECT_EQ(tracker_.Regressions()[0].Reason(), "Approval rate 0.4 < threshold 0.5");
  Reviews("AARR");
  EXPECT_EQ(tracker_.Level("shopify"), 0);
  Reviews("A");  // AARRA: 0.6 >= 0.5 with 13 approvals
  EXPECT_EQ(tracker_.Level("shopify"), 1);
}

TEST_F(AutonomyTest, DeferredReviewsNeitherCountNorFillTheWindow) {
  Approvals(9);
  Reviews("DDDD");
  EXPECT_EQ(tracker_.Level("shopify"), 0);
  TaskAutonomy t = Task("shopify");
  EXPECT_EQ(t.decided, 9);
  EXPECT_EQ(t.window_size, 5);
  Reviews("D", "ghl");
  TaskAutonomy ghl = Task("ghl");
  EXPECT_EQ(ghl.decided, 0);
  EXPECT_FALSE(ghl.rate.has_value());
  EXPECT_EQ(ghl.task_class, TaskClass::kEscalate);
}

TEST_F(AutonomyTest, TaskClassesFollowTheSeedTable) {
  Approvals(4, "a");
  EXPECT_EQ(Task("a").task_class, TaskClass::kEscalate);  // 4 < 5 data points
  Approvals(1, "a");
  EXPECT_EQ(Task("a").task_class, TaskClass::kQuick);  // 5/5 but not 20+
  Approvals(15, "a", 14.9);
  // 20/20, mean (5 x 60 + 15 x 14.9) / 20 = 26.2 s: too slow for auto-approve
  EXPECT_EQ(Task("a").task_class, TaskClass::kQuick);

  Approvals(20, "b", 14.999);
  EXPECT_EQ(Task("b").task_class, TaskClass::kAutoApprove);
  Approvals(20, "c", 15);  // exactly 15 s is not < 15 s
  EXPECT_EQ(Task("c").task_class, TaskClass::kQuick);

  Reviews("AAAAR", "d");  // exactly 0.8 is not > 0.8
  EXPECT_EQ(Task("d").task_class, TaskClass::kStandard);
  Reviews("AAARRR", "e");  // exactly 0.5
  EXPECT_EQ(Task("e").task_class, TaskClass::kStandard);
  Reviews("AARRN", "f");  // 0.4
  EXPECT_EQ(Task("f").task_class, TaskClass::kDeep);
  // 19/20 = 0.95 exactly is not > 0.95
  Reviews("R" + std::string(19, 'A'), "g", 5);
  EXPECT_EQ(Task("g").task_class, TaskClass::kQuick);
}

TEST_F(AutonomyTest, ReviewSamplingIsAStableNestedHash) {
  // Pinned values of FNV-1a 64 + splitmix64: u("srv-4") = 0.1324, u("srv-1") = 0.50198,
  // u("srv-150") = 0.00619.
  EXPECT_TRUE(tracker_.ShouldReview("srv-4", 3));
  EXPECT_FALSE(tracker_.ShouldReview("srv-4", 4));
  EXPECT_TRUE(tracker_.ShouldReview("srv-1", 1));
  EXPECT_FALSE(tracker_.ShouldReview("srv-1", 2));
  EXPECT_TRUE(tracker_.ShouldReview("srv-150", 4));
  int reviewed[5] = {};
  for (int i = 0; i < 10000; ++i) {
    std::string id = "artifact-" + std::to_string(i);
    for (int level = 0; level <= 4; ++level) {
      bool r = tracker_.ShouldReview(id, level);
      reviewed[level] += r ? 1 : 0;
      if (level > 0 && r) {
        EXPECT_TRUE(tracker_.ShouldReview(id, level - 1)) << id << " level " << level;
      }
    }
  }
  EXPECT_EQ(reviewed[0], 10000);
  EXPECT_EQ(reviewed[1], 8049);
  EXPECT_EQ(reviewed[2], 5018);
  EXPECT_EQ(reviewed[3], 1983);
  EXPECT_EQ(reviewed[4], 524);
}

TEST_F(AutonomyTest, WorkIsSampledAtItsTaskTypesCurrentLevel) {
  Approvals(100, "shopify");
  ASSERT_EQ(tracker_.Level("shopify"), 4);
  auto work = [&](std::string_view id, std::string_view server, std::string_view type, int64_t at) {
    model::WorkView w;
    w.at_ms = at;
    w.artifact_id = id;
    w.server_type = server;
    w.type = type;
    tracker_.AddWork(w);
  };
  work("srv-4", "shopify", "mcp-server", kDay2);    // 0.13 >= 0.05: auto-approved
  work("srv-150", "shopify", "mcp-server", kDay2);  // 0.006 < 0.05: reviewed
  work("srv-1", "", "shopify", kDay2);              // no server type: by type, level 4
  work("srv-5", "", "doc", kDay2 + 1);              // never reviewed: level 0, reviewed
  const DelegationDay& d = tracker_.Days().at(kDay2 / model::kMsPerDay);
  EXPECT_EQ(d.submitted, 4u);
  EXPECT_EQ(d.auto_approved, 2u);
  EXPECT_EQ(d.level_checks, 0u);
}

TEST_F(AutonomyTest, JsonListsTaskTypesSortedAndRegressionsInLogOrder) {
  Reviews("AAR", "stripe", 10);
  Approvals(10, "ghl", 20);
  Reviews("RRR", "ghl", 20);  // AARRR at level 1: 0.4 < 0.5
  EXPECT_EQ(Json(tracker_.Result()),
            R"({"ghl":{"level":0,"class":"standard","approvals":10,"total":13,)"
            R"("rate":0.769231,"reviewRate":1.0,"regressed":true,"regressedFrom":1,)"
            R"("regressedAt":"2025-07-10T00:00:00.000Z",)"
            R"("regressionReason":"Approval rate 0.4 < threshold 0.5","recentRate":null,)"
            R"("avgSeconds":20.0,"failedOutcomes":0},)"
            R"("stripe":{"level":0,"class":"escalate","approvals":2,"total":3,)"
            R"("rate":0.666667,"reviewRate":1.0,"regressed":false,"regressedFrom":null,)"
            R"("regressedAt":null,"regressionReason":null,"recentRate":0.666667,)"
            R"("avgSeconds":10.0,"failedOutcomes":0}})");
  EXPECT_EQ(Json(tracker_.Regressions()),
            R"([{"taskType":"ghl","from":1,"to":0,"at":"2025-07-10T00:00:00.000Z",)"
            R"("reason":"Approval rate 0.4 < threshold 0.5"}])");
}

TEST_F(AutonomyTest, ExplainShowsCriteriaAndWindow) {
  Approvals(26);
  Reviews("R");
  std::string text;
  ASSERT_TRUE(tracker_.ExplainAutonomy("shopify", &text));
  EXPECT_NE(text.find("decided reviews: 27, approvals: 26, approval rate: 0.963"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("level: 1 (review 80% of outputs); regressed"), std::string::npos) << text;
  EXPECT_NE(text.find("L2: 25+ approvals and rate > 0.85"), std::string::npos) << text;
  EXPECT_NE(text.find("L3: 50+ approvals and rate > 0.9"), std::string::npos) << text;
  EXPECT_NE(text.find("does not hold"), std::string::npos) << text;
  // L2's counts hold (26 of 27) but the level was just lost: not "holds", or the text would
  // promise a level the task type does not have.
  EXPECT_NE(text.find("counts hold; after the regression it also needs a full window"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("L1: 10+ approvals"), std::string::npos) << text;
  EXPECT_NE(text.find("reached, holds"), std::string::npos) << text;
  EXPECT_NE(text.find("[] 0 of 5; no check until it holds 5 reviews"), std::string::npos) << text;
  EXPECT_NE(text.find("promotion to L2 also needs a full window with rate >= 0.85"),
            std::string::npos)
      << text;
}

// A task type with a record that lost level 1 is at level 0 by regression: the text says so,
// says from which level and why, and never that level 0 "never regresses" next to "regressed".
TEST_F(AutonomyTest, ExplainOfARegressionToLevelZeroDoesNotContradictItself) {
  Approvals(10);   // level 1
  Reviews("RRR");  // window AARRR: 0.4 < 0.5, back to level 0
  ASSERT_EQ(Task("shopify").level, 0);
  ASSERT_TRUE(Task("shopify").regressed);
  EXPECT_EQ(Task("shopify").regressed_from, 1);
  std::string text;
  ASSERT_TRUE(tracker_.ExplainAutonomy("shopify", &text));
  EXPECT_NE(text.find("level: 0 (review 100% of outputs); regressed from L1 at "
                      "2025-07-10T00:00:00.000Z (Approval rate 0.4 < threshold 0.5), not "
                      "promoted since"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("never regresses"), std::string::npos) << text;
  EXPECT_NE(text.find("no regression check at level 0, the lowest level"), std::string::npos)
      << text;
  // 10 approvals meet L1's count, but after the regression a full window is needed too.
  EXPECT_EQ(
      text.find("L1: 10+ approvals                    review 80%    regress below 0.5    holds"),
      std::string::npos)
      << text;
  EXPECT_NE(text.find("counts hold; after the regression it also needs a full window"),
            std::string::npos)
      << text;
}

// A new task type at level 0 has no regression to tell.
TEST_F(AutonomyTest, NewTaskTypeAtLevelZeroHasNoRegression) {
  Reviews("AR");
  const TaskAutonomy t = Task("shopify");
  EXPECT_FALSE(t.regressed);
  EXPECT_FALSE(t.regressed_from.has_value());
  std::string text;
  ASSERT_TRUE(tracker_.ExplainAutonomy("shopify", &text));
  EXPECT_EQ(text.find("regressed"), std::string::npos) << text;
}

TEST(AutonomyConfigTest, FieldsNameTheSeedDefaults) {
  AutonomyConfig c;
  EXPECT_EQ(c.Fields().size(), 20u);
  EXPECT_EQ(c.Approvals(0), 0);
  EXPECT_EQ(c.Approvals(1), 10);
  EXPECT_EQ(c.Approvals(4), 100);
  EXPECT_EQ(c.Threshold(0), 0);
  EXPECT_EQ(c.Threshold(1), 0.5);
  EXPECT_EQ(c.Threshold(3), 0.90);
  EXPECT_EQ(c.ReviewRate(0), 1.0);
  EXPECT_EQ(c.ReviewRate(3), 0.2);
  for (const ConfigField& f : c.Fields()) EXPECT_EQ(f.name.substr(0, 9), "autonomy.") << f.name;
}

}  // namespace
}  // namespace kaizen::learn
