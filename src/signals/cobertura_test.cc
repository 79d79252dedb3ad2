#include "signals/cobertura.h"

#include <gtest/gtest.h>

namespace kaizen::signals {
namespace {

constexpr std::string_view kCoveragePy = R"(<?xml version="1.0" ?>
<coverage version="7.4" timestamp="1" lines-valid="200" lines-covered="150" line-rate="0.75"
          branches-valid="40" branches-covered="10" branch-rate="0.25" complexity="0">
  <packages><package name="app" line-rate="0.75">
    <classes>
      <class name="a.py" filename="app/a.py" line-rate="0.7"><lines><line number="1" hits="1"/></lines></class>
      <class name="b.py" filename="app/b.py" line-rate="0.8"/>
      <class name="b2" filename="app/b.py" line-rate="0.8"/>
    </classes>
  </package></packages>
</coverage>
)";

TEST(CoberturaParse, ReadsCountsAndFiles) {
  auto r = ParseCobertura(kCoveragePy, "coverage.xml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->format, CoverageReport::Format::kCobertura);
  EXPECT_EQ(r->lines_found, 200);
  EXPECT_EQ(r->lines_hit, 150);
  EXPECT_EQ(r->branches_found, 40);
  EXPECT_EQ(r->branches_hit, 10);
  EXPECT_EQ(r->files, 2);
  EXPECT_DOUBLE_EQ(*r->LineRate(), 0.75);
  EXPECT_DOUBLE_EQ(*r->BranchRate(), 0.25);
}

TEST(CoberturaParse, RatesAloneAreUsedWhenCountsAreMissing) {
  auto r = ParseCobertura(R"(<coverage line-rate="0.8125" branch-rate="0.5"/>)", "c.xml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_DOUBLE_EQ(*r->LineRate(), 0.8125);
  EXPECT_DOUBLE_EQ(*r->BranchRate(), 0.5);
}

TEST(CoberturaParse, ZeroBranchesValidMeansBranchesWereNotMeasured) {
  auto r = ParseCobertura(
      R"(<coverage lines-valid="10" lines-covered="5" branches-valid="0" branch-rate="0"/>)",
      "c.xml");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->BranchRate().has_value());
  EXPECT_DOUBLE_EQ(*r->LineRate(), 0.5);
}

TEST(CoberturaParse, ErrorsNameTheAttributeAndRule) {
  auto rate = ParseCobertura("<coverage\n line-rate=\"1.5\"/>", "c.xml");
  ASSERT_FALSE(rate.ok());
  EXPECT_EQ(rate.status().message(),
            "c.xml:1: <coverage> attribute line-rate=\"1.5\" must be a number in 0..1");
  auto covered = ParseCobertura(R"(<coverage lines-valid="3" lines-covered="4"/>)", "c.xml");
  ASSERT_FALSE(covered.ok());
  EXPECT_EQ(covered.status().message(),
            "c.xml:1: <coverage> attribute lines-covered=\"4\" exceeds lines-valid=\"3\"");
  auto count = ParseCobertura(R"(<coverage lines-valid="-1"/>)", "c.xml");
  ASSERT_FALSE(count.ok());
  EXPECT_NE(count.status().message().find("lines-valid=\"-1\" must be a whole number"),
            std::string::npos);
}

TEST(CoberturaParse, RefusesOtherDocuments) {
  auto junit = ParseCobertura("<testsuites/>", "c.xml");
  ASSERT_FALSE(junit.ok());
  EXPECT_NE(junit.status().message().find("root element is <testsuites>"), std::string::npos);
  auto bare = ParseCobertura("<coverage/>", "c.xml");
  ASSERT_FALSE(bare.ok());
  EXPECT_NE(bare.status().message().find("neither lines-valid/lines-covered nor line-rate"),
            std::string::npos);
  auto broken = ParseCobertura("<coverage", "c.xml");
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.status().message().find("c.xml:1: not well-formed XML"), std::string::npos);
}

// Found by fuzz/report_fuzz.cc (L5b): lines-covered without lines-valid made 3 lines hit of 0
// found, a rate above 1.
TEST(CoberturaParse, CoveredCountWithoutItsValidCountIsIgnored) {
  auto by_rate = ParseCobertura(
      R"(<coverage line-rate="0.75" lines-covered="3" branches-covered="1"/>)", "c.xml");
  ASSERT_TRUE(by_rate.ok()) << by_rate.status().message();
  EXPECT_EQ(by_rate->lines_hit, 0);
  EXPECT_EQ(by_rate->lines_found, 0);
  EXPECT_EQ(by_rate->branches_hit, 0);
  EXPECT_EQ(by_rate->LineRate(), 0.75);
  auto neither = ParseCobertura(R"(<coverage lines-covered="3"/>)", "c.xml");
  ASSERT_FALSE(neither.ok());
  EXPECT_EQ(neither.status().message(),
            "c.xml: <coverage> gives neither lines-valid/lines-covered nor line-rate");
}

}  // namespace
}  // namespace kaizen::signals
