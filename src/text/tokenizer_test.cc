// The word scan, through the functions that use it: the SSE2 path works on 64-byte blocks, so
// these tests slide words, separators and long words across every offset of a block boundary.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "text/actionable_items.h"
#include "text/sentiment.h"
#include "text/text_test_helpers.h"
#include "text/theme_matcher.h"
#include "text/theme_taxonomy.h"

namespace kaizen::text {
namespace {

using namespace test_helpers;

// ---- Word boundaries at any offset ---------------------------------------------------------
// The tokenizer works on blocks of bytes; these slide the interesting bytes across every position
// of a block boundary.

TEST(Offsets, PhrasesAndSeparatorsMatchAtEveryOffset) {
  const ThemeTaxonomy t = TestTaxonomy();
  for (size_t pad = 0; pad < 140; ++pad) {
    const std::string x(pad, 'x');
    EXPECT_EQ(ExtractThemes(x + " exponential backoff", t), (Strings{"retries"})) << pad;
    EXPECT_EQ(ExtractThemes(x + " exponential. backoff", t), (Strings{})) << pad;
    EXPECT_EQ(ExtractThemes(x + " exponential\xE2\x80\xA6 backoff", t), (Strings{})) << pad;
    EXPECT_EQ(ExtractThemes(x + "\xE2\x80\x9Ctests\xE2\x80\x9D", t), (Strings{"tests"})) << pad;
    EXPECT_EQ(ExtractThemes(x + "\xC2\xA0test\xC2\xA0", t), (Strings{"tests"})) << pad;
    EXPECT_EQ(ExtractThemes(x + "\xE2\x80", t), (Strings{})) << pad;
    EXPECT_EQ(ExtractThemes(x + " test\xC3\xA9", t), (Strings{})) << pad;
    EXPECT_EQ(ExtractThemes(x + "test", t), pad == 0 ? Strings{"tests"} : Strings{}) << pad;
    EXPECT_EQ(ExtractThemes(x + ".test", t), (Strings{"tests"})) << pad;  // '.' separates
    EXPECT_EQ(ExtractThemes(x + "-exponential_backoff", t), (Strings{"retries"})) << pad;
  }
}

TEST(Offsets, SentencesAndSentimentAtEveryOffset) {
  for (size_t pad = 0; pad < 140; ++pad) {
    const std::string x(pad, 'x');
    EXPECT_EQ(ActionableItems(x + ". Please add tests. Nice"), (Strings{"Please add tests"}))
        << pad;
    EXPECT_EQ(ActionableItems(x + ".bar please"), (Strings{x + ".bar please"})) << pad;
    EXPECT_EQ(ActionableItems(x + "\nuse it\r\n- add x"), (Strings{"use it", "add x"})) << pad;
    EXPECT_DOUBLE_EQ(Sentiment(x + " not good"), -0.5) << pad;
    EXPECT_DOUBLE_EQ(Sentiment(x + " isn't clean"), -0.5) << pad;
    EXPECT_DOUBLE_EQ(Sentiment(x + " not. good"), 0.5) << pad;
    EXPECT_DOUBLE_EQ(Sentiment(x + " too, slow"), -0.5) << pad;
  }
}

TEST(Offsets, LongWordsAndLongKeywords) {
  const ThemeTaxonomy t = Taxonomy({{"i18n", {"internationalization"}},
                                    {"long", {std::string(70, 'q') + " tail"}},
                                    {"short", {"q"}}});
  EXPECT_EQ(ExtractThemes("Needs INTERNATIONALIZATION support", t), (Strings{"i18n"}));
  EXPECT_EQ(ExtractThemes("internationalizations", t), (Strings{}));
  EXPECT_EQ(ExtractThemes(std::string(70, 'Q') + "-tail", t), (Strings{"long"}));
  EXPECT_EQ(ExtractThemes(std::string(71, 'q') + " tail", t), (Strings{}));
  EXPECT_EQ(ExtractThemes(std::string(70, 'q') + " q", t), (Strings{"short"}));
}

}  // namespace
}  // namespace kaizen::text
