#include "learn/outcomes/outcomes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "learn/decay.h"
#include "learn/outcomes/pattern_extraction.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

// Numbers in explanations read like the JSON: rounded to 6 decimals, shortest form.
std::string N(double x) { return fmt::format("{}", base::Round6(x)); }

double HarmfulRatio(double helpful, double harmful) {
  const double total = helpful + harmful;
  return total > 0 ? harmful / total : 0;
}

// seed 002 "Inversion Process": Math.round(100 * F / T), computed exactly in integers (halves
// round up, as Math.round does for positive numbers).
int64_t FailurePercent(int64_t failures, int64_t total) {
  return total > 0 ? (200 * failures + total) / (2 * total) : 0;
}

std::string FailureReason(int64_t failures, int64_t total) {
  return fmt::format("Failed {}/{} times ({}% failure rate)", failures, total,
                     FailurePercent(failures, total));
}

bool Older(int64_t at_a, int64_t seq_a, int64_t at_b, int64_t seq_b) {
  return at_a != at_b ? at_a < at_b : seq_a < seq_b;
}

}  // namespace

std::string_view MaturityStateName(MaturityState state) {
  switch (state) {
    case MaturityState::kEstablished:
      return "established";
    case MaturityState::kProven:
      return "proven";
    case MaturityState::kDeprecated:
      return "deprecated";
    case MaturityState::kCandidate:
      break;
  }
  return "candidate";
}

double CriterionWeight(double helpful_sum, double harmful_sum, const OutcomeConfig& c) {
  const double total = helpful_sum + harmful_sum;
  if (!(total > 0)) return 1.0;
  return std::max(c.weight_floor, helpful_sum / total);
}

bool CriterionDeprecated(int64_t helpful_count, int64_t harmful_count, const OutcomeConfig& c) {
  const auto total = static_cast<double>(helpful_count + harmful_count);
  return total >= c.criterion_min_feedback &&
         static_cast<double>(harmful_count) >
             c.criterion_max_harmful_ratio * total + kRatioTolerance;
}

MaturityState PatternMaturity(double helpful, double harmful, const OutcomeConfig& c) {
  const double total = helpful + harmful;
  const bool enough = total >= c.maturity_min_feedback - kRatioTolerance;
  if (enough && harmful > c.deprecation_harmful_ratio * total + kRatioTolerance) {
    return MaturityState::kDeprecated;
  }
  if (!enough) return MaturityState::kCandidate;
  if (helpful >= c.proven_min_helpful - kRatioTolerance &&
      harmful < c.proven_max_harmful_ratio * total - kRatioTolerance) {
    return MaturityState::kProven;
  }
  return MaturityState::kEstablished;
}

double MaturityMultiplier(MaturityState state, const OutcomeConfig& c) {
  switch (state) {
    case MaturityState::kEstablished:
      return c.established_multiplier;
    case MaturityState::kProven:
      return c.proven_multiplier;
    case MaturityState::kDeprecated:
      return c.deprecated_multiplier;
    case MaturityState::kCandidate:
      break;
  }
  return c.candidate_multiplier;
}

bool InvertsToAntiPattern(int64_t success_count, int64_t failure_count, const OutcomeConfig& c) {
  const auto total = static_cast<double>(success_count + failure_count);
  return total >= c.anti_pattern_min_observations &&
         static_cast<double>(failure_count) >=
             c.anti_pattern_failure_ratio * total - kRatioTolerance;
}

