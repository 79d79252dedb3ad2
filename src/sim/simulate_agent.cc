#include "sim/simulate_agent.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace kaizen::sim {

// ---- Randomness ------------------------------------------------------------------------------

SimRng SimRng::For(uint64_t seed, uint64_t stream, uint64_t day, uint64_t index) {
  // Each coordinate goes through the mixer, so nearby (day, index) pairs give unrelated streams.
  uint64_t x = seed;
  uint64_t h = SplitMix64(&x);
  for (uint64_t part : {stream, day, index}) {
    x = h ^ (part * 0xD1B54A32D192ED03ull);
    h = SplitMix64(&x);
  }
  return SimRng(h);
}

double SimRng::Normal() {
  double sum = 0;
  for (int i = 0; i < 12; ++i) sum += U();
  return sum - 6;
}

// ---- The simulated world ---------------------------------------------------------------------

std::string_view DimName(Dim d) {
  static constexpr std::array<std::string_view, kDimCount> kNames = {
      "code-quality", "error-handling", "test-coverage", "naming",       "documentation",
      "architecture", "security",       "performance",   "completeness", "dx"};
  return kNames[static_cast<size_t>(d)];
}

std::optional<Dim> DimByName(std::string_view name) {
  for (int i = 0; i < kDimCount; ++i) {
    if (DimName(static_cast<Dim>(i)) == name) return static_cast<Dim>(i);
  }
  return std::nullopt;
}

std::string_view PatternName(Pattern p) {
  static constexpr std::array<std::string_view, kPatternCount> kNames = {
      "Split by feature",
      "Split by component",
      "Split by layer (UI/logic/data)",
      "Split by file type",
      "Tests alongside implementation",
      "Tests in separate subtask",
      "One file per subtask"};
  return kNames[static_cast<size_t>(p)];
}

std::optional<Pattern> PatternByName(std::string_view name) {
  for (int i = 0; i < kPatternCount; ++i) {
    if (PatternName(static_cast<Pattern>(i)) == name) return static_cast<Pattern>(i);
  }
  return std::nullopt;
}

const std::array<TaskType, kTaskTypeCount>& TaskTypes() {
  using D = Dim;
  static constexpr std::array<TaskType, kTaskTypeCount> kTypes = {{
      {"github",
       "mcp-server",
       "servers/github/src/tools/",
       0.30,
       {D::kCodeQuality, D::kArchitecture, D::kDocumentation, D::kDx},
       {"list-issues", "create-pull-request", "search-code", "review-comments"}},
      {"postgres",
       "code-module",
       "modules/postgres/src/",
       0.25,
       {D::kCodeQuality, D::kPerformance, D::kSecurity, D::kArchitecture},
       {"query-runner", "schema-inspector", "migration-planner", "connection-pool"}},
      {"slack",
       "mcp-server",
       "servers/slack/src/tools/",
       0.25,
       {D::kCodeQuality, D::kDocumentation, D::kDx, D::kCompleteness},
       {"post-message", "thread-summary", "channel-search", "reminders"}},
      {"stripe",
       "code-module",
       "modules/stripe/src/",
       0.20,
       {D::kSecurity, D::kCompleteness, D::kCodeQuality, D::kPerformance},
       {"refunds", "invoice-sync", "webhook-handler", "subscription-status"}},
  }};
  return kTypes;
}

// ---- The agent -------------------------------------------------------------------------------

