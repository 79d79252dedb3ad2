#include <gtest/gtest.h>
#include <simdjson.h>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/validate.h"
#include "learn/learner.h"
#include "model/timestamp.h"
#include "sim/simulate.h"
#include "sim/simulate_agent.h"
#include "sim/simulate_reviewer.h"

namespace kaizen::sim {
namespace {

constexpr int64_t kDay = kSimDayMs;

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    lines.push_back(text.substr(0, nl));
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
  }
  return lines;
}

// An item of task type 0 whose every dimension has quality `q`, then `overrides`.
WorkItem Item(int day, int index, double q, std::map<Dim, double> overrides = {}) {
  WorkItem item;
  item.day = day;
  item.index = index;
  item.quality.fill(q);
  for (auto [d, v] : overrides) item.quality[static_cast<size_t>(d)] = v;
  return item;
}

struct Tally {
  int reviews = 0, approved = 0, gated = 0, scored = 0;
  double decide_ms = 0;
  std::map<std::string, int> decisions;
};

// Reviews `n` items like `item` (different draws: different indexes) in `window`.
Tally ReviewMany(const HiddenReviewer& reviewer, WorkItem item, int n, ReviewWindow window,
                 Dim watch = Dim::kNaming) {
  Tally t;
  for (int i = 0; i < n; ++i) {
    item.index = i;
    const Review r = reviewer.Judge(item, window, 1);
    ++t.reviews;
    t.approved += r.approved ? 1 : 0;
    t.gated += r.gate != nullptr ? 1 : 0;
    t.decide_ms += static_cast<double>(r.time_to_decision_ms);
    ++t.decisions[std::string(r.decision)];
    for (int k = 0; k < r.score_count; ++k) t.scored += r.dims[static_cast<size_t>(k)] == watch;
  }
  return t;
}

// ---- The hidden reviewer ---------------------------------------------------------------------

TEST(HiddenReviewer, ErrorHandlingBelowSixIsRejectedNearlyAlways) {
  const HiddenReviewer reviewer(7);
  // Quality 3 scores 2..4 (noise sd 0.6): always below 6.
  Tally t =
      ReviewMany(reviewer, Item(3, 0, 8, {{Dim::kErrorHandling, 3}}), 2000, ReviewWindow::kMorning);
  EXPECT_GE(t.decisions["rejected"], 1900);  // 97% in expectation: 1940
  EXPECT_LE(t.decisions["rejected"], 1975);
  EXPECT_EQ(t.gated, t.decisions["rejected"]);
}

TEST(HiddenReviewer, TestCoverageBelowFiveIsSentBackNearlyAlways) {
  const HiddenReviewer reviewer(7);
  Tally t = ReviewMany(reviewer, Item(3, 0, 8, {{Dim::kTestCoverage, 2.5}}), 2000,
                       ReviewWindow::kMorning);
  EXPECT_GE(t.decisions["needs-work"], 1860);  // 95%: 1900
  EXPECT_LE(t.decisions["needs-work"], 1940);
  EXPECT_EQ(t.decisions["rejected"], 0);
}

TEST(HiddenReviewer, NamingBelowFourIsASoftGateWhenScored) {
  const HiddenReviewer reviewer(7);
  Tally t = ReviewMany(reviewer, Item(3, 0, 8, {{Dim::kNaming, 2}}), 2000, ReviewWindow::kMorning,
                       Dim::kNaming);
  // Naming is one of 2-4 picks from 5 candidates: scored in 60% of reviews.
  EXPECT_GT(t.scored, 1100);
  EXPECT_LT(t.scored, 1300);
  // 85% of the scored ones are sent back; unscored ones (mean 8) are approved at 97%.
  const double gated_share = static_cast<double>(t.gated) / t.scored;
  EXPECT_GT(gated_share, 0.80);
  EXPECT_LT(gated_share, 0.90);
}

TEST(HiddenReviewer, WorkClearOfTheGatesIsApprovedByItsMeanScore) {
  const HiddenReviewer reviewer(7);
  Tally good = ReviewMany(reviewer, Item(3, 0, 8), 1000, ReviewWindow::kMorning);
  EXPECT_EQ(good.gated, 0);
  EXPECT_GT(good.approved, 940);  // 97%
  // A mean near 6 with the gates (nearly always) cleared: p = 0.86.
  Tally middling = ReviewMany(reviewer, Item(3, 0, 5.6, {{Dim::kErrorHandling, 7.5}}), 1000,
                              ReviewWindow::kMorning);
  EXPECT_LT(middling.approved, good.approved);
  EXPECT_GT(middling.approved, 600);
}

