#include "signals/lcov.h"

#include <gtest/gtest.h>

namespace kaizen::signals {
namespace {

TEST(LcovParse, CountsLinesAndBranchesFromDaAndBrda) {
  auto r = ParseLcov(
      "TN:\nSF:src/a.c\nFN:1,main\nFNDA:1,main\nDA:1,1\nDA:2,0\nDA:3,5\nDA:4,0\n"
      "BRDA:2,0,0,1\nBRDA:2,0,1,-\nBRDA:3,0,0,0\nLF:4\nLH:2\nBRF:3\nBRH:1\nend_of_record\n"
      "SF:src/b.c\nDA:1,1\nLF:1\nLH:1\nend_of_record\n",
      "cov.info");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->format, CoverageReport::Format::kLcov);
  EXPECT_EQ(r->files, 2);
  EXPECT_EQ(r->lines_found, 5);
  EXPECT_EQ(r->lines_hit, 3);
  EXPECT_EQ(r->branches_found, 3);
  EXPECT_EQ(r->branches_hit, 1);
  EXPECT_DOUBLE_EQ(*r->LineRate(), 0.6);
  EXPECT_DOUBLE_EQ(*r->BranchRate(), 1.0 / 3);
}

TEST(LcovParse, SameFileInTwoRecordsCountsEachLineOnce) {
  auto r = ParseLcov(
      "SF:a.c\nDA:1,1\nDA:2,0\nend_of_record\nSF:a.c\nDA:1,0\nDA:2,3\nend_of_record\n", "c.info");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->files, 1);
  EXPECT_EQ(r->lines_found, 2);
  EXPECT_EQ(r->lines_hit, 2);
}

TEST(LcovParse, RecordWithoutDaLinesUsesLfAndLh) {
  auto r = ParseLcov("SF:a.c\nLF:10\nLH:7\nBRF:4\nBRH:1\nend_of_record\n", "c.info");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->lines_found, 10);
  EXPECT_EQ(r->lines_hit, 7);
  EXPECT_EQ(r->branches_found, 4);
  EXPECT_EQ(r->branches_hit, 1);
}

TEST(LcovParse, CrlfAndMissingEndOfRecordAreAccepted) {
  auto r = ParseLcov("SF:a.c\r\nDA:1,1\r\nSF:b.c\r\nDA:1,0\r\n", "c.info");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->files, 2);
  EXPECT_EQ(r->lines_found, 2);
  EXPECT_EQ(r->lines_hit, 1);
}

TEST(LcovParse, NoMeasuredLinesGivesNoRate) {
  auto r = ParseLcov("SF:a.c\nend_of_record\n", "c.info");
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->LineRate().has_value());
  EXPECT_FALSE(r->BranchRate().has_value());
}

TEST(LcovParse, ErrorsNameFileLineAndRule) {
  auto bad_da = ParseLcov("SF:a.c\nDA:1,1\nDA:x,1\n", "cov.info");
  ASSERT_FALSE(bad_da.ok());
  EXPECT_EQ(bad_da.status().message(),
            "cov.info:3: DA:x,1 must be DA:<line>,<execution count>[,<checksum>]");
  auto lh = ParseLcov("SF:a.c\nLF:2\nLH:3\n", "cov.info");
  ASSERT_FALSE(lh.ok());
  EXPECT_EQ(lh.status().message(), "cov.info:3: LH:3 exceeds LF:2 (more lines hit than found)");
  auto outside = ParseLcov("DA:1,1\n", "cov.info");
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.status().message(), "cov.info:1: DA: outside a record (no SF: line before it)");
  auto junk = ParseLcov("SF:a.c\nhello world\n", "cov.info");
  ASSERT_FALSE(junk.ok());
  EXPECT_NE(junk.status().message().find("cov.info:2: \"hello world\" is not an lcov record"),
            std::string::npos);
}

TEST(LcovParse, AnExecutionCountThatIsNotANumberIsRefused) {
  for (const char* count : {"nan", "-nan", "-1"}) {
    SCOPED_TRACE(count);
    auto r = ParseLcov(std::string("SF:a.c\nDA:1,") + count + "\n", "cov.info");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().message(), std::string("cov.info:2: DA:1,") + count +
                                        " must be DA:<line>,<execution count>[,<checksum>]");
  }
  EXPECT_TRUE(ParseLcov("SF:a.c\nDA:1,1.5e3\nDA:2,inf\n", "cov.info").ok());
}

TEST(LcovParse, InputWithoutSourceFileIsNotATracefile) {
  auto r = ParseLcov("TN:x\n", "cov.info");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("cov.info: no SF: record"), std::string::npos);
  EXPECT_FALSE(ParseLcov("", "empty.info").ok());
}

TEST(LcovParse, ImplausibleCountsAreRefusedSoSumsCannotOverflow) {
  auto r = ParseLcov("SF:a.c\nLF:9223372036854775807\n", "cov.info");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("must be a whole number in 0..10^12"), std::string::npos);
}

}  // namespace
}  // namespace kaizen::signals
