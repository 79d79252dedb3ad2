#include "learn/outcomes/loop_control.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

// Weights that make q_halt equal the iteration's test_coverage, so tests choose q exactly.
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

LoopIteration It(int64_t n, double coverage, std::string feedback = "", double cost = 0,
                 double seconds = 0) {
  LoopIteration it;
  it.iteration = n;
  it.metrics.test_coverage = coverage;
  it.cost = cost;
  it.elapsed_seconds = seconds;
  it.feedback = std::move(feedback);
  return it;
}

// Iterations numbered 1.. with the given q values (under CoverageIsQ).
std::vector<LoopIteration> Qualities(const std::vector<double>& qs) {
  std::vector<LoopIteration> h;
  for (size_t i = 0; i < qs.size(); ++i) h.push_back(It(static_cast<int64_t>(i + 1), qs[i]));
  return h;
}

LoopEvaluation Eval(const std::vector<LoopIteration>& h, const LoopConfig& c) {
  std::vector<IterationSummary> s;
  for (const auto& it : h) s.push_back(Summarize(it, c));
  return Evaluate(s, c);
}

bool Fired(const LoopEvaluation& e, LoopRule r) { return e.fired[static_cast<size_t>(r)]; }

// ---- HaltQ ---------------------------------------------------------------------------------

TEST(LoopHaltQ, SeedExampleMetricsWeighToPointNineTwoSix) {
  model::LoopMetricsView m;
  m.test_coverage = 0.85;
  m.tests_passing = true;
  m.security_score = 0.92;
  m.code_quality_score = 0.88;
  m.doc_coverage = 0.95;
  m.type_coverage = 1.0;
  // 0.2125 + 0.30 + 0.184 + 0.132 + 0.0475 + 0.05
  EXPECT_NEAR(HaltQ(m, LoopConfig{}), 0.926, 1e-12);
}

TEST(LoopHaltQ, AllSixMeasuredIsExactlyTheSeedSum) {
  model::LoopMetricsView m;
  m.test_coverage = 0.85;
  m.tests_passing = true;
  m.security_score = 0.92;
  m.code_quality_score = 0.88;
  m.doc_coverage = 0.95;
  m.type_coverage = 1.0;
  const LoopConfig c;
  // compute_halt_q_value itself, in the seed's key order: bit for bit, not merely near.
  const double seed = 0.85 * c.weight_test_coverage + 1.0 * c.weight_tests_passing +
                      0.92 * c.weight_security_score + 0.88 * c.weight_code_quality +
                      0.95 * c.weight_documentation + 1.0 * c.weight_type_safety;
  EXPECT_EQ(HaltQ(m, c), seed);
  EXPECT_EQ(Measured(m, c), kAllHaltMetrics);
}

TEST(LoopHaltQ, PassingSuiteAtEightyPercentCoverageIsRenormalizedNotHalved) {
  // The case: only the tests were measured. Counting the other four as 0 gave 0.500.
  model::LoopMetricsView m;
  m.tests_passing = true;
  m.test_coverage = 0.8;
  m.test_count = 120;  // not one of the six: neither measured nor missing
  EXPECT_DOUBLE_EQ(HaltQ(m, LoopConfig{}), (0.30 * 1 + 0.25 * 0.8) / (0.30 + 0.25));  // 0.909
  EXPECT_EQ(MetricNames(Measured(m, LoopConfig{})), "test_coverage, tests_passing");
  EXPECT_EQ(MetricNames(kAllHaltMetrics & ~Measured(m, LoopConfig{})),
            "security_score, code_quality_score, doc_coverage, type_coverage");
}

TEST(LoopHaltQ, NothingMeasuredIsNoQualityNotAZeroScore) {
  model::LoopMetricsView m;
  m.overall_quality = 1.0;  // not one of the seed's six
  m.test_count = 40;
  EXPECT_EQ(Measured(m, LoopConfig{}), 0);
  EXPECT_EQ(HaltQ(m, LoopConfig{}), 0.0);
  EXPECT_EQ(MetricNames(0), "");
}