namespace {

// The agent's skill per dimension (mean quality, sd 1): weakest exactly where the reviewer's
// hidden gates are.
constexpr std::array<double, kDimCount> kSkill = {7.2, 6.8, 5.9, 5.3, 6.8, 7.0, 7.0, 7.0, 7.4, 7.0};
constexpr double kSelfNoise = 0.5;     // sd of the agent's own assessment
constexpr double kOutcomeShare = 0.4;  // beads that report an outcome event

// Habits before any advice. The structure depends on the decomposition: splitting by file type
// goes with one file per subtask.
constexpr std::array<double, kDecompositionCount> kDecompositionHabit = {0.20, 0.25, 0.20, 0.35};
constexpr std::array<double, 3> kStructureHabitByFileType = {0.10, 0.30, 0.60};
constexpr std::array<double, 3> kStructureHabit = {0.35, 0.45, 0.20};

double& Index(std::array<double, kDimCount>& a, Dim d) { return a[static_cast<size_t>(d)]; }

// Picks by `u` in [0, 1) from weights. Advice (when given) drops avoided patterns the agent has
// adopted avoiding (`adopt` against each one's Adoption), unless that would drop them all, and
// triples proven ones.
template <size_t N>
int Pick(std::array<double, N> weights, int first, const AgentAdvice* advice, int64_t now_ms,
         double adopt, double u) {
  if (advice != nullptr) {
    std::array<double, N> advised = weights;
    double total = 0;
    for (size_t i = 0; i < N; ++i) {
      const size_t p = static_cast<size_t>(first) + i;
      const std::optional<int64_t>& since = advice->avoid_since[p];
      if (since && adopt < Adoption(*since, now_ms)) advised[i] = 0;
      if (advice->proven[p]) advised[i] *= 3;
      total += advised[i];
    }
    if (total > 0) weights = advised;
  }
  double total = 0;
  for (double w : weights) total += w;
  double x = u * total;
  for (size_t i = 0; i < N; ++i) {
    if (x < weights[i]) return first + static_cast<int>(i);
    x -= weights[i];
  }
  for (size_t i = N; i-- > 0;) {
    if (weights[i] > 0) return first + static_cast<int>(i);
  }
  return first;
}

double Round2(double x) { return std::round(x * 100) / 100; }
double Round1(double x) { return std::round(x * 10) / 10; }

}  // namespace

double Adoption(int64_t since_ms, int64_t now_ms) {
  const double days = static_cast<double>(std::max<int64_t>(0, now_ms - since_ms)) / kSimDayMs;
  return std::min(0.9, 0.9 * days / 21);
}

double SuccessProbability(Pattern decomposition, Pattern structure) {
  double p = 0.82;
  if (decomposition == Pattern::kSplitByFeature) p += 0.08;
  if (decomposition == Pattern::kSplitByFileType) p -= 0.40;
  if (structure == Pattern::kTestsAlongside) p += 0.06;
  if (structure == Pattern::kOneFilePerSubtask) p -= 0.38;
  return std::clamp(p, 0.03, 0.97);
}

SimulatedAgent::SimulatedAgent(uint64_t seed, bool learning) : seed_(seed), learning_(learning) {}

void SimulatedAgent::ReadAdvice(const learn::Learner& learner, int64_t now_ms) {
  if (!learning_) return;
  ReadGates(learner, now_ms);
  ReadPatterns(learner, now_ms);
  ReadCalibration(learner);
}

void SimulatedAgent::ReadGates(const learn::Learner& learner, int64_t now_ms) {
  // Per dimension the highest threshold kaizen reports now (a soft gate sits above the hard one);
  // a dimension kaizen reports nothing for keeps what the agent remembers.
  std::array<AgentAdvice::Gate, kDimCount> reported{};
  for (const learn::ScoreGate& g : learner.gates().Gates(now_ms)) {
    const std::optional<Dim> dim = DimByName(g.dimension);
    if (!dim) continue;
    AgentAdvice::Gate& r = reported[static_cast<size_t>(*dim)];
    if (!r.known || g.threshold > r.threshold) r = {true, g.threshold, g.rejection_rate, now_ms};
  }
  for (size_t i = 0; i < reported.size(); ++i) {
    if (!reported[i].known) continue;
    const int64_t since = advice_.gates[i].known ? advice_.gates[i].since_ms : now_ms;
    advice_.gates[i] = reported[i];
    advice_.gates[i].since_ms = since;
  }
}