TEST(HiddenReviewer, EveningReviewsAreFasterAndHarsher) {
  const HiddenReviewer reviewer(7);
  const WorkItem item = Item(3, 0, 6, {{Dim::kErrorHandling, 7}});
  Tally morning = ReviewMany(reviewer, item, 2000, ReviewWindow::kMorning);
  Tally evening = ReviewMany(reviewer, item, 2000, ReviewWindow::kEvening);
  EXPECT_LT(evening.decide_ms, 0.7 * morning.decide_ms);
  EXPECT_LT(evening.approved + 100, morning.approved);
}

TEST(HiddenReviewer, ObviousFlawsAreRejectedFast) {
  const HiddenReviewer reviewer(7);
  Tally flawed =
      ReviewMany(reviewer, Item(3, 0, 8, {{Dim::kErrorHandling, 2}}), 500, ReviewWindow::kMorning);
  Tally clean = ReviewMany(reviewer, Item(3, 0, 8), 500, ReviewWindow::kMorning);
  EXPECT_LT(flawed.decide_ms, 0.5 * clean.decide_ms);
}

TEST(HiddenReviewer, ScoresFourToSixDimensionsAlwaysErrorHandlingAndTestCoverage) {
  const HiddenReviewer reviewer(3);
  std::set<int> counts;
  for (int i = 0; i < 300; ++i) {
    WorkItem item = Item(1, i, 7);
    item.task = i % kTaskTypeCount;
    const Review r = reviewer.Judge(item, ReviewWindow::kAfternoon, 1 + i % 12);
    counts.insert(r.score_count);
    ASSERT_GE(r.score_count, 4);
    ASSERT_LE(r.score_count, 6);
    EXPECT_EQ(r.dims[0], Dim::kErrorHandling);
    EXPECT_EQ(r.dims[1], Dim::kTestCoverage);
    std::set<Dim> distinct(r.dims.begin(), r.dims.begin() + r.score_count);
    EXPECT_EQ(static_cast<int>(distinct.size()), r.score_count) << "a dimension scored twice";
  }
  EXPECT_EQ(counts, (std::set<int>{4, 5, 6}));
}

TEST(HiddenReviewer, SameItemSameReview) {
  const HiddenReviewer a(11), b(11), other(12);
  const WorkItem item = Item(5, 9, 6, {{Dim::kNaming, 3.6}});
  const Review x = a.Judge(item, ReviewWindow::kEvening, 4);
  const Review y = b.Judge(item, ReviewWindow::kEvening, 4);
  EXPECT_EQ(x.decision, y.decision);
  EXPECT_EQ(x.scores, y.scores);
  EXPECT_EQ(x.time_to_decision_ms, y.time_to_decision_ms);
  int differ = 0;
  for (int i = 0; i < 50; ++i) {
    WorkItem it = item;
    it.index = i;
    differ += a.Judge(it, ReviewWindow::kMorning, 1).scores !=
              other.Judge(it, ReviewWindow::kMorning, 1).scores;
  }
  EXPECT_GT(differ, 25);
}

TEST(ApprovalProbability, RisesWithTheMeanAndDropsInTheEvening) {
  EXPECT_DOUBLE_EQ(ApprovalProbability(5.4, false), 0.5);
  EXPECT_NEAR(ApprovalProbability(6.0, false), 0.86, 1e-12);
  EXPECT_NEAR(ApprovalProbability(6.0, true), 0.80, 1e-12);
  EXPECT_DOUBLE_EQ(ApprovalProbability(9, false), 0.97);  // never certain
  EXPECT_DOUBLE_EQ(ApprovalProbability(1, false), 0.03);
}

// ---- The agent -------------------------------------------------------------------------------

TEST(SimulatedAgent, DisfavouredPatternsFailMoreOften) {
  EXPECT_NEAR(SuccessProbability(Pattern::kSplitByFeature, Pattern::kTestsAlongside), 0.96, 1e-12);
  EXPECT_NEAR(SuccessProbability(Pattern::kSplitByComponent, Pattern::kTestsSeparate), 0.82, 1e-12);
  EXPECT_NEAR(SuccessProbability(Pattern::kSplitByFileType, Pattern::kTestsSeparate), 0.42, 1e-12);
  EXPECT_NEAR(SuccessProbability(Pattern::kSplitByFileType, Pattern::kOneFilePerSubtask), 0.04,
              1e-12);
}

