#include "learn/learner.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "learn/config_json.h"

namespace kaizen::learn {
namespace {

constexpr int64_t kNow = 1753056000000;  // 2025-07-21T00:00:00Z

// A small log: work products, reviews (one by reference), outcomes, an error, a loop.
std::vector<std::string> Log() {
  std::vector<std::string> lines;
  for (int i = 0; i < 12; ++i) {
    std::string day = std::to_string(10 + i % 9);
    lines.push_back(
        R"({"kind":"work","id":"0197c348-8800-7c04-bedd-1d85e9fa6)" + std::to_string(100 + i) +
        R"(","timestamp":"2025-07-)" + day +
        R"(T08:00:00.000Z","workProduct":{"type":"mcp-server","id":"art-)" + std::to_string(i) +
        R"(","version":"v1","summary":"s","bubaConfidence":0.)" + std::to_string(5 + i % 5) +
        R"(,"generationContext":{"promptHash":"h","memorySnapshot":[],"modelUsed":"opus","generationTimeMs":1,"iterationCount":1}},"mcpServerType":"shopify"})");
    lines.push_back(
        R"({"kind":"feedback","id":"0197c53b-dcef-77af-b244-36c29972c)" + std::to_string(100 + i) +
        R"(","timestamp":"2025-07-)" + day + R"(T09:00:00.000Z","sessionId":"s)" +
        std::to_string(i) + R"(","modalId":"m","workProduct":{"id":"art-)" + std::to_string(i) +
        R"("},"pipelineStage":"implement","reviewerId":"jake","decision":{"decision":")" +
        (i % 3 == 0 ? "rejected" : "approved") +
        R"("},"scores":[{"dimension":"error-handling","score":)" + std::to_string(3 + i % 6) +
        R"(}],"freeText":{"disliked":"x","_extractedThemes":["error-handling"]},"meta":{"timeToDecisionMs":)" +
        std::to_string(10000 + 1000 * i) + R"(,"sessionFatigue":1}})");
    lines.push_back(R"({"kind":"outcome","id":"0197c50f-7dbc-7e96-8efb-437fd8256)" +
                    std::to_string(100 + i) + R"(","timestamp":"2025-07-)" + day +
                    R"(T10:00:00.000Z","bead_id":"bd-)" + std::to_string(i) +
                    R"(","duration_ms":60000,"error_count":0,"retry_count":0,"success":)" +
                    (i % 2 == 0 ? "false" : "true") +
                    R"(,"criteria":["type_safe"],"description":"We'll split by file type"})");
  }
  lines.push_back(
      R"({"kind":"error","id":"0197cfcf-4462-72b8-af7e-1a4321a3e2de","timestamp":"2025-07-12T10:00:00.000Z","bead_id":"bd-1","error_type":"timeout","message":"slow"})");
  lines.push_back(
      R"({"kind":"loop","id":"0197cfa4-0b65-7203-b82b-49bf667eb0e2","timestamp":"2025-07-12T10:00:00.000Z","loop_id":"loop-1","iteration":1,"metrics":{"test_coverage":0.9,"tests_passing":true,"security_score":0.9,"code_quality_score":0.9,"doc_coverage":0.9,"type_coverage":0.9}})");
  return lines;
}

void Fold(Learner& learner, const std::vector<std::string>& lines, size_t from, size_t to) {
  EventReader reader;
  EventViews views;
  for (size_t i = from; i < to; ++i) {
    ASSERT_TRUE(reader.ReadJson(lines[i], &views)) << lines[i];
    learner.Add(views);
  }
}

TEST(Learner, EmptyLogHasEveryContractKey) {
  Learner learner{LearnConfig()};
  std::string json = learner.AnalysisJson(kNow);
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_EQ(parser.parse(json).get(root), simdjson::SUCCESS) << json;
  for (const char* key : {"now", "events", "approval", "gates", "calibration", "decisionSpeed",
                          "preferences", "autonomy", "communication", "criteria", "patterns",
                          "antiPatterns", "errors", "loops", "contradictions", "kpis", "alerts"}) {
    EXPECT_EQ(root[key].error(), simdjson::SUCCESS) << key;
  }
  EXPECT_EQ(uint64_t(root["events"]["total"]), 0u);
  EXPECT_TRUE(root["approval"]["overall"]["rate"].is_null());
}