void SimulatedAgent::ReadPatterns(const learn::Learner& learner, int64_t now_ms) {
  std::array<bool, kPatternCount> avoid{};
  advice_.proven.fill(false);
  for (const learn::AntiPattern& a : learner.outcomes().AntiPatterns()) {
    if (std::optional<Pattern> p = PatternByName(a.pattern)) avoid[static_cast<size_t>(*p)] = true;
  }
  for (const learn::PatternResult& r : learner.outcomes().Patterns(now_ms)) {
    const std::optional<Pattern> p = PatternByName(r.content);
    if (!p) continue;
    if (r.state == learn::MaturityState::kDeprecated) avoid[static_cast<size_t>(*p)] = true;
    if (r.state == learn::MaturityState::kProven) advice_.proven[static_cast<size_t>(*p)] = true;
  }
  for (size_t p = 0; p < avoid.size(); ++p) {
    if (!avoid[p]) {
      advice_.avoid_since[p].reset();
    } else if (!advice_.avoid_since[p]) {
      advice_.avoid_since[p] = now_ms;
    }
  }
}

void SimulatedAgent::ReadCalibration(const learn::Learner& learner) {
  const learn::CalibrationResult calibration = learner.calibration().Result();
  CalibrationSnapshot today{};
  for (size_t b = 0; b < today.size(); ++b) {
    const learn::CalibrationBucket& bucket = calibration.buckets[b];
    today[b] = {bucket.n,
                std::llround(bucket.actual_rate.value_or(0) * static_cast<double>(bucket.n))};
  }
  mornings_.push_back(today);
  if (mornings_.size() > kCalibrationDays + 1) mornings_.erase(mornings_.begin());
  const CalibrationSnapshot& then = mornings_.front();
  for (size_t b = 0; b < advice_.calibration.size(); ++b) {
    const double reported = advice_.calibration[b].value_or((static_cast<double>(b) + 0.5) / 10);
    const auto k = static_cast<size_t>(learn::CalibrationCurve::BucketOf(reported));
    const int64_t n = today[k].first - then[k].first;
    const int64_t approved = today[k].second - then[k].second;
    if (n > 0 && static_cast<double>(n) >= learner.config().calibration.min_bucket) {
      advice_.calibration[b] = static_cast<double>(approved) / static_cast<double>(n);
    }
  }
}