namespace {

// The rules of PatternMaturity in their order, each with the comparison that held or failed,
// down to the one that decided `state`.
void AppendMaturityRules(double helpful, double harmful, MaturityState state,
                         const OutcomeConfig& c, std::string* out) {
  const double total = helpful + harmful;
  const double ratio = HarmfulRatio(helpful, harmful);
  *out += "maturity, first rule that holds:\n";
  std::string verdict = "yes";
  if (state != MaturityState::kDeprecated) {
    const bool too_harmful = harmful > c.deprecation_harmful_ratio * total + kRatioTolerance;
    verdict =
        too_harmful
            ? fmt::format("no, decayed total {} < {}", N(total), N(c.maturity_min_feedback))
            : fmt::format("no, harmful ratio {} <= {}", N(ratio), N(c.deprecation_harmful_ratio));
  }
  *out += fmt::format("  deprecated if harmful ratio > {} and decayed total >= {}: {}\n",
                      N(c.deprecation_harmful_ratio), N(c.maturity_min_feedback), verdict);
  if (state == MaturityState::kDeprecated) return;

  verdict = state == MaturityState::kCandidate
                ? "yes"
                : fmt::format("no, decayed total {} >= {}", N(total), N(c.maturity_min_feedback));
  *out +=
      fmt::format("  candidate if decayed total < {}: {}\n", N(c.maturity_min_feedback), verdict);
  if (state == MaturityState::kCandidate) return;

  verdict = "yes";
  if (state == MaturityState::kEstablished) {
    verdict = "no";
    if (helpful < c.proven_min_helpful - kRatioTolerance) {
      verdict += fmt::format(", decayedHelpful {} < {}", N(helpful), N(c.proven_min_helpful));
    }
    if (!(harmful < c.proven_max_harmful_ratio * total - kRatioTolerance)) {
      verdict += fmt::format(", harmful ratio {} >= {}", N(ratio), N(c.proven_max_harmful_ratio));
    }
  }
  *out += fmt::format("  proven if decayedHelpful >= {} and harmful ratio < {}: {}\n",
                      N(c.proven_min_helpful), N(c.proven_max_harmful_ratio), verdict);
  if (state == MaturityState::kEstablished) *out += "  otherwise established: yes\n";
}

std::string AntiPatternVerdict(int64_t successes, int64_t failures, const OutcomeConfig& c) {
  const int64_t total = successes + failures;
  if (InvertsToAntiPattern(successes, failures, c)) {
    return "yes, AVOID: " + FailureReason(failures, total);
  }
  if (static_cast<double>(total) < c.anti_pattern_min_observations) {
    return fmt::format("no, {} observations < {}", total, N(c.anti_pattern_min_observations));
  }
  return fmt::format("no, failure ratio {} ({}/{}) < {}",
                     N(static_cast<double>(failures) / static_cast<double>(total)), failures, total,
                     N(c.anti_pattern_failure_ratio));
}

}  // namespace

// ---- Folding ---------------------------------------------------------------------------------

struct OutcomeLearner::Folded {
  double helpful = 0, harmful = 0;          // seed 002 maturity: decay per observation
  double helpful_sum = 0, harmful_sum = 0;  // seed 002 criteria: raw_value * decay
  int64_t helpful_count = 0, harmful_count = 0, neutral_count = 0;
  int64_t newest_ms = std::numeric_limits<int64_t>::min();
};

OutcomeLearner::OutcomeLearner(const OutcomeConfig& config) : config_(config) {}

template <typename T>
uint32_t OutcomeLearner::Intern(Index& index, std::vector<T>& table, std::string_view name) {
  if (auto it = index.find(name); it != index.end()) return it->second;
  const auto id = static_cast<uint32_t>(table.size());
  index.emplace(std::string(name), id);
  table.push_back(T{std::string(name)});
  return id;
}

void OutcomeLearner::StartDistinct() {
  current_.clear();
  ++generation_;
}

// A stamp per id, not a search of current_: an outcome naming n patterns would cost n^2
// (docs/performance.md, "Figures behind the source's choices").
void OutcomeLearner::AddDistinct(uint32_t id) {
  if (id >= stamp_.size()) stamp_.resize(id + 1, 0);
  if (stamp_[id] == generation_) return;
  stamp_[id] = generation_;
  current_.push_back(id);
}

void OutcomeLearner::Record(Evidence& e, const Observation& o, std::string_view bead_id) {
  e.observations.push_back(o);
  ++(o.success ? e.successes : e.failures);
  // Keep the kNewestShown newest by (timestamp, log position); usually the one just added.
  Recent* slot = nullptr;
  if (e.newest.size() < kNewestShown) {
    slot = &e.newest.emplace_back();
  } else {
    slot = &*std::min_element(e.newest.begin(), e.newest.end(), [](const auto& a, const auto& b) {
      return Older(a.at_ms, a.seq, b.at_ms, b.seq);
    });
    if (!Older(slot->at_ms, slot->seq, o.at_ms, outcome_count_)) return;
  }
  slot->at_ms = o.at_ms;
  slot->seq = outcome_count_;
  slot->bead_id.assign(bead_id);
  slot->observation = o;
}

