#include "ingest/enrich.h"
#include "ingest/json_tokens.h"
#include "ingest/stored_line.h"

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <string>
#include <string_view>
#include <vector>

namespace kaizen::ingest {
namespace {

constexpr char kId[] = "0197f6a2-3b4c-7d5e-8f60-718293a4b5c6";
constexpr char kStoredTs[] = "2025-07-11T07:30:00.000Z";

// ---- TimeOfDay / DayOfWeek -------------------------------------------------------------------

TEST(Enrich, TimeOfDayBoundaries) {
  EXPECT_EQ(TimeOfDay(0), "night");
  EXPECT_EQ(TimeOfDay(4), "night");
  EXPECT_EQ(TimeOfDay(5), "morning");
  EXPECT_EQ(TimeOfDay(11), "morning");
  EXPECT_EQ(TimeOfDay(12), "afternoon");
  EXPECT_EQ(TimeOfDay(16), "afternoon");
  EXPECT_EQ(TimeOfDay(17), "evening");
  EXPECT_EQ(TimeOfDay(20), "evening");
  EXPECT_EQ(TimeOfDay(21), "night");
  EXPECT_EQ(TimeOfDay(23), "night");
}

TEST(Enrich, DayOfWeekStartsOnMonday) {
  EXPECT_EQ(DayOfWeek(0), "monday");
  EXPECT_EQ(DayOfWeek(1), "tuesday");
  EXPECT_EQ(DayOfWeek(2), "wednesday");
  EXPECT_EQ(DayOfWeek(3), "thursday");
  EXPECT_EQ(DayOfWeek(4), "friday");
  EXPECT_EQ(DayOfWeek(5), "saturday");
  EXPECT_EQ(DayOfWeek(6), "sunday");
}

// ---- CorrectionCategory (seed 004 taxonomy) --------------------------------------------------

TEST(Enrich, CorrectionCategoryContent) {
  EXPECT_EQ(CorrectionCategory("factual_error"), "content");
  EXPECT_EQ(CorrectionCategory("missing_detail"), "content");
  EXPECT_EQ(CorrectionCategory("excessive_detail"), "content");
}

TEST(Enrich, CorrectionCategoryStyleIncludingFormatting) {
  EXPECT_EQ(CorrectionCategory("tone_mismatch"), "style");
  EXPECT_EQ(CorrectionCategory("passive_to_active"), "style");
  EXPECT_EQ(CorrectionCategory("jargon_overuse"), "style");
  EXPECT_EQ(CorrectionCategory("formatting"), "style");
}

TEST(Enrich, CorrectionCategoryStructural) {
  EXPECT_EQ(CorrectionCategory("missing_section"), "structural");
  EXPECT_EQ(CorrectionCategory("section_order"), "structural");
  EXPECT_EQ(CorrectionCategory("bullet_structure"), "structural");
}

TEST(Enrich, CorrectionCategoryDomainSpecific) {
  EXPECT_EQ(CorrectionCategory("ats_keyword_missing"), "domain:jseeker");
  EXPECT_EQ(CorrectionCategory("metric_vague"), "domain:jseeker");
  EXPECT_EQ(CorrectionCategory("experience_inflated"), "domain:jseeker");
  EXPECT_EQ(CorrectionCategory("claim_too_vague"), "domain:via");
  EXPECT_EQ(CorrectionCategory("source_missing"), "domain:via");
  EXPECT_EQ(CorrectionCategory("claim_unsupported"), "domain:via");
}

TEST(Enrich, CorrectionCategoryOfUnknownTypeIsEmpty) {
  EXPECT_EQ(CorrectionCategory("typo"), "");
  EXPECT_EQ(CorrectionCategory(""), "");
  EXPECT_EQ(CorrectionCategory("Factual_Error"), "");
}

// ---- StoredLineWriter / FinishStoredEvent ----------------------------------------------------

class EnrichStored : public ::testing::Test {
 protected:
  StoredLine Write(std::string_view json, const Enrichment& e) {
    simdjson::dom::element doc;
    EXPECT_EQ(input_parser_.parse(json.data(), json.size()).get(doc), simdjson::SUCCESS) << json;
    simdjson::dom::object obj;
    EXPECT_EQ(doc.get_object().get(obj), simdjson::SUCCESS);
    StoredLine line;
    buffer_.clear();  // so the line is the whole buffer; the view lasts until the next Write
    EXPECT_TRUE(writer_.Write(obj, JsonTokens::Of(input_parser_, json), e, &buffer_, &line))
        << json;
    return line;
  }

