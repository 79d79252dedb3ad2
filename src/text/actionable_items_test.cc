// ActionableItems: which sentences ask for a change, trimming, the 280-byte cap, and duplicates,
// also among many items, where detecting them switches from comparing to hashing.
#include "text/actionable_items.h"
#include "text/text_test_helpers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::text {
namespace {

using namespace test_helpers;

// ---- Actionable items ----------------------------------------------------------------------

TEST(ActionableItems, KeepsOnlySentencesThatAskForAChange) {
  EXPECT_EQ(ActionableItems("Great job overall. You should add tests! Looks tidy; please "
                            "rename x?\nNice diff"),
            (Strings{"You should add tests", "please rename x"}));
}

TEST(ActionableItems, FindsSeedPhrases) {
  EXPECT_EQ(ActionableItems("Wish the webhook handler had more specific error types\n"
                            "Missing retry logic with exponential backoff"),
            (Strings{"Wish the webhook handler had more specific error types",
                     "Missing retry logic with exponential backoff"}));
}

TEST(ActionableItems, DropsDuplicatesIgnoringCaseAndSpacing) {
  EXPECT_EQ(ActionableItems("Add tests. add  tests! Add tests\nAvoid globals. ADD TESTS"),
            (Strings{"Add tests", "Avoid globals"}));
}

TEST(ActionableItems, TrimsWhitespaceAndListBullets) {
  EXPECT_EQ(ActionableItems("  - use constexpr here  \n* don't log secrets\n\xE2\x80\xA2 add docs"),
            (Strings{"use constexpr here", "don't log secrets", "add docs"}));
}

TEST(ActionableItems, DoesNotSplitInsideIdentifiersOrNumbers) {
  EXPECT_EQ(ActionableItems("Use foo.bar() with a 1.5 s timeout."),
            (Strings{"Use foo.bar() with a 1.5 s timeout"}));
}

TEST(ActionableItems, CuesMatchWholeWordsOnly) {
  // "address", "user", "musty" contain cues as substrings but are not requests.
  EXPECT_TRUE(ActionableItems("Address parsing by the user was musty").empty());
}

TEST(ActionableItems, CapsEachItemAt280BytesWithoutSplittingUtf8) {
  std::string long_item = "Please ";
  while (long_item.size() < 279) long_item += "x";
  long_item += "\xC3\xA9 and more words to go past the cap";  // "é" is bytes 279..280
  const auto items = ActionableItems(long_item);
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0], long_item.substr(0, 279));  // backed up to before the "é"
}

TEST(ActionableItems, ReturnsNothingForEmptyInput) {
  EXPECT_TRUE(ActionableItems("").empty());
  EXPECT_TRUE(ActionableItems("...;;;!!!\n\n").empty());
}

// ---- Many items ----------------------------------------------------------------------------

TEST(ActionableItems, DropsDuplicatesAmongManyItems) {
  std::string text;
  Strings expected;
  for (int i = 0; i < 40; ++i) {
    text += "Please add case " + std::to_string(i) + ".\n";
    expected.push_back("Please add case " + std::to_string(i));
  }
  for (int i = 0; i < 40; ++i) text += "PLEASE  add\tcase " + std::to_string(i) + "! ";
  EXPECT_EQ(ActionableItems(text), expected);
}

}  // namespace
}  // namespace kaizen::text
