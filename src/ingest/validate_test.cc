#include "ingest/validate.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

#include "model/event_kind.h"
#include "model/limits.h"

namespace kaizen::ingest {
namespace {

using model::EventKind;

constexpr int64_t kNowMs = 1752969600000;  // 2025-07-20T00:00:00Z
constexpr char kId[] = "0197f6a2-3b4c-7d5e-8f60-718293a4b5c6";
constexpr char kKinds[] = "feedback, work, outcome, error, reward, correction, loop, admin, prompt";

// A complete seed-000 WorkProductRef.
const std::string kWorkProduct =
    R"({"type":"mcp-server","id":"wp-1","version":"abc123","summary":"a shopify server",)"
    R"("bubaConfidence":0.8,"bubaScorePrediction":7,)"
    R"("generationContext":{"promptHash":"h1","memorySnapshot":["a.md"],"modelUsed":"opus",)"
    R"("generationTimeMs":1200,"iterationCount":2}})";

// A valid feedback event. Tests derive broken ones with With().
const std::string kFeedback =
    std::string(R"({"kind":"feedback","id":"0197f6a2-3b4c-7d5e-8f60-718293a4b5c6",)") +
    R"("timestamp":"2025-07-11T09:30:00+02:00","sessionId":"s1","modalId":"m1",)" +
    R"("workProduct":)" + kWorkProduct + R"(,"pipelineStage":"build","mcpServerType":"shopify",)" +
    R"("decision":{"decision":"approved","reason":"solid"},)" +
    R"("scores":[{"dimension":"code-quality","score":8},{"dimension":"naming","score":6},)" +
    R"({"dimension":"dx","score":7}],)" + R"("meta":{"timeToDecisionMs":5000,"revisits":0}})";

// `json` with the single occurrence of `from` replaced by `to`.
std::string With(const std::string& json, std::string_view from, std::string_view to) {
  size_t at = json.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture lacks " << from;
  EXPECT_EQ(json.find(from, at + 1), std::string::npos) << "fixture has several " << from;
  if (at == std::string::npos) return json;
  std::string out = json;
  out.replace(at, from.size(), to);
  return out;
}

class Validate : public ::testing::Test {
 protected:
  static ValidateOptions Options() {
    ValidateOptions o;
    o.now_ms = kNowMs;
    return o;
  }

  // The errors, as `path: message` strings.
  std::vector<std::string> Run(std::string_view json, ValidateOptions options = Options()) {
    simdjson::dom::element e;
    auto err = parser_.parse(json.data(), json.size()).get(e);
    EXPECT_EQ(err, simdjson::SUCCESS) << "test JSON does not parse: " << json;
    facts_ = EventFacts{};
    errors_ = ValidateEvent(e, options, &facts_);
    std::vector<std::string> out;
    for (const FieldError& f : errors_) out.push_back(f.ToString());
    return out;
  }

  std::vector<std::string> One(std::string s) { return {std::move(s)}; }

