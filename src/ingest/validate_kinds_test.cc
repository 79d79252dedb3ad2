// Each kind of event: a valid one of every kind (and the facts it yields), and the rules of each
// kind beyond the schema walk.
#include <gtest/gtest.h>

#include <string>

#include "ingest/validate.h"
#include "ingest/validate_test_fixture.h"
#include "model/event_kind.h"

namespace kaizen::ingest {
namespace {

using namespace validate_test;  // NOLINT: the fixture and its events
using model::EventKind;

// ---- Valid events of every kind --------------------------------------------------------------

TEST_F(Validate, MinimalFeedbackIsValidAndFillsFacts) {
  EXPECT_EQ(Run(kFeedback), Strings{});
  EXPECT_EQ(facts_.kind, EventKind::kFeedback);
  ASSERT_TRUE(facts_.id.has_value());
  EXPECT_EQ(facts_.id->ToString(), kId);
  ASSERT_TRUE(facts_.timestamp.has_value());
  EXPECT_EQ(facts_.timestamp->unix_ms, 1752219000000);  // 07:30Z
  EXPECT_EQ(facts_.timestamp->offset_minutes, 120);
  EXPECT_EQ(facts_.session_id, "s1");
  EXPECT_EQ(facts_.modal_id, "m1");
  ASSERT_TRUE(facts_.mean_score.has_value());
  EXPECT_DOUBLE_EQ(*facts_.mean_score, 7.0);
  ASSERT_TRUE(facts_.prediction.has_value());
  EXPECT_DOUBLE_EQ(*facts_.prediction, 7.0);
  EXPECT_TRUE(facts_.has_work_product_inline);
  EXPECT_EQ(facts_.artifact_id, "wp-1");
  EXPECT_EQ(facts_.artifact_version, "abc123");
  EXPECT_TRUE(facts_.references.empty());
}

TEST_F(Validate, FeedbackWithoutIdTimestampOrScoresHasNoSuchFacts) {
  std::string json =
      std::string(R"({"kind":"feedback","sessionId":"s","modalId":"m","workProduct":)") +
      kWorkProduct + R"(,"pipelineStage":"build","meta":{"timeToDecisionMs":1}})";
  EXPECT_EQ(Run(json), Strings{});
  EXPECT_FALSE(facts_.id.has_value());
  EXPECT_FALSE(facts_.timestamp.has_value());
  EXPECT_FALSE(facts_.mean_score.has_value());
}

TEST_F(Validate, FullFeedbackWithEveryOptionalPartIsValid) {
  std::string json =
      std::string(R"({"kind":"feedback","sessionId":"s","modalId":"m","modalVersion":"2",)") +
      R"("workProduct":)" + kWorkProduct + R"(,"pipelineStage":"build","reviewerId":"jake",)" +
      R"("decision":{"decision":"rejected","reason":"r","severity":"major","blockers":["b"],)" +
      R"("suggestions":["s"]},"scores":[{"dimension":"security","score":2.5,"weight":1,)" +
      R"("comment":"c"}],"freeText":{"liked":"x","disliked":"y","generalNotes":"z"},)" +
      R"("comparison":{"optionA":)" + kWorkProduct + R"(,"optionB":)" + kWorkProduct +
      R"(,"preferred":"A","preferenceStrength":"strong",)" +
      R"("dimensions":[{"dimension":"dx","winner":"tie"}]},)" +
      R"("annotations":[{"type":"praise","target":{"file":"a.ts","lineStart":3,"lineEnd":3},)" +
      R"("text":"nice","severity":"nit","category":"naming"}],)" +
      R"("confidence":{"level":"very-sure","wouldDelegateToAI":false,"needsExpertReview":true},)" +
      R"("meta":{"timeToDecisionMs":5000,"timeToFirstInteractionMs":100,)" +
      R"("fieldsModified":["scores"],"scrollDepth":0.5,"revisits":1,"deviceType":"mobile",)" +
      R"("concurrentModals":2},"override":"strong"})";
  EXPECT_EQ(Run(json), Strings{});
  ASSERT_TRUE(facts_.mean_score.has_value());
  EXPECT_DOUBLE_EQ(*facts_.mean_score, 2.5);
}

TEST_F(Validate, MinimalWorkIsValidAndFillsArtifactAndPrediction) {
  std::string json = std::string(R"({"kind":"work","id":")") + kId +
                     R"(","timestamp":"2025-07-11T09:30:00Z","workProduct":)" + kWorkProduct + "}";
  EXPECT_EQ(Run(json), Strings{});
  EXPECT_EQ(facts_.kind, EventKind::kWork);
  ASSERT_TRUE(facts_.id.has_value());
  EXPECT_EQ(facts_.id->ToString(), kId);
  ASSERT_TRUE(facts_.timestamp.has_value());
  EXPECT_EQ(facts_.timestamp->unix_ms, 1752226200000);
  EXPECT_EQ(facts_.artifact_id, "wp-1");
  EXPECT_EQ(facts_.artifact_version, "abc123");
  ASSERT_TRUE(facts_.prediction.has_value());
  EXPECT_DOUBLE_EQ(*facts_.prediction, 7.0);
}

