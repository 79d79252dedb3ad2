#include "learn/outcomes/signals.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <vector>

#include "learn/learner.h"

namespace kaizen::learn {
namespace {

constexpr int64_t kDay = 86'400'000;
constexpr int64_t kNov20 = 1795132800000;  // 2026-11-20T00:00:00Z
constexpr int64_t kNow = kNov20 + 8 * kDay;

model::RewardView Reward(std::string_view type, double value, std::string_view commit,
                         int64_t at_ms = kNov20, std::string_view detector = "revert") {
  model::RewardView r;
  r.at_ms = at_ms;
  r.signal_type = type;
  r.signal_value = value;
  r.agent_commit = commit;
  r.commit_hash = commit;
  r.detector = detector;
  return r;
}

TEST(SignalTracker, ARevertIsAFailedOutcomeOnceHoweverManySignalsRepeatIt) {
  SignalTracker t{SignalConfig()};
  EXPECT_TRUE(t.Add(Reward("merge_outcome", 0, "aaaaaaa1"), "ts-api", true).failed_outcome);
  // The same commit rewritten afterwards: already failed, not counted twice.
  EXPECT_FALSE(
      t.Add(Reward("human_edit_after_agent", 0.2, "aaaaaaa1"), "ts-api", true).failed_outcome);
  const SignalsResult r = t.Result(kNow);
  ASSERT_EQ(r.by_task_type.size(), 1u);
  EXPECT_EQ(r.by_task_type[0].failed_outcomes, 1);
  EXPECT_EQ(r.by_task_type[0].reverts, 1);
  EXPECT_EQ(r.by_task_type[0].rewrites, 1);
  ASSERT_EQ(r.recent_failures.size(), 1u);
  EXPECT_EQ(r.recent_failures[0].what, "reverted");
}

TEST(SignalTracker, ASmallTouchUpOfALargeCommitIsNotAFailure) {
  SignalTracker t{SignalConfig()};
  // 5% of the agent's lines rewritten: below rewrite_failure_share (10%).
  EXPECT_FALSE(t.Add(Reward("human_edit_after_agent", 0.95, "bbbbbbb1", kNov20, "human_edit"),
                     "ts-api", true)
                   .failed_outcome);
  EXPECT_TRUE(
      t.Add(Reward("human_edit_after_agent", 0.6, "bbbbbbb2", kNov20, "human_edit"), "ts-api", true)
          .failed_outcome);
  const SignalsResult r = t.Result(kNow);
  // Both were rewritten: the edit-after-agent rate counts any rewrite.
  EXPECT_EQ(r.human_edit_rate.n, 2);
  EXPECT_DOUBLE_EQ(*r.human_edit_rate.value, 1.0);
  EXPECT_EQ(r.recent_failures.at(0).what, "a person rewrote 40% of its lines");
}

TEST(SignalTracker, RatesCountAgentCommitsAndTheirMeasurements) {
  SignalTracker t{SignalConfig()};
  // Four agent commits: one reverted, one rewritten, two measured unedited.
  t.Add(Reward("merge_outcome", 0, "c1"), "x", true);
  t.Add(Reward("human_edit_after_agent", 0.5, "c2", kNov20, "human_edit"), "x", true);
  t.Add(Reward("human_edit_after_agent", 1, "c3", kNov20, "human_edit"), "x", true);
  t.Add(Reward("human_edit_after_agent", 1, "c4", kNov20, "human_edit"), "x", true);
  // c4 has two more signals: three in all.
  t.Add(Reward("merge_outcome", 1, "c4", kNov20, "merge"), "x", true);
  t.Add(Reward("ci_result", 1, "c4", kNov20, ""), "x", false);
  // A CI result of a commit nobody said an agent wrote is not an agent commit.
  t.Add(Reward("ci_result", 0, "h1", kNov20, ""), "x", false);
  const SignalsResult r = t.Result(kNow);
  EXPECT_EQ(r.revert_rate.n, 4);
  EXPECT_DOUBLE_EQ(*r.revert_rate.value, 0.25);
  EXPECT_EQ(r.human_edit_rate.n, 3);
  EXPECT_NEAR(*r.human_edit_rate.value, 1.0 / 3, 1e-12);
  EXPECT_EQ(r.coverage.n, 4);
  EXPECT_DOUBLE_EQ(*r.coverage.value, 0.25);
  EXPECT_EQ(r.ci_pass_rate.n, 2);
  EXPECT_DOUBLE_EQ(*r.ci_pass_rate.value, 0.5);
}

TEST(SignalTracker, RatingsAreMeanOneToFiveAndTrendsAreMonthly) {
  SignalTracker t{SignalConfig()};
  model::RewardView low =
      Reward("satisfaction", 0.25, "", kNov20 - 30 * kDay, "");          // a 2, in October
  model::RewardView high = Reward("satisfaction", 1.0, "", kNov20, "");  // a 5, in November
  t.Add(low, "unspecified", false);
  t.Add(high, "unspecified", false);
  const SignalsResult r = t.Result(kNow);
  EXPECT_EQ(r.ratings.n, 2);
  EXPECT_DOUBLE_EQ(*r.ratings.value, 3.5);
  ASSERT_EQ(r.ratings.trend.size(), 3u);
  EXPECT_EQ(r.ratings.trend[0].month, "2026-09");
  EXPECT_EQ(r.ratings.trend[1].month, "2026-10");
  EXPECT_DOUBLE_EQ(*r.ratings.trend[1].value, 2);
  EXPECT_EQ(r.ratings.trend[2].month, "2026-11");
  EXPECT_DOUBLE_EQ(*r.ratings.trend[2].value, 5);
  EXPECT_FALSE(r.ratings.trend[0].value.has_value());
}

TEST(SignalTracker, TimeToCompletionIsTheMedianOfTaskDurationsAndTimeSignals) {
  SignalTracker t{SignalConfig()};
  model::RewardView time = Reward("time_efficiency", 0.5, "c1", kNov20, "time_to_completion");
  time.raw_number = 600;
  t.Add(time, "x", true);
  model::OutcomeView done;
  done.at_ms = kNov20;
  done.success = true;
  done.duration_ms = 120'000;
  t.AddOutcome(done);
  model::OutcomeView failed = done;
  failed.success = false;
  failed.duration_ms = 9e9;
  t.AddOutcome(failed);  // not completed: not a completion time
  const SignalsResult r = t.Result(kNow);
  EXPECT_EQ(r.time_to_completion.n, 2);
  EXPECT_DOUBLE_EQ(*r.time_to_completion.value, 360);
}

TEST(SignalTracker, ARisingRevertRateWeekOverWeekRaisesAnAlert) {
  SignalTracker t{SignalConfig()};
  // Last week: 3 agent commits, none reverted. This week: 3, two reverted.
  for (int i = 0; i < 3; ++i) {
    t.Add(Reward("merge_outcome", 1, "old" + std::to_string(i), kNow - 10 * kDay, "merge"), "x",
          true);
  }
  t.Add(Reward("merge_outcome", 1, "new0", kNow - 2 * kDay, "merge"), "x", true);
  t.Add(Reward("merge_outcome", 0, "new1", kNow - 2 * kDay), "x", true);
  t.Add(Reward("merge_outcome", 0, "new2", kNow - 1 * kDay), "x", true);
  const SignalsResult r = t.Result(kNow);
  ASSERT_EQ(r.alerts.size(), 1u);
  EXPECT_EQ(r.alerts[0].condition, "revert-rate-rising");
  EXPECT_EQ(r.alerts[0].message,
            "the revert rate rose from 0% to 67% of agent commits week over week");
}

TEST(SignalTracker, TooFewCommitsInAWeekRaiseNoAlert) {
  SignalTracker t{SignalConfig()};
  t.Add(Reward("merge_outcome", 1, "old", kNow - 10 * kDay, "merge"), "x", true);
  t.Add(Reward("merge_outcome", 0, "new", kNow - 1 * kDay), "x", true);
  EXPECT_TRUE(t.Result(kNow).alerts.empty());
}

// ---- through the Learner: what the signals change ------------------------------------------

std::string Work(const std::string& id, const std::string& version, double confidence,
                 const std::string& day) {
  return R"({"kind":"work","id":")" + id + R"(","timestamp":"2026-11-)" + day +
         R"(T08:00:00.000Z","workProduct":{"type":"code-module","id":"art-)" + version +
         R"(","version":")" + version + R"(","summary":"s","bubaConfidence":)" +
         std::to_string(confidence) +
         R"(,"generationContext":{"promptHash":"h","memorySnapshot":[],"modelUsed":"opus","generationTimeMs":1,"iterationCount":1}},"mcpServerType":"ts-api"})";
}

std::string Review(const std::string& id, const std::string& version, const std::string& day) {
  return R"({"kind":"feedback","id":")" + id + R"(","timestamp":"2026-11-)" + day +
         R"(T09:00:00.000Z","sessionId":"s","modalId":"m","workProduct":{"id":"art-)" + version +
         R"("},"pipelineStage":"implement","decision":{"decision":"approved"},"meta":{"timeToDecisionMs":20000}})";
}