  simdjson::dom::parser parser_;
  EventFacts facts_;
  std::vector<FieldError> errors_;
};

using Strings = std::vector<std::string>;

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

// ---- Field rules: exact messages -------------------------------------------------------------

TEST_F(Validate, ScoreAboveTenIsOutOfRangeWithPath) {
  EXPECT_EQ(Run(With(kFeedback, R"("dx","score":7)", R"("dx","score":11)")),
            One("scores[2].score: 11 is out of range 1..10"));
}

TEST_F(Validate, ScoreBelowOneIsOutOfRange) {
  EXPECT_EQ(Run(With(kFeedback, R"("code-quality","score":8)", R"("code-quality","score":0.5)")),
            One("scores[0].score: 0.5 is out of range 1..10"));
}

TEST_F(Validate, NegativeCountIsBelowTheMinimum) {
  EXPECT_EQ(Run(R"({"kind":"outcome","bead_id":"b","duration_ms":1,"error_count":-1,)"
                R"("retry_count":0,"success":true})"),
            One("error_count: -1 is below the minimum 0"));
}

TEST_F(Validate, AbsurdlyLargeCountIsAboveTheMaximum) {
  EXPECT_EQ(Run(R"({"kind":"outcome","bead_id":"b","duration_ms":1,"error_count":2000000000,)"
                R"("retry_count":0,"success":true})"),
            One("error_count: 2000000000 is above the maximum 1000000000"));
}

TEST_F(Validate, LongValueIsShortenedInTheMessage) {
  std::string value(70, 'a');
  EXPECT_EQ(Run(With(kFeedback, R"("decision":"approved")", "\"decision\":\"" + value + "\"")),
            One("decision.decision: \"" + std::string(60, 'a') +
                "...\" is not one of approved, rejected, needs-work, deferred"));
}

TEST_F(Validate, MissingRequiredNestedNumberNamesItsPathAndType) {
  EXPECT_EQ(Run(With(kFeedback, R"("generationTimeMs":1200,)", "")),
            One("workProduct.generationContext.generationTimeMs: missing (required number)"));
}

TEST_F(Validate, MissingRequiredTopLevelFieldsAreEachReported) {
  EXPECT_EQ(
      Run(R"({"kind":"outcome","bead_id":"b","duration_ms":1,"error_count":0})"),
      (Strings{"retry_count: missing (required integer)", "success: missing (required boolean)"}));
}

TEST_F(Validate, MissingRequiredObjectAndIdentifier) {
  EXPECT_EQ(Run(R"({"kind":"feedback","sessionId":"s","pipelineStage":"p"})"),
            (Strings{"modalId: missing (required non-empty string)",
                     "workProduct: missing (required object)", "meta: missing (required object)"}));
}

TEST_F(Validate, WrongTypeForIdentifier) {
  EXPECT_EQ(Run(With(kFeedback, R"("sessionId":"s1")", R"("sessionId":5)")),
            One("sessionId: 5 is not a non-empty string"));
}

TEST_F(Validate, WrongTypeForNumber) {
  EXPECT_EQ(Run(With(kFeedback, R"("timeToDecisionMs":5000)", R"("timeToDecisionMs":"fast")")),
            One(R"(meta.timeToDecisionMs: "fast" is not a number)"));
}

TEST_F(Validate, WrongTypeForBoolean) {
  EXPECT_EQ(Run(R"({"kind":"outcome","bead_id":"b","duration_ms":1,"error_count":0,)"
                R"("retry_count":0,"success":"yes"})"),
            One(R"(success: "yes" is not a boolean)"));
}

TEST_F(Validate, WrongTypeForObjectAndArray) {
  EXPECT_EQ(Run(With(kFeedback, R"("decision":{"decision":"approved","reason":"solid"})",
                     R"("decision":"approved")")),
            One(R"(decision: "approved" is not an object)"));
  EXPECT_EQ(Run(R"({"kind":"outcome","bead_id":"b","duration_ms":1,"error_count":0,)"
                R"("retry_count":0,"success":true,"files_touched":{"a":1}})"),
            One("files_touched: an object is not an array"));
}

TEST_F(Validate, WrongTypeForArrayElement) {
  EXPECT_EQ(Run(R"({"kind":"outcome","bead_id":"b","duration_ms":1,"error_count":0,)"
                R"("retry_count":0,"success":true,"files_touched":["a",7,null]})"),
            (Strings{"files_touched[1]: 7 is not a string",
                     "files_touched[2]: is null (required string)"}));
}

TEST_F(Validate, EnumViolationListsTheAllowedValues) {
  EXPECT_EQ(Run(With(kFeedback, R"("decision":"approved")", R"("decision":"maybe")")),
            One(R"(decision.decision: "maybe" is not one of approved, rejected, needs-work, )"
                R"(deferred)"));
}

TEST_F(Validate, ScoreDimensionOutsideTheThirteenIsRefused) {
  std::string json = With(kFeedback, R"("dimension":"naming")", R"("dimension":"vibes")");
  Strings errors = Run(json);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0],
            R"(scores[1].dimension: "vibes" is not one of code-quality, design-aesthetics, )"
            R"(design-ux, test-coverage, documentation, architecture, error-handling, )"
            R"(performance, security, creativity, completeness, naming, dx)");
}

TEST_F(Validate, UnknownTopLevelFieldIsNotPartOfTheKind) {
  EXPECT_EQ(Run(With(kFeedback, R"("modalId":"m1",)", R"("modalId":"m1","extra":1,)")),
            One("extra: unknown field (not part of feedback)"));
}

