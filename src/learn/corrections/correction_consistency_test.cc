// Issue 27: corrections learned by meaning, and no pattern that contradicts its own examples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "learn/corrections/correction_patterns.h"
#include "text/correction_classifier.h"

namespace kaizen::learn {
namespace {

constexpr int64_t kT0 = 1752141600000;  // 2025-07-10T10:00:00Z

struct Fix {
  std::string_view original, corrected, file;
};

// Six corrections that removed filler, as in the issue.
constexpr Fix kFiller[] = {
    {"Great question! Here is the fix.", "Here is the fix."},
    {"Move the lock before the read. I hope this helps!", "Move the lock before the read."},
    {"Certainly! I updated the migration.", "I updated the migration."},
    {"Great question! The cache key ignores the locale.", "The cache key ignores the locale."},
    {"Restart the worker. I hope this helps!", "Restart the worker."},
    {"Certainly! The test now uses a fake clock.", "The test now uses a fake clock."},
};

// What a developer really corrects in a week (the integration suite has the same as JSONL).
constexpr Fix kDeveloperWeek[] = {
    {"Great question! The timeout comes from the retry loop.",
     "The timeout comes from the retry loop."},
    {"Here is the fix: move the lock before the read. I hope this helps!",
     "Here is the fix: move the lock before the read."},
    {"Certainly! I updated the migration to add the index.",
     "I updated the migration to add the index."},
    {"function parse(input: any) {\n  return JSON.parse(input);\n}",
     "function parse(input: unknown) {\n  return JSON.parse(String(input));\n}", "src/parse.ts"},
    {"const payload = req.body as any;", "const payload: unknown = req.body;", "src/api.ts"},
    {"export function total(items: any[]): number {",
     "export function total(items: LineItem[]): number {", "src/cart.ts"},
    {"const usr = await db.find(id);\nreturn usr.name;",
     "const user = await db.find(id);\nreturn user.name;", "src/users.ts"},
    {"def total(lst):\n    return sum(lst)", "def total(prices):\n    return sum(prices)",
     "billing.py"},
    {"let tmp = parseInt(raw, 10);\nif (tmp > max) tmp = max;",
     "let clamped = parseInt(raw, 10);\nif (clamped > max) clamped = max;", "src/clamp.ts"},
    {"const name = user.profile.name;", "const name = user?.profile?.name ?? \"anonymous\";",
     "src/profile.ts"},
    {"if user.email.endswith(\"@corp.com\"):",
     "if user.email is not None and user.email.endswith(\"@corp.com\"):", "auth.py"},
    {"return order.customer.id;",
     "if (order.customer == null) return null;\nreturn order.customer.id;", "src/orders.ts"},
    {"- Responsible for the retry logic in the uploader", "- Added retry logic to the uploader"},
    {"- Responsible for cleaning up the feature flags", "- Removed three stale feature flags"},
    {"- Responsible for the new metrics endpoint", "- Added a /metrics endpoint"},
    {"The function first reads the config file from disk, then it parses it as YAML, and after "
     "that it validates each field against the schema before returning it.",
     "Reads the config file, parses the YAML and validates each field."},
    {"To run the tests you will need to first install all of the development dependencies and "
     "then run the make target called test.",
     "Run make test after installing the dev dependencies."},
};

model::CorrectionView View(const Fix& f, int i) {
  model::CorrectionView c;
  c.at_ms = kT0 + i * 60000;
  c.correction_type = "auto";  // proposed by the classifier, as ingest does
  c.original = f.original;
  c.corrected = f.corrected;
  c.file = f.file;
  c.user_id = "dev";
  return c;
}

template <size_t N>
std::vector<CorrectionPattern> Learn(const Fix (&fixes)[N]) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  for (size_t i = 0; i < N; ++i) learner.Add(View(fixes[i], static_cast<int>(i)));
  return learner.Patterns();
}

const CorrectionPattern* Find(const std::vector<CorrectionPattern>& patterns, std::string_view id) {
  for (const CorrectionPattern& p : patterns) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

bool Flags(const CorrectionPattern& p, std::string_view text) {
  return !ViolationsOf(p, text).empty();
}

TEST(CorrectionsByMeaning, RemovedFillerIsLearnedAsFillerNotALengthLimit) {
  const std::vector<CorrectionPattern> patterns = Learn(kFiller);
  ASSERT_EQ(patterns.size(), 1u);
  const CorrectionPattern& p = patterns[0];
  EXPECT_EQ(p.id, "tone_mismatch-filler");
  EXPECT_EQ(p.occurrences, 6);
  ASSERT_EQ(p.words.size(), 3u);
  EXPECT_EQ(p.words[0].word, "certainly");
  EXPECT_EQ(p.words[1].word, "great question");
  EXPECT_EQ(p.words[2].word, "i hope this helps");
  EXPECT_EQ(p.status, CorrectionPatternStatus::kActive);
  EXPECT_EQ(p.examples_checked, 6);
  EXPECT_EQ(p.inconsistency, "");
}

TEST(CorrectionsByMeaning, ValidateFlagsFillerAndNotAnOrdinarySentence) {
  const std::vector<CorrectionPattern> patterns = Learn(kFiller);
  const std::string_view ordinary =
      "The retry loop in the upload client doubles its delay after each failure and stops after "
      "five.";  // 17 words
  EXPECT_TRUE(FindViolations(patterns, ordinary, 0.5).empty());
  std::vector<PatternViolation> v = FindViolations(patterns, "Certainly! Done.", 0.5);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].what, "filler 'Certainly!'");
  EXPECT_EQ(v[0].column, 1u);
  // The families of the learned phrases: other openers and closers too, never the content.
  v = FindViolations(patterns, "Sure! Fixed.\nDone. Hope that helps!", 0.5);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1].line, 2u);
  EXPECT_EQ(v[1].column, 7u);
}

