#include "model/json_access.h"

#include <gtest/gtest.h>

namespace kaizen::model {
namespace {

TEST(QuoteForMessage, ShortStringIsQuotedWhole) { EXPECT_EQ(QuoteForMessage("abc"), "\"abc\""); }

TEST(QuoteForMessage, LongStringIsCutAfterSixtyBytesWithAnEllipsis) {
  EXPECT_EQ(QuoteForMessage(std::string(100, 'x')), "\"" + std::string(60, 'x') + "...\"");
}

TEST(QuoteForMessage, CutNeverSplitsAUtf8Character) {
  std::string s = std::string(59, 'x') + "\xC3\xA9" + "tail";  // é straddles byte 60
  EXPECT_EQ(QuoteForMessage(s), "\"" + std::string(59, 'x') + "...\"");
}

TEST(QuoteForMessage, ControlCharactersBecomeSpaces) {
  EXPECT_EQ(QuoteForMessage("a\nb\tc"), "\"a b c\"");
}

TEST(StringAt, MissingOrNonStringFieldIsEmpty) {
  simdjson::dom::parser parser;
  simdjson::dom::element e = parser.parse(std::string(R"({"a":"x","n":1})")).value();
  EXPECT_EQ(StringAt(e, "a"), "x");
  EXPECT_EQ(StringAt(e, "n"), "");
  EXPECT_EQ(StringAt(e, "missing"), "");
}

}  // namespace
}  // namespace kaizen::model
