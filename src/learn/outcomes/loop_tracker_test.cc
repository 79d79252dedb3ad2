#include "learn/outcomes/loop_tracker.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kT0 = 1'752'226'200'000;  // 2025-07-11T09:30:00Z

LoopConfig CoverageIsQ() {
  LoopConfig c;
  c.weight_test_coverage = 1;
  c.weight_tests_passing = 0;
  c.weight_security_score = 0;
  c.weight_code_quality = 0;
  c.weight_documentation = 0;
  c.weight_type_safety = 0;
  return c;
}

// A `loop` event; the view borrows `loop_id` and `feedback`, which outlive the Add() call.
model::LoopView Event(std::string_view loop_id, int64_t iteration, double q, int64_t at_ms = kT0,
                      double cost = 0, double seconds = 0, std::string_view feedback = "") {
  model::LoopView v;
  v.at_ms = at_ms;
  v.loop_id = loop_id;
  v.iteration = iteration;
  v.metrics.test_coverage = q;
  v.cost = cost;
  v.elapsed_seconds = seconds;
  v.feedback = feedback;
  return v;
}

std::string Json(const LoopsResult& r) {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  WriteJson(w, r);
  return buffer.GetString();
}

TEST(LoopTracker, EmptyLogGivesZeroTotalsAndNullAverages) {
  LoopTracker t(LoopConfig{});
  LoopsResult r = t.Result();
  EXPECT_EQ(r.total, 0);
  EXPECT_FALSE(r.avg_iterations);
  EXPECT_EQ(Json(r), R"({"total":0,"byAction":{"ABORT":0,"CONTINUE":0,"HALT":0},"byReason":{},)"
                     R"("avgIterations":null,"avgFinalQuality":null,"recent":[]})");
  std::string text = "unchanged";
  EXPECT_FALSE(t.ExplainLoop("nope", &text));
  EXPECT_EQ(text, "unchanged");
  EXPECT_FALSE(t.Report("nope"));
}

