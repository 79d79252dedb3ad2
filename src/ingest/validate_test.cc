// ValidateEvent on the event as a whole (its kind, every error reported), work product
// references, and how parse failures are described. The fixture is validate_test_fixture.h's; the
// field rules are validate_fields_test.cc's, the rules of each kind validate_kinds_test.cc's.
#include "ingest/validate.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <string>

#include "ingest/validate_test_fixture.h"
#include "model/event_kind.h"
#include "model/limits.h"

namespace kaizen::ingest {
namespace {

using namespace validate_test;  // NOLINT: the fixture and its events
using model::EventKind;

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
