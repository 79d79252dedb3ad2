#include "checks/machine_check.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "checks/default_checks.h"

namespace kaizen::checks {
namespace {

namespace fs = std::filesystem;

std::vector<CheckSpec> Parse(const std::string& json, learn::SelfCheckConfig* config = nullptr) {
  std::vector<CheckSpec> specs;
  learn::SelfCheckConfig local;
  Status s = ParseChecksJson(json, "checks.json", &specs, config ? config : &local);
  EXPECT_TRUE(s.ok()) << s.message();
  return specs;
}

std::string ParseError(const std::string& json) {
  std::vector<CheckSpec> specs;
  learn::SelfCheckConfig config;
  Status s = ParseChecksJson(json, "checks.json", &specs, &config);
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  return s.message();
}

CheckedFile File(const std::string& relative, const std::string& bytes) {
  return {"src/" + relative, relative, bytes};
}

// ---- globs -------------------------------------------------------------------------------------

TEST(MachineCheckGlob, StarStaysInsideASegment) {
  EXPECT_TRUE(GlobMatch("*.ts", "a.ts"));
  EXPECT_FALSE(GlobMatch("*.ts", "src/a.ts"));
  EXPECT_FALSE(GlobMatch("*.ts", "a.tsx"));
  EXPECT_TRUE(GlobMatch("src/*", "src/a.ts"));
  EXPECT_FALSE(GlobMatch("src/*", "src/lib/a.ts"));
}

TEST(MachineCheckGlob, DoubleStarSpansZeroOrMoreSegments) {
  EXPECT_TRUE(GlobMatch("**/*.ts", "a.ts"));
  EXPECT_TRUE(GlobMatch("**/*.ts", "src/lib/deep/a.ts"));
  EXPECT_TRUE(GlobMatch("src/**/a.ts", "src/a.ts"));
  EXPECT_TRUE(GlobMatch("src/**/a.ts", "src/x/y/a.ts"));
  EXPECT_FALSE(GlobMatch("src/**/a.ts", "lib/a.ts"));
  EXPECT_TRUE(GlobMatch("src/**", "src/x/y"));
  EXPECT_TRUE(GlobMatch("**", "anything/at/all"));
  EXPECT_TRUE(GlobMatch("**/*", ".env"));
}

TEST(MachineCheckGlob, QuestionMarkAndClasses) {
  EXPECT_TRUE(GlobMatch("a?.js", "ab.js"));
  EXPECT_FALSE(GlobMatch("a?.js", "a/.js"));
  EXPECT_TRUE(GlobMatch("**/*.[jt]s", "x/a.js"));
  EXPECT_TRUE(GlobMatch("**/*.[jt]s", "x/a.ts"));
  EXPECT_FALSE(GlobMatch("**/*.[jt]s", "x/a.cs"));
  EXPECT_TRUE(GlobMatch("v[0-9].txt", "v7.txt"));
  EXPECT_FALSE(GlobMatch("v[!0-9].txt", "v7.txt"));
  EXPECT_TRUE(GlobMatch("v[^0-9].txt", "vx.txt"));
  EXPECT_TRUE(GlobMatch("[]]", "]"));
  EXPECT_TRUE(GlobMatch("a\\*b", "a*b"));
  EXPECT_FALSE(GlobMatch("a\\*b", "axb"));
}

// The backtracking matcher this replaced needed hours for this one: every way of spreading the
// `a`s over the stars was tried.
TEST(MachineCheckGlob, ManyStarsOnALongNameAreMatchedWithoutBacktracking) {
  const std::string glob = "*a*a*a*a*a*a*a*a*a*a*b";
  EXPECT_FALSE(GlobMatch(glob, std::string(200, 'a')));
  EXPECT_TRUE(GlobMatch(glob, std::string(200, 'a') + "b"));
  EXPECT_FALSE(GlobMatch(glob, std::string(200, 'a') + "/b"));
}

TEST(MachineCheckGlob, AClassNeverMatchesTheSeparatorAndMatchesBytes) {
  EXPECT_FALSE(GlobMatch("a[/]b", "a/b"));
  EXPECT_FALSE(GlobMatch("a[!x]b", "a/b"));
  EXPECT_TRUE(GlobMatch("a[!x]b",
                        "a\xff"
                        "b"));
  EXPECT_TRUE(GlobMatch("caf?", "caf\xc3"));       // `?` is one byte of "café"
  EXPECT_FALSE(GlobMatch("caf?", "caf\xc3\xa9"));  // ...not the two of its UTF-8 "é"
  EXPECT_TRUE(GlobMatch("caf??", "caf\xc3\xa9"));
  EXPECT_TRUE(GlobMatch("a?", "a\n"));  // any byte but '/', a newline too
  EXPECT_TRUE(GlobMatch("src/**", "src/x\ny"));
}

// A long glob compiles to a pattern of about its own size (classes as byte ranges); one too
// large for RE2 is refused with the path, the value and why.
TEST(MachineCheckGlob, ALongGlobIsCompiledAndOneTooLargeForRe2IsRefused) {
  std::string glob;
  for (int i = 0; i < 2000; ++i) glob += "[!a]";
  EXPECT_TRUE(GlobMatch(glob, std::string(2000, 'b')));
  EXPECT_FALSE(GlobMatch(glob, std::string(1999, 'b') + "a"));
  std::string huge;
  for (int i = 0; i < 200000; ++i) huge += "[!a]";  // 800 KB
  std::vector<CheckSpec> specs;
  learn::SelfCheckConfig config;
  Status s = ParseChecksJson(R"({"checks":[{"rule":"r","glob":")" + huge + R"(","forbid":"x"}]})",
                             "checks.json", &specs, &config);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("checks.json: checks[0].glob: \"[!a][!a]"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("is too long or complex to match"), std::string::npos);
  EXPECT_TRUE(specs.empty());
}

TEST(MachineCheckGlob, MalformedGlobsAreReported) {
  EXPECT_NE(GlobProblem("src/[ab"), "");
  EXPECT_NE(GlobProblem("a\\"), "");
  EXPECT_EQ(GlobProblem("**/*.[jt]s"), "");
  EXPECT_FALSE(GlobMatch("src/[ab", "src/a"));
}

// ---- config ------------------------------------------------------------------------------------

TEST(MachineCheckConfig, ParsesEveryKindOfSpecAndSettings) {
  learn::SelfCheckConfig config;
  auto specs = Parse(R"({"check": {"confidence_threshold": 0.8, "timeout_seconds": 5},
    "checks":[{"rule":"rule-retries","glob":"**/*.ts","when":"fetch\\(","require":"retry",
               "message":"m","fix":"f"},
              {"rule":"rule-types","glob":"**/*.ts","forbid":":\\s*any\\b"},
              {"rule":"rule-tests","command":["npm","test"]}]})",
                     &config);
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].rule, "rule-retries");
  EXPECT_TRUE(specs[0].when_re && specs[0].require_re && !specs[0].forbid_re);
  EXPECT_EQ(specs[0].fix, "f");
  EXPECT_EQ(specs[1].forbid, ":\\s*any\\b");
  EXPECT_EQ(specs[2].command, (std::vector<std::string>{"npm", "test"}));
  EXPECT_EQ(specs[1].origin, "checks.json checks[1]");
  EXPECT_DOUBLE_EQ(config.confidence_threshold, 0.8);
  EXPECT_DOUBLE_EQ(config.timeout_seconds, 5);
}

