#include "render/loop_feedback.h"

#include <gtest/gtest.h>

namespace kaizen::render {
namespace {

TEST(LoopFeedback, NamesFailingTestsFromTheJUnitReport) {
  signals::TestReport t;
  t.tests = 4;
  t.failures = 1;
  t.errors = 1;
  t.failed = {{"s", "pay", "test_amount", "assert 3 == 4", false}, {"s", "", "test_db", "", true}};
  model::LoopMetricsView m;
  m.tests_passing = false;
  m.test_coverage = 0.9;
  std::string text = FeedbackText(m, &t, nullptr, learn::LoopConfig());
  EXPECT_NE(text.find("2 of 4 tests fail (1 failures, 1 errors)"), std::string::npos) << text;
  EXPECT_NE(text.find("- pay.test_amount: assert 3 == 4\n"), std::string::npos) << text;
  EXPECT_NE(text.find("- test_db\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("Test coverage"), std::string::npos) << "0.9 is above the 0.75 bar";
}

TEST(LoopFeedback, LowCoverageAndUnmeasuredMetricsAreNamed) {
  model::LoopMetricsView m;
  m.tests_passing = true;
  m.test_coverage = 0.5;
  m.security_score = 0.9;
  signals::CoverageReport c;
  c.lines_found = 10;
  c.lines_hit = 5;
  c.branches_found = 4;
  c.branches_hit = 1;
  std::string text = FeedbackText(m, nullptr, &c, learn::LoopConfig());
  // (0.30 + 0.25 x 0.5 + 0.20 x 0.9) / (0.30 + 0.25 + 0.20): the measured weights only.
  EXPECT_NE(text.find("Quality Q(HALT) is 0.807; the loop halts above 0.500.\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("Test coverage is 50.0%, below 75.0%"), std::string::npos) << text;
  EXPECT_NE(text.find("Branch coverage is 25.0% (1 of 4 branches)"), std::string::npos) << text;
  EXPECT_NE(text.find("Not measured (left out of Q(HALT), whose weights are renormalized over "
                      "the measured metrics): code_quality_score, doc_coverage, type_coverage."),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Security"), std::string::npos) << text;
}

TEST(LoopFeedback, WithoutTestEvidenceTheHaltBarSaysWhatIsMissing) {
  model::LoopMetricsView m;
  m.security_score = 0.9;
  const std::string text = FeedbackText(m, nullptr, nullptr, learn::LoopConfig());
  EXPECT_NE(text.find("Quality Q(HALT) is 0.900; the loop halts above 0.500 once tests_passing "
                      "or test_coverage is measured."),
            std::string::npos)
      << text;
}

TEST(LoopFeedback, SameMetricsGiveTheSameText) {
  model::LoopMetricsView m;
  m.tests_passing = false;
  m.vulnerabilities = 2;
  m.type_errors = 7;
  const std::string a = FeedbackText(m, nullptr, nullptr, learn::LoopConfig());
  EXPECT_EQ(a, FeedbackText(m, nullptr, nullptr, learn::LoopConfig()));
  EXPECT_NE(a.find("Tests fail: make them pass."), std::string::npos);
  EXPECT_NE(a.find("2 vulnerabilities reported"), std::string::npos);
  EXPECT_NE(a.find("7 type errors"), std::string::npos);
}

TEST(LoopFeedback, TextStaysUnderTheCap) {
  signals::TestReport t;
  t.tests = 50;
  t.failures = 50;
  for (int i = 0; i < 50; ++i)
    t.failed.push_back({"s", "c", std::string(2000, 'x'), std::string(300, 'y'), false});
  std::string text = FeedbackText(model::LoopMetricsView(), &t, nullptr, learn::LoopConfig());
  EXPECT_LE(text.size(), kMaxFeedbackBytes);
  EXPECT_NE(text.find("- and 40 more"), std::string::npos);
}

}  // namespace
}  // namespace kaizen::render
