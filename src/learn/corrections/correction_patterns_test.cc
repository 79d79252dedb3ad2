#include "learn/corrections/correction_patterns.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace kaizen::learn {
namespace {

constexpr int64_t kT0 = 1752141600000;  // 2025-07-10T10:00:00Z

model::CorrectionView Correction(std::string_view type, std::string_view original,
                                 std::string_view corrected, std::string_view user = "jordan",
                                 std::string_view project = "jSeeker", int64_t at = kT0) {
  model::CorrectionView c;
  c.at_ms = at;
  c.correction_type = type;
  c.original = original;
  c.corrected = corrected;
  c.user_id = user;
  c.project = project;
  return c;
}

void AddPassive(CorrectionPatternLearner* learner, int n, std::string_view project = "jSeeker") {
  static const std::vector<std::pair<std::string, std::string>> kPairs = {
      {"Responsible for leading engineering team", "Led 10-person engineering team"},
      {"Responsible for the billing migration", "Migrated billing to Stripe"},
      {"Responsible for hiring", "Hired 6 engineers"},
      {"Responsible for on-call rotation", "Led the on-call rotation"},
      {"Responsible for the design system", "Built the design system"},
  };
  for (int i = 0; i < n; ++i) {
    const auto& [o, c] = kPairs[static_cast<size_t>(i) % kPairs.size()];
    learner->Add(Correction("passive_to_active", o, c, "jordan", project, kT0 + i * 1000));
  }
}

model::AdminView Audit(std::string_view rule_id, std::string_view verdict,
                       std::string_view reviewer, std::string_view user = "") {
  model::AdminView a;
  a.action = "rule_audit";
  a.rule_id = rule_id;
  a.verdict = verdict;
  a.reviewer = reviewer;
  a.user_id = user;
  return a;
}

constexpr char kPassiveId[] = "passive_to_active-opener-responsible-for";

TEST(CorrectionChange, PassiveOpenerRemovedIsAnOpenerChangeWithItsVerb) {
  CorrectionChange ch =
      AnalyzeChange("passive_to_active", "Responsible for leading the team", "Led the team");
  EXPECT_EQ(ch.kind, CorrectionPatternKind::kOpener);
  EXPECT_EQ(ch.key, "responsible for");
  EXPECT_EQ(ch.verb, "Led");
}

TEST(CorrectionChange, JargonTrimmingMetricsAndHeadingsAreTheirKinds) {
  EXPECT_EQ(AnalyzeChange("jargon_overuse", "We leverage Go", "We use Go").kind,
            CorrectionPatternKind::kJargon);
  EXPECT_EQ(AnalyzeChange("x", "Reduced latency significantly", "Reduced latency by 40%").kind,
            CorrectionPatternKind::kMetric);
  EXPECT_EQ(AnalyzeChange("excessive_detail", "a b c d e f g h i j", "a b c").kind,
            CorrectionPatternKind::kLength);
  CorrectionChange s = AnalyzeChange("missing_section", "Led QA", "Led QA\n## Skills\nGo");
  EXPECT_EQ(s.kind, CorrectionPatternKind::kSection);
  EXPECT_EQ(s.key, "skills");
}

TEST(CorrectionChange, ReverseChangesAreReported) {
  CorrectionChange ch = AnalyzeChange("t", "Led QA", "Responsible for QA, leveraging tools");
  EXPECT_EQ(ch.openers_added, std::vector<std::string>{"responsible for"});
  EXPECT_TRUE(ch.jargon_added);
}

TEST(CorrectionPatterns, TwoSimilarCorrectionsFormNoPatternThreeDo) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 2);
  EXPECT_TRUE(learner.Patterns().empty());
  AddPassive(&learner, 1);
  std::vector<CorrectionPattern> p = learner.Patterns();
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].id, kPassiveId);
  EXPECT_EQ(p[0].occurrences, 3);
  EXPECT_EQ(learner.corrections(), 3);
}

TEST(CorrectionPatterns, ConfidenceIsConsistencyTimesCountFactor) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 20);
  std::vector<CorrectionPattern> p = learner.Patterns();
  ASSERT_EQ(p.size(), 1u);
  // seed 004's example: 20 consistent corrections -> 0.85.
  EXPECT_NEAR(p[0].confidence, 20.0 / 23.5, 1e-12);
  EXPECT_EQ(std::round(p[0].confidence * 100) / 100, 0.85);
  EXPECT_EQ(p[0].consistency, 1.0);
  EXPECT_EQ(p[0].verb, "Led");  // the most used action verb (2 of each 5 pairs)
}

TEST(CorrectionPatterns, ReverseCorrectionsLowerConsistency) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 6);
  learner.Add(Correction("tone_mismatch", "Led QA", "Responsible for QA"));
  learner.Add(Correction("tone_mismatch", "Ran hiring", "Responsible for hiring"));
  std::vector<CorrectionPattern> p = learner.Patterns();
  ASSERT_FALSE(p.empty());
  EXPECT_EQ(p[0].id, kPassiveId);
  EXPECT_EQ(p[0].against, 2);
  EXPECT_DOUBLE_EQ(p[0].consistency, 6.0 / 8.0);
  EXPECT_DOUBLE_EQ(p[0].confidence, 0.75 * 6.0 / 9.5);
}

