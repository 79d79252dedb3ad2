#include "learn/event_reader.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "learn/reviews/quality_index.h"
#include "model/schema.h"

namespace kaizen::learn {
namespace {

constexpr std::string_view kWork =
    R"({"kind":"work","id":"0197c348-8800-7c04-bedd-1d85e9fa686b","timestamp":"2025-07-01T00:00:00.000Z","workProduct":{"type":"mcp-server","id":"shopify-1","version":"v2","summary":"s","bubaConfidence":0.65,"bubaScorePrediction":7.5,"generationContext":{"promptHash":"h","memorySnapshot":[],"modelUsed":"opus","generationTimeMs":1,"iterationCount":2}},"sessionId":"run-1","pipelineStage":"implement","mcpServerType":"shopify","experimental":true})";

constexpr std::string_view kFeedbackByReference =
    R"({"kind":"feedback","id":"0197c53b-dcef-77af-b244-36c29972c2db","timestamp":"2025-07-01T09:05:24.207Z","sessionId":"s1","modalId":"m1","workProduct":{"id":"shopify-1"},"pipelineStage":"review","reviewerId":"jake","decision":{"decision":"needs-work","reason":"Uses \"any\" types","severity":"moderate","blockers":["no retries"]},"scores":[{"dimension":"error-handling","score":4},{"dimension":"naming","score":7.5}],"freeText":{"disliked":"abc","_extractedThemes":["types","rate-limiting"],"_sentiment":-0.5},"confidence":{"level":"very-sure","wouldDelegateToAI":false,"needsExpertReview":true},"override":"strong","meta":{"timeToDecisionMs":28000,"fieldsModified":["decision","scores"],"timeOfDay":"morning","dayOfWeek":"tuesday","sessionFatigue":6,"presentationFormat":"diff-summary"},"_predictionDelta":-1.75})";

TEST(EventReader, ReadsEveryFieldTheRulesUseFromAStoredFeedback) {
  EventReader reader;
  EventViews v;
  ASSERT_TRUE(reader.ReadJson(kFeedbackByReference, &v));
  ASSERT_EQ(v.kind, model::EventKind::kFeedback);
  const model::ReviewView& r = v.review;
  EXPECT_EQ(r.at_ms, 1751360724207);
  EXPECT_EQ(r.reviewer, "jake");
  EXPECT_EQ(r.decision, model::Decision::kNeedsWork);
  EXPECT_EQ(r.severity, model::Severity::kModerate);
  EXPECT_EQ(r.reason, "Uses \"any\" types");  // unescaped
  ASSERT_EQ(r.blockers.size(), 1u);
  ASSERT_EQ(r.scores.size(), 2u);
  EXPECT_EQ(r.scores[1].dimension, "naming");
  EXPECT_DOUBLE_EQ(r.scores[1].score, 7.5);
  EXPECT_EQ(r.themes.size(), 2u);
  EXPECT_EQ(r.free_text_chars, 3u);
  EXPECT_EQ(r.confidence, model::ConfidenceLevel::kVerySure);
  EXPECT_TRUE(r.needs_expert);
  EXPECT_EQ(r.override_weight, model::Override::kStrong);
  EXPECT_EQ(r.fields_modified, 2u);
  EXPECT_EQ(r.session_fatigue, 6);
  EXPECT_EQ(r.presentation_format, "diff-summary");
  ASSERT_TRUE(r.prediction_delta.has_value());
  EXPECT_DOUBLE_EQ(*r.prediction_delta, -1.75);
  // A reference is left for ResolveInLogOrder.
  EXPECT_FALSE(r.work_known);
  EXPECT_EQ(r.work.artifact_id, "shopify-1");
}