  static Enrichment Base(std::string_view kind) {
    Enrichment e;
    e.kind = kind;
    e.id = kId;
    e.timestamp = kStoredTs;
    return e;
  }

  // Parses a finished line (without its '\n').
  simdjson::dom::element ParseOutput(const std::string& line) {
    simdjson::dom::element doc;
    auto err = output_parser_.parse(line).get(doc);
    EXPECT_EQ(err, simdjson::SUCCESS) << "not valid JSON: " << line;
    return doc;
  }

  simdjson::dom::parser input_parser_, output_parser_;
  StoredLineWriter writer_;
  std::string buffer_;
};

constexpr char kFeedbackInput[] =
    R"({"sessionId":"s1","_predictionDelta":3,"timestamp":"2025-07-11T09:30:00+02:00",)"
    R"("kind":"feedback","meta":{"timeToDecisionMs":5,"timeOfDay":"night",)"
    R"("dayOfWeek":"sunday","sessionFatigue":99,"revisits":1},)"
    R"("freeText":{"liked":"clear names","_sentiment":0.9,"_extractedThemes":["x"]},)"
    R"("pipelineStage":"build","_junk":{"a":1},"id":"0197f6a2-3b4c-7d5e-8f60-718293a4b5c6"})";

Enrichment FeedbackEnrichment() {
  Enrichment e;
  e.kind = "feedback";
  e.id = kId;
  e.timestamp = kStoredTs;
  e.time_of_day = "morning";
  e.day_of_week = "friday";
  e.free_text = true;
  e.themes = {"naming"};
  e.sentiment = 0.5;
  e.actionable_items = {"keep names clear"};
  return e;
}

TEST_F(EnrichStored, FeedbackPutsKindIdTimestampFirstAndReplacesComputedFields) {
  StoredLine line = Write(kFeedbackInput, FeedbackEnrichment());
  EXPECT_EQ(line.text, std::string(R"({"kind":"feedback","id":")") + kId + R"(","timestamp":")" +
                           kStoredTs +
                           R"(","sessionId":"s1","meta":{"timeToDecisionMs":5,"revisits":1,)"
                           R"("timeOfDay":"morning","dayOfWeek":"friday","sessionFatigue":0},)"
                           R"("freeText":{"liked":"clear names","_extractedThemes":["naming"],)"
                           R"("_sentiment":0.5,"_actionableItems":["keep names clear"]},)"
                           R"("pipelineStage":"build"})");
}

TEST_F(EnrichStored, FatigueOffsetPointsAtThePlaceholderDigit) {
  StoredLine line = Write(kFeedbackInput, FeedbackEnrichment());
  ASSERT_NE(line.fatigue_at, std::string::npos);
  ASSERT_LT(line.fatigue_at, line.text.size());
  EXPECT_EQ(line.text[line.fatigue_at], '0');
  const std::string_view key = "\"sessionFatigue\":";
  ASSERT_GE(line.fatigue_at, key.size());
  EXPECT_EQ(line.text.substr(line.fatigue_at - key.size(), key.size()), key);
}

TEST_F(EnrichStored, FinishReplacesFatigueAndAppendsPredictionDelta) {
  StoredLine line = Write(kFeedbackInput, FeedbackEnrichment());
  std::string out;
  FinishStoredEvent(line, 12, 1.5, &out);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.back(), '\n');
  EXPECT_EQ(out.find('\n'), out.size() - 1);
  EXPECT_NE(out.find(R"("sessionFatigue":12})"), std::string::npos) << out;
  const std::string_view tail = R"("pipelineStage":"build","_predictionDelta":1.5})"
                                "\n";
  ASSERT_GE(out.size(), tail.size());
  EXPECT_EQ(std::string_view(out).substr(out.size() - tail.size()), tail) << out;

