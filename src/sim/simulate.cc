// The simulation loop: each day the agent reads kaizen's advice, submits its work, the reviewer
// reviews what the autonomy level samples, and every event goes through kaizen as a stored line
// (EventReader -> Learner::Add), exactly as `kaizen import` of the --out file would feed it.
#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <queue>

#include "base/json_writer.h"
#include "ingest/enrich.h"
#include "learn/learner.h"
#include "model/event_writer.h"
#include "model/timestamp.h"
#include "model/uuid.h"
#include "sim/simulate.h"
#include "sim/simulate_agent.h"
#include "sim/simulate_reviewer.h"

namespace kaizen::sim {

using model::EventField;

std::optional<double> SimWeek::ApprovalRate() const {
  if (reviewed == 0) return std::nullopt;
  return static_cast<double>(approved) / static_cast<double>(reviewed);
}

std::optional<double> SimWeek::PredictionError() const {
  if (reviewed == 0) return std::nullopt;
  return abs_error_sum / static_cast<double>(reviewed);
}

std::optional<double> SimWeek::AutoApproveRate() const {
  if (submitted == 0) return std::nullopt;
  return static_cast<double>(auto_approved) / static_cast<double>(submitted);
}

namespace {

using base::Num;
using base::Str;

constexpr int64_t kMinute = 60'000;
constexpr int64_t kHour = 60 * kMinute;
// The agent submits from 07:00 to 18:30 UTC; each session reviews what came in before it.
constexpr int64_t kSubmitFrom = 7 * kHour;
constexpr int64_t kSubmitUntil = 18 * kHour + 30 * kMinute;
constexpr std::array<int64_t, 3> kSessionStart = {9 * kHour + 30 * kMinute, 14 * kHour,
                                                  18 * kHour + 30 * kMinute};
constexpr int64_t kOutcomeBeforeWork = 45'000;  // the bead ends, then the work is submitted

constexpr int HiddenCount() { return static_cast<int>(kHiddenGates.size() + kDisfavoured.size()); }

int SessionOf(int64_t ms_of_day) {
  for (int s = 0; s < 2; ++s) {
    if (ms_of_day < kSessionStart[static_cast<size_t>(s)]) return s;
  }
  return 2;
}

// An event waiting for its time. Ties keep the order in which they were scheduled.
struct Pending {
  enum Kind : uint8_t { kOutcome, kWork, kSession, kFeedback };
  int64_t at_ms = 0;
  uint64_t seq = 0;
  Kind kind = kWork;
  int index = 0;  // item (outcome, work), session (session) or review (feedback)
  bool operator>(const Pending& o) const {
    return at_ms != o.at_ms ? at_ms > o.at_ms : seq > o.seq;
  }
};

struct ScheduledReview {
  int item = 0, session = 0, position = 0;
  int64_t at_ms = 0;  // when the decision is submitted
  Review review;
};

class Simulation {
 public:
  Simulation(const SimulateOptions& options, std::string* events)
      : options_(options),
        learner_(learn::LearnConfig{}),
        agent_(options.seed, options.learning),
        reviewer_(options.seed),
        ids_(SimRng::For(options.seed, kIdStream, options.learning ? 1 : 0, 0)),
        writer_(buffer_),
        events_(events) {}

  SimulationResult Run();

 private:
  void RunDay(int day);
  void Schedule(int64_t at_ms, Pending::Kind kind, int index) {
    queue_.push({at_ms, seq_++, kind, index});
  }
  void StartSession(int day, int session, int64_t at_ms);
  // Starts an event's JSON: kind, a v7 UUID drawn from the id stream, the timestamp.
  void Begin(std::string_view kind, int64_t at_ms);
  // Ends it, reads it back as kaizen reads stored lines and folds it into the learner.
  void Commit();
  void WriteOutcome(const WorkItem& item);
  void WriteWork(const WorkItem& item);
  void WriteFeedback(const ScheduledReview& s);
  std::string Label() const {
    return fmt::format("sim{}-{}", options_.seed, options_.learning ? "on" : "off");
  }
  // Marks the hidden preferences kaizen knows at `now`. A preference stays recovered once
  // found: after the agent complies, the evidence for a gate ages out of kaizen's 30-day window
  // (seed 000 §9.3), and kaizen did find it.
  void NoteRecovered(int64_t now_ms);
  std::vector<std::string> RecoveredNames() const;
  SimWeek& WeekOf(int day) { return weeks_[static_cast<size_t>(day / 7)]; }

