#include "text/correction_classifier.h"

#include <gtest/gtest.h>

#include <string>

namespace kaizen::text {
namespace {

std::string Texts(const std::vector<Token>& tokens) {
  std::string out;
  for (const Token& t : tokens) out += std::string(t.text) + "|";
  return out;
}

CorrectionClass C(std::string_view original, std::string_view corrected) {
  return ClassifyCorrection(original, corrected);
}

// ---- tokens and the diff ----------------------------------------------------------------------

TEST(CorrectionTokens, WordsNumbersAndHyphenatedWordsAreTokensPunctuationIsNot) {
  EXPECT_EQ(Texts(Tokenize("- Led a 10-person team, cut costs by 40% ($2.5M).")),
            "Led|a|10-person|team|cut|costs|by|40%|$2.5M|");
}

TEST(CorrectionTokens, SentenceStartsAndLinesAreMarked) {
  std::vector<Token> t = Tokenize("Built it. Then Shipped\nDone");
  ASSERT_EQ(t.size(), 5u);
  EXPECT_TRUE(t[0].sentence_start);
  EXPECT_FALSE(t[1].sentence_start);
  EXPECT_TRUE(t[2].sentence_start);
  EXPECT_FALSE(t[3].sentence_start);
  EXPECT_TRUE(t[3].capitalized);
  EXPECT_EQ(t[4].line, 1u);
  EXPECT_TRUE(t[4].sentence_start);
}

TEST(CorrectionTokens, InputIsCappedInTokens) {
  std::string big;
  for (int i = 0; i < 5000; ++i) big += "w ";
  EXPECT_EQ(Tokenize(big).size(), kMaxDiffTokens);
}

TEST(CorrectionDiff, FindsTheChangedRunsAndTheCommonTokens) {
  TokenDiff d =
      DiffTokens("Responsible for leading engineering team", "Led 10-person engineering team");
  EXPECT_EQ(d.kept, 2u);
  ASSERT_EQ(d.hunks.size(), 1u);
  EXPECT_EQ(d.hunks[0].orig_begin, 0u);
  EXPECT_EQ(d.hunks[0].orig_end, 3u);
  EXPECT_EQ(d.hunks[0].corr_begin, 0u);
  EXPECT_EQ(d.hunks[0].corr_end, 2u);
}

TEST(CorrectionDiff, LcsIsOptimalOnInterleavedEdits) {
  // a b c d e f -> a x c y e f z: LCS a c e f.
  TokenDiff d = DiffTokens("a b c d e f", "a x c y e f z");
  EXPECT_EQ(d.kept, 4u);
  ASSERT_EQ(d.hunks.size(), 3u);
  EXPECT_EQ(d.hunks[2].orig_begin, 6u);
  EXPECT_EQ(d.hunks[2].corr_begin, 6u);
  EXPECT_EQ(d.hunks[2].corr_end, 7u);
}

TEST(CorrectionDiff, LargeInputsFinishAndKeepEverythingCommon) {
  std::string a, b;
  for (int i = 0; i < 3000; ++i) {
    a += "w" + std::to_string(i % 97) + " ";
    b += "w" + std::to_string((i * 7) % 97) + " ";
  }
  TokenDiff d = DiffTokens(a, a);
  EXPECT_EQ(d.kept, kMaxDiffTokens);
  EXPECT_TRUE(d.hunks.empty());
  TokenDiff e = DiffTokens(a, b);
  EXPECT_LE(e.kept, kMaxDiffTokens);
  EXPECT_FALSE(e.hunks.empty());
}

// ---- one case per type ------------------------------------------------------------------------

TEST(CorrectionClassifier, PassiveOpenerReplacedByActionVerbIsPassiveToActive) {
  CorrectionClass c = C("Responsible for leading 10-person engineering team",
                        "Led 10-person engineering team to deliver product launch");
  EXPECT_EQ(c.type, "passive_to_active");
  EXPECT_DOUBLE_EQ(c.confidence, 0.90);
  ASSERT_EQ(c.reasons.size(), 2u);
  EXPECT_EQ(c.reasons[0], "removed the passive opener 'responsible for'");
  EXPECT_EQ(c.reasons[1], "starts with the action verb 'Led'");
}

TEST(CorrectionClassifier, BePassiveRemovedIsPassiveToActive) {
  CorrectionClass c = C("The service was rewritten by me in Go", "I rewrote the service in Go");
  EXPECT_EQ(c.type, "passive_to_active");
  EXPECT_DOUBLE_EQ(c.confidence, 0.70);
}

TEST(CorrectionClassifier, TrimmingIsExcessiveDetail) {
  CorrectionClass c =
      C("Built the billing service, which was a large project that took many months and involved "
        "a lot of meetings with different teams across the company",
        "Built the billing service");
  EXPECT_EQ(c.type, "excessive_detail");
  EXPECT_GT(c.confidence, 0.8);
  EXPECT_NE(c.reasons[0].find("trimmed to"), std::string::npos);
}

TEST(CorrectionClassifier, AddedSpecificsIsMissingDetail) {
  CorrectionClass c = C("Improved the deploy pipeline",
                        "Improved the deploy pipeline by caching Docker layers and running "
                        "integration tests in parallel");
  EXPECT_EQ(c.type, "missing_detail");
  EXPECT_DOUBLE_EQ(c.confidence, 0.75);
}

TEST(CorrectionClassifier, NumbersAddedIsMetricVague) {
  CorrectionClass c = C("Reduced latency significantly", "Reduced p95 latency by 40%");
  EXPECT_EQ(c.type, "metric_vague");
  EXPECT_DOUBLE_EQ(c.confidence, 0.90);
}

TEST(CorrectionClassifier, WhitespaceMarkdownAndPunctuationOnlyIsFormatting) {
  CorrectionClass c = C("Led the team ,shipped v2", "**Led** the team; shipped v2.");
  EXPECT_EQ(c.type, "formatting");
  EXPECT_DOUBLE_EQ(c.confidence, 0.95);
}

TEST(CorrectionClassifier, FormalityWordsChangedIsToneMismatch) {
  CorrectionClass c = C("Hey guys, the release is gonna slip", "The release will slip by a week");
  EXPECT_EQ(c.type, "tone_mismatch");
}

TEST(CorrectionClassifier, JargonReplacedByPlainWordsIsJargonOveruse) {
  CorrectionClass c = C("We leverage synergies across teams", "We share tools across teams");
  EXPECT_EQ(c.type, "jargon_overuse");
  EXPECT_EQ(c.reasons[0], "replaced the jargon 'leverage'");
}

TEST(CorrectionClassifier, SameWordsIntoBulletsIsBulletStructure) {
  CorrectionClass c =
      C("Led hiring. Built CI. Cut costs.", "- Led hiring\n- Built CI\n- Cut costs");
  EXPECT_EQ(c.type, "bullet_structure");
}

TEST(CorrectionClassifier, SameLinesReorderedIsSectionOrder) {
  CorrectionClass c =
      C("## Skills\nC++\n## Experience\nAcme", "## Experience\nAcme\n## Skills\nC++");
  EXPECT_EQ(c.type, "section_order");
}

TEST(CorrectionClassifier, HeadingAddedIsMissingSection) {
  CorrectionClass c = C("Led the platform team at Acme",
                        "Led the platform team at Acme\n\n"
                        "## Skills\nC++, Go");
  EXPECT_EQ(c.type, "missing_section");
  EXPECT_EQ(c.reasons[0], "added the section heading 'skills'");
}

TEST(CorrectionClassifier, NumberReplacedIsFactualError) {
  CorrectionClass c = C("Founded in 2012", "Founded in 2014");
  EXPECT_EQ(c.type, "factual_error");
  EXPECT_EQ(c.reasons[0], "replaced the number '2012' with '2014'");
}

TEST(CorrectionClassifier, ProperNameReplacedIsFactualError) {
  CorrectionClass c = C("She worked at Google for years", "She worked at Microsoft for years");
  EXPECT_EQ(c.type, "factual_error");
}

TEST(CorrectionClassifier, RewordingWithoutSignalIsAWeakGuess) {
  CorrectionClass c = C("the cat sat", "a dog ran");
  EXPECT_EQ(c.type, "tone_mismatch");
  EXPECT_LT(c.confidence, 0.5);
}

TEST(CorrectionClassifier, EmptyAndHostileInputsDoNotCrash) {
  EXPECT_FALSE(C("", "x").type.empty());
  EXPECT_FALSE(C("x", "").type.empty());
  EXPECT_FALSE(C("\xff\xfe\x80", "\xc3").type.empty());
  std::string big(70000, 'a');
  EXPECT_FALSE(C(big, big + " b").type.empty());
}

// ---- shared detectors -------------------------------------------------------------------------

TEST(CorrectionDetectors, PassiveOpenerAfterABulletOnWordBoundaries) {
  EXPECT_EQ(PassiveOpener("  - Responsible for QA"), "responsible for");
  EXPECT_EQ(PassiveOpener("Was responsible for QA"), "was responsible for");
  EXPECT_EQ(PassiveOpener("Helpedness"), "");
  EXPECT_EQ(PassiveOpener("Led QA"), "");
  EXPECT_EQ(OpenerOffset("  - Responsible for QA"), 4u);
}

TEST(CorrectionDetectors, HeadingsAreNormalized) {
  EXPECT_EQ(HeadingOf("## Work Experience "), "work experience");
  EXPECT_EQ(HeadingOf("**Skills**"), "skills");
  EXPECT_EQ(HeadingOf("#hashtag"), "");
  EXPECT_EQ(HeadingOf("Skills"), "");
}

}  // namespace
}  // namespace kaizen::text