  simdjson::dom::element doc = ParseOutput(out.substr(0, out.size() - 1));
  int64_t fatigue = 0;
  EXPECT_EQ(doc["meta"]["sessionFatigue"].get_int64().get(fatigue), simdjson::SUCCESS);
  EXPECT_EQ(fatigue, 12);
  double delta = 0;
  EXPECT_EQ(doc["_predictionDelta"].get_double().get(delta), simdjson::SUCCESS);
  EXPECT_DOUBLE_EQ(delta, 1.5);
  std::string_view kind;
  EXPECT_EQ(doc["kind"].get_string().get(kind), simdjson::SUCCESS);
  EXPECT_EQ(kind, "feedback");
  // The input's own _predictionDelta and _junk are gone; only the computed one remains.
  EXPECT_EQ(out.find("_junk"), std::string::npos);
  EXPECT_EQ(out.find("_predictionDelta"), out.rfind("_predictionDelta"));
  EXPECT_EQ(out.find("99"), std::string::npos);
  EXPECT_EQ(out.find("night"), std::string::npos);
  EXPECT_EQ(out.find("sunday"), std::string::npos);
}

TEST_F(EnrichStored, FinishWithoutPredictionOnlyReplacesFatigue) {
  StoredLine line = Write(kFeedbackInput, FeedbackEnrichment());
  std::string out;
  FinishStoredEvent(line, 1234567, std::nullopt, &out);
  std::string expected(line.text);
  expected.replace(line.fatigue_at, 1, "1234567");
  EXPECT_EQ(out, expected + "\n");
  simdjson::dom::element doc = ParseOutput(expected);
  int64_t fatigue = 0;
  EXPECT_EQ(doc["meta"]["sessionFatigue"].get_int64().get(fatigue), simdjson::SUCCESS);
  EXPECT_EQ(fatigue, 1234567);
  EXPECT_EQ(out.find("_predictionDelta"), std::string::npos);
}

TEST_F(EnrichStored, NegativeAndRoundedPredictionDeltaIsValidJson) {
  StoredLine line = Write(kFeedbackInput, FeedbackEnrichment());
  std::string out;
  FinishStoredEvent(line, 3, -1.0 / 3.0, &out);
  EXPECT_NE(out.find(R"(,"_predictionDelta":-0.333333})"), std::string::npos) << out;
  simdjson::dom::element doc = ParseOutput(out.substr(0, out.size() - 1));
  double delta = 0;
  EXPECT_EQ(doc["_predictionDelta"].get_double().get(delta), simdjson::SUCCESS);
  EXPECT_DOUBLE_EQ(delta, -0.333333);

  std::string whole;
  FinishStoredEvent(line, 3, 2.0, &whole);
  simdjson::dom::element doc2 = ParseOutput(whole.substr(0, whole.size() - 1));
  EXPECT_EQ(doc2["_predictionDelta"].get_double().get(delta), simdjson::SUCCESS);
  EXPECT_DOUBLE_EQ(delta, 2.0);
}

TEST_F(EnrichStored, FinishAppendsToWhatIsAlreadyInTheBuffer) {
  StoredLine line = Write(R"({"kind":"outcome","bead_id":"b"})", Base("outcome"));
  std::string out = "previous line\n";
  FinishStoredEvent(line, 0, std::nullopt, &out);
  EXPECT_EQ(out, "previous line\n" + std::string(line.text) + "\n");
}

TEST_F(EnrichStored, EventWithoutMetaHasNoFatiguePlaceholder) {
  StoredLine line =
      Write(R"({"bead_id":"b","kind":"outcome","success":true,"files_touched":["a","b"],)"
            R"("duration_ms":1.25,"error_count":0,"_x":1})",
            Base("outcome"));
  EXPECT_EQ(line.fatigue_at, std::string::npos);
  EXPECT_EQ(line.text, std::string(R"({"kind":"outcome","id":")") + kId + R"(","timestamp":")" +
                           kStoredTs +
                           R"(","bead_id":"b","success":true,"files_touched":["a","b"],)"
                           R"("duration_ms":1.25,"error_count":0})");
  std::string out;
  FinishStoredEvent(line, 0, std::nullopt, &out);
  EXPECT_EQ(out, std::string(line.text) + "\n");
}