TEST_F(Validate, MinimalOutcomeIsValid) {
  EXPECT_EQ(Run(R"({"kind":"outcome","timestamp":"2025-07-11T09:30:00Z","bead_id":"b1",)"
                R"("duration_ms":1500,"error_count":0,"retry_count":1,"success":true})"),
            Strings{});
  EXPECT_EQ(facts_.kind, EventKind::kOutcome);
  ASSERT_TRUE(facts_.timestamp.has_value());
  EXPECT_EQ(facts_.timestamp->unix_ms, 1752226200000);
}

TEST_F(Validate, MinimalErrorIsValid) {
  EXPECT_EQ(Run(R"({"kind":"error","bead_id":"b1","error_type":"timeout","message":"slow"})"),
            Strings{});
  EXPECT_EQ(facts_.kind, EventKind::kError);
  EXPECT_FALSE(facts_.resolves.has_value());
}

TEST_F(Validate, ErrorThatResolvesNeedsNoTypeOrMessageAndRecordsResolves) {
  EXPECT_EQ(Run(std::string(R"({"kind":"error","bead_id":"b1","resolves":")") + kId + "\"}"),
            Strings{});
  ASSERT_TRUE(facts_.resolves.has_value());
  EXPECT_EQ(facts_.resolves->ToString(), kId);
  // Another UUID of the event is not its id, nor a nested timestamp its timestamp.
  EXPECT_FALSE(facts_.id.has_value());
  EXPECT_FALSE(facts_.timestamp.has_value());
}

TEST_F(Validate, MinimalRewardWithSignalValueIsValidWithoutNormalizing) {
  EXPECT_EQ(Run(R"({"kind":"reward","signal_type":"ci_result","signal_value":0.75,)"
                R"("source":"automatic"})"),
            Strings{});
  EXPECT_EQ(facts_.kind, EventKind::kReward);
  EXPECT_FALSE(facts_.normalized_signal.has_value());
}

TEST_F(Validate, RewardWithRawValueIsNormalized) {
  EXPECT_EQ(
      Run(R"({"kind":"reward","signal_type":"merge_outcome","raw_value":"closed","source":"agent"})"),
      Strings{});
  ASSERT_TRUE(facts_.normalized_signal.has_value());
  EXPECT_DOUBLE_EQ(*facts_.normalized_signal, 0.5);
}

TEST_F(Validate, RewardWithNullSignalValueIsNormalizedFromRawValue) {
  EXPECT_EQ(Run(R"({"kind":"reward","signal_type":"satisfaction","signal_value":null,)"
                R"("raw_value":4,"source":"human"})"),
            Strings{});
  ASSERT_TRUE(facts_.normalized_signal.has_value());
  EXPECT_DOUBLE_EQ(*facts_.normalized_signal, 0.75);
}

TEST_F(Validate, RewardTimeEfficiencyUsesBaselineSeconds) {
  EXPECT_EQ(Run(R"({"kind":"reward","signal_type":"time_efficiency","raw_value":120,)"
                R"("baseline_seconds":30,"source":"automatic"})"),
            Strings{});
  ASSERT_TRUE(facts_.normalized_signal.has_value());
  EXPECT_DOUBLE_EQ(*facts_.normalized_signal, 0.25);
}

TEST_F(Validate, MinimalCorrectionIsValid) {
  EXPECT_EQ(Run(R"({"kind":"correction","session_id":"s","correction_type":"tone_mismatch",)"
                R"("original":"Hey","corrected":"Dear Sir","context":{"a":{"b":[1,2]}}})"),
            Strings{});
  EXPECT_EQ(facts_.kind, EventKind::kCorrection);
}

TEST_F(Validate, MinimalLoopIsValid) {
  EXPECT_EQ(Run(R"({"kind":"loop","loop_id":"l1","iteration":2,"metrics":{"test_coverage":0.8}})"),
            Strings{});
  EXPECT_EQ(facts_.kind, EventKind::kLoop);
}