std::string Revert(const std::string& id, const std::string& commit) {
  return R"({"kind":"reward","id":")" + id +
         R"(","timestamp":"2026-11-20T12:00:00.000Z","commit_hash":")" + commit +
         R"(","signal_type":"merge_outcome","raw_value":"reverted","signal_value":0,"source":"automatic","context":{"source":"git","detector":"revert","commits":[")" +
         commit + R"(","ffffffffffffffffffffffffffffffffffffffff"]}})";
}

std::string Uuid(int n) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "019ab000-0000-7000-8000-%012d", n);
  return buf;
}

void Fold(Learner& learner, const std::vector<std::string>& lines) {
  EventReader reader;
  EventViews views;
  for (const std::string& line : lines) {
    ASSERT_TRUE(reader.ReadJson(line, &views)) << line;
    learner.Add(views);
  }
}

std::string Hex40(int n) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%08x%032d", 0xabc00000 + n, 0);
  return std::string(buf, 40);
}

TEST(LearnerSignals, ARevertOfRecordedWorkIsAFailedOutcomeOfItsTaskTypeAndACalibrationPair) {
  std::vector<std::string> lines = {Work(Uuid(1), Hex40(1), 0.9, "19"), Revert(Uuid(2), Hex40(1))};
  Learner learner{LearnConfig()};
  Fold(learner, lines);
  const std::vector<TaskAutonomy> tasks = learner.autonomy().Result();
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].task_type, "ts-api");
  EXPECT_EQ(tasks[0].failed_outcomes, 1);
  EXPECT_EQ(tasks[0].decided, 1);
  EXPECT_EQ(tasks[0].approvals, 0);
  const CalibrationResult c = learner.calibration().Result();
  EXPECT_EQ(c.n, 1);
  EXPECT_EQ(c.buckets[9].n, 1);
  EXPECT_EQ(learner.signals().Result(kNow).by_task_type.at(0).task_type, "ts-api");
}