TEST(MachineCheckConfig, InvalidRegexNamesFilePathValueAndRule) {
  EXPECT_EQ(ParseError(R"({"checks":[{"rule":"rule-a","forbid":"x"},
                                     {"rule":"rule-types","forbid":"("}]})"),
            "checks.json: checks[1].forbid: \"(\" is not a valid regex (rule rule-types): "
            "missing ): (");
}

TEST(MachineCheckConfig, ExactlyOneOfRequireForbidCommand) {
  EXPECT_NE(ParseError(R"({"checks":[{"rule":"rule-a","glob":"*"}]})")
                .find("checks[0]: has none of require, forbid, command"),
            std::string::npos);
  EXPECT_NE(ParseError(R"({"checks":[{"rule":"rule-a","require":"x","forbid":"y"}]})")
                .find("has more than one"),
            std::string::npos);
}

TEST(MachineCheckConfig, FieldErrorsNameThePath) {
  EXPECT_NE(ParseError(R"({"checks":[{"glob":"*","forbid":"x"}]})").find("checks[0].rule"),
            std::string::npos);
  EXPECT_NE(ParseError(R"({"checks":[{"rule":"r","forbid":"x","severity":"major"}]})")
                .find("checks[0].severity: unknown field"),
            std::string::npos);
  EXPECT_NE(ParseError(R"({"checks":[{"rule":"r","command":[]}]})").find("checks[0].command"),
            std::string::npos);
  EXPECT_NE(ParseError(R"({"checks":[{"rule":"r","command":["npm",3]}]})")
                .find("checks[0].command[1]: 3 must be a string"),
            std::string::npos);
  EXPECT_NE(ParseError(R"({"checks":[{"rule":"r","glob":"[a","forbid":"x"}]})")
                .find("checks[0].glob: \"[a\" has a `[` with no closing `]` (rule r)"),
            std::string::npos);
  EXPECT_NE(ParseError(R"({"checks":[{"rule":"r","forbid":""}]})").find("non-empty"),
            std::string::npos);
  EXPECT_NE(ParseError(R"({"checks":{}})").find("checks: {} must be an array"), std::string::npos);
  EXPECT_NE(ParseError(R"({"chekcs":[]})").find("chekcs: unknown field"), std::string::npos);
  EXPECT_NE(ParseError("{").find("checks.json: not valid JSON"), std::string::npos);
  EXPECT_NE(
      ParseError(R"({"check":{"confidence_threshold":2}})").find("check.confidence_threshold"),
      std::string::npos);
}

TEST(MachineCheckConfig, UnknownRuleIdsAreAllowed) {
  auto specs = Parse(R"({"checks":[{"rule":"rule-not-yet","forbid":"x"}]})");
  ASSERT_EQ(specs.size(), 1u);
}

TEST(MachineCheckConfig, OwnSpecsReplaceTheDefaultsOfTheirRule) {
  auto base = Parse(R"({"checks":[{"rule":"a","forbid":"1"},{"rule":"a","forbid":"2"},
                                  {"rule":"b","forbid":"3"}]})");
  auto own = Parse(R"({"checks":[{"rule":"a","forbid":"9"}]})");
  auto merged = MergeChecks(base, own);
  ASSERT_EQ(merged.size(), 2u);
  EXPECT_EQ(merged[0].forbid, "3");
  EXPECT_EQ(merged[1].forbid, "9");
}

