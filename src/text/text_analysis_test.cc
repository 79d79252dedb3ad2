#include "text/text_analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

namespace kaizen::text {
namespace {

using Strings = std::vector<std::string>;
using namespace std::string_literals;

bool HasTheme(const std::vector<std::string>& themes, const std::string& name) {
  return std::find(themes.begin(), themes.end(), name) != themes.end();
}

std::vector<std::string> Themes(std::string_view text) {
  return ExtractThemes(text, ThemeTaxonomy::Default());
}

ThemeTaxonomy Taxonomy(std::vector<Theme> themes) {
  auto t = ThemeTaxonomy::FromThemes(std::move(themes));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return std::move(t).value();
}

ThemeTaxonomy TestTaxonomy() {
  return Taxonomy(
      {{"tests", {"test", "tests", "testing"}}, {"retries", {"exponential backoff", "retry"}}});
}

// ---- Default taxonomy ----------------------------------------------------------------------

TEST(DefaultTaxonomy, CoversTheRequiredThemesWithEightToEightyKeywordsEach) {
  const ThemeTaxonomy& t = ThemeTaxonomy::Default();
  for (const char* required :
       {"error-handling", "input-validation", "naming", "tests-and-edge-cases", "documentation",
        "rate-limiting", "retries", "security", "performance", "types", "null-handling",
        "response-checks", "magic-numbers", "dead-code", "dependencies"}) {
    EXPECT_TRUE(std::any_of(t.themes().begin(), t.themes().end(), [&](const Theme& th) {
      return th.name == required;
    })) << required;
  }
  for (const Theme& th : t.themes()) {
    EXPECT_GE(th.keywords.size(), 8u) << th.name;
    EXPECT_LE(th.keywords.size(), 80u) << th.name;
    for (const std::string& kw : th.keywords) {
      EXPECT_FALSE(kw.empty()) << th.name;
      EXPECT_TRUE(std::none_of(kw.begin(), kw.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
          << th.name << ": " << kw;
    }
  }
}

TEST(DefaultTaxonomy, ReturnsTheSameInstanceEveryCall) {
  EXPECT_EQ(&ThemeTaxonomy::Default(), &ThemeTaxonomy::Default());
}

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

// ---- Sentiment -----------------------------------------------------------------------------

TEST(Sentiment, IsZeroWithoutSentimentWords) {
  EXPECT_EQ(Sentiment(""), 0.0);
  EXPECT_EQ(Sentiment("The handler reads the queue."), 0.0);
}

TEST(Sentiment, PositiveWordsGivePositiveScoreAndMoreEvidenceScoresHigher) {
  const double one = Sentiment("Nice.");
  const double three = Sentiment("Nice, clean and elegant.");
  EXPECT_DOUBLE_EQ(one, 0.5);  // (1 - 0) / (1 + 0 + 1)
  EXPECT_DOUBLE_EQ(three, 0.75);
  EXPECT_GT(three, one);
}

TEST(Sentiment, NegativeWordsGiveNegativeScore) {
  EXPECT_LT(Sentiment("Broken, confusing and sloppy. Tests are missing."), -0.5);
}

TEST(Sentiment, NegationFlipsPositiveWord) {
  EXPECT_GT(Sentiment("good"), 0.0);
  EXPECT_LT(Sentiment("not good"), 0.0);
  EXPECT_LT(Sentiment("This isn't clean"), 0.0);      // n't via apostrophe split
  EXPECT_LT(Sentiment("It doesnt look great"), 0.0);  // apostrophe omitted
}

TEST(Sentiment, NegationReachesThreeWordsOnly) {
  EXPECT_LT(Sentiment("not really that good"), 0.0);       // 3rd word after the negator
  EXPECT_GT(Sentiment("not sure the code is good"), 0.0);  // 5th word: out of the window
  EXPECT_GT(Sentiment("not sure but good"), 0.0);          // a clause word ends the scope
  EXPECT_GT(Sentiment("not sure. Good"), 0.0);             // so does a sentence break
}

TEST(Sentiment, NegatedNegativeIsFaintPraise) {
  EXPECT_GT(Sentiment("not bad"), 0.0);
  EXPECT_LT(Sentiment("not bad"), Sentiment("good"));
  EXPECT_GT(Sentiment("nothing missing"), 0.0);
}

TEST(Sentiment, IntensifierStrengthensAndDowntonerWeakens) {
  EXPECT_GT(Sentiment("very clean"), Sentiment("clean"));
  EXPECT_LT(Sentiment("slightly confusing"), 0.0);
  EXPECT_GT(Sentiment("slightly confusing"), Sentiment("confusing"));
}

TEST(Sentiment, TooBeforeNeutralWordIsNegative) {
  EXPECT_LT(Sentiment("Variable names too short"), 0.0);
  EXPECT_EQ(Sentiment("me too"), 0.0);
}

TEST(Sentiment, BalancedFeedbackScoresZero) {
  EXPECT_DOUBLE_EQ(Sentiment("Clean code but missing tests"), 0.0);
}

TEST(Sentiment, StaysWithinBoundsForExtremeInput) {
  std::string praise, criticism;
  for (int i = 0; i < 5000; ++i) {
    praise += "very great ";
    criticism += "extremely broken ";
  }
  const double p = Sentiment(praise);
  const double c = Sentiment(criticism);
  EXPECT_GT(p, 0.99);
  EXPECT_LE(p, 1.0);
  EXPECT_LT(c, -0.99);
  EXPECT_GE(c, -1.0);
}

TEST(Sentiment, FollowsTheDocumentedFormula) {
  // (P - N) / (P + N + 1)
  EXPECT_DOUBLE_EQ(Sentiment("not good"), -1.0 / 2.0);
  EXPECT_DOUBLE_EQ(Sentiment("not bad"), 0.5 / 1.5);
  EXPECT_DOUBLE_EQ(Sentiment("very clean"), 1.5 / 2.5);
  EXPECT_DOUBLE_EQ(Sentiment("Great, but broken and wrong."), (1.0 - 2.0) / 4.0);
}

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

// ---- FromJson ------------------------------------------------------------------------------

TEST(TaxonomyFromJson, ParsesThemesInOrderAndLowercasesKeywords) {
  auto t = ThemeTaxonomy::FromJson(
      R"({"themes":[{"name":"retries","keywords":["Retry Logic"," backoff "]},)"
      R"({"name":"naming","keywords":["names"]}]})");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->themes().size(), 2u);
  EXPECT_EQ(t->themes()[0].name, "retries");
  EXPECT_EQ(t->themes()[0].keywords, (Strings{"retry logic", "backoff"}));
  EXPECT_EQ(ExtractThemes("names lack RETRY-logic", *t), (Strings{"retries", "naming"}));
}

TEST(TaxonomyFromJson, EmptyKeywordErrorNamesPathValueAndRule) {
  auto t = ThemeTaxonomy::FromJson(
      R"({"themes":[{"name":"a","keywords":["x"]},{"name":"b","keywords":["y"]},)"
      R"({"name":"c","keywords":[""]}]})");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(t.status().message(), R"(themes[2].keywords[0]: "" must be a non-empty string)");
}

TEST(TaxonomyFromJson, ReportsEachBrokenRuleWithItsPath) {
  struct Case {
    const char* json;
    const char* message;
  };
  const Case cases[] = {
      {R"([1])", "taxonomy: [1] must be an object {\"themes\": [...]}"},
      {R"({})", "themes: missing; must be a non-empty array of themes"},
      {R"({"themes":{}})", "themes: {} must be a non-empty array of themes"},
      {R"({"themes":[]})", "themes: [] must be a non-empty array of themes"},
      {R"({"themes":[], "extra":1})", "extra: unknown field; allowed fields are themes"},
      {R"({"themes":[7]})", "themes[0]: 7 must be an object {\"name\": ..., \"keywords\": [...]}"},
      {R"({"themes":[{"keywords":["x"]}]})", "themes[0].name: missing; must be a non-empty string"},
      {R"({"themes":[{"name":3,"keywords":["x"]}]})",
       "themes[0].name: 3 must be a non-empty string"},
      {R"({"themes":[{"name":"Error Handling","keywords":["x"]}]})",
       "themes[0].name: \"Error Handling\" must be a lowercase slug [a-z0-9][a-z0-9_-]* of at "
       "most 64 bytes"},
      {R"({"themes":[{"name":"a"}]})",
       "themes[0].keywords: missing; must be a non-empty array of strings"},
      {R"({"themes":[{"name":"a","keywords":[]}]})",
       "themes[0].keywords: [] must be a non-empty array of strings"},
      {R"({"themes":[{"name":"a","keywords":["x",null]}]})",
       "themes[0].keywords[1]: null must be a non-empty string"},
      {R"({"themes":[{"name":"a","keywords":["--"]}]})",
       "themes[0].keywords[0]: \"--\" must contain a letter or digit"},
      {R"({"themes":[{"name":"a","keywords":["x"],"keyword":["y"]}]})",
       "themes[0].keyword: unknown field; allowed fields are name, keywords"},
      {R"({"themes":[{"name":"a","keywords":["x"]},{"name":"a","keywords":["y"]}]})",
       "themes[1].name: \"a\" must be unique (also themes[0].name)"},
  };
  for (const Case& c : cases) {
    auto t = ThemeTaxonomy::FromJson(c.json);
    ASSERT_FALSE(t.ok()) << c.json;
    EXPECT_EQ(t.status().message(), c.message) << c.json;
  }
}

TEST(TaxonomyFromJson, RejectsMalformedJsonAndInvalidUtf8) {
  for (std::string_view json : {std::string_view(""), std::string_view("{\"themes\": ["),
                                std::string_view("{\"themes\":[{\"name\":\"\xFF\"}]}")}) {
    auto t = ThemeTaxonomy::FromJson(json);
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.status().message().rfind("taxonomy: not valid JSON", 0), 0u)
        << t.status().message();
  }
}

TEST(TaxonomyFromJson, ShortensHugeValuesInErrors) {
  const std::string json =
      R"({"themes":[{"name":")" + std::string(5000, 'A') + R"(","keywords":["x"]}]})";
  auto t = ThemeTaxonomy::FromJson(json);
  ASSERT_FALSE(t.ok());
  EXPECT_LT(t.status().message().size(), 250u);
}

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

// ---- FromThemes ----------------------------------------------------------------------------

TEST(TaxonomyFromThemes, NormalizesKeywordsLikeFromJson) {
  auto t =
      ThemeTaxonomy::FromThemes({{"retries", {"Retry Logic", " backoff "}}, {"naming", {"names"}}});
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  auto parsed = ThemeTaxonomy::FromJson(
      R"({"themes":[{"name":"retries","keywords":["Retry Logic"," backoff "]},)"
      R"({"name":"naming","keywords":["names"]}]})");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(t->themes().size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(t->themes()[i].name, parsed->themes()[i].name);
    EXPECT_EQ(t->themes()[i].keywords, parsed->themes()[i].keywords);
  }
  EXPECT_EQ(t->themes()[0].keywords, (Strings{"retry logic", "backoff"}));
  EXPECT_EQ(ExtractThemes("names lack RETRY-logic", *t), (Strings{"retries", "naming"}));
}

TEST(TaxonomyFromThemes, ReportsEachBrokenRuleLikeFromJson) {
  const auto keywords = [](size_t n) {
    std::vector<std::string> k;
    std::string json;
    for (size_t i = 0; i < n; ++i) {
      k.push_back("k" + std::to_string(i));
      json += (i == 0 ? "\"" : ",\"") + k.back() + "\"";
    }
    return std::pair(k, "[" + json + "]");
  };
  const auto [many_keywords, many_keywords_json] = keywords(257);
  std::vector<Theme> many_themes;
  std::string many_themes_json;
  for (int i = 0; i < 257; ++i) {
    many_themes.push_back({"t" + std::to_string(i), {"x"}});
    many_themes_json += std::string(i == 0 ? "" : ",") + R"({"name":"t)" + std::to_string(i) +
                        R"(","keywords":["x"]})";
  }
  struct Case {
    std::vector<Theme> themes;
    std::string json;  // the same themes as a FromJson document
    std::string message;
  };
  const Case cases[] = {
      {{}, R"({"themes":[]})", "themes: [] must be a non-empty array of themes"},
      {many_themes, R"({"themes":[)" + many_themes_json + "]}",
       "themes: 257 themes; must have at most 256"},
      {{{"", {"x"}}},
       R"({"themes":[{"name":"","keywords":["x"]}]})",
       R"(themes[0].name: "" must be a non-empty string)"},
      {{{"a", {"x"}}, {"Error Handling", {"x"}}},
       R"({"themes":[{"name":"a","keywords":["x"]},{"name":"Error Handling","keywords":["x"]}]})",
       "themes[1].name: \"Error Handling\" must be a lowercase slug [a-z0-9][a-z0-9_-]* of at "
       "most 64 bytes"},
      {{{"a", {}}},
       R"({"themes":[{"name":"a","keywords":[]}]})",
       "themes[0].keywords: [] must be a non-empty array of strings"},
      {{{"a", many_keywords}},
       R"({"themes":[{"name":"a","keywords":)" + many_keywords_json + "}]}",
       "themes[0].keywords: 257 keywords; must have at most 256"},
      {{{"a", {"x"}}, {"b", {"y"}}, {"c", {""}}},
       R"({"themes":[{"name":"a","keywords":["x"]},{"name":"b","keywords":["y"]},)"
       R"({"name":"c","keywords":[""]}]})",
       R"(themes[2].keywords[0]: "" must be a non-empty string)"},
      {{{"a", {"x", " \t"}}},
       R"({"themes":[{"name":"a","keywords":["x"," \t"]}]})",
       R"(themes[0].keywords[1]: " \u0009" must be a non-empty string)"},
      {{{"a", {"--"}}},
       R"({"themes":[{"name":"a","keywords":["--"]}]})",
       "themes[0].keywords[0]: \"--\" must contain a letter or digit"},
      {{{"a", {std::string(201, 'x')}}},
       R"({"themes":[{"name":"a","keywords":[")" + std::string(201, 'x') + R"("]}]})",
       "themes[0].keywords[0]: \"" + std::string(75, 'x') + "...\" must be at most 200 bytes"},
      {{{"a", {"x"}}, {"a", {"y"}}},
       R"({"themes":[{"name":"a","keywords":["x"]},{"name":"a","keywords":["y"]}]})",
       "themes[1].name: \"a\" must be unique (also themes[0].name)"},
  };
  for (const Case& c : cases) {
    auto t = ThemeTaxonomy::FromThemes(c.themes);
    ASSERT_FALSE(t.ok()) << c.message;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(t.status().message(), c.message);
    auto parsed = ThemeTaxonomy::FromJson(c.json);
    ASSERT_FALSE(parsed.ok()) << c.json;
    EXPECT_EQ(parsed.status().message(), c.message) << c.json;
  }
}

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