TEST(LearnerSignals, AShortVersionOfTheCommitLinksTheSameWork) {
  std::vector<std::string> lines = {Work(Uuid(1), Hex40(1).substr(0, 12), 0.7, "19"),
                                    Revert(Uuid(2), Hex40(1))};
  Learner learner{LearnConfig()};
  Fold(learner, lines);
  EXPECT_EQ(learner.autonomy().Result().at(0).task_type, "ts-api");
}

TEST(LearnerSignals, ARevertWithNoRecordedWorkJudgesACodeModule) {
  Learner learner{LearnConfig()};
  Fold(learner, {Revert(Uuid(2), Hex40(1))});
  EXPECT_EQ(learner.autonomy().Result().at(0).task_type, "code-module");
  EXPECT_EQ(learner.calibration().Result().n, 0);  // no prediction to calibrate
}

// Ten approved reviews put ts-api at level 1 (80% reviewed), then the work of a commit whose
// artifact id ("art-<commit>") the level-1 sample sends to review (`reviewed`) or lets skip it,
// then that commit's revert.
std::vector<std::string> RevertAtLevelOne(bool reviewed) {
  std::vector<std::string> lines;
  for (int i = 0; i < 10; ++i) {
    lines.push_back(Work(Uuid(100 + i), "v" + std::to_string(i), 0.8, "10"));
    lines.push_back(Review(Uuid(200 + i), "v" + std::to_string(i), "10"));
  }
  Learner probe{LearnConfig()};
  Fold(probe, lines);
  EXPECT_EQ(probe.autonomy().Level("ts-api"), 1);
  std::string commit;
  for (int n = 0; n < 200 && commit.empty(); ++n) {
    if (probe.autonomy().ShouldReview("art-" + Hex40(n), 1) == reviewed) commit = Hex40(n);
  }
  EXPECT_FALSE(commit.empty());
  lines.push_back(Work(Uuid(300), commit, 0.8, "19"));
  lines.push_back(Revert(Uuid(301), commit));
  return lines;
}