TEST(MachineCheckConfig, DefaultChecksParse) {
  auto defaults = DefaultChecks();
  ASSERT_TRUE(defaults.ok()) << defaults.status().message();
  EXPECT_GE(defaults->size(), 8u);
}

// ---- regex checks ------------------------------------------------------------------------------

TEST(MachineCheckRegex, ForbidReportsEachHitWithItsLine) {
  auto spec =
      Parse(R"({"checks":[{"rule":"rule-types","glob":"**/*.ts","forbid":":\\s*any\\b"}]})")[0];
  std::vector<CheckedFile> files = {File("a.ts", "let a: number;\nlet b: any;\n\nf(x: any)\n"),
                                    File("b.js", "let c: any;\n")};
  CheckRun run = RunRegexCheck(spec, files);
  EXPECT_TRUE(run.applied);
  ASSERT_EQ(run.findings.size(), 2u);
  EXPECT_EQ(run.findings[0].location, "src/a.ts:2");
  EXPECT_EQ(run.findings[1].location, "src/a.ts:4");
  EXPECT_NE(run.findings[0].detail.find("\": any\""), std::string::npos);
}

TEST(MachineCheckRegex, RequireReportsTheFileThatMisses) {
  auto spec = Parse(R"({"checks":[{"rule":"rule-retries","glob":"**/*.ts","when":"fetch\\(",
                                  "require":"retry|backoff","message":"no retry"}]})")[0];
  std::vector<CheckedFile> files = {File("client.ts", "await fetch(url)\n"),
                                    File("fixed.ts", "await retry(() => fetch(url))\n"),
                                    File("pure.ts", "export const x = 1;\n")};
  CheckRun run = RunRegexCheck(spec, files);
  EXPECT_TRUE(run.applied);
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].location, "src/client.ts");
  EXPECT_EQ(run.findings[0].detail, "no retry");
}

TEST(MachineCheckRegex, NotAppliedWhenNoFileMatchesGlobAndWhen) {
  auto spec =
      Parse(R"({"checks":[{"rule":"r","glob":"**/*.py","when":"requests","require":"x"}]})")[0];
  EXPECT_FALSE(RunRegexCheck(spec, {File("a.ts", "requests"), File("b.py", "import os")}).applied);
}

TEST(MachineCheckRegex, CaptureGroupPlacesTheHit) {
  auto spec = Parse(R"j({"checks":[{"rule":"r","forbid":"x\\n(y)"}]})j")[0];
  CheckRun run = RunRegexCheck(spec, {File("a.txt", "a\nx\ny\n")});
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].location, "src/a.txt:3");
}

TEST(MachineCheckRegex, DefaultDocumentationCheckFlagsUndocumentedExports) {
  auto defaults = DefaultChecks();
  ASSERT_TRUE(defaults.ok());
  const CheckSpec* doc = nullptr;
  for (const CheckSpec& s : *defaults) {
    if (s.rule == "rule-documentation" && s.glob == "**/*.[jt]s") doc = &s;
  }
  ASSERT_NE(doc, nullptr);
  CheckRun run = RunRegexCheck(*doc, {File("a.ts",
                                           "/** Adds. */\nexport function add() {}\n\n"
                                           "const x = 1;\n\nexport async function sub() {}\n")});
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].location, "src/a.ts:6");
}