TEST(LoopHaltQ, FailingTestsAloneAreQualityZeroBecauseMeasured) {
  model::LoopMetricsView m;
  m.tests_passing = false;
  EXPECT_EQ(Measured(m, LoopConfig{}), 1u << static_cast<unsigned>(HaltMetric::kTestsPassing));
  EXPECT_EQ(HaltQ(m, LoopConfig{}), 0.0);
  m.tests_passing = true;
  EXPECT_EQ(HaltQ(m, LoopConfig{}), 1.0);
}

TEST(LoopHaltQ, ConfiguredWeightsAreRelative) {
  LoopConfig c;
  c.weight_security_score = 0.5;
  model::LoopMetricsView m;
  m.security_score = 0.5;
  m.tests_passing = true;
  EXPECT_DOUBLE_EQ(HaltQ(m, c), (0.5 * 0.5 + 0.30) / (0.5 + 0.30));
}

TEST(LoopHaltQ, AMetricWeightedZeroIsNotMeasured) {
  LoopConfig c;
  c.weight_security_score = 0;
  model::LoopMetricsView m;
  m.security_score = 0.9;
  EXPECT_EQ(Measured(m, c), 0);
  m.test_coverage = 0.6;
  EXPECT_DOUBLE_EQ(HaltQ(m, c), 0.6);
}

TEST(LoopConfigFields, ListsEveryKeyUnderLoopWithSeedDefaults) {
  LoopConfig c;
  ConfigFields f = c.Fields();
  ASSERT_EQ(f.size(), 15u);
  EXPECT_EQ(f[0].name, "loop.max_iterations");
  EXPECT_EQ(*f[0].value, 5);
  EXPECT_TRUE(f[0].integer);
  for (const ConfigField& field : f) {
    EXPECT_TRUE(field.name.starts_with("loop.")) << field.name;
    EXPECT_GE(*field.value, field.min) << field.name;
    EXPECT_LE(*field.value, field.max) << field.name;
  }
  *f[1].value = 4;
  EXPECT_EQ(c.stagnation_window, 4);
}