TEST(LoopTracker, GroupsIterationsByLoopIdInLogOrder) {
  LoopTracker t(CoverageIsQ());
  t.Add(Event("a", 1, 0.2, kT0, 1.0, 60));
  t.Add(Event("b", 1, 0.7, kT0 + 1000));  // halts: 0.7 > 0.3
  t.Add(Event("a", 2, 0.3, kT0 + 2000, 0.5, 30));
  std::optional<LoopReport> a = t.Report("a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->decision.action, LoopAction::kContinue);
  EXPECT_EQ(a->metrics.iterations, 2);
  EXPECT_EQ(a->metrics.quality_progression, (std::vector<double>{0.2, 0.3}));
  EXPECT_DOUBLE_EQ(a->metrics.cost, 1.5);
  EXPECT_DOUBLE_EQ(a->metrics.total_time, 90);
  EXPECT_EQ(a->updated_ms, kT0 + 2000);

  LoopsResult r = t.Result();
  EXPECT_EQ(r.total, 2);
  EXPECT_EQ(r.halted, 1);
  EXPECT_EQ(r.continuing, 1);
  EXPECT_EQ(r.aborted, 0);
  EXPECT_EQ(r.by_reason, (std::map<std::string, int64_t>{{"quality_sufficient", 1}}));
  EXPECT_DOUBLE_EQ(*r.avg_iterations, 1.5);
  EXPECT_DOUBLE_EQ(*r.avg_final_quality, 0.5);  // (0.3 + 0.7) / 2
}

TEST(LoopTracker, IterationRecordedTwiceKeepsTheLaterRecord) {
  LoopTracker t(CoverageIsQ());
  t.Add(Event("a", 1, 0.2, kT0, 1.0));
  t.Add(Event("a", 2, 0.3, kT0, 1.0));
  t.Add(Event("a", 1, 0.1, kT0, 2.5));
  LoopReport a = *t.Report("a");
  EXPECT_EQ(a.metrics.iterations, 2);
  EXPECT_EQ(a.metrics.quality_progression, (std::vector<double>{0.1, 0.3}));
  EXPECT_DOUBLE_EQ(a.metrics.cost, 3.5);
}

TEST(LoopTracker, IterationsArrivingOutOfOrderAreDecidedInIterationOrder) {
  LoopTracker t(CoverageIsQ());
  t.Add(Event("a", 3, 0.3));
  t.Add(Event("a", 1, 0.5));
  t.Add(Event("a", 2, 0.4));
  LoopReport a = *t.Report("a");
  EXPECT_EQ(a.metrics.quality_progression, (std::vector<double>{0.5, 0.4, 0.3}));
  EXPECT_EQ(a.decision.reason, "declining");  // decided after iteration 3
  EXPECT_DOUBLE_EQ(a.decision.q_halt, 0.3);
}

TEST(LoopTracker, CountsByActionAndReason) {
  LoopTracker t(CoverageIsQ());
  t.Add(Event("halt", 1, 0.9));
  t.Add(Event("max", 5, 0.1));
  t.Add(Event("low", 3, 0.1));
  t.Add(Event("low2", 4, 0.2));
  t.Add(Event("cost", 1, 0.1, kT0, 6));
  LoopsResult r = t.Result();
  EXPECT_EQ(r.halted, 2);
  EXPECT_EQ(r.aborted, 3);
  EXPECT_EQ(r.continuing, 0);
  EXPECT_EQ(r.by_reason, (std::map<std::string, int64_t>{{"cost_limit", 1},
                                                         {"max_iterations", 1},
                                                         {"quality_too_low", 2},
                                                         {"quality_sufficient", 1}}));
}

TEST(LoopTracker, RecentListsTheTwentyMostRecentlyUpdatedNewestFirst) {
  LoopTracker t(CoverageIsQ());
  std::vector<std::string> ids;
  for (int i = 0; i < 25; ++i) ids.push_back("loop-" + std::to_string(i));
  for (int i = 0; i < 25; ++i) t.Add(Event(ids[i], 1, 0.2, kT0 + i * 1000));
  t.Add(Event(ids[3], 2, 0.3, kT0 + 100'000));  // loop-3 updated last
  t.Add(Event(ids[7], 2, 0.3, kT0 + 100'000));  // same time, later in the log: first
  LoopsResult r = t.Result();
  ASSERT_EQ(r.recent.size(), 20u);
  EXPECT_EQ(r.recent[0].loop_id, "loop-7");
  EXPECT_EQ(r.recent[1].loop_id, "loop-3");
  EXPECT_EQ(r.recent[2].loop_id, "loop-24");
  EXPECT_EQ(r.recent[18].loop_id, "loop-8");  // 24..8 without 7
  EXPECT_EQ(r.recent[19].loop_id, "loop-6");
}

TEST(LoopTracker, ABackdatedEventDoesNotMakeALoopRecent) {
  LoopTracker t(CoverageIsQ());
  t.Add(Event("old", 1, 0.2, kT0));
  t.Add(Event("new", 1, 0.2, kT0 + 5000));
  t.Add(Event("old", 2, 0.3, kT0 - 5000));  // imported late, stamped earlier
  LoopsResult r = t.Result();
  EXPECT_EQ(r.recent[0].loop_id, "new");
  EXPECT_EQ(r.recent[1].loop_id, "old");
  EXPECT_EQ(r.recent[1].updated_ms, kT0);
}

TEST(LoopTracker, LongLoopKeepsABoundedWindowButCountsEveryIteration) {
  LoopConfig c = CoverageIsQ();
  c.max_iterations = 1000;
  c.min_quality = 0;
  LoopTracker t(c);
  for (int i = 1; i <= 100; ++i) {
    t.Add(Event("long", i, (i % 2) ? 0.1 : 0.3, kT0, 0.01, 1));
  }
  LoopReport r = *t.Report("long");
  EXPECT_EQ(r.metrics.iterations, 100);
  EXPECT_EQ(r.metrics.quality_progression.size(), kMaxKeptIterations);
  EXPECT_EQ(r.metrics.quality_progression.back(), 0.3);
  EXPECT_NEAR(r.metrics.cost, 1.0, 1e-9);
  EXPECT_NEAR(r.metrics.total_time, 100, 1e-9);
  EXPECT_EQ(r.decision.action, LoopAction::kContinue);
  // An iteration older than the kept window cannot be matched: it counts as one more.
  t.Add(Event("long", 2, 0.3, kT0, 0.01, 1));
  EXPECT_EQ(t.Report("long")->metrics.iterations, 101);
  // One inside the window still replaces.
  t.Add(Event("long", 100, 0.3, kT0, 0.01, 1));
  EXPECT_EQ(t.Report("long")->metrics.iterations, 101);
}

TEST(LoopTracker, WritesTheLoopsSection) {
  LoopTracker t(CoverageIsQ());
  t.Add(Event("a", 1, 0.2, kT0, 0.1, 12.5));
  t.Add(Event("a", 2, 0.4, kT0 + 1000, 0.2, 10));
  t.Add(Event("b", 1, 0.9, kT0 + 500));
  EXPECT_EQ(Json(t.Result()),
            R"({"total":2,"byAction":{"ABORT":0,"CONTINUE":1,"HALT":1},)"
            R"("byReason":{"quality_sufficient":1},"avgIterations":1.5,"avgFinalQuality":0.65,)"
            R"("recent":[)"
            R"({"loopId":"a","iterations":2,"action":"CONTINUE","reason":"","qHalt":0.4,)"
            R"("unmeasuredIterations":0,)"
            R"("qualityProgression":[0.2,0.4],"cost":0.3,"totalSeconds":22.5},)"
            R"({"loopId":"b","iterations":1,"action":"HALT","reason":"quality_sufficient",)"
            R"("qHalt":0.9,"unmeasuredIterations":0,"qualityProgression":[0.9],"cost":0.0,)"
            R"("totalSeconds":0.0}]})");
}

TEST(LoopTracker, ExplainShowsEveryIterationAndEveryRule) {
  LoopTracker t(LoopConfig{});  // coverage alone measured: q = coverage, renormalized
  t.Add(Event("a", 1, 0.5, kT0, 0.5, 60, "fix tests"));
  t.Add(Event("a", 2, 0.4, kT0, 0.5, 60, "add docs"));
  t.Add(Event("a", 3, 0.3, kT0, 0.5, 60, "fix tests"));
  std::string text;
  ASSERT_TRUE(t.ExplainLoop("a", &text));
  EXPECT_EQ(text,
            "loop a: 3 iterations, cost $1.50, 180.0 s\n"
            "  iteration 1: q_halt 0.500000 over test_coverage; missing tests_passing, "
            "security_score, code_quality_score, doc_coverage, type_coverage\n"
            "  iteration 2: q_halt 0.400000 over test_coverage; missing tests_passing, "
            "security_score, code_quality_score, doc_coverage, type_coverage\n"
            "  iteration 3: q_halt 0.300000 over test_coverage; missing tests_passing, "
            "security_score, code_quality_score, doc_coverage, type_coverage\n"
            "decision: ABORT (declining)\n"
            "Q(HALT) weights of iteration 3 (seed 003, renormalized over the measured ones: "
            "0.25 of 1):\n"
            "  test_coverage 0.25 -> 1.000000\n"
            "  tests_passing 0.3: missing\n"
            "  security_score 0.2: missing\n"
            "  code_quality_score 0.15: missing\n"
            "  doc_coverage 0.05: missing\n"
            "  type_coverage 0.05: missing\n"
            "halt rules (seed 003 should_halt):\n"
            "  [ ] quality_sufficient: q_halt 0.300000 > q_continue 0.700000\n"
            "  [ ] max_iterations: iteration 3 >= 5\n"
            "  [ ] good_enough: tests passing (no) and q_halt 0.300000 > 0.75\n"
            "guards (seed 003 should_abort):\n"
            "  [ ] max_iterations: iteration 3 >= 5\n"
            "  [ ] stagnation: variance of the last 3 q 0.006667 < 0.001\n"
            "  [x] declining: the last 3 q never increase\n"
            "  [x] quality_too_low: iteration 3 >= 3 and q_halt 0.300000 < 0.6\n"
            "  [ ] cost_limit: total cost 1.50 > 5\n"
            "  [ ] time_limit: total seconds 180.0 > 1800\n"
            "  [x] cycling: feedback repeats one of the previous 2\n");
}

TEST(LoopTracker, AnIterationWithNoQHaltMetricIsCountedButNotReadAsQualityZero) {
  LoopTracker t(LoopConfig{});
  model::LoopView measured = Event("a", 1, 0.8, kT0, 0.5, 10);
  measured.metrics.tests_passing = true;
  model::LoopView counts_only = Event("a", 2, 0, kT0 + 1000, 0.25, 5);
  counts_only.metrics = {};
  counts_only.metrics.test_count = 12;  // a QualityMetrics field, but not one Q(HALT) weighs
  t.Add(measured);
  t.Add(counts_only);
  LoopsResult r = t.Result();
  ASSERT_EQ(r.recent.size(), 1u);
  EXPECT_EQ(r.recent[0].unmeasured, 1);
  EXPECT_EQ(r.recent[0].metrics.iterations, 2);
  EXPECT_DOUBLE_EQ(r.recent[0].metrics.cost, 0.75);
  // The decision rests on iteration 1: a passing suite at 80% coverage halts.
  EXPECT_EQ(r.recent[0].decision.reason, "quality_sufficient");
  EXPECT_NEAR(*r.avg_final_quality, 0.909091, 1e-6);
  std::string text;
  ASSERT_TRUE(t.ExplainLoop("a", &text));
  EXPECT_NE(text.find("(1 iterations measured none of the Q(HALT) metrics: counted in the "
                      "totals, left out of the rules, not read as quality 0; iteration 2)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  iteration 1: q_halt 0.909091 over test_coverage, tests_passing; missing "
                      "security_score, code_quality_score, doc_coverage, type_coverage; tests "
                      "passing\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("renormalized over the measured ones: 0.55 of 1"), std::string::npos) << text;
  EXPECT_NE(text.find("  tests_passing 0.3 -> 0.545455\n"), std::string::npos) << text;
}

TEST(LoopTracker, ALoopThatNeverMeasuredHasNoQuality) {
  LoopTracker t(LoopConfig{});
  model::LoopView e = Event("a", 1, 0);
  e.metrics = {};
  e.metrics.complexity = 3;
  t.Add(e);
  LoopsResult r = t.Result();
  EXPECT_EQ(r.total, 1);
  EXPECT_EQ(r.continuing, 1);
  EXPECT_FALSE(r.avg_final_quality);  // not a mean over a made-up 0
  EXPECT_NE(Json(r).find(R"("qHalt":null,"unmeasuredIterations":1,"qualityProgression":[])"),
            std::string::npos)
      << Json(r);
  std::string text;
  ASSERT_TRUE(t.ExplainLoop("a", &text));
  EXPECT_NE(text.find("no iteration measured a Q(HALT) metric"), std::string::npos) << text;
}

TEST(LoopTracker, ExplainWithAllSixMeasuredUsesTheSeedWeightsAsTheyAre) {
  LoopTracker t(LoopConfig{});
  model::LoopView e = Event("a", 1, 0.85);
  e.metrics.tests_passing = true;
  e.metrics.security_score = 0.92;
  e.metrics.code_quality_score = 0.88;
  e.metrics.doc_coverage = 0.95;
  e.metrics.type_coverage = 1;
  t.Add(e);
  std::string text;
  ASSERT_TRUE(t.ExplainLoop("a", &text));
  EXPECT_NE(text.find("  iteration 1: q_halt 0.926000 over all six metrics; tests passing\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("Q(HALT) weights of iteration 1 (seed 003; all six measured):\n"
                      "  test_coverage 0.25\n"),
            std::string::npos)
      << text;
}

}  // namespace
}  // namespace kaizen::learn