TEST(CorrectionPatterns, ApplicableToAndUsersComeFromTheCorrections) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 2, "jSeeker");
  AddPassive(&learner, 1, "VIA");
  learner.Add(Correction("passive_to_active", "Responsible for QA", "Led QA", "sam", ""));
  CorrectionPattern p = learner.Patterns().at(0);
  EXPECT_EQ(p.applicable_to, (std::vector<std::string>{"VIA", "jSeeker"}));
  EXPECT_EQ(p.users, (std::vector<std::string>{"jordan", "sam"}));
  EXPECT_EQ(p.examples.size(), 3u);
}

TEST(CorrectionPatterns, FiveApprovalsPromoteAPattern) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 3);
  EXPECT_EQ(learner.Patterns()[0].status, CorrectionPatternStatus::kCandidate);
  for (std::string_view who : {"a", "b", "c", "d"}) learner.Add(Audit(kPassiveId, "confirm", who));
  learner.Add(Audit(kPassiveId, "confirm", "a"));  // the same person twice counts once
  EXPECT_EQ(learner.Patterns()[0].approved_by.size(), 4u);
  EXPECT_EQ(learner.Patterns()[0].status, CorrectionPatternStatus::kCandidate);
  learner.Add(Audit(kPassiveId, "confirm", "", "e"));  // user_id when no reviewerId
  CorrectionPattern p = learner.Patterns()[0];
  EXPECT_EQ(p.approved_by.size(), 5u);
  EXPECT_EQ(p.status, CorrectionPatternStatus::kPromoted);
  EXPECT_TRUE(p.Enforced(0.99));
}

TEST(CorrectionPatterns, ConsensusIsConfirmedOverConfirmedPlusRejected) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 5);
  for (std::string_view who : {"a", "b", "c", "d", "e"}) {
    learner.Add(Audit(kPassiveId, "confirm", who));
  }
  learner.Add(Audit(kPassiveId, "retire", "f"));
  CorrectionPattern p = learner.Patterns()[0];
  ASSERT_TRUE(p.consensus.has_value());
  // jordan, who made the corrections, confirms too: 6 and 1.
  EXPECT_EQ(p.users_confirmed, (std::vector<std::string>{"a", "b", "c", "d", "e", "jordan"}));
  EXPECT_EQ(p.users_rejected, std::vector<std::string>{"f"});
  EXPECT_DOUBLE_EQ(*p.consensus, 6.0 / 7.0);
  EXPECT_EQ(p.status, CorrectionPatternStatus::kPromoted);
}

// Five people rewrite a passive opener; a sixth writes one in: seed 004's own example.
TEST(CorrectionPatterns, ConsensusAggregatesEachPersonsCorrectionsOnce) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  int64_t at = kT0;
  for (std::string_view who : {"ana", "bo", "cy", "di", "ed"}) {
    learner.Add(Correction("passive_to_active", "Responsible for hiring", "Hired 6 engineers", who,
                           "jSeeker", at += 1000));
  }
  learner.Add(Correction("passive_to_active", "Responsible for hiring", "Hired 4 engineers", "ana",
                         "jSeeker", at += 1000));  // twice: one stance
  learner.Add(Correction("passive_to_active", "Led the billing migration",
                         "Responsible for the billing migration", "fay", "jSeeker", at += 1000));
  CorrectionPattern p = learner.Patterns()[0];
  EXPECT_EQ(p.id, kPassiveId);
  EXPECT_EQ(p.users_confirmed, (std::vector<std::string>{"ana", "bo", "cy", "di", "ed"}));
  EXPECT_EQ(p.users_rejected, std::vector<std::string>{"fay"});
  ASSERT_TRUE(p.consensus.has_value());
  EXPECT_EQ(std::round(*p.consensus * 100) / 100, 0.83);  // "consensus_score": 0.83
  // 6 of 7 corrections go this way, 6 / (6 + 3.5), then 5 of 6 people.
  EXPECT_NEAR(p.confidence, 6.0 / 7.0 * 6.0 / 9.5 * 5.0 / 6.0, 1e-12);
}

TEST(CorrectionPatterns, OnePersonsHabitThatTwoOthersUndoIsNotEnforced) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 5);  // jordan
  learner.Add(Correction("passive_to_active", "Led the on-call rotation",
                         "Responsible for on-call rotation", "sam", "jSeeker", kT0 + 10000));
  learner.Add(Correction("passive_to_active", "Built the design system",
                         "Responsible for the design system", "kim", "jSeeker", kT0 + 11000));
  CorrectionPattern p = learner.Patterns()[0];
  EXPECT_EQ(p.users_rejected, (std::vector<std::string>{"kim", "sam"}));
  EXPECT_DOUBLE_EQ(*p.consensus, 1.0 / 3.0);
  EXPECT_LT(p.confidence, CorrectionPatternConfig().enforce_min_confidence);
  EXPECT_FALSE(p.Enforced(CorrectionPatternConfig().enforce_min_confidence));
  // Their audits speak for them over their corrections: sam changes his mind.
  learner.Add(Audit(kPassiveId, "confirm", "sam"));
  p = learner.Patterns()[0];
  EXPECT_EQ(p.users_confirmed, (std::vector<std::string>{"jordan", "sam"}));
  EXPECT_EQ(p.users_rejected, std::vector<std::string>{"kim"});
}