TEST_F(EnrichStored, GeneratedIdAndTimestampReplaceTheInputOnes) {
  StoredLine line = Write(
      R"({"kind":"loop","id":"00000000-0000-7000-8000-000000000000","timestamp":"2025-07-11 09:30:00Z","loop_id":"l"})",
      Base("loop"));
  EXPECT_EQ(line.text, std::string(R"({"kind":"loop","id":")") + kId + R"(","timestamp":")" +
                           kStoredTs + R"(","loop_id":"l"})");
}

TEST_F(EnrichStored, FreeTextWithoutAnalysisIsCopied) {
  Enrichment e = Base("feedback");
  e.time_of_day = "night";
  e.day_of_week = "monday";
  StoredLine line =
      Write(R"({"kind":"feedback","freeText":{"liked":"a"},"meta":{"timeToDecisionMs":1}})", e);
  EXPECT_EQ(line.text, std::string(R"({"kind":"feedback","id":")") + kId + R"(","timestamp":")" +
                           kStoredTs +
                           R"(","freeText":{"liked":"a"},"meta":{"timeToDecisionMs":1,)"
                           R"("timeOfDay":"night","dayOfWeek":"monday","sessionFatigue":0}})");
}

TEST_F(EnrichStored, RewardSignalValueIsReplacedByTheComputedOneAtTheEnd) {
  Enrichment e = Base("reward");
  e.signal_value = 1.0 / 3.0;
  StoredLine line = Write(R"({"kind":"reward","signal_type":"iteration_count","signal_value":null,)"
                          R"("raw_value":3,"source":"automatic"})",
                          e);
  EXPECT_EQ(line.text, std::string(R"({"kind":"reward","id":")") + kId + R"(","timestamp":")" +
                           kStoredTs +
                           R"(","signal_type":"iteration_count","raw_value":3,)"
                           R"("source":"automatic","signal_value":0.333333})");
}

TEST_F(EnrichStored, RewardWithGivenSignalValueKeepsItInPlace) {
  StoredLine line =
      Write(R"({"kind":"reward","signal_type":"x","signal_value":0.25,"source":"human"})",
            Base("reward"));
  EXPECT_EQ(line.text, std::string(R"({"kind":"reward","id":")") + kId + R"(","timestamp":")" +
                           kStoredTs +
                           R"(","signal_type":"x","signal_value":0.25,"source":"human"})");
}

TEST_F(EnrichStored, CorrectionGetsItsCategoryAndDropsAGivenOne) {
  Enrichment e = Base("correction");
  e.correction_category = "style";
  StoredLine line =
      Write(R"({"kind":"correction","_category":"content","correction_type":"formatting",)"
            R"("original":"a","corrected":"b","context":{"_keep":true,"n":[1,{"m":null}]}})",
            e);
  EXPECT_EQ(line.text, std::string(R"({"kind":"correction","id":")") + kId + R"(","timestamp":")" +
                           kStoredTs +
                           R"(","correction_type":"formatting","original":"a","corrected":"b",)"
                           R"("context":{"_keep":true,"n":[1,{"m":null}]},"_category":"style"})");
}

TEST_F(EnrichStored, StringsAreEscapedInTheStoredLine) {
  StoredLine line = Write(R"({"kind":"correction","original":"say \"hi\"\n","corrected":"é\\"})",
                          Base("correction"));
  std::string out;
  FinishStoredEvent(line, 0, std::nullopt, &out);
  simdjson::dom::element doc = ParseOutput(out.substr(0, out.size() - 1));
  std::string_view original, corrected;
  EXPECT_EQ(doc["original"].get_string().get(original), simdjson::SUCCESS);
  EXPECT_EQ(original, "say \"hi\"\n");
  EXPECT_EQ(doc["corrected"].get_string().get(corrected), simdjson::SUCCESS);
  EXPECT_EQ(corrected, "é\\");
}