// ---- Copies, moves and variants of a taxonomy ----------------------------------------------

TEST(TaxonomyCopies, CopiesOfTheDefaultGiveIdenticalResults) {
  const std::string text = "Missing retry logic; input validation would help. Logs are noisy";
  const Strings expected = Themes(text);
  ASSERT_EQ(expected, (Strings{"error-handling", "input-validation", "retries", "logging"}));
  const ThemeTaxonomy copy = ThemeTaxonomy::Default();
  EXPECT_EQ(ExtractThemes(text, copy), expected);
  ThemeTaxonomy assigned = TestTaxonomy();
  assigned = copy;
  EXPECT_EQ(ExtractThemes(text, assigned), expected);
  ThemeTaxonomy moved = std::move(assigned);
  EXPECT_EQ(ExtractThemes(text, moved), expected);
  ASSERT_EQ(copy.themes().size(), ThemeTaxonomy::Default().themes().size());
  for (size_t i = 0; i < copy.themes().size(); ++i) {
    EXPECT_EQ(copy.themes()[i].name, ThemeTaxonomy::Default().themes()[i].name);
    EXPECT_EQ(copy.themes()[i].keywords, ThemeTaxonomy::Default().themes()[i].keywords);
  }
}

TEST(TaxonomyCopies, VariantsOfTheDefaultThroughFromThemes) {
  const std::string text = "Missing retry logic; input validation would help. Logs are noisy";
  const Strings expected = Themes(text);
  std::vector<Theme> themes = ThemeTaxonomy::Default().themes();
  themes.push_back({"noise", {"noisy"}});
  EXPECT_EQ(ExtractThemes(text, Taxonomy(themes)),
            (Strings{"error-handling", "input-validation", "retries", "logging", "noise"}));
  themes.erase(themes.begin());
  EXPECT_EQ(ExtractThemes(text, Taxonomy(themes)),
            (Strings{"input-validation", "retries", "logging", "noise"}));
  EXPECT_EQ(Themes(text), expected);  // the default itself is untouched
}