void OutcomeLearner::Add(const model::OutcomeView& outcome) {
  Add(outcome, DetectStrategies(outcome.description));
}

void OutcomeLearner::Add(const model::OutcomeView& outcome, uint16_t detected) {
  ++outcome_count_;
  const OutcomeScore score = ScoreOutcome(outcome, config_);
  const Observation obs{outcome.at_ms, static_cast<uint8_t>(score.raw_hundredths), score.type,
                        outcome.success};

  // seed 002 "Confidence Decay": each criterion gets one feedback event per outcome.
  StartDistinct();
  for (std::string_view name : outcome.criteria) {
    if (!name.empty()) AddDistinct(Intern(criterion_index_, criteria_, name));
  }
  for (uint32_t id : current_) Record(criteria_[id], obs, outcome.bead_id);

  // seed 002 "Recording Observations": the patterns named plus those the description mentions.
  StartDistinct();
  for (std::string_view name : outcome.patterns) {
    if (!name.empty()) AddDistinct(Intern(pattern_index_, patterns_, name));
  }
  for (size_t s = 0; s < kDetectedStrategies.size(); ++s) {
    if ((detected & (1u << s)) != 0) {
      AddDistinct(Intern(pattern_index_, patterns_, kDetectedStrategies[s]));
    }
  }
  for (uint32_t id : current_) Record(patterns_[id], obs, outcome.bead_id);
  if (!current_.empty() || !outcome.criteria.empty()) RememberBead(outcome);

  if (!outcome.strategy.empty()) {
    StrategyStats& st = strategies_[Intern(strategy_index_, strategies_, outcome.strategy)];
    ++st.outcomes;
    st.successes += outcome.success ? 1 : 0;
    st.helpful += score.type == FeedbackType::kHelpful ? 1 : 0;
    st.harmful += score.type == FeedbackType::kHarmful ? 1 : 0;
  }
}

void OutcomeLearner::RememberBead(const model::OutcomeView& outcome) {
  if (outcome.bead_id.empty()) return;
  auto it = beads_.find(outcome.bead_id);
  if (it == beads_.end()) it = beads_.emplace(std::string(outcome.bead_id), BeadEvidence{}).first;
  BeadEvidence& b = it->second;
  auto merge = [](std::vector<uint32_t>* into, uint32_t id) {
    if (std::find(into->begin(), into->end(), id) == into->end()) into->push_back(id);
  };
  for (uint32_t id : current_) merge(&b.patterns, id);
  for (std::string_view name : outcome.criteria) {
    auto c = criterion_index_.find(name);
    if (c != criterion_index_.end()) merge(&b.criteria, c->second);
  }
}

bool OutcomeLearner::AddSignal(std::string_view bead_id, double value, int64_t at_ms) {
  auto it = beads_.find(bead_id);
  if (it == beads_.end() || !std::isfinite(value)) return false;
  const int hundredths = static_cast<int>(std::lround(std::clamp(value, 0.0, 1.0) * 100));
  FeedbackType type = FeedbackType::kNeutral;
  if (hundredths >= config_.helpful_threshold * 100 - 1e-9) {
    type = FeedbackType::kHelpful;
  } else if (hundredths <= config_.harmful_threshold * 100 + 1e-9) {
    type = FeedbackType::kHarmful;
  }
  const Observation obs{at_ms, static_cast<uint8_t>(hundredths), type,
                        type != FeedbackType::kHarmful};
  ++signal_count_;
  for (uint32_t id : it->second.criteria) Record(criteria_[id], obs, bead_id);
  for (uint32_t id : it->second.patterns) Record(patterns_[id], obs, bead_id);
  return true;
}