TEST_F(EnrichStored, KaizensOwnStringsAreWrittenAsRapidJsonWritesThem) {
  // Plain strings are copied between quotes without RapidJSON; every other string goes through
  // it. Both ways must give RapidJSON's bytes: the stored line of a theme or an item with any
  // byte in it is the same as before the shortcut.
  std::vector<std::string> items = {"plain", "say \"hi\"", "back\\slash", "é ü", "\x7f", ""};
  for (unsigned byte = 0; byte < 0x20; ++byte) items.push_back("x" + std::string(1, char(byte)));
  Enrichment e = FeedbackEnrichment();
  e.themes = items;
  e.actionable_items = items;
  const std::string stored(Write(R"({"kind":"feedback","freeText":{"liked":"a"}})", e).text);
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartArray();
  for (const std::string& item : items) {
    w.String(item.data(), static_cast<rapidjson::SizeType>(item.size()));
  }
  w.EndArray();
  const std::string array = buffer.GetString();
  EXPECT_NE(stored.find("\"_extractedThemes\":" + array + ","), std::string::npos) << stored;
  EXPECT_NE(stored.find("\"_actionableItems\":" + array + "}"), std::string::npos) << stored;
  EXPECT_EQ(ParseOutput(stored)["freeText"]["_actionableItems"].get_array().size(), items.size());
}

TEST_F(EnrichStored, FieldsAreKeptAsTheClientWroteThemButMinified) {
  // Whitespace between tokens goes; escapes and number spellings stay as sent (they read back as
  // the same values).
  StoredLine line = Write(
      "{ \"kind\" : \"work\", \"score\" : 7.50, \"big\" : 1E2,\n \"note\" : \"caf\\u00e9 \\/ ok\", "
      "\"list\" : [ 1 , { \"a\" : \" spaced  out \" } ] }",
      Base("work"));
  EXPECT_EQ(line.text, std::string(R"({"kind":"work","id":")") + kId + R"(","timestamp":")" +
                           kStoredTs +
                           R"(","score":7.50,"big":1E2,"note":"caf\u00e9 \/ ok",)"
                           R"("list":[1,{"a":" spaced  out "}]})");
  std::string out;
  FinishStoredEvent(line, 0, std::nullopt, &out);
  simdjson::dom::element doc = ParseOutput(out.substr(0, out.size() - 1));
  std::string_view note;
  EXPECT_EQ(doc["note"].get_string().get(note), simdjson::SUCCESS);
  EXPECT_EQ(note, "caf\xc3\xa9 / ok");
}

TEST_F(EnrichStored, EscapedKeysAreRecognizedByTheirValue) {
  // "\u006deta" is "meta" and "\u005fx" is "_x": treated as the fields they name.
  StoredLine line =
      Write(R"({"kind":"feedback","\u006deta":{"sessionFatigue":4,"a":1},"\u005fx":2})",
            FeedbackEnrichment());
  EXPECT_EQ(line.text, std::string(R"({"kind":"feedback","id":")") + kId + R"(","timestamp":")" +
                           kStoredTs +
                           R"(","\u006deta":{"a":1,"timeOfDay":"morning","dayOfWeek":"friday",)"
                           R"("sessionFatigue":0}})");
}