TEST(TaxonomyCopies, FromJsonResultsSurviveMovesAndCopies) {
  auto parsed = ThemeTaxonomy::FromJson(
      R"({"themes":[{"name":"retries","keywords":["retry logic","backoff"]},)"
      R"({"name":"naming","keywords":["names"]}]})");
  ASSERT_TRUE(parsed.ok());
  ThemeTaxonomy moved = std::move(parsed).value();
  EXPECT_EQ(ExtractThemes("names and Retry-Logic", moved), (Strings{"retries", "naming"}));
  std::vector<Theme> edited = moved.themes();
  edited[1].keywords = {"naming"};
  ThemeTaxonomy copy = Taxonomy(edited);
  EXPECT_EQ(ExtractThemes("names and Retry-Logic", copy), (Strings{"retries"}));
  EXPECT_EQ(ExtractThemes("names and Retry-Logic", moved), (Strings{"retries", "naming"}));
  moved = copy;
  EXPECT_EQ(ExtractThemes("names and naming", moved), (Strings{"naming"}));
  EXPECT_EQ(ExtractThemes("names and naming", copy), (Strings{"naming"}));
  edited.push_back({"docs", {"readme"}});
  moved = Taxonomy(edited);
  EXPECT_EQ(ExtractThemes("see the README", moved), (Strings{"docs"}));
  EXPECT_EQ(ExtractThemes("see the README", copy), (Strings{}));
}