TEST_F(Validate, LoopMetricsTakeSeed003QualityEvaluatorNamesButNotBothNames) {
  EXPECT_EQ(Run(R"({"kind":"loop","loop_id":"l1","iteration":1,"metrics":)"
                R"({"code_quality":0.88,"documentation":0.95,"type_safety":1}})"),
            Strings{});
  EXPECT_EQ(Run(R"({"kind":"loop","loop_id":"l1","iteration":1,"metrics":)"
                R"({"code_quality":0.88,"code_quality_score":0.9}})"),
            Strings{"metrics.code_quality: names the same as metrics.code_quality_score, given "
                    "too (give one of them)"});
}

TEST_F(Validate, MinimalAdminOfEachActionIsValid) {
  EXPECT_EQ(Run(R"({"kind":"admin","action":"rule_audit","rule_id":"r1","verdict":"retire"})"),
            Strings{});
  EXPECT_EQ(facts_.kind, EventKind::kAdmin);
  EXPECT_EQ(Run(R"({"kind":"admin","action":"consent","user_id":"u","learning_mode":false})"),
            Strings{});
  EXPECT_EQ(Run(R"({"kind":"admin","action":"deletion_request","session_id":"s"})"), Strings{});
  EXPECT_EQ(Run(R"({"kind":"admin","action":"deletion_request","user_id":"u"})"), Strings{});
}

// ---- Kind-specific rules ---------------------------------------------------------------------

TEST_F(Validate, DimensionScoredTwiceIsRefused) {
  EXPECT_EQ(Run(With(kFeedback, R"("dimension":"dx")", R"("dimension":"naming")")),
            One(R"(scores[2].dimension: "naming" is scored twice in one review)"));
}

TEST_F(Validate, AnnotationEndingBeforeItStartsIsRefused) {
  std::string json =
      With(kFeedback, R"("meta":)",
           R"("annotations":[{"type":"question","target":{"lineStart":3,"lineEnd":4},"text":"a"},)"
           R"({"type":"criticism","target":{"file":"f","lineStart":10,"lineEnd":5},"text":"b"}],)"
           R"("meta":)");
  EXPECT_EQ(Run(json), One("annotations[1].target.lineEnd: 5 is before lineStart 10"));
}

// lineStart/lineEnd are integers, and 5.0 is accepted as one; the ordering rule must hold for it
// too.
TEST_F(Validate, AnnotationEndingBeforeItStartsIsRefusedWhenWrittenAsDecimals) {
  std::string json =
      With(kFeedback, R"("meta":)",
           R"("annotations":[{"type":"criticism","target":{"lineStart":10.0,"lineEnd":5.0},)"
           R"("text":"b"}],"meta":)");
  EXPECT_EQ(Run(json), One("annotations[0].target.lineEnd: 5 is before lineStart 10"));
}

TEST_F(Validate, ErrorWithoutResolvesRequiresTypeAndMessage) {
  EXPECT_EQ(Run(R"({"kind":"error","bead_id":"b"})"),
            (Strings{"error_type: missing (required unless the event resolves an earlier error)",
                     "message: missing (required unless the event resolves an earlier error)"}));
  EXPECT_EQ(Run(R"({"kind":"error","bead_id":"b","error_type":"conflict"})"),
            One("message: missing (required unless the event resolves an earlier error)"));
}

// null for an optional field means "not given" (the validator's own rule), so a null error_type
// and message must not satisfy the rule above.
TEST_F(Validate, ErrorWithNullTypeAndMessageStillRequiresThem) {
  EXPECT_EQ(Run(R"({"kind":"error","bead_id":"b","error_type":null,"message":null})"),
            (Strings{"error_type: missing (required unless the event resolves an earlier error)",
                     "message: missing (required unless the event resolves an earlier error)"}));
}

TEST_F(Validate, RuleAuditWithoutVerdictIsRefused) {
  EXPECT_EQ(Run(R"({"kind":"admin","action":"rule_audit","rule_id":"r1"})"),
            One("verdict: missing (required for action rule_audit)"));
  EXPECT_EQ(Run(R"({"kind":"admin","action":"rule_audit"})"),
            (Strings{"rule_id: missing (required for action rule_audit)",
                     "verdict: missing (required for action rule_audit)"}));
}