  SimulateOptions options_;
  learn::Learner learner_;
  learn::EventReader reader_;
  learn::EventViews views_;
  SimulatedAgent agent_;
  HiddenReviewer reviewer_;
  SimRng ids_;
  rapidjson::StringBuffer buffer_;
  base::JsonWriter writer_;
  std::string* events_;
  uint64_t event_count_ = 0;
  std::vector<SimWeek> weeks_;
  std::array<bool, kHiddenGates.size() + kDisfavoured.size()> recovered_{};

  // The day in progress.
  std::vector<WorkItem> items_;
  std::array<std::vector<int>, 3> session_queue_;
  std::vector<ScheduledReview> reviews_;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<>> queue_;
  uint64_t seq_ = 0;
};

void Simulation::Begin(std::string_view kind, int64_t at_ms) {
  buffer_.Clear();
  writer_.Reset(buffer_);
  std::array<uint8_t, 16> random{};
  for (size_t i = 0; i < random.size(); i += 8) {
    const uint64_t r = ids_.Next();
    for (size_t b = 0; b < 8; ++b) random[i + b] = static_cast<uint8_t>(r >> (8 * b));
  }
  writer_.StartObject();
  model::Key(writer_, EventField::kind);
  Str(writer_, kind);
  model::Key(writer_, EventField::id);
  Str(writer_, model::MakeUuidV7(at_ms, random.data()).ToString());
  model::Key(writer_, EventField::timestamp);
  Str(writer_, model::FormatUtc(at_ms));
}

void Simulation::Commit() {
  writer_.EndObject();
  const std::string_view line(buffer_.GetString(), buffer_.GetSize());
  // The line was written by this file, so it always reads back; a false here is a bug in it.
  const bool read = reader_.ReadJson(line, &views_);
  if (read) learner_.Add(views_);
  if (events_ != nullptr) {
    events_->append(line);
    events_->push_back('\n');
  }
  ++event_count_;
}

void Simulation::WriteOutcome(const WorkItem& item) {
  const TaskType& task = TaskTypes()[static_cast<size_t>(item.task)];
  const std::string_view feature = task.features[static_cast<size_t>(item.feature)];
  base::JsonWriter& w = writer_;
  Begin("outcome", item.submitted_ms - kOutcomeBeforeWork);
  model::Key(w, EventField::bead_id);
  base::Str(w, "bead-" + item.artifact_id);
  model::Key(w, EventField::duration_ms);
  w.Int64(item.duration_ms);
  model::Key(w, EventField::error_count);
  w.Int(item.error_count);
  model::Key(w, EventField::retry_count);
  w.Int(item.retry_count);
  model::Key(w, EventField::success);
  w.Bool(item.succeeded);
  model::Key(w, EventField::files_touched);
  w.StartArray();
  base::Str(w, fmt::format("{}{}.ts", task.path_prefix, feature));
  base::Str(w, fmt::format("{}{}.test.ts", task.path_prefix, feature));
  w.EndArray();
  model::Key(w, EventField::strategy);
  base::Str(w, PatternName(item.decomposition));
  if (!item.succeeded) {
    model::Key(w, EventField::failure_mode);
    base::Str(w, "tests_failing");
  }
  model::Key(w, EventField::patterns);
  w.StartArray();
  base::Str(w, PatternName(item.decomposition));
  base::Str(w, PatternName(item.structure));
  w.EndArray();
  Commit();
}

void Simulation::WriteWork(const WorkItem& item) {
  const TaskType& task = TaskTypes()[static_cast<size_t>(item.task)];
  const std::string_view feature = task.features[static_cast<size_t>(item.feature)];
  base::JsonWriter& w = writer_;
  Begin("work", item.submitted_ms);
  model::Key(w, EventField::workProduct);
  w.StartObject();
  model::Key(w, EventField::type);
  base::Str(w, task.product_type);
  model::Key(w, EventField::id);
  base::Str(w, item.artifact_id);
  model::Key(w, EventField::version);
  base::Str(w, "v1");
  model::Key(w, EventField::path);
  base::Str(w, fmt::format("{}{}.ts", task.path_prefix, feature));
  model::Key(w, EventField::summary);
  base::Str(w, fmt::format("{} {}: {}, {}", task.server, feature, PatternName(item.decomposition),
                           PatternName(item.structure)));
  model::Key(w, EventField::bubaConfidence);
  base::Num(w, item.confidence);
  model::Key(w, EventField::bubaScorePrediction);
  base::Num(w, item.score_prediction);
  model::Key(w, EventField::generationContext);
  w.StartObject();
  model::Key(w, EventField::promptHash);
  base::Str(w, fmt::format("{:016x}", item.prompt_hash));
  model::Key(w, EventField::memorySnapshot);
  w.StartArray();
  base::Str(w, "memory/quality-standards.md");
  if (options_.learning) base::Str(w, "memory/kaizen-advice.md");
  w.EndArray();
  model::Key(w, EventField::modelUsed);
  base::Str(w, "claude-sonnet-4");
  model::Key(w, EventField::generationTimeMs);
  w.Int64(item.generation_ms);
  model::Key(w, EventField::iterationCount);
  w.Int(item.iterations);
  w.EndObject();
  w.EndObject();
  model::Key(w, EventField::sessionId);
  base::Str(w, fmt::format("{}-agent-{}", Label(), model::FormatDay(item.submitted_ms)));
  model::Key(w, EventField::pipelineStage);
  base::Str(w, "implement");
  model::Key(w, EventField::mcpServerType);
  base::Str(w, task.server);
  model::Key(w, EventField::priority);
  base::Str(w, "normal");
  Commit();
}

void Simulation::WriteFeedback(const ScheduledReview& s) {
  const WorkItem& item = items_[static_cast<size_t>(s.item)];
  const Review& r = s.review;
  const int64_t decided_ms = s.at_ms;
  base::JsonWriter& w = writer_;
  Begin("feedback", decided_ms);
  const std::string_view window = WindowName(static_cast<ReviewWindow>(s.session));
  model::Key(w, EventField::sessionId);
  base::Str(w, fmt::format("{}-review-{}-{}", Label(), model::FormatDay(decided_ms), window));
  model::Key(w, EventField::modalId);
  base::Str(w, "review-" + item.artifact_id);
  model::Key(w, EventField::workProduct);
  w.StartObject();
  model::Key(w, EventField::id);
  base::Str(w, item.artifact_id);
  model::Key(w, EventField::version);
  base::Str(w, "v1");
  w.EndObject();
  model::Key(w, EventField::pipelineStage);
  base::Str(w, "review");
  model::Key(w, EventField::mcpServerType);
  base::Str(w, TaskTypes()[static_cast<size_t>(item.task)].server);
  model::Key(w, EventField::reviewerId);
  base::Str(w, "sim-reviewer");
  model::Key(w, EventField::decision);
  w.StartObject();
  model::Key(w, EventField::decision);
  base::Str(w, r.decision);
  model::Key(w, EventField::reason);
  base::Str(w, r.reason);
  if (!r.approved) {
    model::Key(w, EventField::severity);
    base::Str(w, r.severity);
    if (r.decision == "rejected") {
      model::Key(w, EventField::blockers);
      w.StartArray();
      base::Str(w, r.reason);
      w.EndArray();
    }
    model::Key(w, EventField::suggestions);
    w.StartArray();
    base::Str(w, r.suggestion);
    w.EndArray();
  }
  w.EndObject();
  model::Key(w, EventField::scores);
  w.StartArray();
  for (int i = 0; i < r.score_count; ++i) {
    w.StartObject();
    model::Key(w, EventField::dimension);
    base::Str(w, DimName(r.dims[static_cast<size_t>(i)]));
    model::Key(w, EventField::score);
    w.Int(r.scores[static_cast<size_t>(i)]);
    w.EndObject();
  }
  w.EndArray();
  model::Key(w, EventField::confidence);
  w.StartObject();
  model::Key(w, EventField::level);
  base::Str(w, r.confidence);
  model::Key(w, EventField::wouldDelegateToAI);
  w.Bool(r.would_delegate);
  model::Key(w, EventField::needsExpertReview);
  w.Bool(r.needs_expert);
  w.EndObject();
  // meta as ingest enriches it: timeOfDay and dayOfWeek from the (UTC) timestamp, sessionFatigue
  // the review's position in its session.
  const model::CivilTime civil = model::ToCivil(decided_ms);
  model::Key(w, EventField::meta);
  w.StartObject();
  model::Key(w, EventField::timeToDecisionMs);
  w.Int64(r.time_to_decision_ms);
  model::Key(w, EventField::deviceType);
  base::Str(w, "desktop");
  model::Key(w, EventField::timeOfDay);
  base::Str(w, ingest::TimeOfDay(civil.hour));
  model::Key(w, EventField::dayOfWeek);
  base::Str(w, ingest::DayOfWeek(civil.weekday));
  model::Key(w, EventField::sessionFatigue);
  w.Int(s.position);
  w.EndObject();
  // seed 000 §6.2, as ingest computes it: mean score - bubaScorePrediction.
  model::Key(w, EventField::_predictionDelta);
  base::Num(w, r.mean - item.score_prediction);
  Commit();
}

std::vector<std::string> HiddenNames() {
  std::vector<std::string> names;
  for (const HiddenGate& g : kHiddenGates) {
    names.push_back(fmt::format("gate {} < {}", DimName(g.dim), g.below));
  }
  for (Pattern p : kDisfavoured) names.push_back(fmt::format("avoid {}", PatternName(p)));
  return names;
}

void Simulation::NoteRecovered(int64_t now_ms) {
  const std::vector<learn::ScoreGate> gates = learner_.gates().Gates(now_ms);
  size_t i = 0;
  for (const HiddenGate& hidden : kHiddenGates) {
    // Learned: a gate (hard or soft) on the dimension with a threshold within 1 of the hidden one.
    recovered_[i++] |= std::any_of(gates.begin(), gates.end(), [&](const learn::ScoreGate& g) {
      return g.dimension == DimName(hidden.dim) && std::abs(g.threshold - hidden.below) <= 1;
    });
  }
  const std::vector<learn::AntiPattern> anti = learner_.outcomes().AntiPatterns();
  const std::vector<learn::PatternResult> patterns = learner_.outcomes().Patterns(now_ms);
  for (Pattern p : kDisfavoured) {
    // Flagged: an anti-pattern, or deprecated.
    const std::string_view name = PatternName(p);
    recovered_[i++] |=
        std::any_of(anti.begin(), anti.end(),
                    [&](const learn::AntiPattern& a) { return a.pattern == name; }) ||
        std::any_of(patterns.begin(), patterns.end(), [&](const learn::PatternResult& r) {
          return r.content == name && r.state == learn::MaturityState::kDeprecated;
        });
  }
}

std::vector<std::string> Simulation::RecoveredNames() const {
  const std::vector<std::string> hidden = HiddenNames();
  std::vector<std::string> names;
  for (size_t i = 0; i < hidden.size(); ++i) {
    if (recovered_[i]) names.push_back(hidden[i]);
  }
  return names;
}

void Simulation::StartSession(int day, int session, int64_t at_ms) {
  SimRng rng = SimRng::For(options_.seed, kDayStream, static_cast<uint64_t>(day),
                           static_cast<uint64_t>(1 + session));
  int64_t cursor = at_ms + rng.Between(60, 240) * 1000;
  int position = 0;
  for (int item : session_queue_[static_cast<size_t>(session)]) {
    ScheduledReview s;
    s.item = item;
    s.session = session;
    s.position = ++position;
    s.review = reviewer_.Judge(items_[static_cast<size_t>(item)],
                               static_cast<ReviewWindow>(session), position);
    s.at_ms = cursor + s.review.time_to_decision_ms;
    cursor = s.at_ms + rng.Between(15, 90) * 1000;
    reviews_.push_back(s);
    Schedule(s.at_ms, Pending::kFeedback, static_cast<int>(reviews_.size()) - 1);
  }
  session_queue_[static_cast<size_t>(session)].clear();
}

void Simulation::RunDay(int day) {
  const int64_t day_ms = kSimStartMs + static_cast<int64_t>(day) * kSimDayMs;
  agent_.ReadAdvice(learner_, day_ms);

  SimRng rng = SimRng::For(options_.seed, kDayStream, static_cast<uint64_t>(day), 0);
  int n = 0;
  if (options_.reviews_per_week > 0) {
    // N a week, spread over every day: a day draws within a quarter of N / 7 either way.
    const double per_day = options_.reviews_per_week / 7.0;
    const int low = static_cast<int>(std::lround(per_day * 0.75));
    const int high = std::max(low, static_cast<int>(std::lround(per_day * 1.25)));
    n = rng.Between(low, high);
  } else {
    n = rng.Between(15, 25);
  }
  std::vector<int64_t> times(static_cast<size_t>(n));
  for (int64_t& t : times) {
    t = kSubmitFrom +
        static_cast<int64_t>(rng.U() * static_cast<double>(kSubmitUntil - kSubmitFrom));
  }
  std::sort(times.begin(), times.end());
  items_.clear();
  reviews_.clear();
  for (int i = 0; i < n; ++i) {
    items_.push_back(agent_.Make(day, i, day_ms + times[static_cast<size_t>(i)]));
    const WorkItem& item = items_.back();
    if (item.has_outcome) Schedule(item.submitted_ms - kOutcomeBeforeWork, Pending::kOutcome, i);
    Schedule(item.submitted_ms, Pending::kWork, i);
  }
  for (int s = 0; s < 3; ++s)
    Schedule(day_ms + kSessionStart[static_cast<size_t>(s)], Pending::kSession, s);

  SimWeek& week = WeekOf(day);
  while (!queue_.empty()) {
    const Pending p = queue_.top();
    queue_.pop();
    switch (p.kind) {
      case Pending::kOutcome:
        WriteOutcome(items_[static_cast<size_t>(p.index)]);
        break;
      case Pending::kWork: {
        const WorkItem& item = items_[static_cast<size_t>(p.index)];
        WriteWork(item);
        ++week.submitted;
        // seed 000 §6.3: the task type's current level samples what is reviewed; the rest is
        // auto-approved. Without learning the agent sends everything to review.
        bool review = true;
        if (options_.learning) {
          const std::string_view task = TaskTypes()[static_cast<size_t>(item.task)].server;
          const learn::AutonomyTracker& autonomy = learner_.autonomy();
          review = autonomy.ShouldReview(item.artifact_id, autonomy.Level(task));
        }
        if (review) {
          session_queue_[static_cast<size_t>(SessionOf(item.submitted_ms - day_ms))].push_back(
              p.index);
        } else {
          ++week.auto_approved;
        }
        break;
      }
      case Pending::kSession:
        StartSession(day, p.index, p.at_ms);
        break;
      case Pending::kFeedback: {
        const ScheduledReview& s = reviews_[static_cast<size_t>(p.index)];
        WriteFeedback(s);
        const WorkItem& item = items_[static_cast<size_t>(s.item)];
        ++week.reviewed;
        week.approved += s.review.approved ? 1 : 0;
        week.abs_error_sum += std::abs(item.confidence - (s.review.approved ? 1.0 : 0.0));
        break;
      }
    }
  }
}

SimulationResult Simulation::Run() {
  SimulationResult result;
  result.options = options_;
  result.hidden = HiddenCount();
  const int days = std::max(0, options_.days);
  weeks_.resize(static_cast<size_t>((days + 6) / 7));
  for (size_t w = 0; w < weeks_.size(); ++w) {
    weeks_[w].week = static_cast<int>(w) + 1;
    weeks_[w].from_ms = kSimStartMs + static_cast<int64_t>(w) * 7 * kSimDayMs;
    weeks_[w].hidden = HiddenCount();
  }
  for (int day = 0; day < days; ++day) {
    RunDay(day);
    if (day % 7 == 6 || day == days - 1) {
      const int64_t end_ms = kSimStartMs + static_cast<int64_t>(day + 1) * kSimDayMs;
      NoteRecovered(end_ms);
      WeekOf(day).recovered = static_cast<int>(RecoveredNames().size());
    }
  }
  const int64_t end_ms = kSimStartMs + static_cast<int64_t>(days) * kSimDayMs;
  result.weeks = weeks_;
  result.recovered = RecoveredNames();
  result.events = event_count_;
  for (const SimWeek& w : weeks_) {
    result.total.submitted += w.submitted;
    result.total.reviewed += w.reviewed;
    result.total.approved += w.approved;
    result.total.auto_approved += w.auto_approved;
    result.total.abs_error_sum += w.abs_error_sum;
  }
  result.total.recovered = static_cast<int>(result.recovered.size());
  result.total.hidden = HiddenCount();
  for (const learn::ScoreGate& g : learner_.gates().Gates(end_ms)) {
    result.gates.push_back({g.dimension, g.threshold, std::string(learn::GateKindName(g.kind))});
  }
  for (const learn::AntiPattern& a : learner_.outcomes().AntiPatterns()) {
    result.flagged_patterns.push_back(a.pattern);
  }
  for (const learn::PatternResult& r : learner_.outcomes().Patterns(end_ms)) {
    if (r.state == learn::MaturityState::kDeprecated) result.flagged_patterns.push_back(r.content);
  }
  std::sort(result.flagged_patterns.begin(), result.flagged_patterns.end());
  result.flagged_patterns.erase(
      std::unique(result.flagged_patterns.begin(), result.flagged_patterns.end()),
      result.flagged_patterns.end());
  for (const learn::TaskAutonomy& a : learner_.autonomy().Result()) {
    result.autonomy[a.task_type] = a.level;
  }
  return result;
}

}  // namespace

SimulationResult RunSimulation(const SimulateOptions& options, std::string* events_jsonl) {
  // The learner and its buffers are large: keep them off the stack.
  auto simulation = std::make_unique<Simulation>(options, events_jsonl);
  return simulation->Run();
}

}  // namespace kaizen::sim