// Sums in log order, so the same log gives the same bits.
OutcomeLearner::Folded OutcomeLearner::Fold(const Evidence& e, int64_t now_ms) const {
  Folded f;
  for (const Observation& o : e.observations) {
    f.newest_ms = std::max(f.newest_ms, o.at_ms);
    if (o.type == FeedbackType::kNeutral) {
      ++f.neutral_count;
      continue;
    }
    // seed 002: decayed_value = raw_value * 0.5^(age_days / half_life)
    const double decay = Decay(o.at_ms, now_ms, config_.half_life_days);
    const double raw = o.raw_hundredths / 100.0;
    if (o.type == FeedbackType::kHelpful) {
      ++f.helpful_count;
      f.helpful += decay;
      f.helpful_sum += raw * decay;
    } else {
      ++f.harmful_count;
      f.harmful += decay;
      f.harmful_sum += raw * decay;
    }
  }
  return f;
}

// ---- Queries ---------------------------------------------------------------------------------

std::vector<CriterionResult> OutcomeLearner::Criteria(int64_t now_ms) const {
  std::vector<CriterionResult> out;
  out.reserve(criteria_.size());
  for (const Evidence& e : criteria_) {
    const Folded f = Fold(e, now_ms);
    CriterionResult r;
    r.criterion = e.name;
    r.weight = CriterionWeight(f.helpful_sum, f.harmful_sum, config_);
    r.helpful_count = f.helpful_count;
    r.harmful_count = f.harmful_count;
    r.neutral_count = f.neutral_count;
    r.deprecated = CriterionDeprecated(f.helpful_count, f.harmful_count, config_);
    r.decayed_helpful = f.helpful_sum;
    r.decayed_harmful = f.harmful_sum;
    r.last_validated_ms = f.newest_ms;
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.criterion < b.criterion; });
  return out;
}

std::vector<PatternResult> OutcomeLearner::Patterns(int64_t now_ms) const {
  std::vector<PatternResult> out;
  out.reserve(patterns_.size());
  for (const Evidence& e : patterns_) {
    const Folded f = Fold(e, now_ms);
    PatternResult r;
    r.content = e.name;
    r.state = PatternMaturity(f.helpful, f.harmful, config_);
    r.multiplier = MaturityMultiplier(r.state, config_);
    r.success_count = e.successes;
    r.failure_count = e.failures;
    r.decayed_helpful = f.helpful;
    r.decayed_harmful = f.harmful;
    r.observations = static_cast<int64_t>(e.observations.size());
    out.push_back(std::move(r));
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.content < b.content; });
  return out;
}

std::vector<AntiPattern> OutcomeLearner::AntiPatterns() const {
  std::vector<AntiPattern> out;
  for (const Evidence& e : patterns_) {
    if (!InvertsToAntiPattern(e.successes, e.failures, config_)) continue;
    const int64_t total = e.successes + e.failures;
    AntiPattern a;
    a.reason = FailureReason(e.failures, total);
    // seed 002 antiPatternPrefix "AVOID: "
    a.content = fmt::format("AVOID: {}. {}", e.name, a.reason);
    a.pattern = e.name;
    a.success_count = e.successes;
    a.failure_count = e.failures;
    a.failure_rate = static_cast<double>(e.failures) / static_cast<double>(total);
    out.push_back(std::move(a));
  }
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.pattern < b.pattern; });
  return out;
}

std::vector<StrategyStats> OutcomeLearner::Strategies() const {
  std::vector<StrategyStats> out = strategies_;
  std::sort(out.begin(), out.end(),
            [](const auto& a, const auto& b) { return a.strategy < b.strategy; });
  return out;
}

// ---- Explanations (seed 002 "Debugging Pattern Issues") --------------------------------------