// As for error events: a field given as null is not given.
TEST_F(Validate, AdminFieldsGivenAsNullAreMissing) {
  EXPECT_EQ(Run(R"({"kind":"admin","action":"rule_audit","rule_id":"r1","verdict":null})"),
            One("verdict: missing (required for action rule_audit)"));
  EXPECT_EQ(Run(R"({"kind":"admin","action":"consent","user_id":"u","learning_mode":null})"),
            One("learning_mode: missing (required for action consent)"));
  EXPECT_EQ(Run(R"({"kind":"admin","action":"deletion_request","user_id":null,"session_id":null})"),
            One("user_id: missing (deletion_request needs user_id or session_id)"));
}

TEST_F(Validate, ConsentWithoutLearningModeIsRefused) {
  EXPECT_EQ(Run(R"({"kind":"admin","action":"consent","user_id":"u"})"),
            One("learning_mode: missing (required for action consent)"));
}

TEST_F(Validate, DeletionRequestWithoutUserOrSessionIsRefused) {
  EXPECT_EQ(Run(R"({"kind":"admin","action":"deletion_request","note":"please"})"),
            One("user_id: missing (deletion_request needs user_id or session_id)"));
}

TEST_F(Validate, AdminActionOutsideTheEnumIsRefused) {
  EXPECT_EQ(
      Run(R"({"kind":"admin","action":"purge"})"),
      One(R"(action: "purge" is not one of rule_audit, consent, deletion_request, dismiss, submit, reserve, release, skip, ask, answer)"));
}

TEST_F(Validate, CorrectionThatChangesNothingIsRefused) {
  EXPECT_EQ(Run(R"({"kind":"correction","session_id":"s","correction_type":"t",)"
                R"("original":"same","corrected":"same"})"),
            One("corrected: is identical to original (a correction must change something)"));
}

TEST_F(Validate, CorrectionFromEmptyToEmptyChangesNothingAndIsRefused) {
  EXPECT_EQ(Run(R"({"kind":"correction","session_id":"s","correction_type":"t",)"
                R"("original":"","corrected":""})"),
            One("corrected: is identical to original (a correction must change something)"));
}

TEST_F(Validate, RewardWithoutSignalValueOrRawValueIsRefused) {
  EXPECT_EQ(Run(R"({"kind":"reward","signal_type":"ci_result","source":"automatic"})"),
            One("signal_value: missing (give signal_value in 0..1, or raw_value with a known "
                "signal_type)"));
  EXPECT_EQ(Run(R"({"kind":"reward","signal_type":"ci_result","raw_value":null,)"
                R"("source":"automatic"})"),
            One("signal_value: missing (give signal_value in 0..1, or raw_value with a known "
                "signal_type)"));
}

TEST_F(Validate, RewardWithUnknownSignalTypeNeedsSignalValue) {
  EXPECT_EQ(Run(R"({"kind":"reward","signal_type":"vibes","raw_value":3,"source":"human"})"),
            One(R"(signal_type: "vibes" has no normalization rule, so signal_value in 0..1 is )"
                R"(required)"));
}

TEST_F(Validate, RewardRawValueBadForItsTypeIsRefused) {
  EXPECT_EQ(
      Run(R"({"kind":"reward","signal_type":"ci_result","raw_value":"maybe","source":"human"})"),
      One(R"(raw_value: "maybe" must be pass or fail for signal_type ci_result)"));
  EXPECT_EQ(Run(R"({"kind":"reward","signal_type":"satisfaction","raw_value":6,"source":"human"})"),
            One("raw_value: 6 must be an integer rating 1..5 for signal_type satisfaction"));
  EXPECT_FALSE(facts_.normalized_signal.has_value());
}

TEST_F(Validate, RewardSignalValueOutsideZeroToOneIsRefused) {
  EXPECT_EQ(Run(R"({"kind":"reward","signal_type":"x","signal_value":1.5,"source":"human"})"),
            One("signal_value: 1.5 is out of range 0..1"));
}

TEST_F(Validate, LoopWithEmptyMetricsIsRefused) {
  EXPECT_EQ(Run(R"({"kind":"loop","loop_id":"l","iteration":1,"metrics":{}})"),
            One("metrics: is empty (at least one field is required)"));
}

TEST_F(Validate, KindRulesWaitForTheShapeToBeValid) {
  // The shape error is reported; the identical-correction rule is not judged on a broken event.
  EXPECT_EQ(Run(R"({"kind":"correction","session_id":"","correction_type":"t",)"
                R"("original":"same","corrected":"same"})"),
            One(R"(session_id: "" must be a non-empty string)"));
}

}  // namespace
}  // namespace kaizen::ingest
