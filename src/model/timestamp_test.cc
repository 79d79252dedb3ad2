#include "model/timestamp.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::model {
namespace {

constexpr int64_t kJuly11At0930Utc = 1752226200000;  // 2025-07-11T09:30:00Z
constexpr int64_t kDayMs = 86400000;

// ---- Parsing: accepted forms -----------------------------------------------------------------

TEST(Timestamp, ParsesUtcWithZ) {
  auto ts = ParseTimestamp("2025-07-11T09:30:00Z");
  ASSERT_TRUE(ts.ok()) << ts.status().message();
  EXPECT_EQ(ts->unix_ms, kJuly11At0930Utc);
  EXPECT_EQ(ts->offset_minutes, 0);
}

TEST(Timestamp, ParsesPositiveOffsetAsEarlierUtcInstant) {
  auto ts = ParseTimestamp("2025-07-11T09:30:00+02:00");
  ASSERT_TRUE(ts.ok()) << ts.status().message();
  EXPECT_EQ(ts->unix_ms, kJuly11At0930Utc - 2 * 3600000);
  EXPECT_EQ(ts->offset_minutes, 120);
}

TEST(Timestamp, ParsesNegativeHalfHourOffsetAsLaterUtcInstant) {
  auto ts = ParseTimestamp("2025-07-11T09:30:00-05:30");
  ASSERT_TRUE(ts.ok()) << ts.status().message();
  EXPECT_EQ(ts->unix_ms, kJuly11At0930Utc + (5 * 60 + 30) * 60000);
  EXPECT_EQ(ts->offset_minutes, -330);
}

TEST(Timestamp, ParsesFractionalSecondsToMilliseconds) {
  auto one = ParseTimestamp("2025-07-11T09:30:00.1Z");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->unix_ms, kJuly11At0930Utc + 100);
  auto three = ParseTimestamp("2025-07-11T09:30:00.123Z");
  ASSERT_TRUE(three.ok());
  EXPECT_EQ(three->unix_ms, kJuly11At0930Utc + 123);
  // Digits past milliseconds are dropped, not rounded.
  auto nine = ParseTimestamp("2025-07-11T09:30:00.987654321Z");
  ASSERT_TRUE(nine.ok());
  EXPECT_EQ(nine->unix_ms, kJuly11At0930Utc + 987);
}

TEST(Timestamp, ParsesFractionWithOffset) {
  auto ts = ParseTimestamp("2025-07-11T11:30:00.250+02:00");
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(ts->unix_ms, kJuly11At0930Utc + 250);
}

TEST(Timestamp, AcceptsSpaceInsteadOfT) {
  auto ts = ParseTimestamp("2025-07-11 09:30:00Z");
  ASSERT_TRUE(ts.ok()) << ts.status().message();
  EXPECT_EQ(ts->unix_ms, kJuly11At0930Utc);
}

TEST(Timestamp, AcceptsLeapDay) {
  auto ts = ParseTimestamp("2000-02-29T12:00:00Z");
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(ts->unix_ms, 951825600000);
}

// ---- Parsing: refused forms ------------------------------------------------------------------

TEST(Timestamp, RejectsMissingZoneWithRuleInMessage) {
  auto ts = ParseTimestamp("2025-07-11T09:30:00");
  ASSERT_FALSE(ts.ok());
  EXPECT_EQ(ts.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ts.status().message(), "must be ISO 8601 with a zone, e.g. 2025-07-11T09:30:00Z");
}

TEST(Timestamp, RejectsMissingZoneAfterFraction) {
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00.123").ok());
}

TEST(Timestamp, RejectsFebruary30AsNotARealDate) {
  auto ts = ParseTimestamp("2025-02-30T00:00:00Z");
  ASSERT_FALSE(ts.ok());
  EXPECT_EQ(ts.status().message(), "is not a real calendar date and time");
}