TEST(SimulatedAgent, AdoptionGrowsFromNothingToNinetyPercentInThreeWeeks) {
  EXPECT_DOUBLE_EQ(Adoption(kDay, kDay), 0);
  EXPECT_DOUBLE_EQ(Adoption(kDay, 0), 0);  // advice from the future is not followed
  EXPECT_NEAR(Adoption(0, 7 * kDay), 0.3, 1e-12);
  EXPECT_NEAR(Adoption(0, 21 * kDay), 0.9, 1e-12);
  EXPECT_DOUBLE_EQ(Adoption(0, 60 * kDay), 0.9);
}

// Feeds stored-event JSON to a learner the way the simulation does.
class Feeder {
 public:
  explicit Feeder(learn::Learner* learner) : learner_(learner) {}
  void Add(const std::string& json) {
    ASSERT_TRUE(reader_.ReadJson(json, &views_)) << json;
    learner_->Add(views_);
  }
  // A decided review of an inline work product.
  void Review(int64_t at_ms, const std::string& id, double confidence, bool approved,
              const std::string& scores) {
    Add(R"({"kind":"feedback","id":"0190a000-0000-7000-8000-)" + id + R"(","timestamp":")" +
        model::FormatUtc(at_ms) + R"(","sessionId":"s","modalId":")" + id +
        R"(","workProduct":{"type":"code-module","id":")" + id +
        R"(","version":"v1","summary":"x","bubaConfidence":)" + std::to_string(confidence) +
        R"(,"generationContext":{"promptHash":"h","memorySnapshot":[],"modelUsed":"m",)"
        R"("generationTimeMs":1,"iterationCount":1}},"pipelineStage":"review",)"
        R"("decision":{"decision":")" +
        (approved ? "approved" : "rejected") + R"("},"scores":)" + scores +
        R"(,"meta":{"timeToDecisionMs":1000}})");
  }
  void Outcome(int64_t at_ms, const std::string& id, bool success, const std::string& pattern) {
    Add(R"({"kind":"outcome","id":"0190a000-0000-7000-9000-)" + id + R"(","timestamp":")" +
        model::FormatUtc(at_ms) + R"(","bead_id":")" + id +
        R"(","duration_ms":600000,"error_count":)" + (success ? "0" : "3") + R"(,"retry_count":)" +
        (success ? "0" : "2") + R"(,"success":)" + (success ? "true" : "false") +
        R"(,"patterns":[")" + pattern + R"("]})");
  }

 private:
  learn::Learner* learner_;
  learn::EventReader reader_;
  learn::EventViews views_;
};

std::string Id(int n) {
  std::string s = std::to_string(n);
  return std::string(12 - s.size(), '0') + s;
}

std::string Scores(int error_handling) {
  return R"([{"dimension":"error-handling","score":)" + std::to_string(error_handling) + "}]";
}