TEST(EventReader, OptionalReviewFieldsOutsideTheSetAreSkippedAndLeftEmpty) {
  EventReader reader;
  reader.set_review_fields({});
  EventViews v;
  ASSERT_TRUE(reader.ReadJson(kFeedbackByReference, &v));
  const model::ReviewView& r = v.review;
  EXPECT_TRUE(r.scores.empty());
  EXPECT_FALSE(r.has_free_text);
  EXPECT_TRUE(r.themes.empty());
  EXPECT_EQ(r.free_text_chars, 0u);
  EXPECT_EQ(r.time_to_decision_ms, 0);
  EXPECT_EQ(r.time_of_day, "");
  EXPECT_EQ(r.session_fatigue, 0);
  // What is always read.
  EXPECT_EQ(r.reviewer, "jake");
  EXPECT_EQ(r.stage, "review");
  EXPECT_EQ(r.decision, model::Decision::kNeedsWork);
  EXPECT_EQ(r.blockers.size(), 1u);
  EXPECT_EQ(r.confidence, model::ConfidenceLevel::kVerySure);
  EXPECT_EQ(r.override_weight, model::Override::kStrong);
  EXPECT_TRUE(r.prediction_delta.has_value());
  EXPECT_EQ(r.work.artifact_id, "shopify-1");

  reader.set_review_fields({ReviewField::kScores, ReviewField::kFatigue});
  ASSERT_TRUE(reader.ReadJson(kFeedbackByReference, &v));
  EXPECT_EQ(v.review.scores.size(), 2u);
  EXPECT_EQ(v.review.session_fatigue, 6);
  EXPECT_EQ(v.review.time_of_day, "");  // the rest of meta stays unread
  EXPECT_TRUE(v.review.themes.empty());
}

// A reader of meta.sessionFatigue alone takes it from the end of `meta` when ingest wrote it
// there, and walks any other meta: either way it reads what reading all of meta reads.
TEST(EventReader, FatigueAloneReadsWhatTheWholeMetaReadsHoweverMetaIsWritten) {
  const std::string head =
      R"({"kind":"feedback","id":"0197c53b-dcef-77af-b244-36c29972c2db","timestamp":"2025-07-01T09:05:24.207Z","decision":{"decision":"approved"},"meta":)";
  for (std::string_view meta : {
           R"({"timeOfDay":"morning","sessionFatigue":7})",         // as ingest writes it
           R"({"sessionFatigue":7,"timeOfDay":"morning"})",         // not last
           R"({ "timeOfDay" : "morning", "sessionFatigue" : 7 })",  // spaced
           R"({"a":{"sessionFatigue":9},"sessionFatigue":3})",      // nested before
           R"({"sessionFatigue":3,"a":{"sessionFatigue":9}})",      // nested after
           R"({"x":"a,\"sessionFatigue\":5"})",                     // inside a string
           R"({"sessionFatigue":12345678901234567})",               // 17 digits
           R"({"sessionFatigue":123456789012345678})",              // 18 digits: read from the end
           R"({"sessionFatigue":1234567890123456789})",             // 19 digits: walked
           R"({"sessionFatigue":07})",                    // a leading zero: not a JSON number
           R"({"a\"sessionFatigue":5})",                  // a key that ends with the name
           R"({"sessionFatigue":99999999999999999999})",  // past int64_t
           R"({"sessionFatigue":0})",
           R"({"sessionFatigue":-4})",
           R"({"sessionFatigue":2.5})",
           R"({"timeOfDay":"morning"})",
           R"({})",
       }) {
    const std::string line = head + std::string(meta) + "}";
    EventReader whole, fatigue;
    fatigue.set_review_fields({ReviewField::kFatigue});
    EventViews w, f;
    ASSERT_TRUE(whole.ReadJson(line, &w)) << meta;
    ASSERT_TRUE(fatigue.ReadJson(line, &f)) << meta;
    EXPECT_EQ(f.review.session_fatigue, w.review.session_fatigue) << meta;
  }
  EventReader fatigue;
  fatigue.set_review_fields({ReviewField::kFatigue});
  EventViews f;
  ASSERT_TRUE(fatigue.ReadJson(head + R"({"timeOfDay":"morning","sessionFatigue":7}})", &f));
  EXPECT_EQ(f.review.session_fatigue, 7);
  ASSERT_TRUE(fatigue.ReadJson(head + R"({"sessionFatigue":7,"timeOfDay":"morning"}})", &f));
  EXPECT_EQ(f.review.session_fatigue, 7);
}

