#include "signals/report_metrics.h"

#include <gtest/gtest.h>

#include "signals/junit.h"

namespace kaizen::signals {
namespace {

TEST(ReportMetrics, JUnitAndCoverageMapToQualityMetrics) {
  TestReport t;
  t.tests = 10;
  t.skipped = 1;
  t.failures = 2;
  CoverageReport c;
  c.lines_found = 200;
  c.lines_hit = 150;
  model::LoopMetricsView m = MetricsFromReports(&t, &c);
  EXPECT_EQ(m.tests_passing, false);
  EXPECT_EQ(m.test_count, 10);
  EXPECT_DOUBLE_EQ(*m.test_coverage, 0.75);
  EXPECT_FALSE(m.security_score.has_value());
  t.failures = 0;
  EXPECT_EQ(MetricsFromReports(&t, nullptr).tests_passing, true);
  EXPECT_FALSE(MetricsFromReports(&t, nullptr).test_coverage.has_value());
}

TEST(ReportMetrics, CoverageWithoutMeasuredLinesLeavesCoverageAbsent) {
  CoverageReport c;
  EXPECT_FALSE(MetricsFromReports(nullptr, &c).test_coverage.has_value());
  EXPECT_TRUE(Empty(MetricsFromReports(nullptr, &c)));
}

TEST(ReportMetrics, DetectsCoverageFormatByContent) {
  EXPECT_EQ(DetectCoverageFormat("\xEF\xBB\xBF  \n<?xml version='1.0'?><coverage/>"),
            CoverageReport::Format::kCobertura);
  EXPECT_EQ(DetectCoverageFormat("TN:\nSF:a.c\n"), CoverageReport::Format::kLcov);
  auto lcov = ParseCoverage("SF:a.c\nDA:1,1\nDA:2,0\n", "x");
  ASSERT_TRUE(lcov.ok());
  EXPECT_DOUBLE_EQ(*lcov->LineRate(), 0.5);
  auto cob = ParseCoverage(R"(<coverage line-rate="0.25"/>)", "x");
  ASSERT_TRUE(cob.ok());
  EXPECT_EQ(cob->format, CoverageReport::Format::kCobertura);
}

TEST(EvaluateOutput, BareQualityMetricsObject) {
  auto r = ParseEvaluateOutput(
      R"({"test_coverage":0.8,"tests_passing":true,"test_count":12,"security_score":null})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_DOUBLE_EQ(*r->metrics.test_coverage, 0.8);
  EXPECT_EQ(r->metrics.tests_passing, true);
  EXPECT_EQ(r->metrics.test_count, 12);
  EXPECT_FALSE(r->metrics.security_score.has_value());
  EXPECT_FALSE(r->cost.has_value());
}

TEST(EvaluateOutput, WrapperCarriesCost) {
  auto r = ParseEvaluateOutput(R"({"metrics":{"doc_coverage":1},"cost":0.25})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_DOUBLE_EQ(*r->metrics.doc_coverage, 1.0);
  EXPECT_DOUBLE_EQ(*r->cost, 0.25);
}

TEST(EvaluateOutput, Seed003QualityEvaluatorNamesAreTheQualityMetricsFields) {
  auto r = ParseEvaluateOutput(R"({"code_quality":0.88,"documentation":0.95,"type_safety":1})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_DOUBLE_EQ(*r->metrics.code_quality_score, 0.88);
  EXPECT_DOUBLE_EQ(*r->metrics.doc_coverage, 0.95);
  EXPECT_DOUBLE_EQ(*r->metrics.type_coverage, 1.0);
  auto both = ParseEvaluateOutput(R"({"metrics":{"doc_coverage":1,"documentation":0.5}})");
  ASSERT_FALSE(both.ok());
  EXPECT_EQ(both.status().message(),
            "metrics.documentation: names the same as metrics.doc_coverage, given too (give one)");
}

TEST(EvaluateOutput, LastLineIsReadAfterOtherOutput) {
  auto r = ParseEvaluateOutput("running 12 tests\nall ok\n{\"tests_passing\":true}\n\n");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->metrics.tests_passing, true);
}

TEST(EvaluateOutput, ErrorsNameFieldValueAndRule) {
  auto rate = ParseEvaluateOutput(R"({"test_coverage":85})");
  ASSERT_FALSE(rate.ok());
  EXPECT_EQ(rate.status().message(), "test_coverage: 85 must be a number in 0..1");
  auto unknown = ParseEvaluateOutput(R"({"coverage":0.5})");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("coverage: unknown field (QualityMetrics has "),
            std::string::npos);
  auto count = ParseEvaluateOutput(R"({"metrics":{"test_count":1.5}})");
  ASSERT_FALSE(count.ok());
  EXPECT_EQ(count.status().message(), "metrics.test_count: 1.5 must be a whole number >= 0");
  auto cost = ParseEvaluateOutput(R"({"metrics":{"test_count":1},"cost":-1})");
  ASSERT_FALSE(cost.ok());
  EXPECT_EQ(cost.status().message(), "cost: -1 must be a number of dollars >= 0");
  auto empty = ParseEvaluateOutput("{}");
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("metrics: no QualityMetrics field"), std::string::npos);
}

TEST(EvaluateOutput, NonJsonOutputIsRefusedWithWhatWasPrinted) {
  auto r = ParseEvaluateOutput("Segmentation fault\n");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Segmentation fault"), std::string::npos);
  EXPECT_FALSE(ParseEvaluateOutput("").ok());
  EXPECT_FALSE(ParseEvaluateOutput("[1,2]").ok());
}

TEST(EvaluateOutput, MetricsJsonRoundTrips) {
  model::LoopMetricsView m;
  m.test_coverage = 0.1 + 0.2;
  m.tests_passing = false;
  m.type_errors = 3;
  const std::string json = QualityMetricsJson(m);
  EXPECT_EQ(json, R"({"test_coverage":0.30000000000000004,"tests_passing":false,"type_errors":3})");
  auto back = ParseEvaluateOutput(json);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(QualityMetricsJson(back->metrics), json);
}

}  // namespace
}  // namespace kaizen::signals