TEST_F(EnrichStored, EveryMemberIsCopiedWholeWhateverItsValueHolds) {
  // Every member but kind, id and timestamp must be in the stored line, whole and in order, with
  // the whitespace between tokens gone. Values that could end a member early or late: brackets,
  // quotes and backslashes inside strings, a backslash ending a string, nesting, empty containers,
  // numbers and literals last.
  const std::string values[] = {R"("a}b]c{d[e")",
                                R"("quote \" inside")",
                                R"("ends in a backslash \\")",
                                R"("\\\"")",
                                R"({"x":{"y":[1,[2,{"z":"}"}]]}})",
                                R"([[],{},[{}],""])",
                                R"({})",
                                R"([])",
                                R"(-1.5e-7)",
                                R"(true)",
                                R"(null)",
                                R"(false)",
                                R"("caf\u00e9 \ud83d\ude00")",
                                R"([1,"],",{"k,":"v:"}])"};
  const std::string prefix =
      std::string(R"({"kind":"work","id":")") + kId + R"(","timestamp":")" + kStoredTs + "\"";
  for (const std::string& value : values) {
    for (bool last : {false, true}) {
      const std::string members =
          last ? R"("before":1,"v":)" + value : R"("v":)" + value + R"(,"after":"x")";
      const std::string expected = prefix + "," + members + "}";
      EXPECT_EQ(Write(R"({"kind":"work",)" + members + "}", Base("work")).text, expected);
      const std::string spaced = last ? " \"before\" :\t1 ,\r\n\"v\" : " + value + " "
                                      : "\"v\":  " + value + "\n, \"after\" : \"x\"";
      EXPECT_EQ(Write("{ \"kind\" : \"work\" , " + spaced + " }", Base("work")).text, expected)
          << spaced;
    }
  }
}

TEST_F(EnrichStored, TokensOfAnotherTextAreRefused) {
  simdjson::dom::element doc;
  ASSERT_EQ(input_parser_.parse(std::string_view(R"({"kind":"work","a":[1,2,3]})")).get(doc),
            simdjson::SUCCESS);
  StoredLine line;
  // Shorter than what was parsed: its tokens run past its end.
  std::string buffer = "before";
  EXPECT_FALSE(writer_.Write(doc.get_object().value(),
                             JsonTokens::Of(input_parser_, R"({"kind":"work"})"), Base("work"),
                             &buffer, &line));
  // An array's tokens, not an object's.
  simdjson::dom::parser other;
  simdjson::dom::element array;
  ASSERT_EQ(other.parse(std::string_view("[1,2]")).get(array), simdjson::SUCCESS);
  EXPECT_FALSE(writer_.Write(doc.get_object().value(), JsonTokens::Of(other, "[1,2]"), Base("work"),
                             &buffer, &line));
  EXPECT_EQ(buffer, "before");  // nothing written
}

TEST_F(EnrichStored, LinesAreAppendedOneAfterTheOtherToTheBuffer) {
  simdjson::dom::element doc;
  const std::string a = R"({"kind":"outcome","bead_id":"a"})";
  const std::string b = R"({"kind":"feedback","meta":{"revisits":1}})";
  std::string buffer = "x";
  StoredLine first, second;
  ASSERT_EQ(input_parser_.parse(a).get(doc), simdjson::SUCCESS);
  ASSERT_TRUE(writer_.Write(doc.get_object().value(), JsonTokens::Of(input_parser_, a),
                            Base("outcome"), &buffer, &first));
  const size_t first_size = first.text.size();
  ASSERT_EQ(input_parser_.parse(b).get(doc), simdjson::SUCCESS);
  ASSERT_TRUE(writer_.Write(doc.get_object().value(), JsonTokens::Of(input_parser_, b),
                            FeedbackEnrichment(), &buffer, &second));
  EXPECT_EQ(buffer.size(), 1 + first_size + second.text.size());
  EXPECT_EQ(second.text.data(), buffer.data() + 1 + first_size);
  // The fatigue placeholder's offset is from the line's start, not the buffer's.
  ASSERT_NE(second.fatigue_at, std::string::npos);
  EXPECT_EQ(second.text.substr(second.fatigue_at - 17, 18), "\"sessionFatigue\":0");
  EXPECT_EQ(std::string_view(buffer).substr(1, first_size),
            std::string(R"({"kind":"outcome","id":")") + kId + R"(","timestamp":")" + kStoredTs +
                R"(","bead_id":"a"})");
}

}  // namespace
}  // namespace kaizen::ingest