TEST(LoopFeedbackHash, IsFnv1a64) {
  EXPECT_EQ(FeedbackHash(""), 14695981039346656037ull);
  EXPECT_EQ(FeedbackHash("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_NE(FeedbackHash("fix tests"), FeedbackHash("fix test"));
}

// ---- halt rules ----------------------------------------------------------------------------

TEST(LoopDecide, EmptyHistoryContinuesWithZeroQ) {
  LoopDecision d = Decide({}, LoopConfig{});
  EXPECT_EQ(d.action, LoopAction::kContinue);
  EXPECT_EQ(d.reason, "");
  EXPECT_EQ(d.q_halt, 0);
  EXPECT_EQ(d.q_continue, 1);
  EXPECT_FALSE(d.stagnation_detected);
}

TEST(LoopDecide, SeedNarrativeQPointSixFiveHaltsBecauseTheCodeSays) {
  // The seed's example says CONTINUE at Q(HALT) 0.65; its should_halt halts above 0.5.
  LoopIteration it;
  it.iteration = 1;
  it.metrics.test_coverage = 1;       // 0.25
  it.metrics.tests_passing = true;    // 0.30
  it.metrics.security_score = 0;      // 0
  it.metrics.code_quality_score = 0;  // 0
  it.metrics.doc_coverage = 1;        // 0.05
  it.metrics.type_coverage = 1;       // 0.05
  LoopDecision d = Decide({it}, LoopConfig{});
  EXPECT_EQ(d.action, LoopAction::kHalt);
  EXPECT_EQ(d.reason, "quality_sufficient");
  EXPECT_NEAR(d.q_halt, 0.65, 1e-12);
  EXPECT_NEAR(d.q_continue, 0.35, 1e-12);
}

TEST(LoopDecide, PassingSuiteAtEightyPercentCoverageHaltsAtTheFirstIteration) {
  // The issue: this loop got Q(HALT) 0.500, continued, and ended in ABORT (cycling).
  LoopIteration it;
  it.iteration = 1;
  it.metrics.tests_passing = true;
  it.metrics.test_coverage = 0.8;
  it.feedback = "same text every time";
  LoopEvaluation e = Eval({it}, LoopConfig{});
  EXPECT_EQ(e.decision.action, LoopAction::kHalt);
  EXPECT_EQ(e.decision.reason, "quality_sufficient");
  EXPECT_NEAR(e.decision.q_halt, 0.909091, 1e-6);
  EXPECT_TRUE(Fired(e, LoopRule::kGoodEnough));  // above 0.75 with tests passing, too
  // And had it continued, the same feedback twice halts rather than aborting as cycling.
  LoopIteration again = it;
  again.iteration = 2;
  EXPECT_EQ(Decide({it, again}, LoopConfig{}).reason, "quality_sufficient");
}

TEST(LoopDecide, WithoutTestEvidenceQualityNeverHalts) {
  // A security score alone renormalizes to itself; it says nothing of the tests.
  LoopIteration it;
  it.iteration = 1;
  it.metrics.security_score = 0.95;
  it.metrics.doc_coverage = 1;
  LoopEvaluation e = Eval({it}, LoopConfig{});
  EXPECT_NEAR(e.decision.q_halt, 0.96, 1e-12);  // (0.20 x 0.95 + 0.05 x 1) / (0.20 + 0.05)
  EXPECT_FALSE(Fired(e, LoopRule::kQualitySufficient));
  EXPECT_EQ(e.decision.action, LoopAction::kContinue);
  it.metrics.test_coverage = 0.9;
  EXPECT_EQ(Decide({it}, LoopConfig{}).reason, "quality_sufficient");
}

TEST(LoopDecide, GuardsReadTheRenormalizedQuality) {
  // Tests pass at 30% coverage: (0.30 + 0.075) / 0.55 = 0.682 at iteration 3 is not too low
  // (it was 0.375 counting the unmeasured four as 0). Failing tests at 80%: 0.364, too low.
  LoopIteration it;
  it.iteration = 3;
  it.metrics.tests_passing = false;
  it.metrics.test_coverage = 0.8;
  LoopConfig c;
  c.max_iterations = 10;
  EXPECT_EQ(Decide({it}, c).reason, "quality_too_low");
  it.metrics.tests_passing = true;
  it.metrics.test_coverage = 0.3;
  c.good_enough_q = 1;
  LoopEvaluation e = Eval({it}, c);
  EXPECT_FALSE(Fired(e, LoopRule::kQualityTooLow));
  EXPECT_EQ(e.decision.reason, "quality_sufficient");
}

TEST(LoopDecide, QExactlyHalfDoesNotHalt) {
  LoopDecision d = Decide(Qualities({0.5}), CoverageIsQ());
  EXPECT_EQ(d.action, LoopAction::kContinue);
  EXPECT_EQ(d.reason, "");
  d = Decide(Qualities({0.5000001}), CoverageIsQ());
  EXPECT_EQ(d.action, LoopAction::kHalt);
  EXPECT_EQ(d.reason, "quality_sufficient");
}

TEST(LoopDecide, IterationFiveHaltsAtMaxIterationsAndFourDoesNot) {
  LoopConfig c = CoverageIsQ();
  c.min_quality = 0;  // keep quality_too_low out of the way
  LoopDecision d = Decide({It(5, 0.2)}, c);
  EXPECT_EQ(d.action, LoopAction::kHalt);
  EXPECT_EQ(d.reason, "max_iterations");
  d = Decide({It(4, 0.2)}, c);
  EXPECT_EQ(d.action, LoopAction::kContinue);
}

TEST(LoopDecide, IterationNumbersComeFromTheEventsNotTheCount) {
  LoopConfig c = CoverageIsQ();
  c.min_quality = 0;
  // One recorded iteration, numbered 7.
  EXPECT_EQ(Decide({It(7, 0.2)}, c).reason, "max_iterations");
}

TEST(LoopDecide, GoodEnoughNeedsTestsPassingAndQAboveThreshold) {
  LoopConfig c;
  c.good_enough_q = 0.4;
  LoopIteration it;
  it.iteration = 1;
  // All six measured: q = 0.30 + 0.25 x 0.6 = 0.45, not above 1 - q.
  it.metrics.tests_passing = true;
  it.metrics.test_coverage = 0.6;
  it.metrics.security_score = 0;
  it.metrics.code_quality_score = 0;
  it.metrics.doc_coverage = 0;
  it.metrics.type_coverage = 0;
  LoopDecision d = Decide({it}, c);
  EXPECT_EQ(d.action, LoopAction::kHalt);
  EXPECT_EQ(d.reason, "good_enough");

  c.good_enough_q = 0.45;  // q must be strictly above
  EXPECT_EQ(Decide({it}, c).action, LoopAction::kContinue);

  c.good_enough_q = 0.4;
  it.metrics.tests_passing = false;
  it.metrics.test_coverage = 1;
  it.metrics.security_score = 1;  // q = 0.45 again, with failing tests
  EXPECT_EQ(Decide({it}, c).action, LoopAction::kContinue);
}

TEST(LoopDecide, GoodEnoughCannotFireBeforeQualitySufficientWithSeedThresholds) {
  model::LoopMetricsView m;
  m.tests_passing = true;
  m.test_coverage = 1;
  m.security_score = 1;
  m.code_quality_score = 1;  // q = 0.90
  LoopIteration it{.iteration = 1, .metrics = m, .cost = 0, .elapsed_seconds = 0, .feedback = ""};
  LoopEvaluation e = Eval({it}, LoopConfig{});
  EXPECT_TRUE(Fired(e, LoopRule::kGoodEnough));
  EXPECT_EQ(e.decision.reason, "quality_sufficient");
}

// ---- guards --------------------------------------------------------------------------------

TEST(LoopDecide, LowVarianceOverThreeIterationsIsStagnation) {
  // var(0.40, 0.41, 0.42) = 0.0002 / 3 < 0.001; rising, so not declining. Iteration 3 with
  // q < 0.60 is also quality_too_low, which comes later.
  LoopEvaluation e = Eval(Qualities({0.40, 0.41, 0.42}), CoverageIsQ());
  EXPECT_EQ(e.decision.action, LoopAction::kAbort);
  EXPECT_EQ(e.decision.reason, "stagnation");
  EXPECT_TRUE(e.decision.stagnation_detected);
  EXPECT_NEAR(e.variance, 0.0002 / 3, 1e-12);
  EXPECT_TRUE(Fired(e, LoopRule::kQualityTooLow));
  EXPECT_FALSE(Fired(e, LoopRule::kDeclining));
}

TEST(LoopDecide, VarianceEqualToThresholdIsNotStagnation) {
  LoopConfig c = CoverageIsQ();
  c.min_quality = 0;
  // q = 0, 0, 0.375: mean 0.125, population variance 0.09375 / 3 = 0.03125 exactly.
  c.stagnation_variance = 0.03125;
  LoopEvaluation e = Eval(Qualities({0, 0, 0.375}), c);
  EXPECT_EQ(e.variance, 0.03125);
  EXPECT_FALSE(Fired(e, LoopRule::kStagnation));
  EXPECT_EQ(e.decision.action, LoopAction::kContinue);
  c.stagnation_variance = 0.0312501;
  EXPECT_EQ(Eval(Qualities({0, 0, 0.375}), c).decision.reason, "stagnation");
}

TEST(LoopDecide, VarianceIsPopulationVarianceNotSample) {
  LoopConfig c = CoverageIsQ();
  c.min_quality = 0;
  // np.var(0.30, 0.35, 0.40) = 0.005 / 3 = 0.001667 (the sample variance would be 0.0025).
  LoopEvaluation e = Eval(Qualities({0.30, 0.35, 0.40}), c);
  EXPECT_NEAR(e.variance, 0.005 / 3, 1e-12);
  EXPECT_FALSE(Fired(e, LoopRule::kStagnation));
}

TEST(LoopDecide, StagnationNeedsAFullWindow) {
  LoopEvaluation e = Eval(Qualities({0.4, 0.4}), CoverageIsQ());
  EXPECT_FALSE(e.window_full);
  EXPECT_FALSE(Fired(e, LoopRule::kStagnation));
  EXPECT_FALSE(Fired(e, LoopRule::kDeclining));
  EXPECT_EQ(e.decision.action, LoopAction::kContinue);
}

TEST(LoopDecide, OnlyTheLastWindowCounts) {
  LoopConfig c = CoverageIsQ();
  c.min_quality = 0;
  c.max_iterations = 10;
  // 0.40, 0.40, 0.40 stagnated earlier; the last three (0.40, 0.20, 0.45) vary and rise.
  EXPECT_EQ(Decide(Qualities({0.40, 0.40, 0.40, 0.20, 0.45}), c).action, LoopAction::kContinue);
}

TEST(LoopDecide, FallingQualityIsDeclining) {
  // var(0.5, 0.4, 0.3) = 0.00667: not stagnation, but falling.
  LoopDecision d = Decide(Qualities({0.5, 0.4, 0.3}), CoverageIsQ());
  EXPECT_EQ(d.action, LoopAction::kAbort);
  EXPECT_EQ(d.reason, "declining");
  EXPECT_TRUE(d.stagnation_detected);
}

TEST(LoopDecide, EqualNeighboursCountAsDeclining) {
  // q[i] >= q[i+1]: 0.5 >= 0.4 >= 0.4; var 0.00222 is not stagnation.
  EXPECT_EQ(Decide(Qualities({0.5, 0.4, 0.4}), CoverageIsQ()).reason, "declining");
  LoopConfig c = CoverageIsQ();
  c.min_quality = 0;
  EXPECT_EQ(Decide(Qualities({0.3, 0.4, 0.4}), c).action, LoopAction::kContinue);
}

TEST(LoopDecide, QualityTooLowFromIterationThree) {
  EXPECT_EQ(Decide({It(3, 0.45)}, CoverageIsQ()).reason, "quality_too_low");
  EXPECT_EQ(Decide({It(2, 0.45)}, CoverageIsQ()).action, LoopAction::kContinue);
}

TEST(LoopDecide, QualityEqualToMinimumIsNotTooLow) {
  LoopConfig c = CoverageIsQ();
  c.min_quality = 0.25;
  EXPECT_EQ(Decide({It(3, 0.25)}, c).action, LoopAction::kContinue);
  EXPECT_EQ(Decide({It(3, 0.24)}, c).reason, "quality_too_low");
}

TEST(LoopDecide, CostAboveFiveDollarsAborts) {
  std::vector<LoopIteration> h = {It(1, 0.2, "", 2.0), It(2, 0.3, "", 3.0)};
  EXPECT_EQ(Decide(h, CoverageIsQ()).action, LoopAction::kContinue);  // exactly 5.0
  h[1].cost = 3.5;
  LoopDecision d = Decide(h, CoverageIsQ());
  EXPECT_EQ(d.action, LoopAction::kAbort);
  EXPECT_EQ(d.reason, "cost_limit");
}

TEST(LoopDecide, MoreThanThirtyMinutesAborts) {
  std::vector<LoopIteration> h = {It(1, 0.2, "", 0, 900), It(2, 0.3, "", 0, 900)};
  EXPECT_EQ(Decide(h, CoverageIsQ()).action, LoopAction::kContinue);  // exactly 1800 s
  h[1].elapsed_seconds = 900.5;
  EXPECT_EQ(Decide(h, CoverageIsQ()).reason, "time_limit");
}

TEST(LoopDecide, FeedbackRepeatingOneOfThePreviousTwoIsCycling) {
  LoopConfig c = CoverageIsQ();
  c.min_quality = 0;
  std::vector<LoopIteration> h = {It(1, 0.1, "fix tests"), It(2, 0.3, "add docs"),
                                  It(3, 0.2, "fix tests")};
  LoopDecision d = Decide(h, c);
  EXPECT_EQ(d.action, LoopAction::kAbort);
  EXPECT_EQ(d.reason, "cycling");
  // Immediately repeated, too.
  EXPECT_EQ(Decide({It(1, 0.1, "same"), It(2, 0.3, "same")}, c).reason, "cycling");
}

TEST(LoopDecide, FeedbackRepeatedThreeIterationsBackIsNotCycling) {
  LoopConfig c = CoverageIsQ();
  c.min_quality = 0;
  c.max_iterations = 10;
  std::vector<LoopIteration> h = {It(1, 0.1, "a"), It(2, 0.3, "b"), It(3, 0.2, "c"),
                                  It(4, 0.4, "a")};
  EXPECT_EQ(Decide(h, c).action, LoopAction::kContinue);
  c.cycle_window = 3;
  EXPECT_EQ(Decide(h, c).reason, "cycling");
}

TEST(LoopDecide, EmptyFeedbackNeverCycles) {
  LoopConfig c = CoverageIsQ();
  EXPECT_EQ(Decide({It(1, 0.1, ""), It(2, 0.3, "")}, c).action, LoopAction::kContinue);
}

// ---- order ---------------------------------------------------------------------------------

TEST(LoopDecide, HaltRulesComeBeforeGuards) {
  LoopConfig c = CoverageIsQ();
  c.max_iterations = 3;
  // Declining and too low at iteration 3, but the iteration limit halts first.
  LoopEvaluation e = Eval(Qualities({0.5, 0.4, 0.3}), c);
  EXPECT_EQ(e.decision.action, LoopAction::kHalt);
  EXPECT_EQ(e.decision.reason, "max_iterations");
  EXPECT_TRUE(Fired(e, LoopRule::kMaxIterationsAbort));
  EXPECT_TRUE(Fired(e, LoopRule::kDeclining));
  EXPECT_TRUE(e.decision.stagnation_detected);
}

TEST(LoopDecide, HighFlatQualityHaltsYetReportsStagnation) {
  LoopDecision d = Decide(Qualities({0.6, 0.6, 0.6}), CoverageIsQ());
  EXPECT_EQ(d.action, LoopAction::kHalt);
  EXPECT_EQ(d.reason, "quality_sufficient");
  EXPECT_TRUE(d.stagnation_detected);
}

TEST(LoopDecide, StagnationComesBeforeDeclining) {
  // Flat: variance 0 and non-increasing; stagnation is checked first.
  EXPECT_EQ(Decide(Qualities({0.3, 0.3, 0.3}), CoverageIsQ()).reason, "stagnation");
}

TEST(LoopMetricsSummary, SumsCostAndTimeAndListsQuality) {
  LoopConfig c = CoverageIsQ();
  std::vector<IterationSummary> s = {Summarize(It(1, 0.2, "x", 1.25, 60), c),
                                     Summarize(It(2, 0.4, "y", 0.5, 30), c)};
  LoopEvaluation e = Evaluate(s, c, EarlierIterations{.count = 3, .cost = 1, .seconds = 10});
  LoopMetrics m = Metrics(s, e);
  EXPECT_EQ(m.iterations, 5);
  EXPECT_DOUBLE_EQ(m.cost, 2.75);
  EXPECT_DOUBLE_EQ(m.total_time, 100);
  EXPECT_EQ(m.quality_progression, (std::vector<double>{0.2, 0.4}));
  EXPECT_FALSE(m.stagnation_detected);
  EXPECT_EQ(m.halt_reason, "");
}

}  // namespace
}  // namespace kaizen::learn