TEST(SimulatedAgent, LearningAgentMeetsALearnedGate) {
  learn::Learner learner{learn::LearnConfig{}};
  Feeder feed(&learner);
  // Error handling 5 is always rejected, 6 always approved: a hard gate at 6.
  for (int i = 0; i < 30; ++i) {
    feed.Review(kSimStartMs + 10 * 3600'000 + i, Id(i), 0.5, i % 2 == 1, Scores(5 + i % 2));
  }
  SimulatedAgent on(1, true), off(1, false);
  on.ReadAdvice(learner, kSimStartMs + kDay);
  off.ReadAdvice(learner, kSimStartMs + kDay);
  const AgentAdvice::Gate& gate = on.advice().gates[static_cast<size_t>(Dim::kErrorHandling)];
  ASSERT_TRUE(gate.known);
  EXPECT_EQ(gate.threshold, 6);
  EXPECT_DOUBLE_EQ(gate.rejection_rate, 1.0);
  EXPECT_EQ(gate.since_ms, kSimStartMs + kDay);
  EXPECT_FALSE(off.advice().gates[static_cast<size_t>(Dim::kErrorHandling)].known);

  // A month later the advice is a habit: the same items, with and without it.
  int below_on = 0, below_off = 0;
  for (int i = 0; i < 400; ++i) {
    const int64_t at = kSimStartMs + 31 * kDay;
    below_on += on.Make(31, i, at).quality[static_cast<size_t>(Dim::kErrorHandling)] < 6;
    below_off += off.Make(31, i, at).quality[static_cast<size_t>(Dim::kErrorHandling)] < 6;
  }
  EXPECT_GT(below_off, 80);  // ~30%: the agent's weak spot
  EXPECT_LT(below_on, 20);   // effort fails 10% of the time, self-assessment misses a few
  // On the day it is read, advice is not yet a habit: the items are the same.
  for (int i = 0; i < 50; ++i) {
    const int64_t at = kSimStartMs + kDay;
    EXPECT_EQ(on.Make(1, i, at).quality, off.Make(1, i, at).quality);
  }
}

TEST(SimulatedAgent, LearningAgentDropsAnAntiPattern) {
  learn::Learner learner{learn::LearnConfig{}};
  Feeder feed(&learner);
  for (int i = 0; i < 5; ++i) {
    feed.Outcome(kSimStartMs + i * 60'000, Id(100 + i), false, "Split by file type");
  }
  SimulatedAgent on(2, true), off(2, false);
  on.ReadAdvice(learner, kSimStartMs + kDay);
  ASSERT_TRUE(on.advice().avoid_since[static_cast<size_t>(Pattern::kSplitByFileType)]);
  EXPECT_FALSE(on.advice().avoid_since[static_cast<size_t>(Pattern::kSplitByFeature)]);
  int used_on = 0, used_off = 0;
  for (int i = 0; i < 400; ++i) {
    const int64_t at = kSimStartMs + 30 * kDay;
    used_on += on.Make(30, i, at).decomposition == Pattern::kSplitByFileType;
    used_off += off.Make(30, i, at).decomposition == Pattern::kSplitByFileType;
  }
  EXPECT_GT(used_off, 110);  // its habit: 35%
  EXPECT_LT(used_on, 30);    // 10% of 35%: advice not followed on every item
}

TEST(SimulatedAgent, CalibrationComposesThroughWhatWasReported) {
  learn::Learner learner{learn::LearnConfig{}};
  Feeder feed(&learner);
  SimulatedAgent agent(3, true);
  agent.ReadAdvice(learner, kSimStartMs);  // the first morning: nothing to calibrate
  for (const auto& c : agent.advice().calibration) EXPECT_FALSE(c);

  // Day 1: reported 0.85, half approved.
  for (int i = 0; i < 10; ++i) feed.Review(kSimStartMs + i, Id(i), 0.85, i % 2 == 0, "[]");
  agent.ReadAdvice(learner, kSimStartMs + kDay);
  ASSERT_TRUE(agent.advice().calibration[8]);
  EXPECT_DOUBLE_EQ(*agent.advice().calibration[8], 0.5);
  EXPECT_FALSE(agent.advice().calibration[7]);  // no pairs in its bucket

  // Day 2: what it then reported, 0.5, was approved 9 times in 10: belief 0.85 now maps to 0.9.
  for (int i = 0; i < 10; ++i) feed.Review(kSimStartMs + kDay + i, Id(50 + i), 0.5, i > 0, "[]");
  agent.ReadAdvice(learner, kSimStartMs + 2 * kDay);
  EXPECT_DOUBLE_EQ(*agent.advice().calibration[8], 0.9);
  EXPECT_DOUBLE_EQ(*agent.advice().calibration[5], 0.9);

  // Weeks without reviews: no recent pairs, so the map stays as it is.
  for (int d = 3; d < 3 + 2 * static_cast<int>(SimulatedAgent::kCalibrationDays); ++d) {
    agent.ReadAdvice(learner, kSimStartMs + d * kDay);
  }
  EXPECT_DOUBLE_EQ(*agent.advice().calibration[8], 0.9);
}

TEST(SimulatedAgent, SameSeedSameItems) {
  const SimulatedAgent a(5, false), b(5, false);
  for (int i = 0; i < 20; ++i) {
    const WorkItem x = a.Make(3, i, kSimStartMs + 3 * kDay);
    const WorkItem y = b.Make(3, i, kSimStartMs + 3 * kDay);
    EXPECT_EQ(x.artifact_id, y.artifact_id);
    EXPECT_EQ(x.quality, y.quality);
    EXPECT_EQ(x.confidence, y.confidence);
    EXPECT_EQ(x.decomposition, y.decomposition);
  }
}

// ---- The whole simulation --------------------------------------------------------------------

TEST(Simulation, SameSeedSameBytes) {
  SimulateOptions options;
  options.seed = 4;
  options.days = 15;
  std::string events_a, events_b;
  const std::string a = SimulationJson(RunSimulation(options, &events_a));
  const std::string b = SimulationJson(RunSimulation(options, &events_b));
  EXPECT_EQ(a, b);
  EXPECT_EQ(events_a, events_b);
  EXPECT_FALSE(events_a.empty());
  options.seed = 5;
  std::string events_c;
  EXPECT_NE(SimulationJson(RunSimulation(options, &events_c)), a);
  EXPECT_NE(events_c, events_a);
}

TEST(Simulation, WithAndWithoutLearningTheFirstDayIsTheSame) {
  // Nothing is learned before the first day, and the items' draws are shared.
  SimulateOptions on;
  on.days = 1;
  SimulateOptions off = on;
  off.learning = false;
  const SimulationResult a = RunSimulation(on, nullptr);
  const SimulationResult b = RunSimulation(off, nullptr);
  ASSERT_EQ(a.weeks.size(), 1u);
  EXPECT_EQ(a.weeks[0].submitted, b.weeks[0].submitted);
  EXPECT_EQ(a.weeks[0].reviewed, b.weeks[0].reviewed);
  EXPECT_EQ(a.weeks[0].approved, b.weeks[0].approved);
  EXPECT_EQ(a.weeks[0].abs_error_sum, b.weeks[0].abs_error_sum);
  EXPECT_EQ(a.weeks[0].auto_approved, 0);
}

TEST(Simulation, EveryEventIsAValidStoredLineInLogOrder) {
  SimulateOptions options;
  options.days = 10;
  std::string events;
  const SimulationResult result = RunSimulation(options, &events);
  ingest::ValidateOptions vopts;
  vopts.now_ms = 1767225600000;  // 2026-01-01
  simdjson::dom::parser parser;
  std::set<std::string> ids, artifacts, modal_sessions;
  std::map<std::string, int64_t> fatigue;  // session -> last sessionFatigue
  int64_t last_ms = 0;
  std::map<std::string, int> kinds;
  uint64_t lines = 0;
  for (std::string_view line : Lines(events)) {
    ++lines;
    SCOPED_TRACE(line);
    EXPECT_TRUE(line.starts_with(R"({"kind":")"));
    EXPECT_NE(line.find(R"(","id":")"), std::string_view::npos);
    simdjson::dom::element doc;
    ASSERT_EQ(parser.parse(line.data(), line.size()).get(doc), simdjson::SUCCESS);
    ingest::EventFacts facts;
    for (const auto& err : ingest::ValidateEvent(doc, vopts, &facts))
      ADD_FAILURE() << err.ToString();
    ASSERT_TRUE(facts.id && facts.timestamp);
    EXPECT_TRUE(ids.insert(facts.id->ToString()).second) << "duplicate id";
    EXPECT_GE(facts.timestamp->unix_ms, last_ms) << "out of log order";
    last_ms = facts.timestamp->unix_ms;
    const std::string kind(doc["kind"].get_string().value());
    ++kinds[kind];
    if (kind == "work") artifacts.insert(std::string(facts.artifact_id));
    if (kind == "feedback") {
      EXPECT_TRUE(artifacts.count(std::string(facts.artifact_id))) << "work not recorded first";
      EXPECT_TRUE(
          modal_sessions.insert(std::string(facts.modal_id) + "/" + std::string(facts.session_id))
              .second);
      // meta as the enrichment computes it: the session's review count, the UTC time of day.
      const int64_t n = doc["meta"]["sessionFatigue"].get_int64().value();
      EXPECT_EQ(n, ++fatigue[std::string(facts.session_id)]);
      const model::CivilTime civil = model::ToCivil(facts.timestamp->unix_ms);
      const std::string_view tod = doc["meta"]["timeOfDay"].get_string().value();
      EXPECT_EQ(tod, civil.hour < 12 ? "morning" : civil.hour < 17 ? "afternoon" : "evening");
      EXPECT_NE(facts.session_id.find(tod), std::string_view::npos);
      static constexpr std::array<std::string_view, 7> kDays = {
          "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"};
      EXPECT_EQ(doc["meta"]["dayOfWeek"].get_string().value(), kDays[civil.weekday]);
      EXPECT_FALSE(doc["_predictionDelta"].error());
    }
  }
  EXPECT_EQ(lines, result.events);
  EXPECT_EQ(kinds["work"], result.total.submitted);
  EXPECT_EQ(kinds["feedback"], result.total.reviewed);
  EXPECT_GE(kinds["outcome"], 5 * 10);  // ~5-10 a day
  EXPECT_LE(kinds["outcome"], 10 * 10);
  EXPECT_GE(result.total.submitted, 15 * 10);
  EXPECT_LE(result.total.submitted, 25 * 10);
  EXPECT_EQ(result.total.reviewed + result.total.auto_approved, result.total.submitted);
}

TEST(Simulation, LearningImprovesApprovalAndCalibrationWithoutItTheyStayFlat) {
  SimulateOptions on;
  SimulateOptions off = on;
  off.learning = false;
  const SimulationResult a = RunSimulation(on, nullptr);
  const SimulationResult b = RunSimulation(off, nullptr);
  ASSERT_EQ(a.weeks.size(), 12u);
  ASSERT_EQ(b.weeks.size(), 12u);
  const SimWeek &a1 = a.weeks.front(), &a12 = a.weeks.back();
  const SimWeek &b1 = b.weeks.front(), &b12 = b.weeks.back();
  EXPECT_GE(*a12.ApprovalRate() - *a1.ApprovalRate(), 0.15);
  EXPECT_GE(*a12.ApprovalRate(), 0.8);
  EXPECT_LE(*a12.PredictionError(), *a1.PredictionError() - 0.1);
  EXPECT_GT(*a12.AutoApproveRate(), 0.1);
  EXPECT_LE(std::abs(*b12.ApprovalRate() - *b1.ApprovalRate()), 0.10);
  EXPECT_LE(std::abs(*b12.PredictionError() - *b1.PredictionError()), 0.1);
  EXPECT_EQ(b12.auto_approved, 0);  // the agent ignores its autonomy
  EXPECT_EQ(a.recovered, (std::vector<std::string>{
                             "gate error-handling < 6", "gate test-coverage < 5", "gate naming < 4",
                             "avoid Split by file type", "avoid One file per subtask"}));
  for (size_t w = 1; w < a.weeks.size(); ++w) {
    EXPECT_GE(a.weeks[w].recovered, a.weeks[w - 1].recovered) << "recovered never falls";
  }
}

TEST(Simulation, WeeksAreIsoWeeksFromTheStartDate) {
  SimulateOptions options;
  options.days = 10;
  const SimulationResult r = RunSimulation(options, nullptr);
  ASSERT_EQ(r.weeks.size(), 2u);
  EXPECT_EQ(model::FormatDay(r.weeks[0].from_ms), "2025-01-06");
  EXPECT_EQ(model::ToCivil(r.weeks[0].from_ms).weekday, 0);  // Monday
  EXPECT_EQ(model::FormatDay(r.weeks[1].from_ms), "2025-01-13");
  EXPECT_EQ(r.weeks[1].week, 2);
  EXPECT_EQ(r.weeks[0].hidden, 5);
}

TEST(Simulation, JsonHasTheContractKeys) {
  SimulateOptions options;
  options.days = 8;
  options.learning = false;
  const std::string json = SimulationJson(RunSimulation(options, nullptr));
  ASSERT_EQ(json.back(), '\n');
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS);
  EXPECT_EQ(doc["seed"].get_uint64().value(), 1u);
  EXPECT_EQ(doc["days"].get_int64().value(), 8);
  EXPECT_FALSE(doc["learning"].get_bool().value());
  std::vector<std::string> keys;
  for (auto field : doc["weeks"].at(0).get_object()) keys.emplace_back(field.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"week", "from", "submitted", "reviewed", "approvalRate",
                                            "predictionError", "autoApproveRate", "recovered",
                                            "hiddenPreferences"}));
  EXPECT_EQ(doc["weeks"].get_array().size(), 2u);
  EXPECT_TRUE(doc["recovered"].is_array());
  for (const char* key :
       {"events", "submitted", "reviewed", "approvalRate", "predictionError", "autoApproveRate",
        "autoApproved", "gates", "flaggedPatterns", "autonomy"}) {
    EXPECT_FALSE(doc["final"][key].error()) << key;
  }
}

TEST(Simulation, TextHasOneRowPerWeekAndASummary) {
  SimulateOptions options;
  options.days = 21;
  const std::string text = SimulationText(RunSimulation(options, nullptr));
  const std::vector<std::string_view> lines = Lines(text);
  ASSERT_EQ(lines.size(), 2u + 3u + 2u);  // title, header, 3 weeks, blank, summary
  EXPECT_TRUE(lines[2].starts_with("   1  2025-01-06"));
  EXPECT_TRUE(lines[4].starts_with("   3  2025-01-20"));
  EXPECT_TRUE(lines[6].starts_with("The agent followed kaizen's advice"));
}

}  // namespace
}  // namespace kaizen::sim
