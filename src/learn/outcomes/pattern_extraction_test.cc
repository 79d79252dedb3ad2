#include "learn/outcomes/pattern_extraction.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

using Strings = std::vector<std::string>;

TEST(PatternExtraction, SeedExample) {
  EXPECT_EQ(ExtractPatterns("We'll split by file type, one file per subtask"),
            (Strings{"Split by file type", "One file per subtask"}));
}

TEST(PatternExtraction, EmptyDescriptionHasNoPatterns) {
  EXPECT_TRUE(ExtractPatterns("").empty());
  EXPECT_EQ(DetectStrategies(""), 0);
}

struct Mention {
  const char* text;
  const char* strategy;
};

TEST(PatternExtraction, EveryStrategyIsDetected) {
  const Mention mentions[] = {
      {"Splitting the work by file type keeps reviews small", "Split by file type"},
      {"a file-based split", "Split by file type"},
      {"Decompose by component: header, sidebar, footer", "Split by component"},
      {"one subtask per component", "Split by component"},
      {"split by layer", "Split by layer (UI/logic/data)"},
      {"Separate the UI/logic/data work", "Split by layer (UI/logic/data)"},
      {"Break it down by feature", "Split by feature"},
      {"we go feature-by-feature", "Split by feature"},
      {"One file per subtask to avoid conflicts", "One file per subtask"},
      {"Handle shared types first, then the handlers", "Handle shared types first"},
      {"Start with the shared types", "Handle shared types first"},
      {"Separate API routes into their own subtasks", "Separate API routes"},
      {"put the API routes in separate subtasks", "Separate API routes"},
      {"Write tests alongside the implementation", "Tests alongside implementation"},
      {"each subtask ships its tests with the implementation", "Tests alongside implementation"},
      {"Tests in a separate subtask at the end", "Tests in separate subtask"},
      {"add a dedicated test subtask", "Tests in separate subtask"},
      {"Maximize parallelization across agents", "Maximize parallelization"},
      {"these can run in parallel", "Maximize parallelization"},
      {"Execute sequentially", "Sequential execution order"},
      {"one after another", "Sequential execution order"},
      {"Respect the dependency chain", "Respect dependency chain"},
      {"work in dependency order", "Respect dependency chain"},
  };
  for (const Mention& m : mentions) {
    EXPECT_EQ(ExtractPatterns(m.text), Strings{m.strategy}) << m.text;
  }
}

TEST(PatternExtraction, EachSeedNameDetectsExactlyItself) {
  for (std::string_view name : kDetectedStrategies) {
    EXPECT_EQ(ExtractPatterns(name), Strings{std::string(name)}) << name;
  }
}

TEST(PatternExtraction, PlannerStyleDescriptions) {
  EXPECT_EQ(ExtractPatterns("Add OAuth to the github MCP server: split by component so each agent "
                            "owns a feature end to end, tests alongside implementation"),
            (Strings{"Split by component", "Tests alongside implementation"}));
  EXPECT_EQ(ExtractPatterns("Migrate to the 2025-07 API version: split by layer (UI/logic/data) "
                            "and separate API routes"),
            (Strings{"Split by layer (UI/logic/data)", "Separate API routes"}));
  EXPECT_EQ(ExtractPatterns("respect dependency chain: riskiest change first, sequential "
                            "execution order"),
            (Strings{"Sequential execution order", "Respect dependency chain"}));
}

TEST(PatternExtraction, CaseHyphensAndLineBreaksDoNotMatter) {
  EXPECT_EQ(ExtractPatterns("SPLIT BY FILE TYPE"), Strings{"Split by file type"});
  EXPECT_EQ(ExtractPatterns("File-Based Split"), Strings{"Split by file type"});
  EXPECT_EQ(ExtractPatterns("one\nfile  per\tsubtask"), Strings{"One file per subtask"});
  EXPECT_EQ(ExtractPatterns("tests-alongside"), Strings{"Tests alongside implementation"});
}

TEST(PatternExtraction, ResultFollowsSeedOrderNotTextOrder) {
  EXPECT_EQ(ExtractPatterns("Respect dependency chain; maximize parallelization; "
                            "split by feature; handle shared types first"),
            (Strings{"Split by feature", "Handle shared types first", "Maximize parallelization",
                     "Respect dependency chain"}));
}

TEST(PatternExtraction, RepeatedMentionIsOnePattern) {
  EXPECT_EQ(ExtractPatterns("split by feature, and again: split by feature"),
            Strings{"Split by feature"});
}

TEST(PatternExtraction, ByDimensionNeedsASplittingWord) {
  EXPECT_TRUE(ExtractPatterns("The results were sorted by file type").empty());
  EXPECT_TRUE(ExtractPatterns("Coverage is reported per component").empty());
  EXPECT_TRUE(ExtractPatterns("Requests are cached by layer").empty());
  // The splitting word must be among the four words before.
  EXPECT_TRUE(
      ExtractPatterns("We split nothing at all because features are grouped by feature").empty());
  EXPECT_EQ(ExtractPatterns("We split the code base by feature"), Strings{"Split by feature"});
}

TEST(PatternExtraction, PhrasesStartAtWordStarts) {
  EXPECT_TRUE(ExtractPatterns("Write prototypes first").empty());
  EXPECT_TRUE(ExtractPatterns("The consequential change").empty());
}

TEST(PatternExtraction, OrdinaryProseHasNoPatterns) {
  const char* prose[] = {
      "Fix the login bug reported by the customer.",
      "In order to ship on Friday we updated the README and bumped the version.",
      "The component renders a feature flag and the data layer caches results.",
      "Add OAuth support to the session handler; parallel ports are out of scope.",
      "Refactor the types in src/auth.ts so the file compiles.",
      "The test suite takes twenty minutes; the API returns 404 for missing routes.",
      "We depend on this chain of custody for audit logs.",
  };
  for (const char* text : prose) EXPECT_TRUE(ExtractPatterns(text).empty()) << text;
}

TEST(PatternExtraction, DetectStrategiesBitsFollowTheSeedList) {
  EXPECT_EQ(DetectStrategies("split by file type"), 1u << 0);
  EXPECT_EQ(DetectStrategies("respect the dependency chain"), 1u << 11);
  EXPECT_EQ(DetectStrategies("one file per subtask, in parallel"), (1u << 4) | (1u << 9));
}

}  // namespace
}  // namespace kaizen::learn