TEST(TaxonomyCopies, ConcurrentUseOfOneTaxonomyAndItsCopies) {
  const ThemeTaxonomy t =
      Taxonomy({{"tests", {"test", "unit tests"}}, {"retries", {"exponential backoff"}}});
  const ThemeTaxonomy& d = ThemeTaxonomy::Default();
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&, k] {
      for (int i = 0; i < 200; ++i) {
        const ThemeTaxonomy copy = t;  // shares t's index with the other threads
        mismatches[k] += ExtractThemes("add unit tests and exponential backoff", t) !=
                         Strings{"tests", "retries"};
        mismatches[k] += ExtractThemes("add unit tests and exponential backoff", copy) !=
                         Strings{"tests", "retries"};
        mismatches[k] += ExtractThemes("add unit tests", d) != Strings{"tests-and-edge-cases"};
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(mismatches, (std::vector<int>(4, 0)));
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

// ---- Robustness ----------------------------------------------------------------------------

TEST(Robustness, InvalidUtf8NeverCrashes) {
  const std::string garbage[] = {
      "\xFF\xFE\xFD retry logic \xC3"s,
      "\xE2\x80"s,  // truncated typographic separator
      "\xE2"s,
      "please add\xC2"s,
      "\x80\x80\x80\x80.\xE2\x80\xA6\xC2\xA0\xC2 should"s,
      "\0\0should\0fix\0"s,
      "\xED\xA0\x80 surrogate; \xF4\x90\x80\x80 too large; \xC0\xAF overlong"s,
  };
  for (const std::string& g : garbage) {
    (void)Themes(g);
    const double s = Sentiment(g);
    EXPECT_GE(s, -1.0);
    EXPECT_LE(s, 1.0);
    (void)ActionableItems(g);
  }
  EXPECT_TRUE(HasTheme(Themes(garbage[0]), "retries"));
}

TEST(Robustness, AllByteValuesAndLongInputsFinishQuickly) {
  std::string all_bytes;
  for (int round = 0; round < 256; ++round) {
    for (int b = 0; b < 256; ++b) all_bytes.push_back(static_cast<char>((b * 7 + round) & 0xFF));
  }
  ASSERT_EQ(all_bytes.size(), 64u * 1024u);
  const std::string dots(64 * 1024, '.');
  std::string sentences;
  while (sentences.size() < 64 * 1024) sentences += "Please add retry logic number x. ";
  std::string many_distinct;
  for (int i = 0; many_distinct.size() < 64 * 1024; ++i) {
    many_distinct += "add item " + std::to_string(i) + ". ";
  }

  const auto start = std::chrono::steady_clock::now();
  for (const std::string* text :
       std::vector<const std::string*>{&all_bytes, &dots, &sentences, &many_distinct}) {
    (void)Themes(*text);
    const double s = Sentiment(*text);
    EXPECT_GE(s, -1.0);
    EXPECT_LE(s, 1.0);
    (void)ActionableItems(*text);
  }
  EXPECT_EQ(ActionableItems(sentences), (Strings{"Please add retry logic number x"}));
  EXPECT_GT(ActionableItems(many_distinct).size(), 1000u);
  // Generous so sanitizer builds pass; a quadratic blow-up would take far longer.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

}  // namespace
}  // namespace kaizen::text