// The default checks of the themes added for issue 27: a type error silenced instead of fixed,
// and a response used without its status checked. Each flags the bad file and passes the fixed one.
TEST(MachineCheckRegex, DefaultTypeEscapeAndResponseChecks) {
  auto defaults = DefaultChecks();
  ASSERT_TRUE(defaults.ok());
  const auto findings = [&](std::string_view rule, const CheckedFile& file) {
    size_t n = 0;
    for (const CheckSpec& s : *defaults) {
      if (s.rule == rule) n += RunRegexCheck(s, {file}).findings.size();
    }
    return n;
  };
  EXPECT_EQ(
      findings("rule-types", File("a.ts", "// @ts-ignore\nconst u = x as unknown as User;\n")), 2u);
  EXPECT_EQ(findings("rule-types", File("b.ts", "// @ts-expect-error: upstream typing bug\n")), 0u);
  EXPECT_EQ(findings("rule-types", File("c.py", "x = f()  # type: ignore\n")), 1u);
  EXPECT_EQ(findings("rule-types", File("d.py", "x = f()  # type: ignore[attr-defined]\n")), 0u);
  EXPECT_EQ(findings("rule-response-checks",
                     File("e.ts", "const res = await fetch(url);\nreturn res.json();\n")),
            1u);
  EXPECT_EQ(findings("rule-response-checks",
                     File("f.ts", "const res = await fetch(url);\nif (!res.ok) throw e;\n")),
            0u);
  EXPECT_EQ(findings("rule-response-checks", File("g.py", "r = requests.get(u)\nr.json()\n")), 1u);
  EXPECT_EQ(
      findings("rule-response-checks", File("h.py", "r = requests.get(u)\nr.raise_for_status()\n")),
      0u);
}

TEST(MachineCheckRegex, RunChecksGroupsByRuleAndCapsFindings) {
  auto specs = Parse(R"({"checks":[{"rule":"a","forbid":"x"},{"rule":"a","forbid":"y"},
                                   {"rule":"b","forbid":"z"},{"rule":"c","forbid":"q"}]})");
  std::string ten(10, 'x');
  auto checks =
      RunChecks(specs, {"a", "b", "d"}, {File("f", ten + "y"), File("g", ten), File("h", ten)}, 1);
  ASSERT_EQ(checks.size(), 2u);  // d has no spec; c is not active
  EXPECT_EQ(checks[0].rule_id, "a");
  ASSERT_EQ(checks[0].findings.size(), kMaxFindingsPerRule + 1);
  EXPECT_EQ(checks[0].findings.back().detail, "... and 11 more");  // 30 x and 1 y
  EXPECT_TRUE(checks[1].applied);
  EXPECT_TRUE(checks[1].findings.empty());
}

// Past kMaxHitsPerFile hits a file is not searched further: each search after a hit may scan the
// rest of the file, so counting them all was quadratic in its size.
TEST(MachineCheckRegex, AFileWithMoreHitsThanShownIsNotSearchedToTheEnd) {
  auto specs = Parse(R"({"checks":[{"rule":"a","forbid":"x"}]})");
  const CheckRun run = RunRegexCheck(specs[0], {File("f", std::string(100, 'x'))});
  EXPECT_EQ(run.findings.size(), kMaxHitsPerFile);
  EXPECT_TRUE(run.cut);
  auto checks = RunChecks(specs, {"a"}, {File("f", std::string(100, 'x'))}, 1);
  ASSERT_EQ(checks[0].findings.size(), kMaxFindingsPerRule + 1);
  EXPECT_EQ(checks[0].findings.back().detail, "... and more");
  // The default error-handling check on 1 MB of `catch(catch{}`: every try scans to the end.
  std::string js;
  while (js.size() < (1 << 20)) js += "catch(catch{}";
  auto defaults = DefaultChecks();
  ASSERT_TRUE(defaults.ok());
  auto found = RunChecks(defaults.value(), {"rule-error-handling"}, {File("a.js", js)}, 1);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].findings.back().detail, "... and more");
}