void OutcomeLearner::AppendNewest(const Evidence& e, int64_t now_ms, bool with_contribution,
                                  std::string* text) const {
  std::vector<const Recent*> newest;
  for (const Recent& r : e.newest) newest.push_back(&r);
  std::sort(newest.begin(), newest.end(), [](const Recent* a, const Recent* b) {
    return Older(b->at_ms, b->seq, a->at_ms, a->seq);
  });
  *text += fmt::format("newest observations ({} of {}):\n", newest.size(), e.observations.size());
  for (const Recent* r : newest) {
    const Observation& o = r->observation;
    const double decay = Decay(o.at_ms, now_ms, config_.half_life_days);
    const double raw = o.raw_hundredths / 100.0;
    *text += fmt::format("  {} bead {} {} {} raw {} decay {}", model::FormatUtc(o.at_ms),
                         r->bead_id.empty() ? "-" : r->bead_id, o.success ? "success" : "failure",
                         FeedbackTypeName(o.type), N(raw), N(decay));
    if (with_contribution && o.type != FeedbackType::kNeutral) {
      *text += fmt::format(" -> {} {}", FeedbackTypeName(o.type), N(raw * decay));
    }
    *text += '\n';
  }
}

bool OutcomeLearner::ExplainPattern(std::string_view name, int64_t now_ms,
                                    std::string* text) const {
  auto it = pattern_index_.find(name);
  if (it == pattern_index_.end()) return false;
  const Evidence& e = patterns_[it->second];
  const OutcomeConfig& c = config_;
  const Folded f = Fold(e, now_ms);
  const MaturityState state = PatternMaturity(f.helpful, f.harmful, c);

  std::string out =
      fmt::format("pattern \"{}\" at {}: {} (multiplier {})\n", e.name, model::FormatUtc(now_ms),
                  MaturityStateName(state), N(MaturityMultiplier(state, c)));
  out += fmt::format(
      "observations: {} ({} helpful, {} neutral, {} harmful); outcomes: {} succeeded, {} "
      "failed\n",
      e.observations.size(), f.helpful_count, f.neutral_count, f.harmful_count, e.successes,
      e.failures);
  out += fmt::format(
      "decayed (half-life {} days, neutral not counted): helpful {}, harmful {}, total {}; "
      "harmful ratio {}\n",
      N(c.half_life_days), N(f.helpful), N(f.harmful), N(f.helpful + f.harmful),
      N(HarmfulRatio(f.helpful, f.harmful)));

  AppendMaturityRules(f.helpful, f.harmful, state, c, &out);
  out += fmt::format(
      "anti-pattern if successCount+failureCount >= {} and failure ratio >= {} (by the "
      "outcomes' success): {}\n",
      N(c.anti_pattern_min_observations), N(c.anti_pattern_failure_ratio),
      AntiPatternVerdict(e.successes, e.failures, c));
  AppendNewest(e, now_ms, /*with_contribution=*/false, &out);
  *text = std::move(out);
  return true;
}

bool OutcomeLearner::ExplainCriterion(std::string_view name, int64_t now_ms,
                                      std::string* text) const {
  auto it = criterion_index_.find(name);
  if (it == criterion_index_.end()) return false;
  const Evidence& e = criteria_[it->second];
  const OutcomeConfig& c = config_;
  const Folded f = Fold(e, now_ms);
  const double weight = CriterionWeight(f.helpful_sum, f.harmful_sum, c);
  const bool deprecated = CriterionDeprecated(f.helpful_count, f.harmful_count, c);

  std::string out =
      fmt::format("criterion \"{}\" at {}: weight {}{}\n", e.name, model::FormatUtc(now_ms),
                  N(weight), deprecated ? ", deprecated" : "");
  out += fmt::format(
      "feedback: {} events ({} helpful, {} harmful, {} neutral; neutral counts nowhere); last "
      "validated {}\n",
      e.observations.size(), f.helpful_count, f.harmful_count, f.neutral_count,
      model::FormatUtc(f.newest_ms));
  out +=
      fmt::format("decayed sums of raw score x decay (half-life {} days): helpful {}, harmful {}\n",
                  N(c.half_life_days), N(f.helpful_sum), N(f.harmful_sum));
  if (f.helpful_sum + f.harmful_sum > 0) {
    const double share = f.helpful_sum / (f.helpful_sum + f.harmful_sum);
    out += fmt::format("weight = max({}, helpful / (helpful + harmful)) = max({}, {}) = {}{}\n",
                       N(c.weight_floor), N(c.weight_floor), N(share), N(weight),
                       share < c.weight_floor ? " (the floor decided)" : "");
  } else {
    out += "weight = 1: no helpful or harmful feedback\n";
  }
  const int64_t decided = f.helpful_count + f.harmful_count;
  std::string verdict;
  if (static_cast<double>(decided) < c.criterion_min_feedback) {
    verdict = fmt::format("no, helpful+harmful {} < {}", decided, N(c.criterion_min_feedback));
  } else {
    const double ratio = static_cast<double>(f.harmful_count) / static_cast<double>(decided);
    verdict = fmt::format("{}, harmful ratio {} ({}/{}) {} {}", deprecated ? "yes" : "no", N(ratio),
                          f.harmful_count, decided,
                          deprecated ? ">" : "<=", N(c.criterion_max_harmful_ratio));
  }
  out += fmt::format("deprecated if helpful+harmful >= {} and harmful ratio > {}: {}\n",
                     N(c.criterion_min_feedback), N(c.criterion_max_harmful_ratio), verdict);
  AppendNewest(e, now_ms, /*with_contribution=*/true, &out);
  *text = std::move(out);
  return true;
}

