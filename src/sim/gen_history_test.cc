#include "sim/gen_history.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/validate.h"
#include "model/timestamp.h"
#include "model/uuid.h"

namespace kaizen::sim {
namespace {

std::string Generate(uint64_t events, uint64_t seed = 1) {
  GenOptions options;
  options.events = events;
  options.seed = seed;
  std::string out;
  GenerateHistory(options, &out);
  return out;
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// The fields the tests look at, pulled out of each line once.
struct Event {
  std::string kind, id, timestamp;
  int64_t unix_ms = 0;
  // feedback
  std::string reviewer, decision, session, modal, ref_id, ref_version;
  bool inline_ref = false;
  std::map<std::string, double> scores;
  bool has_meta_computed = false;
  // work
  std::string work_id, work_version;
  double prediction = 0;
  // outcome / error
  std::string bead, strategy, resolves;
  int64_t error_count = 0;
  bool success = false;
  std::vector<std::string> patterns;
};

std::string Text(simdjson::dom::element e, std::string_view key) {
  std::string_view s;
  if (e[key].get_string().get(s) != simdjson::SUCCESS) return {};
  return std::string(s);
}

std::vector<Event> Parse(const std::string& history) {
  simdjson::dom::parser parser;
  std::vector<Event> events;
  for (std::string_view line : Lines(history)) {
    simdjson::dom::element doc;
    EXPECT_EQ(parser.parse(line.data(), line.size()).get(doc), simdjson::SUCCESS) << line;
    Event ev;
    ev.kind = Text(doc, "kind");
    ev.id = Text(doc, "id");
    ev.timestamp = Text(doc, "timestamp");
    auto ts = model::ParseTimestamp(ev.timestamp);
    EXPECT_TRUE(ts.ok()) << line;
    if (ts.ok()) ev.unix_ms = ts->unix_ms;
    if (ev.kind == "feedback") {
      ev.reviewer = Text(doc, "reviewerId");
      ev.decision = Text(doc["decision"].value(), "decision");
      ev.session = Text(doc, "sessionId");
      ev.modal = Text(doc, "modalId");
      simdjson::dom::element wp = doc["workProduct"].value();
      ev.ref_id = Text(wp, "id");
      ev.ref_version = Text(wp, "version");
      ev.inline_ref = wp["summary"].error() == simdjson::SUCCESS;
      if (ev.inline_ref) ev.prediction = wp["bubaScorePrediction"].get_double().value();
      simdjson::dom::array scores = doc["scores"].get_array().value();
      for (simdjson::dom::element s : scores) {
        ev.scores[Text(s, "dimension")] = s["score"].get_double().value();
      }
      simdjson::dom::element meta = doc["meta"].value();
      ev.has_meta_computed = meta["timeOfDay"].error() == simdjson::SUCCESS ||
                             meta["dayOfWeek"].error() == simdjson::SUCCESS ||
                             meta["sessionFatigue"].error() == simdjson::SUCCESS;
    } else if (ev.kind == "work") {
      simdjson::dom::element wp = doc["workProduct"].value();
      ev.work_id = Text(wp, "id");
      ev.work_version = Text(wp, "version");
      ev.prediction = wp["bubaScorePrediction"].get_double().value();
    } else if (ev.kind == "outcome") {
      ev.bead = Text(doc, "bead_id");
      ev.strategy = Text(doc, "strategy");
      ev.error_count = doc["error_count"].get_int64().value();
      ev.success = doc["success"].get_bool().value();
      simdjson::dom::array patterns = doc["patterns"].get_array().value();
      for (simdjson::dom::element p : patterns) ev.patterns.emplace_back(p.get_string().value());
    } else if (ev.kind == "error") {
      ev.bead = Text(doc, "bead_id");
      ev.resolves = Text(doc, "resolves");
    }
    events.push_back(std::move(ev));
  }
  return events;
}

double ApprovalRate(const std::vector<const Event*>& reviews) {
  if (reviews.empty()) return 0;
  double approved = 0;
  for (const Event* e : reviews) approved += e->decision == "approved";
  return approved / static_cast<double>(reviews.size());
}

double Mean(const std::vector<double>& v) {
  return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

// ---- Shape of the output ---------------------------------------------------------------------

TEST(GenerateHistory, SameOptionsProduceIdenticalBytes) {
  EXPECT_EQ(Generate(3000, 42), Generate(3000, 42));
}

TEST(GenerateHistory, DifferentSeedsProduceDifferentHistories) {
  const std::string a = Generate(500, 1), b = Generate(500, 2);
  EXPECT_NE(a, b);
  // Not just different ids: a different history.
  auto kinds = [](const std::string& history) {
    std::string sequence;
    for (const Event& e : Parse(history)) sequence += e.kind + ",";
    return sequence;
  };
  EXPECT_NE(kinds(a), kinds(b));
}

TEST(GenerateHistory, EmitsExactlyTheRequestedNumberOfNewlineTerminatedLines) {
  for (uint64_t n : {1, 2, 10, 137, 5000}) {
    const std::string out = Generate(n, n);
    ASSERT_FALSE(out.empty());
    EXPECT_EQ(out.back(), '\n') << n;
    EXPECT_EQ(static_cast<uint64_t>(std::count(out.begin(), out.end(), '\n')), n);
    for (std::string_view line : Lines(out)) EXPECT_FALSE(line.empty()) << n;
  }
}

TEST(GenerateHistory, ZeroEventsAppendsNothingAndOtherwiseKeepsWhatWasThere) {
  GenOptions options;
  options.events = 0;
  std::string out = "existing\n";
  GenerateHistory(options, &out);
  EXPECT_EQ(out, "existing\n");
  options.events = 3;
  GenerateHistory(options, &out);
  EXPECT_EQ(out.rfind("existing\n", 0), 0u);
  EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 4);
}

TEST(GenerateHistory, OneEventIsAWorkEventAtTheStartOfTheSpan) {
  const std::vector<Event> events = Parse(Generate(1, 9));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, "work");
  EXPECT_EQ(events[0].timestamp, "2025-07-01T00:00:00.000Z");
}

TEST(GenerateHistory, ChunkedOutputIsTheSameBytesInWholeLines) {
  GenOptions options;
  options.events = 4000;
  options.seed = 5;
  std::string whole;
  GenerateHistory(options, &whole);
  std::string joined;
  size_t chunks = 0;
  GenerateHistory(options, 64 << 10, [&](std::string_view chunk) {
    EXPECT_EQ(chunk.back(), '\n');
    joined.append(chunk);
    ++chunks;
  });
  EXPECT_EQ(joined, whole);
  EXPECT_GT(chunks, 10u);
}

TEST(GenerateHistory, EveryLineParsesAndCarriesKindIdAndTimestamp) {
  const std::vector<Event> events = Parse(Generate(3000, 3));
  ASSERT_EQ(events.size(), 3000u);
  for (const Event& e : events) {
    EXPECT_FALSE(e.kind.empty());
    EXPECT_EQ(e.id.size(), 36u);
    EXPECT_EQ(e.timestamp.size(), 24u);  // 2025-07-11T09:30:00.000Z
    EXPECT_EQ(e.timestamp.back(), 'Z');
  }
}

TEST(GenerateHistory, EveryKindAppearsInTwoThousandEvents) {
  for (uint64_t seed : {1, 2, 3, 4}) {
    std::set<std::string> kinds;
    for (const Event& e : Parse(Generate(2000, seed))) kinds.insert(e.kind);
    EXPECT_EQ(kinds, (std::set<std::string>{"feedback", "work", "outcome", "error", "reward",
                                            "correction", "loop", "admin"}))
        << "seed " << seed;
  }
}

TEST(GenerateHistory, MixFollowsTheDocumentedProportions) {
  const std::vector<Event> events = Parse(Generate(20000, 11));
  std::map<std::string, double> share;
  for (const Event& e : events) share[e.kind] += 1.0 / static_cast<double>(events.size());
  EXPECT_NEAR(share["feedback"], 0.42, 0.04);
  EXPECT_NEAR(share["work"], 0.23, 0.03);
  EXPECT_NEAR(share["outcome"], 0.14, 0.03);
  EXPECT_NEAR(share["error"], 0.05, 0.02);
  EXPECT_NEAR(share["reward"], 0.08, 0.02);
  EXPECT_NEAR(share["correction"], 0.05, 0.015);
  EXPECT_NEAR(share["loop"], 0.02, 0.01);
  EXPECT_NEAR(share["admin"], 0.01, 0.005);
}

TEST(GenerateHistory, IdsAreUniqueVersion7UuidsOfTheEventTime) {
  std::set<std::string> ids;
  for (const Event& e : Parse(Generate(5000, 4))) {
    EXPECT_TRUE(ids.insert(e.id).second) << "duplicate id " << e.id;
    auto uuid = model::ParseUuid(e.id);
    ASSERT_TRUE(uuid.has_value()) << e.id;
    EXPECT_EQ(uuid->bytes[6] >> 4, 7) << e.id;
    EXPECT_EQ(uuid->bytes[8] >> 6, 2) << e.id;  // variant 10
    int64_t ms = 0;
    for (int i = 0; i < 6; ++i) ms = ms << 8 | uuid->bytes[i];
    EXPECT_EQ(ms, e.unix_ms) << e.id;
    for (char c : e.id) EXPECT_FALSE(c >= 'A' && c <= 'F') << e.id;
  }
}

TEST(GenerateHistory, TimestampsNeverDecreaseAndStayWithinTheSpan) {
  for (uint64_t n : {10, 300, 20000}) {
    GenOptions options;
    const std::vector<Event> events = Parse(Generate(n, 6));
    const int64_t end = options.start_unix_ms + options.span_days * 86400000;
    for (size_t i = 0; i < events.size(); ++i) {
      EXPECT_GE(events[i].unix_ms, options.start_unix_ms);
      EXPECT_LE(events[i].unix_ms, end);
      if (i > 0) {
        EXPECT_GE(events[i].unix_ms, events[i - 1].unix_ms) << "line " << i + 1;
      }
    }
    if (n >= 300) {
      // The history fills the span rather than bunching at its start.
      EXPECT_GT(events.back().unix_ms, end - 10LL * 86400000) << n;
    }
  }
}

// ---- References between events ---------------------------------------------------------------

TEST(GenerateHistory, FeedbackReferencesNameAnEarlierWorkEvent) {
  const std::vector<Event> events = Parse(Generate(6000, 8));
  std::set<std::pair<std::string, std::string>> recorded;
  size_t references = 0, inline_refs = 0;
  for (const Event& e : events) {
    if (e.kind == "work") {
      EXPECT_TRUE(recorded.insert({e.work_id, e.work_version}).second)
          << "work " << e.work_id << " " << e.work_version << " recorded twice";
    } else if (e.kind == "feedback") {
      if (e.inline_ref) {
        ++inline_refs;
        continue;
      }
      ++references;
      EXPECT_TRUE(recorded.count({e.ref_id, e.ref_version}))
          << e.ref_id << " " << e.ref_version << " was not recorded before the feedback";
    }
  }
  // Mostly references, sometimes a full WorkProductRef.
  EXPECT_GT(references, 4 * inline_refs);
  EXPECT_GT(inline_refs, 0u);
}

TEST(GenerateHistory, ErrorResolutionsFollowTheErrorTheyResolve) {
  std::set<std::string> errors;
  size_t resolutions = 0;
  for (const Event& e : Parse(Generate(6000, 10))) {
    if (e.kind != "error") continue;
    if (e.resolves.empty()) {
      errors.insert(e.id);
    } else {
      ++resolutions;
      EXPECT_TRUE(errors.count(e.resolves)) << e.resolves;
    }
  }
  EXPECT_GT(resolutions, 10u);
}

TEST(GenerateHistory, OutcomeErrorCountsMatchTheErrorsRecordedForTheBead) {
  std::map<std::string, int64_t> errors_by_bead;
  size_t outcomes = 0;
  for (const Event& e : Parse(Generate(6000, 12))) {
    if (e.kind == "error" && e.resolves.empty()) ++errors_by_bead[e.bead];
    if (e.kind == "outcome") {
      ++outcomes;
      EXPECT_EQ(e.error_count, errors_by_bead[e.bead]) << e.bead;
    }
  }
  EXPECT_GT(outcomes, 500u);
}

TEST(GenerateHistory, SessionsHoldOneToTenReviewsWithDistinctModals) {
  std::map<std::string, std::set<std::string>> modals;
  for (const Event& e : Parse(Generate(8000, 13))) {
    if (e.kind != "feedback") continue;
    EXPECT_TRUE(modals[e.session].insert(e.modal).second) << e.session << " " << e.modal;
    // kaizen computes these at ingest; a history that carried them would be refused.
    EXPECT_FALSE(e.has_meta_computed);
  }
  size_t multi = 0;
  for (const auto& [session, m] : modals) {
    EXPECT_GE(m.size(), 1u);
    EXPECT_LE(m.size(), 10u) << session;
    multi += m.size() > 1;
  }
  EXPECT_GT(multi, modals.size() / 2);
}

// ---- The whole stream is accepted by kaizen --------------------------------------------------

TEST(GenerateHistory, EveryLinePassesTheValidatorAndTheLogChecks) {
  const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
  ingest::ValidateOptions vopts;
  vopts.now_ms = now_ms;
  simdjson::dom::parser parser;
  for (auto [n, seed] : std::vector<std::pair<uint64_t, uint64_t>>{
           {1, 1}, {10, 2}, {50, 3}, {4000, 4}, {12000, 5}}) {
    const std::string history = Generate(n, seed);
    std::set<std::string> ids, modal_sessions, errors;
    std::set<std::pair<std::string, std::string>> work;
    std::set<std::string> work_ids;
    size_t line_number = 0;
    for (std::string_view line : Lines(history)) {
      ++line_number;
      SCOPED_TRACE(testing::Message()
                   << "n=" << n << " seed=" << seed << " line " << line_number << ": " << line);
      simdjson::dom::element doc;
      ASSERT_EQ(parser.parse(line.data(), line.size()).get(doc), simdjson::SUCCESS);
      ingest::EventFacts facts;
      const std::vector<ingest::FieldError> errs = ingest::ValidateEvent(doc, vopts, &facts);
      for (const auto& err : errs) ADD_FAILURE() << err.ToString();
      if (!errs.empty()) continue;
      ASSERT_TRUE(facts.id.has_value());
      EXPECT_TRUE(ids.insert(facts.id->ToString()).second) << "duplicate id";
      for (const ingest::WorkReference& ref : facts.references) {
        if (ref.version.empty()) {
          EXPECT_TRUE(work_ids.count(std::string(ref.id))) << ref.path;
        } else {
          EXPECT_TRUE(work.count({std::string(ref.id), std::string(ref.version)})) << ref.path;
        }
      }
      switch (facts.kind) {
        case model::EventKind::kFeedback:
          EXPECT_TRUE(
              modal_sessions
                  .insert(std::string(facts.modal_id) + "\n" + std::string(facts.session_id))
                  .second)
              << "duplicate (modalId, sessionId)";
          break;
        case model::EventKind::kWork:
          EXPECT_TRUE(
              work.insert({std::string(facts.artifact_id), std::string(facts.artifact_version)})
                  .second)
              << "work version recorded twice";
          work_ids.insert(std::string(facts.artifact_id));
          break;
        case model::EventKind::kError:
          if (facts.resolves) {
            EXPECT_TRUE(errors.count(facts.resolves->ToString())) << "resolves no recorded error";
          } else {
            errors.insert(facts.id->ToString());
          }
          break;
        default:
          break;
      }
    }
  }
}

// ---- Structure the learning engine should find -----------------------------------------------

TEST(GenerateHistory, ApprovalRateRisesOverTheHistory) {
  for (uint64_t seed : {1, 2, 3}) {
    std::vector<const Event*> reviews;
    const std::vector<Event> events = Parse(Generate(6000, seed));
    for (const Event& e : events) {
      if (e.kind == "feedback") reviews.push_back(&e);
    }
    const size_t third = reviews.size() / 3;
    const std::vector<const Event*> first(reviews.begin(), reviews.begin() + third);
    const std::vector<const Event*> last(reviews.end() - third, reviews.end());
    EXPECT_GT(ApprovalRate(last), ApprovalRate(first) + 0.15) << "seed " << seed;
  }
}

TEST(GenerateHistory, LowErrorHandlingScoresAreAlmostAlwaysRejected) {
  size_t low = 0, rejected = 0;
  for (const Event& e : Parse(Generate(10000, 14))) {
    if (e.kind != "feedback") continue;
    auto it = e.scores.find("error-handling");
    if (it == e.scores.end() || it->second >= 5) continue;
    ++low;
    rejected += e.decision == "rejected";
  }
  ASSERT_GT(low, 50u);
  EXPECT_GT(static_cast<double>(rejected) / static_cast<double>(low), 0.85);
}

TEST(GenerateHistory, ReviewersKeepTheirOwnStandards) {
  std::map<std::string, std::map<std::string, std::vector<double>>> scores;
  std::map<std::string, std::vector<const Event*>> reviews;
  const std::vector<Event> events = Parse(Generate(20000, 15));
  for (const Event& e : events) {
    if (e.kind != "feedback") continue;
    reviews[e.reviewer].push_back(&e);
    for (const auto& [dim, score] : e.scores) scores[e.reviewer][dim].push_back(score);
  }
  EXPECT_GE(reviews.size(), 3u);
  EXPECT_LE(reviews.size(), 4u);
  // jake is strict on error handling and security, maria on naming and documentation.
  EXPECT_LT(Mean(scores["jake"]["error-handling"]), Mean(scores["maria"]["error-handling"]) - 0.5);
  EXPECT_LT(Mean(scores["jake"]["security"]), Mean(scores["maria"]["security"]) - 0.5);
  EXPECT_LT(Mean(scores["maria"]["documentation"]), Mean(scores["jake"]["documentation"]) - 0.5);
  EXPECT_LT(Mean(scores["maria"]["naming"]), Mean(scores["jake"]["naming"]) - 0.5);
  // and jake rejects far more often than maria.
  auto rejected = [&](const std::string& r) {
    double n = 0;
    for (const Event* e : reviews[r]) n += e->decision == "rejected";
    return n / static_cast<double>(reviews[r].size());
  };
  EXPECT_GT(rejected("jake"), 3 * rejected("maria"));
}

TEST(GenerateHistory, ReviewsHappenMostlyOnWeekdaysInWorkingHours) {
  size_t reviews = 0, working = 0;
  for (const Event& e : Parse(Generate(8000, 16))) {
    if (e.kind != "feedback") continue;
    ++reviews;
    const model::CivilTime c = model::ToCivil(e.unix_ms);
    working += c.weekday < 5 && c.hour >= 7 && c.hour < 22;
  }
  EXPECT_GT(static_cast<double>(working) / static_cast<double>(reviews), 0.85);
}

TEST(GenerateHistory, AgentPredictionsTrackScoresButRunHigh) {
  const std::vector<Event> events = Parse(Generate(10000, 17));
  std::map<std::pair<std::string, std::string>, double> predicted;
  std::vector<double> xs, ys;
  for (const Event& e : events) {
    if (e.kind == "work") predicted[{e.work_id, e.work_version}] = e.prediction;
    if (e.kind != "feedback" || e.scores.empty()) continue;
    double prediction = e.prediction;
    if (!e.inline_ref) {
      auto it = predicted.find({e.ref_id, e.ref_version});
      ASSERT_NE(it, predicted.end());
      prediction = it->second;
    }
    double mean = 0;
    for (const auto& [dim, s] : e.scores) mean += s;
    xs.push_back(prediction);
    ys.push_back(mean / static_cast<double>(e.scores.size()));
  }
  const double mx = Mean(xs), my = Mean(ys);
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) * (xs[i] - mx);
    syy += (ys[i] - my) * (ys[i] - my);
  }
  EXPECT_GT(sxy / std::sqrt(sxx * syy), 0.3);  // informative...
  EXPECT_GT(mx, my + 0.3);                     // ...but overconfident
}

TEST(GenerateHistory, FileTypeSplitsFailMoreOftenThanFeatureSplits) {
  std::map<std::string, std::vector<double>> success;
  for (const Event& e : Parse(Generate(20000, 18))) {
    if (e.kind != "outcome") continue;
    success[e.strategy].push_back(e.success);
    for (const std::string& p : e.patterns) success[p].push_back(e.success);
  }
  // Seed 002's anti-pattern: failing at least 60% of the time inverts a pattern.
  EXPECT_LT(Mean(success["Split by file type"]), 0.4);
  EXPECT_GT(Mean(success["Split by feature"]), 0.75);
  EXPECT_LT(Mean(success["file-based"]), Mean(success["feature-based"]) - 0.3);
}

}  // namespace
}  // namespace kaizen::sim