// ---- command checks ----------------------------------------------------------------------------

TEST(MachineCheckCommand, ZeroExitPassesAndFilesAreAppended) {
  auto spec = Parse(R"({"checks":[{"rule":"r","command":["sh","-c","test $# -eq 2","sh"]}]})")[0];
  CheckRun run = RunCommandCheck(spec, {File("a", ""), File("b", "")}, 10);
  EXPECT_TRUE(run.applied);
  EXPECT_TRUE(run.findings.empty());
}

TEST(MachineCheckCommand, NonZeroExitIsAViolationWithTheOutput) {
  auto spec = Parse(
      R"({"checks":[{"rule":"r","command":["sh","-c","echo out; echo err >&2; exit 3"]}]})")[0];
  CheckRun run = RunCommandCheck(spec, {}, 10);
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_NE(run.findings[0].detail.find("exited with 3"), std::string::npos);
  EXPECT_NE(run.findings[0].detail.find("out\nerr"), std::string::npos);
}

TEST(MachineCheckCommand, APassedDeadlineIsAViolationSayingSo) {
  auto spec = Parse(R"({"checks":[{"rule":"r","command":["sleep","30"]}]})")[0];
  CheckRun run = RunCommandCheck(spec, {}, 0.2);
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_NE(run.findings[0].detail.find("did not finish within 0.2 s and was killed"),
            std::string::npos);
}

TEST(MachineCheckCommand, MissingProgramIsAViolationNamingIt) {
  auto spec = Parse(R"({"checks":[{"rule":"r","command":["kaizen-no-such-program-xyz"]}]})")[0];
  CheckRun run = RunCommandCheck(spec, {}, 10);
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_NE(run.findings[0].detail.find(
                "could not run: \"kaizen-no-such-program-xyz\": No such file or directory"),
            std::string::npos);
}

TEST(MachineCheckCommand, GlobbedCommandSkipsWhenNoFileMatches) {
  auto spec = Parse(R"({"checks":[{"rule":"r","glob":"**/*.py","command":["false"]}]})")[0];
  EXPECT_FALSE(RunCommandCheck(spec, {File("a.ts", "")}, 10).applied);
}

// ---- files -------------------------------------------------------------------------------------

class MachineCheckFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("kaizen-mc-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
             "-" + std::to_string(reinterpret_cast<uintptr_t>(this)));
    fs::remove_all(root_);
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  void Write(const std::string& rel, const std::string& bytes) {
    fs::create_directories((root_ / rel).parent_path());
    std::ofstream(root_ / rel, std::ios::binary) << bytes;
  }
  fs::path root_;
};

TEST_F(MachineCheckFiles, WalksSortedAndSkipsVendoredBuildBinaryAndLarge) {
  Write("src/b.ts", "b");
  Write("src/a.ts", "a");
  Write("node_modules/x/index.js", "x");
  Write(".git/config", "x");
  Write("build/out.js", "x");
  Write("bin.dat", std::string("ab\0cd", 5));
  Write("big.txt", std::string(kMaxCheckedFileBytes + 1, 'a'));
  fs::create_symlink(root_ / "src", root_ / "link");
  std::vector<CheckedFile> files;
  std::vector<SkippedFile> skipped;
  ASSERT_TRUE(CollectFiles({root_.string()}, &files, &skipped).ok());
  ASSERT_EQ(files.size(), 2u);
  EXPECT_EQ(files[0].relative, "src/a.ts");
  EXPECT_EQ(files[1].relative, "src/b.ts");
  EXPECT_EQ(files[0].path, (root_ / "src/a.ts").string());
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_EQ(skipped[0].why, "over 1 MiB (1048577 bytes)");
  EXPECT_EQ(skipped[1].why, "binary");
}

TEST_F(MachineCheckFiles, FileArgumentIsMatchedByItsNameAndCountedOnce) {
  Write("src/a.ts", "a");
  std::vector<CheckedFile> files;
  std::vector<SkippedFile> skipped;
  const std::string file = (root_ / "src/a.ts").string();
  ASSERT_TRUE(CollectFiles({file, file}, &files, &skipped).ok());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].relative, "a.ts");
  EXPECT_EQ(files[0].path, file);
}

TEST_F(MachineCheckFiles, MissingPathIsAUsageError) {
  std::vector<CheckedFile> files;
  std::vector<SkippedFile> skipped;
  Status s = CollectFiles({(root_ / "nope").string()}, &files, &skipped);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("no such file or directory"), std::string::npos);
}

}  // namespace
}  // namespace kaizen::checks