WorkItem SimulatedAgent::Make(int day, int index, int64_t submitted_ms) const {
  SimRng rng =
      SimRng::For(seed_, kAgentStream, static_cast<uint64_t>(day), static_cast<uint64_t>(index));
  // Every draw in a fixed order, whatever the advice, so both runs draw the same numbers.
  const double task_draw = rng.U();
  const int feature = rng.Between(0, 3);
  const double decomposition_draw = rng.U(), structure_draw = rng.U(), success_draw = rng.U();
  const double adopt_decomposition = rng.U(), adopt_structure = rng.U();
  std::array<double, kDimCount> base{}, self_noise{}, effort{}, lift{};
  for (double& x : base) x = rng.Normal();
  for (double& x : self_noise) x = kSelfNoise * rng.Normal();
  for (double& x : effort) x = rng.U();
  for (double& x : lift) x = rng.U();
  const double confidence_noise = rng.Normal();
  const double outcome_draw = rng.U(), duration_draw = rng.U();
  const int error_draw = rng.Between(0, 99), retry_draw = rng.Between(0, 99);

  WorkItem item;
  item.day = day;
  item.index = index;
  item.submitted_ms = submitted_ms;
  item.feature = feature;
  item.prompt_hash = rng.Next();
  item.generation_ms = rng.Between(20'000, 120'000);
  item.iterations = rng.Between(1, 3);
  double share = 0;
  item.task = kTaskTypeCount - 1;
  for (int t = 0; t < kTaskTypeCount; ++t) {
    share += TaskTypes()[static_cast<size_t>(t)].share;
    if (task_draw < share) {
      item.task = t;
      break;
    }
  }
  const TaskType& task = TaskTypes()[static_cast<size_t>(item.task)];
  item.artifact_id = fmt::format("sim{}-{}-{}-d{:03}-{:02}", seed_, learning_ ? "on" : "off",
                                 task.server, day + 1, index + 1);

  const AgentAdvice* advice = learning_ ? &advice_ : nullptr;
  item.decomposition = static_cast<Pattern>(
      Pick(kDecompositionHabit, 0, advice, submitted_ms, adopt_decomposition, decomposition_draw));
  item.structure = static_cast<Pattern>(Pick(
      item.decomposition == Pattern::kSplitByFileType ? kStructureHabitByFileType : kStructureHabit,
      kDecompositionCount, advice, submitted_ms, adopt_structure, structure_draw));
  item.succeeded = success_draw < SuccessProbability(item.decomposition, item.structure);

  // True quality: skill, then what the patterns and a failed bead do to the work.
  auto& q = item.quality;
  for (size_t i = 0; i < q.size(); ++i) q[i] = kSkill[i] + base[i];
  if (item.decomposition == Pattern::kSplitByFeature) Index(q, Dim::kArchitecture) += 0.6;
  if (item.decomposition == Pattern::kSplitByFileType) Index(q, Dim::kArchitecture) -= 1.5;
  if (item.structure == Pattern::kTestsAlongside) Index(q, Dim::kTestCoverage) += 1.0;
  if (item.structure == Pattern::kTestsSeparate) Index(q, Dim::kTestCoverage) += 0.3;
  if (item.structure == Pattern::kOneFilePerSubtask) {
    Index(q, Dim::kTestCoverage) -= 1.2;
    Index(q, Dim::kCodeQuality) -= 0.6;
  }
  if (!item.succeeded) {
    Index(q, Dim::kCompleteness) -= 2.0;
    Index(q, Dim::kErrorHandling) -= 0.8;
  }
  for (size_t i = 0; i < q.size(); ++i) {
    q[i] = std::clamp(q[i], 1.0, 10.0);
    item.self_assessed[i] = std::clamp(q[i] + self_noise[i], 1.0, 10.0);
  }

  // seed 000 §3.1 gates: raise a gated dimension to clear the threshold; effort sometimes fails.
  if (advice != nullptr) {
    for (size_t i = 0; i < q.size(); ++i) {
      const AgentAdvice::Gate& g = advice->gates[i];
      if (!g.known || item.self_assessed[i] >= g.threshold + 1.2 ||
          effort[i] >= Adoption(g.since_ms, submitted_ms)) {
        continue;
      }
      const double raised = g.threshold + 1.0 + 0.8 * lift[i];
      q[i] = std::max(q[i], raised);
      item.self_assessed[i] = std::max(item.self_assessed[i], raised);
    }
  }

  // Belief: the mean of its own view of every dimension the reviewer might score, with an
  // optimism the reviewer does not share.
  double self_sum = 0;
  int self_n = 0;
  for (Dim d : {Dim::kErrorHandling, Dim::kTestCoverage, Dim::kNaming}) {
    self_sum += Index(item.self_assessed, d);
    ++self_n;
  }
  for (Dim d : task.pool) {
    self_sum += Index(item.self_assessed, d);
    ++self_n;
  }
  const double self_mean = self_sum / self_n;
  const double raw =
      std::clamp(0.80 + 0.06 * (self_mean - 6.3) + 0.05 * confidence_noise, 0.05, 0.99);
  double confidence = raw;
  if (advice != nullptr) {
    // A gate it knows it still misses: kaizen says how often that is rejected. Then the belief
    // goes through the calibration map.
    double belief = raw;
    for (size_t i = 0; i < q.size(); ++i) {
      const AgentAdvice::Gate& g = advice->gates[i];
      if (g.known && item.self_assessed[i] < g.threshold) belief *= 1 - g.rejection_rate;
    }
    const auto b = static_cast<size_t>(learn::CalibrationCurve::BucketOf(belief));
    confidence = advice->calibration[b].value_or(belief);
  }
  item.confidence = std::clamp(Round2(confidence), 0.01, 0.99);
  item.score_prediction = std::clamp(Round1(self_mean + 0.6), 1.0, 10.0);

  // The bead's outcome (seed 002): a success is quick and clean, a failure slow with errors.
  item.has_outcome = outcome_draw < kOutcomeShare;
  if (item.succeeded) {
    item.duration_ms = 120'000 + std::llround(duration_draw * 1'080'000);
    item.error_count = error_draw < 75 ? 0 : 1;
    item.retry_count = retry_draw < 85 ? 0 : 1;
  } else {
    item.duration_ms = 900'000 + std::llround(duration_draw * 2'100'000);
    item.error_count = 1 + error_draw % 4;
    item.retry_count = 1 + retry_draw % 3;
  }
  return item;
}

}  // namespace kaizen::sim