TEST(LearnerSignals, ARevertedAutoApprovedItemIsARegressionAtOnce) {
  Learner learner{LearnConfig()};
  Fold(learner, RevertAtLevelOne(/*reviewed=*/false));
  EXPECT_EQ(learner.autonomy().Level("ts-api"), 0);
  const std::vector<Regression> regressions = learner.autonomy().Regressions();
  ASSERT_EQ(regressions.size(), 1u);
  EXPECT_TRUE(regressions[0].auto_approved_failed);
  EXPECT_EQ(regressions[0].Reason(),
            "Auto-approved work failed after it shipped (reverted or rewritten by a person)");
}

TEST(LearnerSignals, ARevertOfReviewedWorkAtLevelOneEntersTheWindowWithoutRegressingAtOnce) {
  Learner learner{LearnConfig()};
  Fold(learner, RevertAtLevelOne(/*reviewed=*/true));
  // Four approvals and the revert in the window of five: 0.8 >= level 1's 0.5.
  EXPECT_EQ(learner.autonomy().Level("ts-api"), 1);
  EXPECT_TRUE(learner.autonomy().Regressions().empty());
  EXPECT_EQ(learner.autonomy().Result().at(0).failed_outcomes, 1);
}

TEST(LearnerSignals, ARevertGivesTheTasksPatternsAndCriteriaHarmfulEvidence) {
  const std::string outcome =
      R"({"kind":"outcome","id":")" + Uuid(1) +
      R"(","timestamp":"2026-11-19T10:00:00.000Z","bead_id":"T-7","duration_ms":60000,"error_count":0,"retry_count":0,"success":true,"criteria":["type_safe"],"patterns":["Split by file type"]})";
  const std::string revert =
      R"({"kind":"reward","id":")" + Uuid(2) +
      R"(","timestamp":"2026-11-20T12:00:00.000Z","task_id":"T-7","signal_type":"merge_outcome","raw_value":"reverted","signal_value":0,"source":"automatic"})";
  Learner learner{LearnConfig()};
  Fold(learner, {outcome, revert});
  const std::vector<PatternResult> patterns = learner.outcomes().Patterns(kNow);
  ASSERT_EQ(patterns.size(), 1u);
  EXPECT_EQ(patterns[0].success_count, 1);
  EXPECT_EQ(patterns[0].failure_count, 1);
  EXPECT_GT(patterns[0].decayed_harmful, 0);
  const std::vector<CriterionResult> criteria = learner.outcomes().Criteria(kNow);
  ASSERT_EQ(criteria.size(), 1u);
  EXPECT_EQ(criteria[0].harmful_count, 1);
  EXPECT_EQ(criteria[0].helpful_count, 1);
}

TEST(LearnerSignals, TheSignalsSectionIsInTheAnalysis) {
  Learner learner{LearnConfig()};
  Fold(learner, {Work(Uuid(1), Hex40(1), 0.9, "19"), Revert(Uuid(2), Hex40(1))});
  const std::string json = learner.AnalysisJson(kNow, Sections{Section::kSignals});
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_EQ(parser.parse(json).get(root), simdjson::SUCCESS) << json;
  EXPECT_EQ(int64_t(root["signals"]["revertRate"]["n"]), 1);
  EXPECT_EQ(double(root["signals"]["revertRate"]["value"]), 1.0);
  EXPECT_EQ(int64_t(root["signals"]["byTaskType"]["ts-api"]["failedOutcomes"]), 1);
  EXPECT_EQ(std::string_view(root["signals"]["recentFailures"].at(0)["what"]), "reverted");
}

}  // namespace
}  // namespace kaizen::learn