TEST_F(Validate, UnknownNestedFieldNamesTheNestedShape) {
  EXPECT_EQ(Run(With(kFeedback, R"("revisits":0)", R"("revisits":0,"mood":"ok")")),
            One("meta.mood: unknown field (not part of FeedbackMeta)"));
}

TEST_F(Validate, DuplicateKeyIsReportedOnce) {
  EXPECT_EQ(Run(With(kFeedback, R"("sessionId":"s1",)", R"("sessionId":"s1","sessionId":"s2",)")),
            One("sessionId: duplicate key (each field may appear once)"));
  EXPECT_EQ(Run(With(kFeedback, R"("sessionId":"s1",)",
                     R"("sessionId":"s1","sessionId":"s2","sessionId":"s3",)")),
            One("sessionId: duplicate key (each field may appear once)"));
}

TEST_F(Validate, DuplicateKeyInNestedObjectHasNestedPath) {
  EXPECT_EQ(Run(With(kFeedback, R"("revisits":0)", R"("revisits":0,"revisits":1)")),
            One("meta.revisits: duplicate key (each field may appear once)"));
}

TEST_F(Validate, DuplicateKeyInOpenContextIsRefused) {
  EXPECT_EQ(Run(R"({"kind":"correction","session_id":"s","correction_type":"t","original":"a",)"
                R"("corrected":"b","context":{"k":1,"k":2}})"),
            One("context.k: duplicate key (each field may appear once)"));
}

TEST_F(Validate, DuplicateKeyIsFoundAmongManyKeys) {
  std::string context;
  for (int k = 0; k < 60; ++k)
    context += "\"k" + std::to_string(k) + "\":" + std::to_string(k) + ",";
  context += R"("k5":0)";
  EXPECT_EQ(Run(R"({"kind":"correction","session_id":"s","correction_type":"t","original":"a",)"
                R"("corrected":"b","context":{)" +
                context + "}}"),
            One("context.k5: duplicate key (each field may appear once)"));
}

TEST_F(Validate, UnknownFieldInsideAnArrayElementHasIndexedPath) {
  EXPECT_EQ(Run(With(kFeedback, R"("dx","score":7)", R"("dx","score":7,"note":"n")")),
            One("scores[2].note: unknown field (not part of DimensionScore)"));
}

TEST_F(Validate, ArrayOverTheItemCapIsRefused) {
  std::string items;
  for (size_t k = 0; k <= model::kMaxArrayItems; ++k) items += k ? ",\"a\"" : "\"a\"";
  EXPECT_EQ(Run(R"({"kind":"outcome","bead_id":"b","duration_ms":1,"error_count":0,)"
                R"("retry_count":0,"success":true,"files_touched":[)" +
                items + "]}"),
            One("files_touched: an array of 10001 elements is longer than the limit of 10000"));
}

TEST_F(Validate, LongValueIsNotCutInsideAUtf8Character) {
  // 59 ASCII bytes, then a two-byte character straddling the 60-byte display limit.
  std::string value = std::string(59, 'a') + "\xC3\xA9" + std::string(10, 'b');
  Strings errors =
      Run(With(kFeedback, R"("decision":"approved")", "\"decision\":\"" + value + "\""));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "decision.decision: \"" + std::string(59, 'a') +
                           "...\" is not one of approved, rejected, needs-work, deferred");
}

// The rule holds for every object: which duplicate wins is undefined across readers, and a
// free-form object nested inside `context` (or a reward's raw_value) is stored just the same.
TEST_F(Validate, DuplicateKeyDeepInsideFreeFormValueIsRefused) {
  Strings context = Run(R"({"kind":"correction","session_id":"s","correction_type":"t",)"
                        R"("original":"a","corrected":"b","context":{"inner":{"k":1,"k":2}}})");
  EXPECT_EQ(context, One("context.inner.k: duplicate key (each field may appear once)"));
  Strings raw = Run(R"({"kind":"reward","signal_type":"x","signal_value":0.5,)"
                    R"("raw_value":{"k":1,"k":2},"source":"human"})");
  EXPECT_EQ(raw, One("raw_value.k: duplicate key (each field may appear once)"));
  Strings nested = Run(R"({"kind":"reward","signal_type":"x","signal_value":0.5,)"
                       R"("raw_value":[{"a":{"k":1,"k":2}}],"source":"human"})");
  EXPECT_EQ(nested.size(), 1u) << "a duplicate key inside an array in raw_value was accepted";
}

