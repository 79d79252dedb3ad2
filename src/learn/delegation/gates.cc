#include "learn/delegation/gates.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "learn/reviews/approval.h"
#include "learn/reviews/quality_index.h"
#include "learn/state_archive.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

// Rates compared with a threshold: a weighted sum may land a hair under 0.95 when the exact
// value is 0.95, and a gate must not flip on that.
constexpr double kEpsilon = 1e-9;

}  // namespace

ConfigFields GatesConfig::Fields() {
  return {
      {"gates.min_scores", &min_scores, 1, 1e9, true,
       "scores of a dimension in the window before it can have a gate (seed 000 §3.1: 20+)"},
      {"gates.window_days", &window_days, 1, 3650, true,
       "UTC days, ending with now's, whose scores calibrate the gates (seed 000 §9.3: 30)"},
      {"gates.hard", &hard, 0, 1, false,
       "weighted rejection rate below a score that makes a hard gate (seed 000 §3.1: 0.95)"},
      {"gates.soft", &soft, 0, 1, false,
       "weighted rejection rate below a score that makes a soft gate (seed 000 §3.1: 0.80)"},
      {"gates.min_below", &min_below, 1, 1e9, true,
       "scores below a threshold needed before it can gate (seed 000 §9.3: 5 data points)"},
  };
}

std::string_view GateKindName(GateKind kind) { return kind == GateKind::kHard ? "hard" : "soft"; }

GateLearner::GateLearner(const GatesConfig& config, const SignalWeightConfig& weights)
    : config_(config), weights_(weights) {}

void GateLearner::Add(const model::ReviewView& review) {
  if (!IsDecided(review.decision) || review.scores.empty()) return;
  const int approved = review.decision == model::Decision::kApproved ? 1 : 0;
  const double weight = StaticWeight(weights_, review);
  const int64_t day = model::DayOf(review.at_ms);
  for (const model::ScoreView& s : review.scores) {
    if (!std::isfinite(s.score)) continue;
    Dimension& dim =
        DimensionEntry(dimensions_, quality_, OrUnspecified(s.dimension), QualityIndex(s));
    if (dim.last == nullptr || dim.last_day != day) {
      dim.last = &dim.days[day];
      dim.last_day = day;
    }
    // Scores are 1..10; a fractional score goes to the nearest integer bucket (halves up).
    const long bucket = std::clamp(std::lround(s.score), 1L, static_cast<long>(kBuckets)) - 1;
    Cell& cell = dim.last->cells[bucket][approved];
    ++cell.n;
    cell.weight += weight;
  }
}

GateLearner::Table GateLearner::Compute(const Dimension& dim, int64_t now_ms) const {
  const int64_t last = model::DayOf(now_ms);
  const int64_t first = last - static_cast<int64_t>(config_.window_days) + 1;
  Histogram sum;
  // Ascending days: the float sums come out the same whatever the map's history.
  for (auto it = dim.days.lower_bound(first); it != dim.days.end() && it->first <= last; ++it) {
    for (int b = 0; b < kBuckets; ++b) {
      for (int a = 0; a < 2; ++a) {
        sum.cells[b][a].n += it->second.cells[b][a].n;
        sum.cells[b][a].weight += it->second.cells[b][a].weight;
      }
    }
  }
  Table table;
  int64_t below = 0;
  double rejected = 0, all = 0;
  for (int t = 2; t <= kBuckets; ++t) {
    const Cell* bucket = sum.cells[t - 2];  // the scores equal to t - 1
    below += bucket[0].n + bucket[1].n;
    rejected += bucket[0].weight;
    all += bucket[0].weight + bucket[1].weight;
    table.below[t] = below;
    if (all > 0) table.rate[t] = rejected / all;
  }
  for (int b = 0; b < kBuckets; ++b) table.scores += sum.cells[b][0].n + sum.cells[b][1].n;
  if (static_cast<double>(table.scores) < config_.min_scores) return table;
  for (int t = 2; t <= kBuckets; ++t) {
    if (!table.rate[t] || static_cast<double>(table.below[t]) < config_.min_below) continue;
    if (*table.rate[t] >= config_.hard - kEpsilon) table.hard = t;
    if (*table.rate[t] >= config_.soft - kEpsilon) table.soft = t;
  }
  if (table.soft <= table.hard) table.soft = 0;  // a soft gate only warns above the hard one
  return table;
}