TEST(CorrectionPatterns, MoreRejectionsThanApprovalsRejectAndStopEnforcement) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 20);
  learner.Add(Audit(kPassiveId, "confirm", "a"));
  learner.Add(Audit(kPassiveId, "retire", "b"));
  learner.Add(Audit(kPassiveId, "retire", "c"));
  learner.Add(Audit("some-other-rule", "confirm", "d"));
  CorrectionPattern p = learner.Patterns()[0];
  EXPECT_EQ(p.status, CorrectionPatternStatus::kRejected);
  EXPECT_FALSE(p.Enforced(0));
  // A person who changes their mind: the latest verdict counts.
  learner.Add(Audit(kPassiveId, "confirm", "b"));
  learner.Add(Audit(kPassiveId, "confirm", "c"));
  EXPECT_EQ(learner.Patterns()[0].status, CorrectionPatternStatus::kActive);
}

TEST(CorrectionPatterns, AutoTypedCorrectionsAreClassifiedWhenFolded) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  for (int i = 0; i < 3; ++i) {
    learner.Add(Correction("auto", "Responsible for QA", "Led QA"));
  }
  ASSERT_EQ(learner.Patterns().size(), 1u);
  EXPECT_EQ(learner.Patterns()[0].correction_type, "passive_to_active");
}

// ---- enforcement ------------------------------------------------------------------------------

TEST(CorrectionViolations, PassiveOpenerIsFlaggedAtItsLineAndColumn) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 5);
  std::vector<CorrectionPattern> p = learner.Patterns();
  std::vector<PatternViolation> v =
      FindViolations(p, "# Experience\n- Responsible for leading QA\n- Led hiring\n", 0.5);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].line, 2u);
  EXPECT_EQ(v[0].column, 3u);
  EXPECT_EQ(v[0].pattern_id, kPassiveId);
  EXPECT_EQ(v[0].what, "passive opener 'Responsible for'");
  EXPECT_TRUE(FindViolations(p, "- Led QA\n- Built CI\n", 0.5).empty());
  std::vector<PatternViolation> longer = FindViolations(p, "Was responsible for QA", 0.5);
  ASSERT_EQ(longer.size(), 1u);
  EXPECT_EQ(longer[0].what, "passive opener 'Was responsible for'");
}

TEST(CorrectionViolations, PatternsBelowTheThresholdAreNotEnforced) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  AddPassive(&learner, 3);  // 3 / 6.5 = 0.46
  std::vector<CorrectionPattern> p = learner.Patterns();
  EXPECT_TRUE(FindViolations(p, "Responsible for QA", 0.5).empty());
  EXPECT_EQ(FindViolations(p, "Responsible for QA", 0.4).size(), 1u);
}

TEST(CorrectionViolations, JargonLengthAndPhraseDetectors) {
  CorrectionPatternLearner learner{CorrectionPatternConfig()};
  for (int i = 0; i < 4; ++i) {
    learner.Add(Correction("jargon_overuse", "We leverage shared tools", "We use shared tools"));
    learner.Add(Correction("excessive_detail",
                           "Built the service which took many months of careful work by everyone",
                           "Built the service in Go"));
    learner.Add(
        Correction("tone_mismatch", "Hey team, the build is red", "Heads up: the build is red"));
  }
  std::vector<CorrectionPattern> p = learner.Patterns();
  ASSERT_EQ(p.size(), 3u);
  std::vector<PatternViolation> v = FindViolations(
      p, "We leverage it\nHey team, one two three four five six seven eight\nok", 0.5);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].pattern_id, "jargon_overuse-jargon");
  EXPECT_EQ(v[0].column, 4u);
  EXPECT_EQ(v[1].pattern_id, "excessive_detail-length");
  EXPECT_EQ(v[2].pattern_id, "tone_mismatch-phrase");
  EXPECT_EQ(v[2].what, "'hey team', removed by 4 corrections");
}

TEST(CorrectionPatterns, SameCorrectionsGiveTheSameJson) {
  auto json = [] {
    CorrectionPatternLearner learner{CorrectionPatternConfig()};
    AddPassive(&learner, 4);
    rapidjson::StringBuffer buffer;
    base::JsonWriter w(buffer);
    WriteJson(w, learner.Patterns().at(0));
    return std::string(buffer.GetString());
  };
  const std::string a = json();
  EXPECT_EQ(a, json());
  EXPECT_NE(a.find(R"("pattern_id":"passive_to_active-opener-responsible-for")"),
            std::string::npos);
  // jordan's corrections are his stance: one person, all for it.
  EXPECT_NE(a.find(R"("users_confirmed":["jordan"],"users_rejected":[],"consensus_score":1.0)"),
            std::string::npos)
      << a;
}

}  // namespace
}  // namespace kaizen::learn