TEST(EventReader, AKindNotReadWholeHasOnlyItsKindAndTime) {
  EventReader reader;
  reader.set_read_whole(KindSet{model::EventKind::kFeedback});
  EventViews v;
  ASSERT_TRUE(reader.ReadJson(kWork, &v));
  EXPECT_EQ(v.kind, model::EventKind::kWork);
  EXPECT_EQ(v.work.at_ms, 1751328000000);
  EXPECT_EQ(v.work.artifact_id, "");
  EXPECT_EQ(v.work.type, "");
  // The rest of the line is not looked at: past the timestamp, it may even be malformed.
  constexpr std::string_view kBrokenReward =
      R"({"kind":"reward","id":"019862ee-9b05-7cae-881e-82a5536ef4bb","timestamp":"2025-08-01T00:01:01.189Z","signal_value":1 "source":"automatic"})";
  ASSERT_TRUE(reader.ReadJson(kBrokenReward, &v));
  EXPECT_EQ(v.kind, model::EventKind::kReward);
  EXPECT_EQ(v.reward.at_ms, 1754006461189);
  EventReader whole;
  EXPECT_FALSE(whole.ReadJson(kBrokenReward, &v));
  // Kinds it reads whole are read as before.
  ASSERT_TRUE(reader.ReadJson(kFeedbackByReference, &v));
  EXPECT_EQ(v.review.reviewer, "jake");
}

TEST(EventReader, TheFirstOfTwoTimestampsCountsWhetherTheLineIsReadWholeOrNot) {
  constexpr std::string_view kTwice =
      R"({"kind":"error","id":"e1","timestamp":"2025-08-01T00:00:00.000Z","bead_id":"b","timestamp":"2025-09-01T00:00:00.000Z"})";
  EventReader whole, header;
  header.set_read_whole(KindSet{model::EventKind::kFeedback});
  EventViews a, b;
  ASSERT_TRUE(whole.ReadJson(kTwice, &a));
  ASSERT_TRUE(header.ReadJson(kTwice, &b));
  EXPECT_EQ(a.error.at_ms, 1754006400000);
  EXPECT_EQ(b.error.at_ms, a.error.at_ms);
}

TEST(EventReader, AStoredLineOfAKindNotReadWholeIsReadToItsTimestampWithoutAParser) {
  EventReader reader;
  reader.set_read_whole(KindSet{model::EventKind::kFeedback});
  EventViews fast, parsed;
  constexpr std::string_view kLines[] = {
      kWork,
      R"({"kind":"error","id":"e1","timestamp":"2025-08-01T00:00:00.000Z"})",
      // No id: Read does not need one either.
      R"({"kind":"loop","timestamp":"2025-08-01T00:00:00Z","loop_id":"l"})",
      // Past the timestamp nothing is looked at, as with Read.
      R"({"kind":"reward","id":"r","timestamp":"2025-08-01T00:01:01.189Z","signal_value":1 "source"})",
      // Whitespace after the object, as a CRLF file has.
      "{\"kind\":\"error\",\"id\":\"e1\",\"timestamp\":\"2025-08-01T00:00:00.000Z\"}\r",
  };
  for (std::string_view line : kLines) {
    SCOPED_TRACE(line);
    ASSERT_TRUE(reader.ReadHeaderOnly(line, &fast));
    ASSERT_TRUE(reader.ReadJson(line, &parsed));
    EXPECT_EQ(fast.kind, parsed.kind);
    EXPECT_EQ(EventTime(fast), EventTime(parsed));
  }
  // A view reused from a whole read carries nothing over.
  ASSERT_TRUE(reader.ReadJson(kFeedbackByReference, &fast));
  ASSERT_TRUE(reader.ReadHeaderOnly(kWork, &fast));
  EXPECT_EQ(fast.kind, model::EventKind::kWork);
  EXPECT_EQ(fast.work.at_ms, 1751328000000);
  EXPECT_EQ(fast.work.artifact_id, "");
}