TEST(Timestamp, RejectsFebruary29InCommonYears) {
  EXPECT_FALSE(ParseTimestamp("2025-02-29T00:00:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("1900-02-29T00:00:00Z").ok());
}

TEST(Timestamp, RejectsHour24) {
  auto ts = ParseTimestamp("2025-07-11T24:00:00Z");
  ASSERT_FALSE(ts.ok());
  EXPECT_EQ(ts.status().message(), "is not a real calendar date and time");
}

TEST(Timestamp, RejectsMonth13MinuteAndSecond60) {
  EXPECT_FALSE(ParseTimestamp("2025-13-01T00:00:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-00-01T00:00:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-00T00:00:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:60:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:60Z").ok());
}

TEST(Timestamp, RejectsTrailingText) {
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00Zjunk").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00Z ").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00+02:00:00").ok());
}

TEST(Timestamp, RejectsTooShortInput) {
  EXPECT_FALSE(ParseTimestamp("").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:0Z").ok());
}

TEST(Timestamp, RejectsNonDigits) {
  EXPECT_FALSE(ParseTimestamp("2O25-07-11T09:30:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-1xT09:30:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:3a:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00+0a:00").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00.xZ").ok());
}

TEST(Timestamp, RejectsWrongSeparators) {
  EXPECT_FALSE(ParseTimestamp("2025/07/11T09:30:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11X09:30:00Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09.30.00Z").ok());
}

TEST(Timestamp, RejectsMalformedOffsets) {
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00+0200").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00+02").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00+02:0").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00+15:00").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00+02:60").ok());
}

TEST(Timestamp, RejectsEmptyOrOverlongFraction) {
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00.Z").ok());
  EXPECT_FALSE(ParseTimestamp("2025-07-11T09:30:00.1234567890Z").ok());
}

// ---- Formatting ------------------------------------------------------------------------------

TEST(Timestamp, FormatUtcWritesMillisecondsAndZ) {
  EXPECT_EQ(FormatUtc(kJuly11At0930Utc), "2025-07-11T09:30:00.000Z");
  EXPECT_EQ(FormatUtc(kJuly11At0930Utc + 7), "2025-07-11T09:30:00.007Z");
  EXPECT_EQ(FormatUtc(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatUtc(-1), "1969-12-31T23:59:59.999Z");
  EXPECT_EQ(FormatUtc(253402300800000), "10000-01-01T00:00:00.000Z");  // past four digits
  for (int64_t ms : {int64_t{0}, kJuly11At0930Utc, int64_t{253402300800000}}) {
    char buffer[kUtcTextMax];
    EXPECT_EQ(FormatUtc(ms, buffer), FormatUtc(ms));  // the text without an allocation
  }
}

TEST(Timestamp, FormatUtcRoundTripsThroughParseIncludingMillis) {
  for (int64_t ms : {int64_t{0}, kJuly11At0930Utc + 123, int64_t{951825600999},
                     int64_t{-2208988800000}, int64_t{253402300799999}}) {
    std::string text = FormatUtc(ms);
    auto back = ParseTimestamp(text);
    ASSERT_TRUE(back.ok()) << text;
    EXPECT_EQ(back->unix_ms, ms) << text;
  }
}

TEST(Timestamp, ParsedOffsetTimeFormatsAsUtc) {
  auto ts = ParseTimestamp("2025-07-11T01:15:30.5-05:30");
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(FormatUtc(ts->unix_ms), "2025-07-11T06:45:30.500Z");
}

TEST(Timestamp, FormatDayIsTheUtcDate) {
  EXPECT_EQ(FormatDay(kJuly11At0930Utc), "2025-07-11");
  // 23:30 at -05:00 on the 10th is already the 11th in UTC.
  auto ts = ParseTimestamp("2025-07-10T23:30:00-05:00");
  ASSERT_TRUE(ts.ok());
  EXPECT_EQ(FormatDay(ts->unix_ms), "2025-07-11");
  EXPECT_EQ(FormatDay(-1), "1969-12-31");
}

// ---- Civil calendar --------------------------------------------------------------------------

TEST(Timestamp, DaysFromCivilEpochIsZero) {
  EXPECT_EQ(DaysFromCivil(1970, 1, 1), 0);
  EXPECT_EQ(DaysFromCivil(1970, 1, 2), 1);
  EXPECT_EQ(DaysFromCivil(1969, 12, 31), -1);
  EXPECT_EQ(DaysFromCivil(2025, 7, 11), 20280);
  EXPECT_EQ(DaysFromCivil(1900, 1, 1), -25567);
  EXPECT_EQ(DaysFromCivil(1776, 7, 4), -70672);
}

TEST(Timestamp, ToCivilSplitsFieldsAndWeekdayOfAFriday) {
  CivilTime c = ToCivil(kJuly11At0930Utc + 45123);  // 09:30:45.123
  EXPECT_EQ(c.year, 2025);
  EXPECT_EQ(c.month, 7);
  EXPECT_EQ(c.day, 11);
  EXPECT_EQ(c.hour, 9);
  EXPECT_EQ(c.minute, 30);
  EXPECT_EQ(c.second, 45);
  EXPECT_EQ(c.millis, 123);
  EXPECT_EQ(c.weekday, 4);  // Friday, Monday = 0
}

TEST(Timestamp, ToCivilWeekdayOfEpochIsThursday) { EXPECT_EQ(ToCivil(0).weekday, 3); }

TEST(Timestamp, ToCivilWeekdaysBefore1970) {
  CivilTime eve = ToCivil(-1);  // 1969-12-31T23:59:59.999Z, a Wednesday
  EXPECT_EQ(eve.year, 1969);
  EXPECT_EQ(eve.month, 12);
  EXPECT_EQ(eve.day, 31);
  EXPECT_EQ(eve.hour, 23);
  EXPECT_EQ(eve.minute, 59);
  EXPECT_EQ(eve.second, 59);
  EXPECT_EQ(eve.millis, 999);
  EXPECT_EQ(eve.weekday, 2);

  CivilTime c1900 = ToCivil(DaysFromCivil(1900, 1, 1) * kDayMs);  // a Monday
  EXPECT_EQ(c1900.year, 1900);
  EXPECT_EQ(c1900.month, 1);
  EXPECT_EQ(c1900.day, 1);
  EXPECT_EQ(c1900.weekday, 0);

  CivilTime leap = ToCivil(DaysFromCivil(1960, 2, 29) * kDayMs + 3600000);  // a Monday
  EXPECT_EQ(leap.month, 2);
  EXPECT_EQ(leap.day, 29);
  EXPECT_EQ(leap.hour, 1);
  EXPECT_EQ(leap.weekday, 0);

  CivilTime c1776 = ToCivil(DaysFromCivil(1776, 7, 4) * kDayMs);  // a Thursday
  EXPECT_EQ(c1776.year, 1776);
  EXPECT_EQ(c1776.weekday, 3);
}

TEST(Timestamp, ToCivilWeekdaysCycleThroughAWeek) {
  // 2025-07-07 is a Monday.
  int64_t monday = DaysFromCivil(2025, 7, 7) * kDayMs;
  for (int i = 0; i < 14; ++i) {
    EXPECT_EQ(ToCivil(monday + i * kDayMs + 12 * 3600000).weekday, i % 7) << i;
  }
}

}  // namespace
}  // namespace kaizen::model