TEST(Learner, SameLogSameConfigSameNowGiveTheSameBytes) {
  std::vector<std::string> lines = Log();
  Learner a{LearnConfig()}, b{LearnConfig()};
  Fold(a, lines, 0, lines.size());
  Fold(b, lines, 0, lines.size());
  EXPECT_EQ(a.AnalysisJson(kNow), b.AnalysisJson(kNow));
  EXPECT_EQ(a.AnalysisText(kNow), b.AnalysisText(kNow));
}

TEST(Learner, IncrementalFoldingEqualsAFullRecomputation) {
  std::vector<std::string> lines = Log();
  Learner incremental{LearnConfig()};
  // Analyses in between must not change the state.
  for (size_t i = 0; i < lines.size(); ++i) {
    Fold(incremental, lines, i, i + 1);
    if (i % 7 == 0) (void)incremental.AnalysisJson(kNow);
  }
  Learner full{LearnConfig()};
  Fold(full, lines, 0, lines.size());
  EXPECT_EQ(incremental.AnalysisJson(kNow), full.AnalysisJson(kNow));
}

TEST(Learner, ReferencedWorkFeedsCalibrationAndAutonomy) {
  std::vector<std::string> lines = Log();
  Learner learner{LearnConfig()};
  Fold(learner, lines, 0, lines.size());
  EXPECT_EQ(learner.calibration().Result().n, 12);
  std::vector<TaskAutonomy> tasks = learner.autonomy().Result();
  ASSERT_EQ(tasks.size(), 1u);
  EXPECT_EQ(tasks[0].task_type, "shopify");
  EXPECT_EQ(tasks[0].approvals, 8);
}

TEST(Learner, HalfOfTheOutcomesFailingInvertsTheExtractedPattern) {
  std::vector<std::string> lines = Log();
  Learner learner{LearnConfig()};
  Fold(learner, lines, 0, lines.size());
  std::vector<AntiPattern> anti = learner.outcomes().AntiPatterns();
  // 6 of 12 failed: 50% < 60%, no inversion.
  EXPECT_TRUE(anti.empty());
}

TEST(Learner, ConfigChangesTheVerdicts) {
  std::vector<std::string> lines = Log();
  LearnConfig config;
  ASSERT_TRUE(
      ApplyConfigJson(R"({"outcomes":{"anti_pattern_failure_ratio":0.5}})", config.Fields()).ok());
  Learner learner{config};
  Fold(learner, lines, 0, lines.size());
  std::vector<AntiPattern> anti = learner.outcomes().AntiPatterns();
  ASSERT_EQ(anti.size(), 1u);
  EXPECT_EQ(anti[0].content, "AVOID: Split by file type. Failed 6/12 times (50% failure rate)");
}

TEST(Learner, ExplainNamesWhatItDoesNotKnow) {
  Learner learner{LearnConfig()};
  std::string text;
  Status s = learner.Explain("pattern", "Nope", kNow, &text);
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_NE(s.message().find("Nope"), std::string::npos);
  EXPECT_EQ(learner.Explain("weather", "x", kNow, &text).code(), StatusCode::kInvalidArgument);
}

// Log() with what it lacks: a comparison, annotations, corrections, a reward and an admin event.
std::vector<std::string> RicherLog() {
  std::vector<std::string> lines = Log();
  lines.push_back(
      R"({"kind":"feedback","id":"0197c53b-dcef-77af-b244-36c29972c901","timestamp":"2025-07-19T09:00:00.000Z","workProduct":{"id":"art-3"},"mcpServerType":"stripe","reviewerId":"priya","decision":{"decision":"needs-work","reason":"Webhook handler needs more specific error types","severity":"major","blockers":["No retry logic"]},"scores":[{"dimension":"test-coverage","score":4}],"comparison":{"optionA":{"id":"art-1"},"optionB":{"id":"art-2"},"preferred":"A","preferenceStrength":"strong"},"annotations":[{"type":"criticism","text":"Generic catch block","severity":"minor","category":"Error Handling"}]})");
  lines.push_back(
      R"({"kind":"correction","id":"0197fdc7-73aa-7937-a01e-d22706e0a19d","timestamp":"2025-07-19T10:00:00.000Z","correction_type":"auto","original":"Responsible for the leverage of synergies","corrected":"Led the merger of two teams","user_id":"jordan"})");
  lines.push_back(
      R"({"kind":"reward","id":"019862ee-9b05-7cae-881e-82a5536ef4bb","timestamp":"2025-07-19T11:00:00.000Z","signal_id":"sig-1","task_id":"t-1","signal_type":"ci_pass","raw_value":1,"source":"automatic","signal_value":1.0})");
  lines.push_back(
      R"({"kind":"admin","id":"0197fdc7-73aa-7937-a01e-d22706e0a1a0","timestamp":"2025-07-19T12:00:00.000Z","action":"consent","user_id":"jordan","consent":"granted"})");
  return lines;
}

