#include "base/utf8.h"

#include <gtest/gtest.h>

namespace kaizen::base {
namespace {

TEST(Utf8Prefix, KeepsShortTextWhole) { EXPECT_EQ(Utf8Prefix("abc", 3), "abc"); }

TEST(Utf8Prefix, BacksUpToTheStartOfASplitCharacter) {
  const std::string_view s = "ab\xE2\x80\xA6z";  // "ab…z": … is 3 bytes
  EXPECT_EQ(Utf8Prefix(s, 2), "ab");
  EXPECT_EQ(Utf8Prefix(s, 3), "ab");
  EXPECT_EQ(Utf8Prefix(s, 4), "ab");
  EXPECT_EQ(Utf8Prefix(s, 5), "ab\xE2\x80\xA6");
}

TEST(Utf8Prefix, BacksUpAtMostThreeBytesOnInputThatIsNotUtf8) {
  const std::string_view s = "a\x80\x80\x80\x80\x80";
  EXPECT_EQ(Utf8Prefix(s, 5).size(), 2u);
}

}  // namespace
}  // namespace kaizen::base
