// Literal keywords and the user's themes.json (FromUserJson) extending the shipped taxonomy.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "text/text_analysis.h"

namespace kaizen::text {
namespace {

using Strings = std::vector<std::string>;

ThemeTaxonomy Taxonomy(std::vector<Theme> themes) {
  auto t = ThemeTaxonomy::FromThemes(std::move(themes));
  EXPECT_TRUE(t.ok()) << t.status().ToString();
  return std::move(t).value();
}

const Theme* Find(const ThemeTaxonomy& t, std::string_view name, ThemeOrigin* origin) {
  for (size_t i = 0; i < t.themes().size(); ++i) {
    if (t.themes()[i].name == name) {
      *origin = t.origins()[i];
      return &t.themes()[i];
    }
  }
  return nullptr;
}

// ---- Literal keywords ----------------------------------------------------------------------

TEST(LiteralKeywords, MatchPunctuationAsWritten) {
  const ThemeTaxonomy t = Taxonomy({{"ok", {"res.ok"}}, {"any", {": any)", "`any"}}});
  EXPECT_EQ(ExtractThemes("if (!res.ok) return", t), (Strings{"ok"}));
  EXPECT_EQ(ExtractThemes("RES.OK is never read", t), (Strings{"ok"}));
  EXPECT_EQ(ExtractThemes("res ok", t), (Strings{}));  // no punctuation, no literal
  EXPECT_EQ(ExtractThemes("function f(x: any) {}", t), (Strings{"any"}));
  EXPECT_EQ(ExtractThemes("function f(x:any) {}", t), (Strings{}));  // the space is required
  EXPECT_EQ(ExtractThemes("avoid `any`", t), (Strings{"any"}));
  EXPECT_EQ(ExtractThemes("Nit: any chance?", t), (Strings{}));
}

TEST(LiteralKeywords, DoNotStartOrEndInsideAnIdentifier) {
  const ThemeTaxonomy t = Taxonomy({{"ok", {"res.ok"}}});
  EXPECT_EQ(ExtractThemes("res.okay", t), (Strings{}));
  EXPECT_EQ(ExtractThemes("my_res.ok", t), (Strings{}));
  EXPECT_EQ(ExtractThemes("myres.ok", t), (Strings{}));
  EXPECT_EQ(ExtractThemes("res.ok_flag", t), (Strings{}));
  EXPECT_EQ(ExtractThemes("caf\xC3\xA9res.ok", t), (Strings{}));
  EXPECT_EQ(ExtractThemes("\xE2\x80\x9Cres.ok\xE2\x80\x9D", t), (Strings{"ok"}));  // “res.ok”
  EXPECT_EQ(ExtractThemes("\xC2\xA0res.ok\xC2\xA0", t), (Strings{"ok"}));
  EXPECT_EQ(ExtractThemes("res.ok", t), (Strings{"ok"}));  // the whole text
}

TEST(LiteralKeywords, ASpaceMatchesAnyRunOfWhitespaceAcrossBreaks) {
  const ThemeTaxonomy t = Taxonomy({{"py", {"# Type:   IGNORE"}}});
  EXPECT_EQ(t.themes()[0].keywords, (Strings{"# type: ignore"}));
  EXPECT_EQ(ExtractThemes("x = f()  # type: ignore", t), (Strings{"py"}));
  EXPECT_EQ(ExtractThemes("x = f()  #\ttype:\n ignore", t), (Strings{"py"}));
  EXPECT_EQ(ExtractThemes("x = f()  # type ignore", t), (Strings{}));
}

TEST(LiteralKeywords, MatchAtEveryOffsetOfTheScan) {
  const ThemeTaxonomy t = Taxonomy({{"ok", {"res.ok"}}, {"words", {"status code"}}});
  for (size_t pad = 0; pad < 140; ++pad) {
    const std::string x(pad, 'x');
    EXPECT_EQ(ExtractThemes(x + " res.ok", t), (Strings{"ok"})) << pad;
    EXPECT_EQ(ExtractThemes(x + "res.ok", t), pad == 0 ? Strings{"ok"} : Strings{}) << pad;
    EXPECT_EQ(ExtractThemes(x + " res.ok status code", t), (Strings{"ok", "words"})) << pad;
  }
}

TEST(LiteralKeywords, KeywordsWithOnlyDashesUnderscoresAndSlashesStayWords) {
  const ThemeTaxonomy t = Taxonomy({{"retries", {"retry-logic", "try/catch"}}});
  EXPECT_EQ(ExtractThemes("add retry logic", t), (Strings{"retries"}));
  EXPECT_EQ(ExtractThemes("a try catch here", t), (Strings{"retries"}));
}

TEST(LiteralKeywords, ManyLiteralsOnOneAnchorWordStayFast) {
  // 256 themes x 256 literals, all anchored on "a" and failing on their last byte, against a
  // text of 64 KiB of "a a a ...": the verification budget keeps it linear.
  std::vector<Theme> themes;
  for (int i = 0; i < 256; ++i) {
    Theme theme{"t" + std::to_string(i), {}};
    for (int k = 0; k < 256; ++k) {
      theme.keywords.push_back("a " + std::string(60, 'a') + "." + std::to_string(i * 256 + k));
    }
    themes.push_back(std::move(theme));
  }
  const ThemeTaxonomy t = Taxonomy(std::move(themes));
  std::string text;
  while (text.size() < 65536) text += "a ";
  // And one anchor before 64 KiB of whitespace that every literal would skip again.
  const std::string spaces = "a" + std::string(65536, ' ') + "x";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(ExtractThemes(text, t), (Strings{}));
  EXPECT_EQ(ExtractThemes(spaces, t), (Strings{}));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

// ---- The user's themes.json ----------------------------------------------------------------

TEST(UserThemes, ANewThemeIsAddedAfterTheShippedOnes) {
  auto t = ThemeTaxonomy::FromUserJson(
      R"({"themes":[{"name":"i18n","keywords":["translation","gettext"]}]})");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  const auto& shipped = ThemeTaxonomy::Default().themes();
  ASSERT_EQ(t->themes().size(), shipped.size() + 1);
  for (size_t i = 0; i < shipped.size(); ++i) {
    EXPECT_EQ(t->themes()[i].name, shipped[i].name);
    EXPECT_EQ(t->origins()[i], ThemeOrigin::kShipped);
  }
  EXPECT_EQ(t->themes().back().name, "i18n");
  EXPECT_EQ(t->origins().back(), ThemeOrigin::kUser);
  EXPECT_EQ(ExtractThemes("wrap it in _() for translation; also uses any again", *t),
            (Strings{"types", "i18n"}));
}

TEST(UserThemes, AShippedNameAddsItsKeywordsToThatTheme) {
  auto t = ThemeTaxonomy::FromUserJson(
      R"({"themes":[{"name":"logging","keywords":["LOG.debug(","logging"]}]})");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  EXPECT_EQ(t->themes().size(), ThemeTaxonomy::Default().themes().size());
  ThemeOrigin origin;
  const Theme* logging = Find(*t, "logging", &origin);
  ASSERT_NE(logging, nullptr);
  EXPECT_EQ(origin, ThemeOrigin::kExtended);
  ThemeOrigin shipped_origin;
  const Theme* shipped = Find(ThemeTaxonomy::Default(), "logging", &shipped_origin);
  EXPECT_EQ(shipped_origin, ThemeOrigin::kShipped);
  EXPECT_EQ(logging->keywords.size(), shipped->keywords.size() + 1);  // "logging" not repeated
  EXPECT_EQ(logging->keywords.back(), "log.debug(");
}

TEST(UserThemes, ReplaceTrueMakesTheFileTheWholeTaxonomy) {
  auto t = ThemeTaxonomy::FromUserJson(
      R"({"replace":true,"themes":[{"name":"retries","keywords":["retry"]}]})");
  ASSERT_TRUE(t.ok()) << t.status().ToString();
  ASSERT_EQ(t->themes().size(), 1u);
  EXPECT_EQ(t->origins(), (std::vector<ThemeOrigin>{ThemeOrigin::kUser}));
  EXPECT_EQ(ExtractThemes("uses any again, no retry", *t), (Strings{"retries"}));
}

TEST(UserThemes, ErrorsNameThePathInTheFileTheValueAndTheRule) {
  struct Case {
    const char* json;
    const char* message;
  };
  const Case cases[] = {
      {R"({"replace":"yes","themes":[]})",
       "replace: \"yes\" must be true (the file's themes replace the shipped ones) or false "
       "(they extend them)"},
      {R"({"themes":[], "extends":1})",
       "extends: unknown field; allowed fields are themes, replace"},
      {R"({"themes":[]})", "themes: [] must be a non-empty array of themes"},
      {R"({"themes":[{"name":"ok","keywords":["x"]},{"name":"Bad Name","keywords":["x"]}]})",
       "themes[1].name: \"Bad Name\" must be a lowercase slug [a-z0-9][a-z0-9_-]* of at most 64 "
       "bytes"},
      {R"({"themes":[{"name":"logging","keywords":["x", 3]}]})",
       "themes[0].keywords[1]: 3 must be a non-empty string"},
      {R"({"themes":[{"name":"a","keywords":["x"]},{"name":"a","keywords":["y"]}]})",
       "themes[1].name: \"a\" must be unique (also themes[0].name)"},
  };
  for (const Case& c : cases) {
    auto t = ThemeTaxonomy::FromUserJson(c.json);
    ASSERT_FALSE(t.ok()) << c.json;
    EXPECT_EQ(t.status().code(), StatusCode::kInvalidArgument);
    EXPECT_EQ(t.status().message(), c.message) << c.json;
  }
}

TEST(UserThemes, TheMergedTaxonomyKeepsTheLimits) {
  std::string json = R"({"themes":[)";
  for (int i = 0; i < 250; ++i) {
    json += (i ? "," : "") + std::string(R"({"name":"t)") + std::to_string(i) +
            R"(","keywords":["x"]})";
  }
  json += "]}";
  auto t = ThemeTaxonomy::FromUserJson(json);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("250 new themes with the"), std::string::npos)
      << t.status().message();
  EXPECT_NE(t.status().message().find("\"replace\": true"), std::string::npos);

  std::string keywords;
  for (int i = 0; i < 250; ++i) keywords += (i ? ",\"k" : "\"k") + std::to_string(i) + "\"";
  auto extended = ThemeTaxonomy::FromUserJson(R"({"themes":[{"name":"logging","keywords":[)" +
                                              keywords + "]}]}");
  ASSERT_FALSE(extended.ok());
  EXPECT_EQ(extended.status().message().rfind("themes[0].keywords: ", 0), 0u)
      << extended.status().message();
}

}  // namespace
}  // namespace kaizen::text