TEST_F(Validate, IntegerFieldRefusesAFraction) {
  EXPECT_EQ(Run(R"({"kind":"loop","loop_id":"l","iteration":1.5,"metrics":{"complexity":3}})"),
            One("iteration: 1.5 is not an integer"));
}

TEST_F(Validate, IntegerFieldAcceptsAWholeDecimal) {
  EXPECT_EQ(Run(R"({"kind":"loop","loop_id":"l","iteration":2.0,"metrics":{"complexity":3}})"),
            Strings{});
}

TEST_F(Validate, StringOverTheSixtyFourKibCapIsRefusedNamingTheCap) {
  std::string long_reason(model::kMaxStringBytes + 1, 'x');
  EXPECT_EQ(Run(With(kFeedback, R"("reason":"solid")", "\"reason\":\"" + long_reason + "\"")),
            One("decision.reason: a string of 65537 bytes is longer than the limit of 65536 "
                "bytes"));
}

TEST_F(Validate, StringExactlyAtTheCapIsAccepted) {
  std::string reason(model::kMaxStringBytes, 'x');
  EXPECT_EQ(Run(With(kFeedback, R"("reason":"solid")", "\"reason\":\"" + reason + "\"")),
            Strings{});
}

TEST_F(Validate, StringOverTheCapInsideFreeFormContextIsRefused) {
  std::string big(model::kMaxStringBytes + 1, 'y');
  EXPECT_EQ(Run(R"({"kind":"correction","session_id":"s","correction_type":"t","original":"a",)"
                R"("corrected":"b","context":{"note":")" +
                big + R"("}})"),
            One("context.note: a string of 65537 bytes is longer than the limit of 65536 bytes"));
}

TEST_F(Validate, EmptyIdentifierIsRefused) {
  EXPECT_EQ(Run(With(kFeedback, R"("modalId":"m1")", R"("modalId":"")")),
            One(R"(modalId: "" must be a non-empty string)"));
}

TEST_F(Validate, IdentifierOverTheCapIsRefused) {
  std::string id(model::kMaxIdentifierBytes + 1, 'm');
  EXPECT_EQ(Run(With(kFeedback, R"("modalId":"m1")", "\"modalId\":\"" + id + "\"")),
            One("modalId: a string of 257 bytes is longer than the limit of 256 bytes"));
}

TEST_F(Validate, IdentifierWithControlCharacterIsRefused) {
  EXPECT_EQ(Run(With(kFeedback, R"("modalId":"m1")", R"("modalId":"m\n1")")),
            One(R"(modalId: "m 1" contains a control character)"));
}

TEST_F(Validate, MalformedUuidIsRefused) {
  EXPECT_EQ(Run(With(kFeedback, kId, "0197f6a2-3b4c-7d5e-8f60-718293a4b5cZ")),
            One(R"(id: "0197f6a2-3b4c-7d5e-8f60-718293a4b5cZ" is not a UUID (8-4-4-4-12 hex )"
                R"(digits))"));
  EXPECT_FALSE(facts_.id.has_value());
  EXPECT_EQ(Run(With(kFeedback, kId, "not-a-uuid")),
            One(R"(id: "not-a-uuid" is not a UUID (8-4-4-4-12 hex digits))"));
}

TEST_F(Validate, TimestampWithoutZoneIsRefusedStatingTheRule) {
  EXPECT_EQ(Run(With(kFeedback, "2025-07-11T09:30:00+02:00", "2025-07-11T09:30:00")),
            One(R"(timestamp: "2025-07-11T09:30:00" must be ISO 8601 with a zone, e.g. )"
                R"(2025-07-11T09:30:00Z)"));
}

TEST_F(Validate, TimestampMoreThanADayInTheFutureIsRefused) {
  EXPECT_EQ(Run(With(kFeedback, "2025-07-11T09:30:00+02:00", "2099-01-01T00:00:00Z")),
            One(R"(timestamp: "2099-01-01T00:00:00Z" is more than 24 hours in the future )"
                R"((now is 2025-07-20T00:00:00.000Z))"));
  EXPECT_EQ(Run(With(kFeedback, "2025-07-11T09:30:00+02:00", "2025-07-21T00:00:01Z")).size(), 1u);
}