TEST(EventReader, LoopMetricsUnderSeed003QualityEvaluatorNamesAreRead) {
  EventReader reader;
  EventViews v;
  ASSERT_TRUE(
      reader.ReadJson(R"({"kind":"loop","timestamp":"2025-08-01T00:00:00Z","loop_id":"l",)"
                      R"("iteration":1,"metrics":{"code_quality":0.88,"documentation":0.95,)"
                      R"("type_safety":1}})",
                      &v));
  EXPECT_EQ(v.loop.metrics.code_quality_score, 0.88);
  EXPECT_EQ(v.loop.metrics.doc_coverage, 0.95);
  EXPECT_EQ(v.loop.metrics.type_coverage, 1.0);
}

TEST(EventReader, LinesNotWrittenAsIngestWritesThemAreLeftToTheParser) {
  EventReader reader;
  reader.set_read_whole(KindSet{model::EventKind::kFeedback});
  EventViews v;
  // Read whole: the parser reads it.
  EXPECT_FALSE(reader.ReadHeaderOnly(kFeedbackByReference, &v));
  constexpr std::string_view kOthers[] = {
      R"( {"kind":"work","id":"w","timestamp":"2025-07-01T00:00:00Z"})",   // leading space
      R"({ "kind":"work","id":"w","timestamp":"2025-07-01T00:00:00Z"})",   // space inside
      R"({"id":"w","kind":"work","timestamp":"2025-07-01T00:00:00Z"})",    // kind not first
      R"({"kind":"work","type":"t","timestamp":"2025-07-01T00:00:00Z"})",  // another key first
      R"({"kind":"work","id":"w\"","timestamp":"2025-07-01T00:00:00Z"})",  // an escape
      R"({"kind":"w\u006frk","id":"w","timestamp":"2025-07-01T00:00:00Z"})",
      R"({"kind":"work","id":7,"timestamp":"2025-07-01T00:00:00Z"})",          // not a string
      R"({"kind":"work","id":"w","timestamp":"2025-07-01T00:00:00Z" "a":1})",  // no separator
      R"({"kind":"work","id":"w","timestamp":"2025-07-01T00:00:00Z")",         // ends there
      R"({"kind":"work","id":"w","timestamp":"yesterday"})",
      R"({"kind":"nonsense","id":"w","timestamp":"2025-07-01T00:00:00Z"})",
      R"({"kind":"work","id":"w","timestamp":"2025-07-01T00:00:00Z)",
      "{\"kind\":\"work\",\"id\":\"w\xc3\xa9\",\"timestamp\":\"2025-07-01T00:00:00Z\"}",  // not
                                                                                          // ASCII
      "{\"kind\":\"work\",\"id\":\"w\t\",\"timestamp\":\"2025-07-01T00:00:00Z\"}",  // a control
      R"({"kind":"work","id":"w","timestamp":"2025-07-01T00:00:00Z","type":"t")",   // torn
      R"({"kind":"work","id":"w","timestamp":"2025-07-01T00:00:00Z",garbage)",
      "{",
      "",
  };
  for (std::string_view line : kOthers) {
    SCOPED_TRACE(line);
    EXPECT_FALSE(reader.ReadHeaderOnly(line, &v));
  }
}

TEST(EventReader, ResolvesAReferenceToTheLatestRegisteredVersionInLogOrder) {
  EventReader reader;
  WorkRegistry registry;
  EventViews work, feedback;
  ASSERT_TRUE(reader.ReadJson(kWork, &work));
  ResolveInLogOrder(&registry, &work);
  EXPECT_TRUE(work.work.experimental);
  ASSERT_TRUE(reader.ReadJson(kFeedbackByReference, &feedback));
  ResolveInLogOrder(&registry, &feedback);
  const model::ReviewView& r = feedback.review;
  EXPECT_TRUE(r.work_known);
  EXPECT_DOUBLE_EQ(r.work.confidence, 0.65);
  EXPECT_EQ(r.work.version, "v2");
  EXPECT_EQ(r.work.model, "opus");
  // The task type is the work event's server type when the feedback names none.
  EXPECT_EQ(r.server_type, "shopify");
  EXPECT_EQ(r.task_type, "shopify");
}