// A learner of only the parts a section needs, reading only the kinds those parts take (as
// `kaizen analyze --only` does), writes that section as the learner of every part does.
TEST(Learner, EachSectionFromItsOwnPartsEqualsTheSameSectionOfTheWholeFold) {
  const std::vector<std::string> lines = RicherLog();
  Learner whole{LearnConfig()};
  Fold(whole, lines, 0, lines.size());
  for (size_t i = 0; i < kSectionCount; ++i) {
    const Section section = static_cast<Section>(i);
    const Sections only{section};
    Learner part{LearnConfig(), nullptr, only.Needs()};
    EventReader reader;
    reader.set_scope(part.scope());
    EventViews views;
    for (const std::string& line : lines) {
      ASSERT_TRUE(reader.ReadJson(line, &views)) << line;
      part.Add(views);
    }
    EXPECT_EQ(part.AnalysisJson(kNow, only), whole.AnalysisJson(kNow, only))
        << SectionName(section);
    EXPECT_EQ(part.AnalysisText(kNow, only), whole.AnalysisText(kNow, only))
        << SectionName(section);
    EXPECT_EQ(part.newest_ms(), whole.newest_ms());
  }
}

TEST(Learner, AnalysisOfSomeSectionsHasOnlyTheirKeysAfterNowAndEvents) {
  const std::vector<std::string> lines = RicherLog();
  Learner learner{LearnConfig(), nullptr, Sections{Section::kGates, Section::kRegressions}.Needs()};
  Fold(learner, lines, 0, lines.size());
  const std::string json =
      learner.AnalysisJson(kNow, Sections{Section::kRegressions, Section::kGates});
  simdjson::dom::parser parser;
  simdjson::dom::object root;
  ASSERT_EQ(parser.parse(json).get(root), simdjson::SUCCESS) << json;
  std::vector<std::string> keys;
  for (auto field : root) keys.emplace_back(field.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"now", "events", "gates", "regressionsTotal",
                                            "regressions"}));
  // Every event is counted, read whole or not.
  EXPECT_EQ(uint64_t(root["events"]["total"]), lines.size());
  EXPECT_EQ(uint64_t(root["events"]["outcome"]), 12u);
  EXPECT_EQ(uint64_t(root["events"]["reward"]), 1u);
}

TEST(Learner, AFoldOfSomePartsReadsOnlyTheirKinds) {
  EXPECT_EQ((Sections{Section::kGates}.Needs().Kinds()),
            (KindSet{model::EventKind::kFeedback, model::EventKind::kWork}));
  EXPECT_EQ((Sections{Section::kPatterns}.Needs().Kinds()), (KindSet{model::EventKind::kOutcome}));
  EXPECT_EQ((Sections{Section::kLoops, Section::kErrors}.Needs().Kinds()),
            (KindSet{model::EventKind::kLoop, model::EventKind::kError}));
  // Rewards feed autonomy, calibration and outcomes through the signals (gates read none); the
  // memory files' correction patterns read corrections and audits.
  EXPECT_TRUE(Parts::All().Kinds().Has(model::EventKind::kReward));
  EXPECT_FALSE((Sections{Section::kGates}.Needs().Kinds().Has(model::EventKind::kReward)));
  EXPECT_TRUE((Sections{Section::kSignals}.Needs().Kinds().Has(model::EventKind::kReward)));
  EXPECT_TRUE(Parts::All().Kinds().Has(model::EventKind::kCorrection));
  EXPECT_FALSE(Sections::All().Needs().Kinds().Has(model::EventKind::kCorrection));
  EXPECT_FALSE(Sections::All().Needs().Has(Part::kRecent));
}

TEST(Learner, ExplainFoldsOnlyWhatItExplains) {
  EXPECT_EQ(Learner::PartsToExplain("gate"), Parts{Part::kGates});
  EXPECT_EQ(Learner::PartsToExplain("pattern"), Parts{Part::kOutcomes});
  EXPECT_EQ(Learner::PartsToExplain("criterion"), Parts{Part::kOutcomes});
  EXPECT_EQ(Learner::PartsToExplain("weather"), std::nullopt);
  const std::vector<std::string> lines = RicherLog();
  Learner whole{LearnConfig()};
  Fold(whole, lines, 0, lines.size());
  for (auto [what, name] :
       {std::pair{"gate", "error-handling"}, std::pair{"pattern", "Split by file type"},
        std::pair{"calibration", "all"}, std::pair{"autonomy", "shopify"},
        std::pair{"loop", "loop-1"}}) {
    Learner part{LearnConfig(), nullptr, *Learner::PartsToExplain(what)};
    Fold(part, lines, 0, lines.size());
    std::string expected, got;
    ASSERT_TRUE(whole.Explain(what, name, kNow, &expected).ok()) << what;
    ASSERT_TRUE(part.Explain(what, name, kNow, &got).ok()) << what;
    EXPECT_EQ(got, expected) << what;
  }
}