TEST_F(Validate, TimestampWithinTheSkewToleranceIsAccepted) {
  EXPECT_EQ(Run(With(kFeedback, "2025-07-11T09:30:00+02:00", "2025-07-20T23:59:59Z")), Strings{});
  EXPECT_EQ(Run(With(kFeedback, "2025-07-11T09:30:00+02:00", "2025-07-21T00:00:00Z")), Strings{});
}

TEST_F(Validate, TimestampBefore2000IsRefused) {
  EXPECT_EQ(Run(With(kFeedback, "2025-07-11T09:30:00+02:00", "1990-01-01T00:00:00Z")),
            One(R"(timestamp: "1990-01-01T00:00:00Z" is before 2000-01-01, not a sane time for )"
                R"(an event)"));
  EXPECT_EQ(Run(With(kFeedback, "2025-07-11T09:30:00+02:00", "2000-01-01T00:00:00Z")), Strings{});
}

TEST_F(Validate, TimestampThatIsNotARealDateIsRefused) {
  EXPECT_EQ(Run(With(kFeedback, "2025-07-11T09:30:00+02:00", "2025-02-30T09:30:00Z")),
            One(R"(timestamp: "2025-02-30T09:30:00Z" is not a real calendar date and time)"));
}

// ---- The event as a whole --------------------------------------------------------------------

TEST_F(Validate, ArrayIsNotAnEvent) {
  EXPECT_EQ(Run("[1,2]"), One("(event): an array is not a JSON object (each event is one object)"));
  EXPECT_EQ(errors_[0].path, "(event)");
}

TEST_F(Validate, NumberIsNotAnEvent) {
  EXPECT_EQ(Run("42"), One("(event): 42 is not a JSON object (each event is one object)"));
}

TEST_F(Validate, KindMissingIsTheOnlyError) {
  EXPECT_EQ(Run(R"({"sessionId":"s","bogus":1})"),
            One(std::string("kind: missing (required: one of ") + kKinds + ")"));
}

TEST_F(Validate, KindUnknownIsRefusedListingKinds) {
  EXPECT_EQ(Run(R"({"kind":"review","sessionId":"s"})"),
            One(std::string(R"(kind: "review" is not one of )") + kKinds));
}

TEST_F(Validate, KindNotAStringIsRefused) {
  EXPECT_EQ(Run(R"({"kind":3})"),
            One(std::string("kind: 3 is not a string (one of ") + kKinds + ")"));
  EXPECT_EQ(Run(R"({"kind":null})"),
            One(std::string("kind: null is not a string (one of ") + kKinds + ")"));
}

TEST_F(Validate, KindThatDiffersFromTheExpectedKindIsRefused) {
  ValidateOptions o = Options();
  o.expected_kind = EventKind::kFeedback;
  EXPECT_EQ(Run(R"({"kind":"work"})", o),
            One(R"(kind: "work" does not match the kind being recorded (feedback))"));
}

TEST_F(Validate, KindOmittedIsTakenFromTheExpectedKind) {
  ValidateOptions o = Options();
  o.expected_kind = EventKind::kOutcome;
  EXPECT_EQ(Run(R"({"bead_id":"b","duration_ms":1,"error_count":0,"retry_count":0,)"
                R"("success":false})",
                o),
            Strings{});
  EXPECT_EQ(facts_.kind, EventKind::kOutcome);
}

TEST_F(Validate, KindGivenAndMatchingTheExpectedKindIsAccepted) {
  ValidateOptions o = Options();
  o.expected_kind = EventKind::kFeedback;
  EXPECT_EQ(Run(kFeedback, o), Strings{});
}

TEST_F(Validate, EveryErrorIsReportedNotJustTheFirst) {
  std::string json = With(kFeedback, R"("sessionId":"s1")", R"("sessionId":5)");
  json = With(json, R"("dx","score":7)", R"("dx","score":11)");
  EXPECT_EQ(Run(json), (Strings{"sessionId: 5 is not a non-empty string",
                                "scores[2].score: 11 is out of range 1..10"}));
}