TEST(CorrectionsByMeaning, ProsePatternsSkipCodeAndCodePatternsSkipNothing) {
  std::vector<CorrectionPattern> patterns = Learn(kFiller);
  const std::vector<CorrectionPattern> code = Learn(kDeveloperWeek);
  patterns.push_back(*Find(code, "type_safety-unsafe_type-any"));
  const std::string_view answer =
      "Sure! Use this:\n```ts\n// Certainly! a comment\nlet x: any = 1;\n```\n";
  std::vector<PatternViolation> v = FindViolations(patterns, answer, 0);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].pattern_id, "tone_mismatch-filler");
  EXPECT_EQ(v[0].line, 1u);
  EXPECT_EQ(v[1].pattern_id, "type_safety-unsafe_type-any");
  EXPECT_EQ(v[1].line, 4u);
  // A code file: only the code patterns read it.
  v = FindViolations(patterns, "// Certainly! Done.\nlet y: any;\n", 0, "src/y.ts");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].pattern_id, "type_safety-unsafe_type-any");
  EXPECT_EQ(FindViolations(patterns, "Certainly! Done.\n", 0, "notes.md").size(), 1u);
}

TEST(CorrectionsByMeaning, ALengthLimitItsOwnOriginalsMeetIsInconsistentAndNotEnforced) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  const Fix trims[] = {
      {"The fix is simple: restart it now.", "Restart it."},  // the original is already short
      {"Built the service which took many months of careful work by nearly everyone on the team "
       "here",
       "Built the service in Go over many months with the whole team"},
      {"Wrote a long design document that nobody read because it covered every single detail",
       "Wrote a short design document"},
  };
  for (int i = 0; i < 3; ++i) {
    model::CorrectionView c = View(trims[i], i);
    c.correction_type = "excessive_detail";
    learner.Add(c);
  }
  const std::vector<CorrectionPattern> patterns = learner.Patterns();
  const CorrectionPattern* p = Find(patterns, "excessive_detail-length");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->status, CorrectionPatternStatus::kInconsistent);
  EXPECT_EQ(p->unexplained, 1);
  EXPECT_EQ(p->contradicted, 0);
  EXPECT_EQ(p->inconsistency, "its examples disagree: of 3 checked, 1 original(s) do not");
  EXPECT_FALSE(p->Enforced(0));
  EXPECT_TRUE(
      FindViolations(patterns, std::string(40, 'w') + " a b c d e f g h i j k l m n", 0).empty());
}