TEST(Sections, AListOfNamesParsesAndAnUnknownOneIsNamedWithTheKnownOnes) {
  std::string error;
  std::optional<Sections> s = Sections::Parse("approval,gates,calibration", &error);
  ASSERT_TRUE(s.has_value());
  EXPECT_TRUE(s->Has(Section::kApproval) && s->Has(Section::kGates) &&
              s->Has(Section::kCalibration));
  EXPECT_FALSE(s->Has(Section::kKpis));
  EXPECT_FALSE(Sections::Parse("approval,gaets", &error).has_value());
  EXPECT_NE(error.find("\"gaets\" is not a section"), std::string::npos) << error;
  EXPECT_NE(error.find("biasWatch"), std::string::npos) << error;
  EXPECT_FALSE(Sections::Parse("approval,", &error).has_value());
  EXPECT_NE(error.find("has an empty section name"), std::string::npos) << error;
  for (size_t i = 0; i < kSectionCount; ++i) {
    const Section section = static_cast<Section>(i);
    EXPECT_EQ(ParseSection(SectionName(section)), section);
  }
}

// Events read and prepared ahead (as reader threads do), then added, fold to the same bytes as
// events Add prepares itself: themes, kept reviews, corrections and strategies included.
TEST(Learner, PreparedAheadFoldsToTheSameAnalysisAsUnprepared) {
  std::vector<std::string> lines = Log();
  lines.push_back(
      R"({"kind":"feedback","id":"0197c53b-dcef-77af-b244-36c29972c900","timestamp":"2025-07-19T09:00:00.000Z","workProduct":{"id":"art-3"},"mcpServerType":"stripe","reviewerId":"priya","decision":{"decision":"needs-work","reason":"Webhook handler needs more specific error types","severity":"major","blockers":["No retry logic"],"suggestions":["Add tests for empty arrays"]},"scores":[{"dimension":"test-coverage","score":4},{"dimension":"naming","score":8}],"annotations":[{"type":"criticism","text":"Generic catch block","severity":"minor","category":"Error Handling"},{"type":"praise","text":"Clear names","category":"naming"}]})");
  lines.push_back(
      R"({"kind":"correction","id":"0197fdc7-73aa-7937-a01e-d22706e0a19d","timestamp":"2025-07-19T10:00:00.000Z","correction_type":"auto","original":"Responsible for the leverage of synergies","corrected":"Led the merger of two teams","context":{"project":"VIA"},"user_id":"jordan"})");
  lines.push_back(
      R"j({"kind":"correction","id":"0197fdc7-73aa-7937-a01e-d22706e0a19e","timestamp":"2025-07-19T11:00:00.000Z","correction_type":"source_missing","original":"Revenue doubled","corrected":"Revenue doubled (2024 annual report, p. 12)","user_id":"sam"
})j");

  Learner plain{LearnConfig{}};
  Fold(plain, lines, 0, lines.size());

  Learner prepared{LearnConfig{}};
  // One reader per line: each line's views stay valid until all are added.
  std::vector<std::unique_ptr<EventReader>> readers;
  std::vector<EventViews> views(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    readers.push_back(std::make_unique<EventReader>());
    ASSERT_TRUE(readers.back()->ReadJson(lines[i], &views[i])) << lines[i];
    prepared.Prepare(&views[i]);
    EXPECT_EQ(views[i].prepared.by, &prepared);
  }
  for (EventViews& v : views) prepared.Add(v);

  EXPECT_EQ(prepared.events(), plain.events());
  EXPECT_EQ(prepared.AnalysisJson(kNow), plain.AnalysisJson(kNow));
  EXPECT_EQ(prepared.AnalysisText(kNow), plain.AnalysisText(kNow));
}

