// The shipped taxonomy against review sentences written the way developers write them in
// TypeScript and Python reviews: each with the themes it must get, and sentences of ordinary
// prose that must get none of the themes that hunt for code words.
#include "text/default_themes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace kaizen::text {
namespace {

using Strings = std::vector<std::string>;

Strings Themes(std::string_view text) { return ExtractThemes(text, ThemeTaxonomy::Default()); }

bool Has(const Strings& themes, const std::string& name) {
  return std::find(themes.begin(), themes.end(), name) != themes.end();
}

struct Review {
  const char* text;
  Strings expected;  // each must be among the extracted themes
};

// clang-format off
const Review kReviews[] = {
    // Type escapes.
    {"uses any again", {"types"}},
    {"Please don't use `any` here, type the payload", {"types"}},
    {"`data: any` defeats the point of TypeScript", {"types"}},
    {"const rows = (await res.json()) as any;", {"types"}},
    {"function parse(input: any) {", {"types"}},
    {"items: any[] should be Item[]", {"types"}},
    {"Promise<any> hides what this returns", {"types"}},
    {"the double cast `as unknown as User` is a smell", {"types"}},
    {"why the @ts-ignore? fix the type instead", {"types"}},
    {"drop the # type: ignore and annotate the return", {"types"}},
    {"def load(self) -> Any:", {"types"}},
    {"Dict[str, Any] tells the reader nothing", {"types"}},
    {"another eslint-disable, what is it hiding?", {"types"}},
    // Unchecked responses.
    {"doesn't check res.ok before parsing", {"response-checks"}},
    {"if (!response.ok) is missing, a 500 would be parsed as JSON", {"response-checks"}},
    {"we never check the status code of the upload", {"response-checks"}},
    {"call raise_for_status() before .json()", {"response-checks"}},
    {"4xx responses fall through to the success path", {"response-checks"}},
    // Swallowed and generic errors.
    {"this swallows the error", {"error-handling"}},
    {"bare except hides the KeyError", {"error-handling"}},
    {"`except Exception: pass` silently ignores everything", {"error-handling"}},
    {"empty catch block, at least log it", {"error-handling"}},
    {"it ignores the error from write()", {"error-handling"}},
    // null / None / undefined.
    {"user can be null here", {"null-handling"}},
    {"what if get() returns None?", {"null-handling"}},
    {"this crashes when config is undefined", {"null-handling"}},
    {"use Optional[str] since it can be missing", {"null-handling"}},
    // Magic numbers.
    {"magic number 86400, name it SECONDS_PER_DAY", {"magic-numbers"}},
    {"the hardcoded 3 should be a constant", {"magic-numbers"}},
    // Dead code.
    {"this helper is unused now", {"dead-code"}},
    {"remove the commented out block", {"dead-code"}},
    {"this branch is unreachable", {"dead-code"}},
    // Naming.
    {"x and tmp2 aren't names", {"naming"}},
    {"single-letter variables make this hard to follow", {"naming", "readability"}},
    {"please rename `d` to something descriptive", {"naming"}},
    {"cfg, mgr, ctx2: too many abbreviations", {"naming"}},
    // Other themes.
    {"no test for the empty list edge case", {"tests-and-edge-cases"}},
    {"the docstring is out of date", {"documentation"}},
    {"this is O(n^2) on every request", {"performance"}},
    {"the API key is committed to the repo", {"security"}},
    {"string concatenation into SQL is an injection risk", {"security"}},
    {"two workers can race on this counter", {"concurrency"}},
    {"do we really need a new dependency for left-pad?", {"dependencies"}},
    {"just use the standard library for this", {"dependencies"}},
    {"log the request id with the error", {"logging"}},
};

// Ordinary prose: none of the themes below may fire.
const char* const kProse[] = {
    "is there any reason to keep this?",
    "Nit: any chance we could split this PR?",
    "looks good to me",
    "any of these would work",
    "as any reviewer would tell you, it reads well",
    "I don't have any strong opinion",
    "LGTM, thanks for the quick turnaround",
    "the status of this PR is unclear to me",
    "ok, makes sense",
    "resolved, thanks",
    "this is a nice simplification",
    "none of the callers pass two arguments",
    "good catch, thanks",
};
// clang-format on

const Strings kCodeThemes = {"types",         "response-checks", "null-handling",
                             "magic-numbers", "dead-code",       "dependencies"};

TEST(DefaultThemes, ReviewSentencesGetTheirThemes) {
  for (const Review& r : kReviews) {
    const Strings got = Themes(r.text);
    for (const std::string& theme : r.expected) {
      EXPECT_TRUE(Has(got, theme)) << '"' << r.text << "\" lacks " << theme;
    }
  }
}

TEST(DefaultThemes, OrdinaryProseGetsNoneOfTheCodeThemes) {
  for (const char* text : kProse) {
    const Strings got = Themes(text);
    for (const std::string& theme : kCodeThemes) {
      EXPECT_FALSE(Has(got, theme)) << '"' << text << "\" got " << theme;
    }
  }
}

TEST(DefaultThemes, AnyAsAnEnglishWordIsNotATypeEscape) {
  for (const char* text : {"any reason?", "Any thoughts?", "if any", "as any other caller",
                           "use of any global is fine here", "(any)", "many types of input"}) {
    EXPECT_FALSE(Has(Themes(text), "types")) << text;
  }
}

TEST(DefaultThemes, NoThemeListsAKeywordTwice) {
  for (const Theme& theme : DefaultThemes()) {
    Strings sorted = theme.keywords;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << theme.name;
  }
}

}  // namespace
}  // namespace kaizen::text