TEST_F(Validate, MissingAndMistypedFieldsAreAllReported) {
  EXPECT_EQ(Run(R"({"kind":"outcome","bead_id":"","duration_ms":"x","error_count":0.5,)"
                R"("success":1,"what":true})"),
            (Strings{"retry_count: missing (required integer)",
                     R"(bead_id: "" must be a non-empty string)",
                     R"(duration_ms: "x" is not a number)", "error_count: 0.5 is not an integer",
                     "success: 1 is not a boolean", "what: unknown field (not part of outcome)"}));
}

// ---- Work product references -----------------------------------------------------------------

TEST_F(Validate, FeedbackMayNameRecordedWorkByReference) {
  EXPECT_EQ(Run(With(kFeedback, kWorkProduct, R"({"id":"x"})")), Strings{});
  ASSERT_EQ(facts_.references.size(), 1u);
  EXPECT_EQ(facts_.references[0].path, "workProduct");
  EXPECT_EQ(facts_.references[0].id, "x");
  EXPECT_EQ(facts_.references[0].version, "");
  EXPECT_FALSE(facts_.has_work_product_inline);
  EXPECT_FALSE(facts_.prediction.has_value());
}

TEST_F(Validate, ReferenceMayPinAVersion) {
  EXPECT_EQ(Run(With(kFeedback, kWorkProduct, R"({"id":"x","version":"v2"})")), Strings{});
  ASSERT_EQ(facts_.references.size(), 1u);
  EXPECT_EQ(facts_.references[0].id, "x");
  EXPECT_EQ(facts_.references[0].version, "v2");
}

TEST_F(Validate, ComparisonOptionsMayBeReferences) {
  std::string json =
      With(kFeedback, R"("meta":)",
           R"("comparison":{"optionA":{"id":"a"},"optionB":{"id":"b","version":"3"},)"
           R"("preferred":"B","preferenceStrength":"slight"},"meta":)");
  EXPECT_EQ(Run(json), Strings{});
  ASSERT_EQ(facts_.references.size(), 2u);
  EXPECT_EQ(facts_.references[0].path, "comparison.optionA");
  EXPECT_EQ(facts_.references[0].id, "a");
  EXPECT_EQ(facts_.references[1].path, "comparison.optionB");
  EXPECT_EQ(facts_.references[1].version, "3");
}

TEST_F(Validate, PartialWorkProductThatIsNotAReferenceIsMissingFields) {
  EXPECT_EQ(Run(With(kFeedback, kWorkProduct, R"({"id":"x","summary":"s"})")),
            (Strings{"workProduct.type: missing (required non-empty string)",
                     "workProduct.version: missing (required non-empty string)",
                     "workProduct.bubaConfidence: missing (required number)",
                     "workProduct.generationContext: missing (required object)"}));
  EXPECT_TRUE(facts_.references.empty());
}

TEST_F(Validate, WorkEventRefusesAReference) {
  EXPECT_EQ(Run(R"({"kind":"work","workProduct":{"id":"x"}})"),
            One("workProduct: a work event must carry the full WorkProductRef, not a reference"));
  EXPECT_TRUE(facts_.references.empty());
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

// ---- null --------------------------------------------------------------------------------------

TEST_F(Validate, AHundredErrorsAreListedAndTheRestCounted) {
  std::string json = R"({"kind":"outcome","bead_id":"b","duration_ms":1,"error_count":0,)"
                     R"("retry_count":0,"success":true,"files_touched":[])";
  for (int i = 0; i < 150; ++i) json += fmt::format(R"(,"unknown{}":1)", i);
  const Strings errors = Run(json + "}");
  ASSERT_EQ(errors.size(), model::kMaxErrorsListed + 1);
  EXPECT_EQ(errors[0], "unknown0: unknown field (not part of outcome)");
  EXPECT_EQ(errors[99], "unknown99: unknown field (not part of outcome)");
  EXPECT_EQ(errors[100], "(event): and 50 more errors not listed");
}

TEST_F(Validate, ALongKeyIsShownByItsStartInAFieldPath) {
  // 59 ASCII bytes and a 2-byte character across byte 60: cut before the character.
  const std::string key = std::string(59, 'k') + "\xc3\xa9" + std::string(1000, 'k');
  const Strings errors =
      Run(R"({"kind":"correction","session_id":"s","correction_type":"style","original":"a",)"
          R"("corrected":"b",)"
          R"("context":{")" +
          key + R"(":{"x":1,"x":2}}})");
  EXPECT_EQ(errors, One("context." + std::string(59, 'k') +
                        "[...].x: duplicate key (each field "
                        "may appear once)"));
}

