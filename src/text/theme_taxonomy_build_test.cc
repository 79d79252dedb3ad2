// Building a taxonomy: the shipped default, FromJson and FromThemes with their errors, and copies
// and moves of the result, which share the compiled index. (theme_taxonomy_test.cc has the
// literal keywords and the user's themes.json.)
#include "text/theme_taxonomy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "text/text_test_helpers.h"
#include "text/theme_matcher.h"

namespace kaizen::text {
namespace {

using namespace test_helpers;

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

}  // namespace
}  // namespace kaizen::text