TEST(EventReader, ARegisteredWorkEventPointsAtTheRegistrysCopiesOfItsStrings) {
  EventReader reader;
  WorkRegistry registry;
  EventViews work;
  std::string line(kWork);
  ASSERT_TRUE(reader.ReadJson(line, &work));
  ResolveInLogOrder(&registry, &work);
  // The event's own id and session are not kept by the registry: they stay the reader's, valid
  // while the event is folded (a pending review-queue item copies them).
  EXPECT_EQ(work.work.event_id, "0197c348-8800-7c04-bedd-1d85e9fa686b");
  EXPECT_EQ(work.work.session_id, "run-1");
  // The line and the parser's buffers are gone; the registry's views must not be.
  line.assign(line.size(), 'x');
  EventViews other;
  ASSERT_TRUE(reader.ReadJson(kFeedbackByReference, &other));
  const model::WorkView& w = work.work;
  EXPECT_EQ(w.artifact_id, "shopify-1");
  EXPECT_EQ(w.version, "v2");
  EXPECT_EQ(w.server_type, "shopify");
  EXPECT_EQ(w.stage, "implement");
  EXPECT_EQ(w.summary, "s");
  // What Find returns leaves out the event's own id and session.
  const std::optional<model::WorkView> found = registry.Find("shopify-1", "v2");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->event_id, "");
  EXPECT_EQ(found->session_id, "");
  EXPECT_EQ(found->summary, "s");
  EXPECT_EQ(found->model, "opus");
  EXPECT_DOUBLE_EQ(found->confidence, 0.65);
}

TEST(EventReader, AScoreKnowsWhichSeedDimensionItIs) {
  EventReader reader;
  EventViews v;
  std::string line(kFeedbackByReference);
  line.replace(line.find("\"naming\""), 8, "\"house-style\"");
  ASSERT_TRUE(reader.ReadJson(line, &v));
  ASSERT_EQ(v.review.scores.size(), 2u);
  EXPECT_EQ(v.review.scores[0].quality_index, QualityDimensionIndex("error-handling"));
  EXPECT_GE(v.review.scores[0].quality_index, 0);
  EXPECT_EQ(v.review.scores[1].quality_index, -1);  // not one of the seed's 13
  EXPECT_EQ(model::QualityDimensions().size(), kQualityDimensionCount);
  // A score nobody read is looked up by name.
  model::ScoreView by_hand{"error-handling", 4};
  EXPECT_EQ(by_hand.quality_index, model::ScoreView::kNotLooked);
  EXPECT_EQ(QualityIndex(by_hand), v.review.scores[0].quality_index);
}

// `kaizen check` registers a version of the same artifact on every run: thousands of versions,
// each found by version directly, a version registered again shadowing its earlier registration.
TEST(WorkRegistryTest, ManyVersionsOfOneArtifactAreEachFoundAndCountedOnce) {
  WorkRegistry registry;
  std::vector<std::string> versions;
  for (int i = 0; i < 5000; ++i) versions.push_back("v" + std::to_string(i));
  for (const std::string& v : versions) {
    model::WorkView w;
    w.artifact_id = "check-1";
    w.version = v;
    w.summary = "first";
    registry.Register(w);
  }
  model::WorkView again;
  again.artifact_id = "check-1";
  again.version = "v17";
  again.summary = "again";
  registry.Register(again);
  EXPECT_EQ(registry.size(), 5000u);
  ASSERT_TRUE(registry.Find("check-1", "v17").has_value());
  EXPECT_EQ(registry.Find("check-1", "v17")->summary, "again");
  EXPECT_EQ(registry.Find("check-1", "v4999")->summary, "first");
  EXPECT_EQ(registry.Find("check-1", "")->version, "v17");  // the latest registered
  EXPECT_FALSE(registry.Find("check-1", "v5000").has_value());
  EXPECT_FALSE(registry.Find("check-2", "v1").has_value());
  const std::vector<std::string_view> listed = registry.Versions("check-1");
  ASSERT_EQ(listed.size(), 5000u);
  EXPECT_EQ(listed.front(), "v0");
  EXPECT_EQ(listed.back(), "v17");  // oldest first, by each version's latest registration
  // An artifact of a few versions, walked rather than indexed, answers the same way.
  for (const char* v : {"a", "b", "a", "c"}) {
    model::WorkView w;
    w.artifact_id = "small";
    w.version = v;
    w.summary =
        v == std::string_view("a") && registry.Find("small", "a").has_value() ? "a again" : "first";
    registry.Register(w);
  }
  EXPECT_EQ(registry.size(), 5003u);
  EXPECT_EQ(registry.Find("small", "a")->summary, "a again");
  EXPECT_EQ(registry.Find("small", "")->version, "c");
  EXPECT_FALSE(registry.Find("small", "d").has_value());
}