TEST(CorrectionsByMeaning, APatternWhoseCorrectedTextsBreakItIsInconsistentEvenWhenPromoted) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  // People removed "Great question!" but kept "Sure!": the filler lesson contradicts them.
  for (int i = 0; i < 3; ++i) {
    learner.Add(View({"Great question! Sure! It is the cache.", "Sure! It is the cache."}, i));
  }
  for (std::string_view who : {"a", "b", "c", "d", "e"}) {
    model::AdminView a;
    a.action = "rule_audit";
    a.rule_id = "tone_mismatch-filler";
    a.verdict = "confirm";
    a.reviewer = who;
    learner.Add(a);
  }
  const CorrectionPattern p = learner.Patterns().at(0);
  EXPECT_EQ(p.id, "tone_mismatch-filler");
  EXPECT_EQ(p.contradicted, 3);
  EXPECT_EQ(p.status, CorrectionPatternStatus::kInconsistent);
  EXPECT_FALSE(p.Enforced(0));
}

TEST(CorrectionsByMeaning, CodeCorrectionsGetCodeCategories) {
  const std::vector<CorrectionPattern> patterns = Learn(kDeveloperWeek);
  const CorrectionPattern* any = Find(patterns, "type_safety-unsafe_type-any");
  ASSERT_NE(any, nullptr);
  EXPECT_EQ(any->occurrences, 3);
  EXPECT_TRUE(any->enforceable);
  EXPECT_EQ(any->inconsistency, "");
  EXPECT_TRUE(Flags(*any, "function load(x: any): void {"));
  EXPECT_FALSE(Flags(*any, "Do you have any questions?"));
  const CorrectionPattern* naming = Find(patterns, "naming-rename");
  ASSERT_NE(naming, nullptr);
  EXPECT_FALSE(naming->enforceable);  // advisory
  EXPECT_FALSE(naming->Enforced(0));
  EXPECT_EQ(naming->words.size(), 3u);
  ASSERT_NE(Find(patterns, "null_handling-code"), nullptr);
  ASSERT_NE(Find(patterns, "tone_mismatch-filler"), nullptr);
  ASSERT_NE(Find(patterns, "passive_to_active-opener-responsible-for"), nullptr);
  for (const CorrectionPattern& p : patterns) EXPECT_NE(p.correction_type, "code_fix") << p.id;
}

// The acceptance test: over a realistic week of corrections, no pattern that may be
// enforced contradicts its own examples: its detector flags every original and no corrected text.
TEST(CorrectionsByMeaning, NoEnforceablePatternContradictsItsOwnExamples) {
  const std::vector<CorrectionPattern> patterns = Learn(kDeveloperWeek);
  ASSERT_GE(patterns.size(), 5u);
  for (const CorrectionPattern& p : patterns) {
    if (!p.Enforced(0)) continue;
    for (const Fix& f : kDeveloperWeek) {
      const model::CorrectionView c = View(f, 0);
      if (CorrectionGroupType(c) != p.correction_type) continue;
      if (AnalyzeChange(p.correction_type, f.original, f.corrected, f.file).kind != p.kind) {
        continue;
      }
      EXPECT_TRUE(Flags(p, f.original)) << p.id << " misses " << f.original;
      EXPECT_FALSE(Flags(p, f.corrected)) << p.id << " flags " << f.corrected;
    }
  }
}

}  // namespace
}  // namespace kaizen::learn