std::vector<ScoreGate> GateLearner::Gates(int64_t now_ms) const {
  std::vector<ScoreGate> gates;
  for (const auto& [name, dim] : dimensions_) {
    const Table table = Compute(dim, now_ms);
    for (auto [t, kind] : {std::pair{table.hard, GateKind::kHard}, {table.soft, GateKind::kSoft}}) {
      if (t == 0) continue;
      gates.push_back({name, t, *table.rate[t], table.below[t], kind, table.scores});
    }
  }
  std::sort(gates.begin(), gates.end(), [](const ScoreGate& a, const ScoreGate& b) {
    return a.dimension != b.dimension ? a.dimension < b.dimension : a.kind < b.kind;
  });
  return gates;
}

bool GateLearner::ExplainGate(std::string_view dimension, int64_t now_ms, std::string* text) const {
  auto it = dimensions_.find(dimension);
  if (it == dimensions_.end()) return false;
  const Table table = Compute(it->second, now_ms);
  const int64_t last = model::DayOf(now_ms);
  const int64_t window = static_cast<int64_t>(config_.window_days);
  std::string out = fmt::format(
      "Score gates for {} at {}\n"
      "window: {} .. {} ({} UTC days); each score weighted by the review's confidence, fatigue "
      "and override\n"
      "scores in window: {} (a gate needs {}+)\n"
      "hard gate: weighted rejection rate >= {} with {}+ scores below; soft gate: >= {}\n"
      "t   below  rejection rate of scores < t\n",
      dimension, model::FormatUtc(now_ms), model::FormatDay((last - window + 1) * model::kMsPerDay),
      model::FormatDay(last * model::kMsPerDay), window, table.scores, config_.min_scores,
      config_.hard, config_.min_below, config_.soft);
  for (int t = 2; t <= kBuckets; ++t) {
    std::string rate = table.rate[t] ? fmt::format("{:.3f}", *table.rate[t]) : "-";
    std::string mark = t == table.hard ? "  <- hard gate" : t == table.soft ? "  <- soft gate" : "";
    out += fmt::format("{:<3} {:<6} {}{}\n", t, table.below[t], rate, mark);
  }
  if (static_cast<double>(table.scores) < config_.min_scores) {
    out += fmt::format("no gate: {} scores in the window < {}\n", table.scores, config_.min_scores);
  } else {
    if (table.hard != 0) {
      out +=
          fmt::format("hard gate: score must be >= {} (rejection {:.3f} >= {}, {} below)\n",
                      table.hard, *table.rate[table.hard], config_.hard, table.below[table.hard]);
    } else {
      out += fmt::format("no hard gate: no t has rejection rate >= {} with {}+ scores below\n",
                         config_.hard, config_.min_below);
    }
    if (table.soft != 0) {
      out +=
          fmt::format("soft gate: score must be >= {} (rejection {:.3f} >= {}, {} below)\n",
                      table.soft, *table.rate[table.soft], config_.soft, table.below[table.soft]);
    } else if (table.hard != 0) {
      out += fmt::format(
          "no soft gate: no t above {} has rejection rate >= {} with {}+ scores below\n",
          table.hard, config_.soft, config_.min_below);
    } else {
      out += fmt::format("no soft gate: no t has rejection rate >= {} with {}+ scores below\n",
                         config_.soft, config_.min_below);
    }
  }
  *text = std::move(out);
  return true;
}

void WriteJson(base::JsonWriter& w, const std::vector<ScoreGate>& gates) {
  w.StartArray();
  for (const ScoreGate& g : gates) {
    w.StartObject();
    base::Key(w, "dimension");
    base::Str(w, g.dimension);
    base::Key(w, "threshold");
    w.Int(g.threshold);
    base::Key(w, "rejectionRate");
    base::Num(w, g.rejection_rate);
    base::Key(w, "n");
    w.Int64(g.n_below);
    base::Key(w, "kind");
    base::Str(w, GateKindName(g.kind));
    base::Key(w, "scores");
    w.Int64(g.scores);
    w.EndObject();
  }
  w.EndArray();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void GateLearner::Cell::serialize(Archive& ar) {
  ar(n, weight);
}

template <class Archive>
void GateLearner::Histogram::serialize(Archive& ar) {
  for (auto& bucket : cells) ar(bucket[0], bucket[1]);
}

template <class Archive>
void GateLearner::Dimension::serialize(Archive& ar) {
  ar(days);
}

template <class Archive>
void GateLearner::serialize(Archive& ar) {
  ar(state::SortedMap(dimensions_));
}

KZ_STATE_INSTANTIATE(GateLearner);

}  // namespace kaizen::learn
