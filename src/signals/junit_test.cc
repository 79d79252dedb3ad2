#include "signals/junit.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::signals {
namespace {

constexpr std::string_view kPytest = R"(<?xml version="1.0" encoding="utf-8"?>
<testsuites>
  <testsuite name="pytest" tests="5" failures="1" errors="1" skipped="1" time="0.5">
    <testcase classname="tests.test_pay" name="test_ok" time="0.1"/>
    <testcase classname="tests.test_pay" name="test_amount" time="0.2">
      <failure message="assert 3 == 4">long trace</failure>
    </testcase>
    <testcase classname="tests.test_pay" name="test_db"><error>connection refused</error></testcase>
    <testcase classname="tests.test_pay" name="test_skip"><skipped message="later"/></testcase>
    <testcase classname="tests.test_pay" name="test_two"/>
  </testsuite>
</testsuites>
)";

TEST(JUnitParse, CountsEachTestCaseByItsOutcome) {
  auto r = ParseJUnit(kPytest, "junit.xml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->tests, 5);
  EXPECT_EQ(r->failures, 1);
  EXPECT_EQ(r->errors, 1);
  EXPECT_EQ(r->skipped, 1);
  EXPECT_EQ(r->passed(), 2);
  EXPECT_EQ(r->executed(), 4);
  EXPECT_EQ(r->suites, 1);
  EXPECT_FALSE(r->passing());
  EXPECT_NEAR(r->time_seconds, 0.3, 1e-9);
}

TEST(JUnitParse, KeepsFailedCasesWithTheirMessages) {
  auto r = ParseJUnit(kPytest, "junit.xml");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->failed.size(), 2u);
  EXPECT_EQ(r->failed[0].suite, "pytest");
  EXPECT_EQ(r->failed[0].classname, "tests.test_pay");
  EXPECT_EQ(r->failed[0].name, "test_amount");
  EXPECT_EQ(r->failed[0].message, "assert 3 == 4");
  EXPECT_FALSE(r->failed[0].error);
  EXPECT_EQ(r->failed[1].message, "connection refused");  // no message attribute: the text
  EXPECT_TRUE(r->failed[1].error);
}

TEST(JUnitParse, SingleSuiteRootAndNestedSuites) {
  auto r = ParseJUnit(
      R"(<testsuite name="outer"><testsuite name="inner"><testcase name="a"/></testsuite>)"
      R"(<testcase name="b"/></testsuite>)",
      "j.xml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->tests, 2);
  EXPECT_EQ(r->suites, 2);
  EXPECT_TRUE(r->passing());
}

TEST(JUnitParse, ReportWithoutTestCasesIsReadFromInnermostSuiteTotals) {
  auto r = ParseJUnit(R"(<testsuites tests="99"><testsuite tests="4" failures="1" disabled="1"/>)"
                      R"(<testsuite tests="2" errors="0"/></testsuites>)",
                      "j.xml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->tests, 6);  // the outer total of 99 is not added again
  EXPECT_EQ(r->failures, 1);
  EXPECT_EQ(r->skipped, 1);
}

TEST(JUnitParse, EmptyRunIsNotPassing) {
  auto r = ParseJUnit("<testsuites/>", "j.xml");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->tests, 0);
  EXPECT_FALSE(r->passing());
  auto skipped =
      ParseJUnit(R"(<testsuite><testcase name="a"><skipped/></testcase></testsuite>)", "j.xml");
  ASSERT_TRUE(skipped.ok());
  EXPECT_FALSE(skipped->passing());
}

TEST(JUnitParse, MalformedXmlNamesFileAndLine) {
  auto r = ParseJUnit("<testsuites>\n<testsuite>\n<testcase name='a'>\n</testsuites>", "out/j.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("out/j.xml:4: not well-formed XML"), std::string::npos)
      << r.status().message();
}

TEST(JUnitParse, OtherRootElementIsRefused) {
  auto r = ParseJUnit("<coverage line-rate='0.5'/>", "c.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("root element is <coverage>"), std::string::npos);
  EXPECT_FALSE(ParseJUnit("", "empty.xml").ok());
}

TEST(JUnitParse, BadSuiteTotalNamesTheAttribute) {
  auto r = ParseJUnit("<testsuites>\n<testsuite tests=\"many\"/></testsuites>", "j.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "j.xml:2: <testsuite> attribute tests=\"many\" must be a whole number in 0..10^12");
  auto over = ParseJUnit(R"(<testsuite tests="1" failures="2"/>)", "j.xml");
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("exceed tests (1)"), std::string::npos);
}

// Found by reading the parser while fuzzing (L5b): int64 totals summed without a bound overflowed
// (undefined behaviour, UBSan aborts) before the "exceed tests" check could refuse them.
TEST(JUnitParse, HugeSuiteTotalsAreRefusedNotOverflowed) {
  auto r = ParseJUnit(
      R"(<testsuite tests="9223372036854775807" skipped="9223372036854775807" disabled="1"/>)",
      "j.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(
      r.status().message(),
      "j.xml:1: <testsuite> attribute tests=\"9223372036854775807\" must be a whole number in "
      "0..10^12");
  auto ok = ParseJUnit(R"(<testsuite tests="1000000000000" failures="1000000000000"/>)", "j.xml");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->tests, 1'000'000'000'000);
}

TEST(JUnitParse, FailedCasesAreCappedButAllCounted) {
  std::string xml = "<testsuite>";
  for (int i = 0; i < 80; ++i) xml += "<testcase name='t'><failure message='m'/></testcase>";
  xml += "</testsuite>";
  auto r = ParseJUnit(xml, "j.xml");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->failures, 80);
  EXPECT_EQ(r->failed.size(), kMaxFailedCasesKept);
}

TEST(JUnitParse, OversizedInputIsRefusedBeforeParsing) {
  std::string big(kMaxReportBytes + 1, ' ');
  auto r = ParseJUnit(big, "huge.xml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("huge.xml: 67108865 bytes is over the report size limit"),
            std::string::npos);
}

}  // namespace
}  // namespace kaizen::signals