// ---- JSON ------------------------------------------------------------------------------------

void WriteJson(base::JsonWriter& w, const std::vector<CriterionResult>& criteria) {
  w.StartArray();
  for (const CriterionResult& r : criteria) {
    w.StartObject();
    base::Key(w, "criterion");
    base::Str(w, r.criterion);
    base::Key(w, "weight");
    base::Num(w, r.weight);
    base::Key(w, "helpfulCount");
    w.Int64(r.helpful_count);
    base::Key(w, "harmfulCount");
    w.Int64(r.harmful_count);
    base::Key(w, "deprecated");
    w.Bool(r.deprecated);
    base::Key(w, "decayedHelpful");
    base::Num(w, r.decayed_helpful);
    base::Key(w, "decayedHarmful");
    base::Num(w, r.decayed_harmful);
    base::Key(w, "lastValidated");
    base::Str(w, model::FormatUtc(r.last_validated_ms));
    w.EndObject();
  }
  w.EndArray();
}

void WriteJson(base::JsonWriter& w, const std::vector<PatternResult>& patterns) {
  w.StartArray();
  for (const PatternResult& r : patterns) {
    w.StartObject();
    base::Key(w, "content");
    base::Str(w, r.content);
    base::Key(w, "state");
    base::Str(w, MaturityStateName(r.state));
    base::Key(w, "multiplier");
    base::Num(w, r.multiplier);
    base::Key(w, "successCount");
    w.Int64(r.success_count);
    base::Key(w, "failureCount");
    w.Int64(r.failure_count);
    base::Key(w, "decayedHelpful");
    base::Num(w, r.decayed_helpful);
    base::Key(w, "decayedHarmful");
    base::Num(w, r.decayed_harmful);
    base::Key(w, "observations");
    w.Int64(r.observations);
    w.EndObject();
  }
  w.EndArray();
}

void WriteJson(base::JsonWriter& w, const std::vector<AntiPattern>& anti_patterns) {
  w.StartArray();
  for (const AntiPattern& a : anti_patterns) {
    w.StartObject();
    base::Key(w, "content");
    base::Str(w, a.content);
    base::Key(w, "reason");
    base::Str(w, a.reason);
    base::Key(w, "pattern");
    base::Str(w, a.pattern);
    base::Key(w, "successCount");
    w.Int64(a.success_count);
    base::Key(w, "failureCount");
    w.Int64(a.failure_count);
    base::Key(w, "failureRate");
    base::Num(w, a.failure_rate);
    w.EndObject();
  }
  w.EndArray();
}

void WriteJson(base::JsonWriter& w, const std::vector<StrategyStats>& strategies) {
  w.StartArray();
  for (const StrategyStats& s : strategies) {
    w.StartObject();
    base::Key(w, "strategy");
    base::Str(w, s.strategy);
    base::Key(w, "outcomes");
    w.Int64(s.outcomes);
    base::Key(w, "successes");
    w.Int64(s.successes);
    base::Key(w, "helpful");
    w.Int64(s.helpful);
    base::Key(w, "harmful");
    w.Int64(s.harmful);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace kaizen::learn