// A view prepared for another learner (another taxonomy, maybe) is computed again by Add, and a
// view read anew is not taken as prepared.
TEST(Learner, AddIgnoresWhatAnotherLearnerPrepared) {
  const std::vector<std::string> lines = Log();
  Learner other{LearnConfig{}};
  Learner plain{LearnConfig{}};
  Fold(plain, lines, 0, lines.size());
  Learner learner{LearnConfig{}};
  EventReader reader;
  EventViews views;
  for (const std::string& line : lines) {
    ASSERT_TRUE(reader.ReadJson(line, &views));
    EXPECT_EQ(views.prepared.by, nullptr);
    other.Prepare(&views);
    if (views.kind == model::EventKind::kFeedback) views.prepared.themes.clear();
    learner.Add(views);
  }
  EXPECT_EQ(learner.AnalysisJson(kNow), plain.AnalysisJson(kNow));
}

// The queue keeps a pending work product's strings without copying them: they must be the
// learner's own, not the folded line's.
TEST(Learner, APendingWorkProductOutlivesTheLineItWasReadFrom) {
  Learner learner{LearnConfig{}};
  {
    std::vector<std::string> lines = Log();
    Fold(learner, lines, 0, 1);  // art-0's work event, not yet reviewed
    for (std::string& line : lines) line.assign(line.size(), '#');
    Fold(learner, Log(), 2, 3);  // an outcome: the reader's buffers are reused
  }
  const auto& pending = learner.queue().pending();
  ASSERT_EQ(pending.size(), 1u);
  const QueueItem& item = pending.begin()->second;
  EXPECT_EQ(item.artifact_id, "art-0");
  EXPECT_EQ(item.version, "v1");
  EXPECT_EQ(item.event_id, "0197c348-8800-7c04-bedd-1d85e9fa6100");
  EXPECT_EQ(item.type, "mcp-server");
  EXPECT_EQ(item.server_type, "shopify");
  EXPECT_EQ(item.summary, "s");
  EXPECT_EQ(item.model, "opus");
  EXPECT_EQ(pending.begin()->first, (ReviewQueue::Key{"art-0", "v1"}));
}

TEST(LearnConfig, EveryFieldHasAUniqueNameAndItsDefaultIsInRange) {
  LearnConfig config;
  std::set<std::string_view> names;
  for (const ConfigField& f : config.Fields()) {
    EXPECT_TRUE(names.insert(f.name).second) << f.name;
    EXPECT_NE(f.name.find('.'), std::string_view::npos) << f.name;
    EXPECT_GE(*f.value, f.min) << f.name;
    EXPECT_LE(*f.value, f.max) << f.name;
    EXPECT_FALSE(f.doc.empty()) << f.name;
  }
}

TEST(LearnConfig, ErrorsNameTheKeyTheValueAndTheRule) {
  LearnConfig config;
  Status s = ApplyConfigJson(R"({"outcomes":{"half_life_days":-3}})", config.Fields());
  EXPECT_EQ(s.message(),
            "learning config: outcomes.half_life_days: -3.0 is out of range 0.001..36500.0");
  s = ApplyConfigJson(R"({"outcomes":{"half_lives":3}})", config.Fields());
  EXPECT_NE(s.message().find("\"outcomes.half_lives\": unknown key"), std::string::npos)
      << s.message();
  s = ApplyConfigJson(R"({"gates":{"min_scores":20.5}})", config.Fields());
  EXPECT_NE(s.message().find("gates.min_scores: 20.5 must be a whole number"), std::string::npos)
      << s.message();
  s = ApplyConfigJson(R"({"gates":{"min_scores":"20"}})", config.Fields());
  EXPECT_NE(s.message().find("is not a number"), std::string::npos) << s.message();
  s = ApplyConfigJson(R"({"planets":{}})", config.Fields());
  EXPECT_NE(s.message().find("unknown section"), std::string::npos) << s.message();
  // A refused file changes nothing, not even its valid keys.
  s = ApplyConfigJson(R"({"gates":{"hard":0.9,"soft":7}})", config.Fields());
  EXPECT_FALSE(s.ok());
  EXPECT_DOUBLE_EQ(config.gates.hard, 0.95);
}

TEST(LearnConfig, ConfigJsonRoundTrips) {
  LearnConfig a;
  ASSERT_TRUE(
      ApplyConfigJson(R"({"kpis":{"window_days":14},"loop":{"max_cost":2.5}})", a.Fields()).ok());
  std::string text = ConfigJson(a.Fields());
  LearnConfig b;
  ASSERT_TRUE(ApplyConfigJson(text, b.Fields()).ok()) << text;
  EXPECT_EQ(ConfigJson(b.Fields()), text);
  EXPECT_DOUBLE_EQ(b.kpis.window_days, 14);
}

}  // namespace
}  // namespace kaizen::learn
