#include "learn/outcomes/error_accumulator.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::learn {
namespace {

constexpr int64_t kAt1030 = 1733999400000;  // 2024-12-12T10:30:00Z
constexpr int64_t kMinuteMs = 60'000;

model::ErrorView Error(std::string_view id, std::string_view bead, std::string_view type,
                       std::string_view message, int64_t at_ms = kAt1030) {
  model::ErrorView e;
  e.at_ms = at_ms;
  e.id = id;
  e.bead_id = bead;
  e.error_type = type;
  e.message = message;
  return e;
}

model::ErrorView Resolve(std::string_view id, std::string_view error_id,
                         std::string_view bead = "b") {
  model::ErrorView e;
  e.id = id;
  e.bead_id = bead;
  e.resolves = error_id;
  return e;
}

std::string Json(const ErrorReport& r) {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  WriteJson(w, r);
  return buffer.GetString();
}

TEST(ErrorAccumulator, NoErrorsNoStatsNoContext) {
  ErrorAccumulator a;
  EXPECT_EQ(a.Stats("bd-1").total, 0);
  EXPECT_EQ(a.Overall().total, 0);
  EXPECT_EQ(a.ErrorContext("bd-1", true), "");
  EXPECT_EQ(Json(a.Report()), R"({"total":0,"unresolved":0,"byType":{},"beadsWithUnresolved":[]})");
}

// seed 002 "Error Statistics": total 5, unresolved 2, validation 3, timeout 1, tool_failure 1.
TEST(ErrorAccumulator, SeedStatisticsExample) {
  ErrorAccumulator a;
  a.Add(Error("e1", "bd-123.1", "validation", "m1"));
  a.Add(Error("e2", "bd-123.1", "timeout", "m2"));
  a.Add(Error("e3", "bd-123.1", "validation", "m3"));
  a.Add(Error("e4", "bd-123.1", "tool_failure", "m4"));
  a.Add(Error("e5", "bd-123.1", "validation", "m5"));
  a.Add(Error("x1", "other", "conflict", "m6"));
  a.Add(Resolve("r1", "e1"));
  a.Add(Resolve("r2", "e2"));
  a.Add(Resolve("r3", "e5"));
  const ErrorStats s = a.Stats("bd-123.1");
  EXPECT_EQ(s.total, 5);
  EXPECT_EQ(s.unresolved, 2);
  EXPECT_EQ(s.by_type, (std::map<std::string, int64_t, std::less<>>{
                           {"timeout", 1}, {"tool_failure", 1}, {"validation", 3}}));
  EXPECT_EQ(a.Overall().total, 6);
  EXPECT_EQ(a.Overall().unresolved, 3);
  EXPECT_EQ(a.Overall().by_type.at("conflict"), 1);
}

TEST(ErrorAccumulator, ResolveBeforeTheErrorIsIgnored) {
  ErrorAccumulator a;
  a.Add(Resolve("r1", "e1"));
  a.Add(Error("e1", "b", "timeout", "late"));
  EXPECT_EQ(a.Stats("b").unresolved, 1);
}

TEST(ErrorAccumulator, ResolvingTwiceCountsOnce) {
  ErrorAccumulator a;
  a.Add(Error("e1", "b", "timeout", "m"));
  a.Add(Error("e2", "b", "timeout", "m"));
  a.Add(Resolve("r1", "e1"));
  a.Add(Resolve("r2", "e1"));
  EXPECT_EQ(a.Stats("b").unresolved, 1);
  EXPECT_EQ(a.Overall().unresolved, 1);
}

TEST(ErrorAccumulator, ResolveOfUnknownIdIsIgnoredAndIsNotAnError) {
  ErrorAccumulator a;
  a.Add(Error("e1", "b", "timeout", "m"));
  a.Add(Resolve("r1", "nope", "b"));
  EXPECT_EQ(a.Stats("b").total, 1);
  EXPECT_EQ(a.Stats("b").unresolved, 1);
}

TEST(ErrorAccumulator, ResolveAppliesWhateverBeadTheResolveNames) {
  ErrorAccumulator a;
  a.Add(Error("e1", "b", "timeout", "m"));
  a.Add(Resolve("r1", "e1", "another-bead"));
  EXPECT_EQ(a.Stats("b").unresolved, 0);
  EXPECT_EQ(a.Stats("another-bead").total, 0);
}

TEST(ErrorAccumulator, ErrorWithoutTypeIsUnknown) {
  ErrorAccumulator a;
  a.Add(Error("e1", "b", "", "m"));
  EXPECT_EQ(a.Stats("b").by_type.at("unknown"), 1);
}

// seed 002 "Generating Error Context", Output; times in UTC.
TEST(ErrorAccumulator, ErrorContextFollowsTheSeedLayout) {
  ErrorAccumulator a;
  model::ErrorView first = Error("e1", "bd-123.1", "validation", "Type error in src/auth.ts");
  first.context = "After adding OAuth types";
  first.tool_name = "typecheck";
  a.Add(first);
  model::ErrorView second = Error("e2", "bd-123.1", "validation",
                                  "Missing import in src/session.ts", kAt1030 + 5 * kMinuteMs);
  second.tool_name = "typecheck";
  a.Add(second);
  EXPECT_EQ(a.ErrorContext("bd-123.1", false),
            "## Previous Errors\n"
            "\n"
            "The following errors were encountered during execution:\n"
            "\n"
            "### validation (2 errors)\n"
            "\n"
            "- **Type error in src/auth.ts**\n"
            "  - Context: After adding OAuth types\n"
            "  - Tool: typecheck\n"
            "  - Time: 2024-12-12 10:30 UTC\n"
            "\n"
            "- **Missing import in src/session.ts**\n"
            "  - Tool: typecheck\n"
            "  - Time: 2024-12-12 10:35 UTC\n"
            "\n"
            "**Action Required**: Address these errors before proceeding. Consider:\n"
            "\n"
            "- What caused each error?\n"
            "- How can you prevent similar errors?\n"
            "- Are there patterns across error types?\n");
}

TEST(ErrorAccumulator, ErrorContextGroupsByTypeInFirstSeenOrder) {
  ErrorAccumulator a;
  a.Add(Error("e1", "b", "timeout", "slow", kAt1030));
  a.Add(Error("e2", "b", "validation", "bad", kAt1030 + kMinuteMs));
  a.Add(Error("e3", "b", "timeout", "slower", kAt1030 + 2 * kMinuteMs));
  a.Add(Error("e4", "other", "conflict", "not this bead"));
  const std::string text = a.ErrorContext("b", false);
  const size_t timeout = text.find("### timeout (2 errors)\n\n- **slow**\n");
  const size_t slower = text.find("- **slower**");
  const size_t validation = text.find("### validation (1 error)\n\n- **bad**\n");
  ASSERT_NE(timeout, std::string::npos) << text;
  ASSERT_NE(validation, std::string::npos) << text;
  EXPECT_LT(timeout, slower);
  EXPECT_LT(slower, validation);
  EXPECT_EQ(text.find("not this bead"), std::string::npos);
}

TEST(ErrorAccumulator, ResolvedErrorsOnlyWhenAskedAndMarked) {
  ErrorAccumulator a;
  a.Add(Error("e1", "b", "timeout", "fixed"));
  a.Add(Error("e2", "b", "timeout", "open", kAt1030 + kMinuteMs));
  a.Add(Resolve("r1", "e1"));
  const std::string open = a.ErrorContext("b", false);
  EXPECT_EQ(open.find("fixed"), std::string::npos);
  EXPECT_NE(open.find("### timeout (1 error)\n"), std::string::npos) << open;
  const std::string all = a.ErrorContext("b", true);
  EXPECT_NE(all.find("- **fixed**\n  - Time: 2024-12-12 10:30 UTC (resolved)\n"), std::string::npos)
      << all;
  EXPECT_NE(all.find("- **open**\n  - Time: 2024-12-12 10:31 UTC\n"), std::string::npos) << all;
}

TEST(ErrorAccumulator, ErrorContextEmptyWhenEveryErrorIsResolved) {
  ErrorAccumulator a;
  a.Add(Error("e1", "b", "timeout", "fixed"));
  a.Add(Resolve("r1", "e1"));
  EXPECT_EQ(a.ErrorContext("b", false), "");
  EXPECT_NE(a.ErrorContext("b", true), "");
}

TEST(ErrorAccumulator, StackShowsFirstHundredCharactersThenEllipsis) {
  ErrorAccumulator a;
  const std::string hundred(100, 's');
  const std::string long_stack = hundred + "TAIL";
  model::ErrorView cut = Error("e1", "b", "unknown", "cut");
  cut.stack_trace = long_stack;
  a.Add(cut);
  model::ErrorView exact = Error("e2", "b", "unknown", "exact");
  exact.stack_trace = hundred;
  a.Add(exact);
  model::ErrorView lines = Error("e3", "b", "unknown", "lines");
  lines.stack_trace = "at f()\nat g()";
  a.Add(lines);
  const std::string text = a.ErrorContext("b", false);
  EXPECT_NE(text.find("  - Stack: " + hundred + "...\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  - Stack: " + hundred + "\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("TAIL"), std::string::npos);
  EXPECT_NE(text.find("  - Stack: at f() at g()\n"), std::string::npos) << text;
}

TEST(ErrorAccumulator, StackIsCutOnCharactersNotBytes) {
  ErrorAccumulator a;
  std::string stack;
  for (int i = 0; i < 101; ++i) stack += "\xC3\xA9";  // é
  model::ErrorView e = Error("e1", "b", "unknown", "m");
  e.stack_trace = stack;
  a.Add(e);
  EXPECT_NE(a.ErrorContext("b", false).find("  - Stack: " + stack.substr(0, 200) + "...\n"),
            std::string::npos);
}

TEST(ErrorAccumulator, ReportListsTopBeadsByUnresolvedThenId) {
  ErrorAccumulator a;
  a.Add(Error("a1", "bead-a", "timeout", "m"));
  a.Add(Error("c1", "bead-c", "timeout", "m"));
  a.Add(Error("c2", "bead-c", "validation", "m"));
  a.Add(Error("b1", "bead-b", "timeout", "m"));
  a.Add(Error("d1", "bead-d", "conflict", "m"));
  a.Add(Resolve("r1", "d1"));
  EXPECT_EQ(Json(a.Report()),
            R"({"total":5,"unresolved":4,"byType":{"conflict":1,"timeout":3,"validation":1},)"
            R"("beadsWithUnresolved":[{"beadId":"bead-c","unresolved":2,"total":2},)"
            R"({"beadId":"bead-a","unresolved":1,"total":1},)"
            R"({"beadId":"bead-b","unresolved":1,"total":1}]})");
  const ErrorReport top = a.Report(2);
  ASSERT_EQ(top.beads_with_unresolved.size(), 2u);
  EXPECT_EQ(top.beads_with_unresolved[1].bead_id, "bead-a");
}

TEST(ErrorAccumulator, ReportKeepsTwentyBeads) {
  ErrorAccumulator a;
  std::vector<std::string> ids;
  for (int i = 0; i < 25; ++i) ids.push_back("e" + std::to_string(i));
  for (int i = 0; i < 25; ++i) a.Add(Error(ids[i], ids[i], "timeout", "m"));
  EXPECT_EQ(a.Report().beads_with_unresolved.size(), 20u);
}

}  // namespace
}  // namespace kaizen::learn