TEST(EventReader, AnUnknownReferenceStaysUnknown) {
  EventReader reader;
  WorkRegistry registry;
  EventViews feedback;
  ASSERT_TRUE(reader.ReadJson(kFeedbackByReference, &feedback));
  ResolveInLogOrder(&registry, &feedback);
  EXPECT_FALSE(feedback.review.work_known);
  EXPECT_EQ(feedback.review.task_type, "");
}

TEST(EventReader, DurableReadsKeepEscapedStringsOutsideTheParser) {
  std::string text(kFeedbackByReference);
  text.append(simdjson::SIMDJSON_PADDING, ' ');
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  ASSERT_EQ(parser.iterate(text.data(), kFeedbackByReference.size(), text.size()).get(doc),
            simdjson::SUCCESS);
  simdjson::ondemand::object o;
  ASSERT_EQ(doc.get_object().get(o), simdjson::SUCCESS);
  EventReader reader;
  EventViews v;
  std::deque<std::string> escaped;
  ASSERT_TRUE(reader.ReadDurable(o, &escaped, &v));
  // The escaped reason was copied out; plain strings point into the input.
  ASSERT_EQ(escaped.size(), 1u);
  EXPECT_EQ(v.review.reason.data(), escaped.front().data());
  const char* begin = text.data();
  EXPECT_TRUE(v.review.reviewer.data() >= begin && v.review.reviewer.data() < begin + text.size());
}

TEST(EventReader, RefusesLinesThatAreNotStoredEvents) {
  EventReader reader;
  EventViews v;
  EXPECT_FALSE(
      reader.ReadJson(R"({"id":"x","kind":"work","timestamp":"2025-07-01T00:00:00Z"})", &v))
      << "kind must come first";
  EXPECT_FALSE(reader.ReadJson(R"({"kind":"nonsense","timestamp":"2025-07-01T00:00:00Z"})", &v));
  EXPECT_FALSE(reader.ReadJson(R"({"kind":"work","timestamp":"yesterday"})", &v));
  EXPECT_FALSE(reader.ReadJson(R"({"kind":"work"})", &v));
  EXPECT_FALSE(reader.ReadJson(R"({"kind":"work","timestamp":"2025-07-01T00:00:00Z",)", &v));
  EXPECT_FALSE(reader.ReadJson("[1,2]", &v));
  EXPECT_FALSE(reader.ReadJson("", &v));
}

TEST(EventReader, ReusedViewsCarryNothingFromThePreviousEvent) {
  EventReader reader;
  EventViews v;
  ASSERT_TRUE(reader.ReadJson(kFeedbackByReference, &v));
  ASSERT_TRUE(reader.ReadJson(
      R"({"kind":"feedback","id":"0197c53b-dcef-77af-b244-36c29972c2dc","timestamp":"2025-07-01T09:05:24.207Z","sessionId":"s2","modalId":"m2","workProduct":{"id":"x"},"pipelineStage":"review","meta":{"timeToDecisionMs":1}})",
      &v));
  EXPECT_EQ(v.review.decision, model::Decision::kNone);
  EXPECT_TRUE(v.review.scores.empty());
  EXPECT_TRUE(v.review.themes.empty());
  EXPECT_TRUE(v.review.blockers.empty());
  EXPECT_FALSE(v.review.prediction_delta.has_value());
  EXPECT_EQ(v.review.override_weight, model::Override::kNone);
  EXPECT_EQ(v.review.session_fatigue, 0);
}

}  // namespace
}  // namespace kaizen::learn
