// ExtractThemes against the default taxonomy and hand-built ones: word boundaries, phrases and
// sentence breaks, output order, and the path past 64 themes that reports themes as lists.
#include "text/theme_matcher.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "text/text_test_helpers.h"
#include "text/theme_taxonomy.h"

namespace kaizen::text {
namespace {

using namespace test_helpers;

// ---- Theme extraction ----------------------------------------------------------------------

TEST(ThemeExtraction, FindsErrorHandlingFromSpecificErrorTypesWish) {
  EXPECT_TRUE(
      HasTheme(Themes("Wish the webhook handler had more specific error types"), "error-handling"));
}

TEST(ThemeExtraction, FindsInputValidationFromNoInputValidation) {
  EXPECT_EQ(Themes("No input validation"), (Strings{"input-validation"}));
}

TEST(ThemeExtraction, FindsNamingFromShortVariableNames) {
  EXPECT_EQ(Themes("Variable names too short"), (Strings{"naming"}));
}

TEST(ThemeExtraction, FindsRetriesAndErrorHandlingFromRetryLogicPhrase) {
  const auto themes = Themes("Missing retry logic with exponential backoff");
  EXPECT_TRUE(HasTheme(themes, "retries"));
  EXPECT_TRUE(HasTheme(themes, "error-handling"));
}

TEST(ThemeExtraction, FindsRateLimitingFromPhrase) {
  EXPECT_EQ(Themes("There is no rate limiting on the endpoint"), (Strings{"rate-limiting"}));
}

TEST(ThemeExtraction, MatchesCaseInsensitivelyAndAcrossHyphensAndUnderscores) {
  EXPECT_TRUE(HasTheme(Themes("RATE-LIMITING is absent"), "rate-limiting"));
  EXPECT_TRUE(HasTheme(Themes("see rate_limiting module"), "rate-limiting"));
  EXPECT_TRUE(HasTheme(Themes("Rate   Limiting"), "rate-limiting"));
}

TEST(ThemeExtraction, MatchesWholeWordsOnly) {
  const ThemeTaxonomy t = TestTaxonomy();
  EXPECT_EQ(ExtractThemes("more testing please", t), (Strings{"tests"}));
  EXPECT_EQ(ExtractThemes("won the contest", t), (Strings{}));
  EXPECT_EQ(ExtractThemes("attest to this; protests; latest", t), (Strings{}));
  EXPECT_EQ(ExtractThemes("test", t), (Strings{"tests"}));  // whole input is the word
  EXPECT_TRUE(HasTheme(Themes("needs more testing"), "tests-and-edge-cases"));
  EXPECT_FALSE(HasTheme(Themes("won the contest, latest attempt"), "tests-and-edge-cases"));
}

TEST(ThemeExtraction, PhraseDoesNotMatchAcrossSentenceBreak) {
  const ThemeTaxonomy t = TestTaxonomy();
  EXPECT_EQ(ExtractThemes("Grows exponential. Backoff is fine", t), (Strings{}));
  EXPECT_EQ(ExtractThemes("uses exponential\nbackoff", t), (Strings{}));
  EXPECT_EQ(ExtractThemes("uses exponential  backoff", t), (Strings{"retries"}));
}

TEST(ThemeExtraction, ReportsEachThemeOnceInTaxonomyOrder) {
  const ThemeTaxonomy t = TestTaxonomy();
  EXPECT_EQ(ExtractThemes("retry, retry, then tests and more tests", t),
            (Strings{"tests", "retries"}));
}

TEST(ThemeExtraction, FoldsUppercaseKeywordsOfHandBuiltTaxonomies) {
  const ThemeTaxonomy t = Taxonomy({{"retries", {"Exponential Backoff"}}});
  EXPECT_EQ(ExtractThemes("add exponential backoff", t), (Strings{"retries"}));
}

TEST(ThemeExtraction, SeesWordsInsideTypographicQuotes) {
  // “tests” with curly quotes (U+201C / U+201D).
  EXPECT_EQ(ExtractThemes("needs \xE2\x80\x9Ctests\xE2\x80\x9D", TestTaxonomy()),
            (Strings{"tests"}));
}

TEST(ThemeExtraction, NonAsciiLettersDoNotCreateWordBoundaries) {
  // "testé" is one word, not "test" followed by a boundary.
  EXPECT_EQ(ExtractThemes("test\xC3\xA9", TestTaxonomy()), (Strings{}));
}

TEST(ThemeExtraction, ReturnsNothingForEmptyOrKeywordFreeText) {
  EXPECT_TRUE(Themes("").empty());
  EXPECT_TRUE(Themes("   \n\t ").empty());
  EXPECT_TRUE(Themes("Looks lovely overall").empty());
}

// ---- More than 64 themes -------------------------------------------------------------------

TEST(TaxonomyFromThemes, MoreThan64Themes) {
  std::vector<Theme> themes;
  for (int i = 0; i < 70; ++i) {
    themes.push_back({"t" + std::to_string(i), {"kw" + std::to_string(i)}});
  }
  themes.push_back({"t70", {"again"}});
  const ThemeTaxonomy t = Taxonomy(std::move(themes));
  EXPECT_EQ(ExtractThemes("kw68 then kw3 and kw65", t), (Strings{"t3", "t65", "t68"}));
  EXPECT_EQ(ExtractThemes("again and kw69", t), (Strings{"t69", "t70"}));
  EXPECT_EQ(ExtractThemes("kw68 then kw3 and kw65, again", t),
            (Strings{"t3", "t65", "t68", "t70"}));
}

// Past 64 themes, phrases nested in each other ("a", "a a", ...) across many themes: each theme
// found once, whichever of its phrases ends where, and only those whose phrases occur.
TEST(TaxonomyFromThemes, NestedPhrasesAcrossMoreThan64Themes) {
  std::vector<Theme> themes;
  for (int i = 0; i < 100; ++i) {
    std::vector<std::string> keywords;
    std::string phrase = "a";
    for (int k = 0; k <= i % 10; ++k, phrase += " a") keywords.push_back(phrase);
    themes.push_back({"t" + std::to_string(i), keywords});
  }
  themes.push_back({"never", {"b a"}});
  const ThemeTaxonomy t = Taxonomy(std::move(themes));
  std::string text = "a";
  for (int k = 0; k < 2000; ++k) text += " a";
  Strings all;
  for (int i = 0; i < 100; ++i) all.push_back("t" + std::to_string(i));
  EXPECT_EQ(ExtractThemes(text, t), all);    // every theme has "a" itself
  EXPECT_EQ(ExtractThemes("b. a", t), all);  // "b a" is broken by the sentence's end
  Strings with_never = all;
  with_never.push_back("never");
  EXPECT_EQ(ExtractThemes("b a", t), with_never);
  EXPECT_EQ(ExtractThemes("c", t), Strings{});
}

}  // namespace
}  // namespace kaizen::text