TEST_F(Validate, NullOptionalFieldIsAccepted) {
  EXPECT_EQ(Run(With(kFeedback, R"("mcpServerType":"shopify")", R"("mcpServerType":null)")),
            Strings{});
  EXPECT_EQ(Run(With(kFeedback, R"("decision":{"decision":"approved","reason":"solid"})",
                     R"("decision":null)")),
            Strings{});
  EXPECT_EQ(Run(With(kFeedback, R"("reason":"solid")", R"("reason":null)")), Strings{});
}

TEST_F(Validate, NullRequiredFieldIsRefused) {
  EXPECT_EQ(Run(With(kFeedback, R"("modalId":"m1")", R"("modalId":null)")),
            One("modalId: is null (required non-empty string)"));
  // Required unless meta.unmeasured lists it: a null is no measurement either.
  EXPECT_EQ(Run(With(kFeedback, R"("timeToDecisionMs":5000)", R"("timeToDecisionMs":null)")),
            One("meta.timeToDecisionMs: missing (required unless meta.unmeasured lists it: a "
                "client that could not measure it)"));
}

TEST_F(Validate, AnUnmeasuredTimeToDecisionMayBeAbsent) {
  EXPECT_EQ(
      Run(With(kFeedback, R"("timeToDecisionMs":5000)", R"("unmeasured":["timeToDecisionMs"])")),
      Strings{});
  EXPECT_EQ(Run(With(kFeedback, R"("timeToDecisionMs":5000)", R"("unmeasured":["scrollDepth"])")),
            One("meta.timeToDecisionMs: missing (required unless meta.unmeasured lists it: a "
                "client that could not measure it)"));
}

TEST_F(Validate, ADismissalNamesTheWork) {
  EXPECT_EQ(Run(R"({"kind":"admin","action":"dismiss"})"),
            One("work_id: missing (required for action dismiss)"));
  EXPECT_EQ(Run(R"({"kind":"admin","action":"dismiss","work_id":"a","work_version":"v1"})"),
            Strings{});
}

// ---- Parse errors
// --------------------------------------------------------------------------------

TEST(ValidateParseError, DepthErrorNamesTheCap) {
  EXPECT_EQ(DescribeParseError(simdjson::DEPTH_ERROR),
            "is nested deeper than the limit of 16 levels");
}

TEST(ValidateParseError, Utf8ErrorSaysUtf8) {
  EXPECT_EQ(DescribeParseError(simdjson::UTF8_ERROR), "is not valid UTF-8");
}

TEST(ValidateParseError, CapacityNamesTheEventCap) {
  EXPECT_EQ(DescribeParseError(simdjson::CAPACITY), "is larger than the limit of 1048576 bytes");
}

TEST(ValidateParseError, ParserErrorsForDeepAndInvalidInputAreDescribed) {
  simdjson::dom::parser parser;
  ASSERT_EQ(parser.allocate(model::kMaxEventBytes, model::kMaxDepth), simdjson::SUCCESS);
  std::string deep = std::string(20, '[') + std::string(20, ']');
  simdjson::dom::element e;
  auto depth_error = parser.parse(deep).get(e);
  EXPECT_EQ(depth_error, simdjson::DEPTH_ERROR);
  EXPECT_NE(DescribeParseError(depth_error).find("16"), std::string::npos);

  std::string bad_utf8 = "{\"kind\":\"\xff\xfe\"}";
  auto utf8_error = parser.parse(bad_utf8).get(e);
  EXPECT_EQ(utf8_error, simdjson::UTF8_ERROR);
  EXPECT_NE(DescribeParseError(utf8_error).find("UTF-8"), std::string::npos);
}

TEST(ValidateParseError, NanIsDescribedAsNotJson) {
  EXPECT_NE(DescribeParseError(simdjson::N_ATOM_ERROR).find("NaN"), std::string::npos);
  EXPECT_EQ(DescribeParseError(simdjson::EMPTY), "is empty");
}

}  // namespace
}  // namespace kaizen::ingest
