// The rules of the schema walk, which every field of every kind obeys: types, ranges, enums,
// caps, unknown, duplicate, missing and null fields, each with its exact message.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "ingest/validate.h"
#include "ingest/validate_test_fixture.h"
#include "model/limits.h"

namespace kaizen::ingest {
namespace {

using namespace validate_test;  // NOLINT: the fixture and its events

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

}  // namespace
}  // namespace kaizen::ingest
