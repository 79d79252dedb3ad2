#include "learn/reviews/preferences.h"

#include <algorithm>
#include <cmath>

#include "learn/reviews/quality_index.h"
#include "learn/state_archive.h"
#include "model/schema.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

// Words too common in summaries to describe a design.
bool IsStopWord(std::string_view w) {
  static constexpr std::array<std::string_view, 24> kStop = {
      "with",  "from", "that",  "this", "into", "over", "than", "then",
      "them",  "they", "their", "have", "were", "will", "when", "what",
      "which", "each", "only",  "also", "more", "most", "some", "server"};
  return std::find(kStop.begin(), kStop.end(), w) != kStop.end();
}

}  // namespace

// The option's attributes (§3.3 "A's design attributes"): its type, model and server type, and
// the words of its summary ("retry", "queue", "cards"), the only description of the design the
// log holds. Prefixes keep the kinds apart; sorted and unique, so two options share an attribute
// exactly when both have it.
void PreferenceLearner::AttributesOf(const model::WorkView& w, std::vector<std::string>* out) {
  out->clear();
  if (!w.type.empty()) out->push_back("type:" + std::string(w.type));
  if (!w.model.empty()) out->push_back("model:" + std::string(w.model));
  if (!w.server_type.empty()) out->push_back("server:" + std::string(w.server_type));
  std::string word;
  auto flush = [&] {
    if (word.size() >= 4 && !IsStopWord(word)) out->push_back("word:" + word);
    word.clear();
  };
  for (char ch : w.summary) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-') {
      word.push_back(ch);
    } else if (ch >= 'A' && ch <= 'Z') {
      word.push_back(static_cast<char>(ch - 'A' + 'a'));
    } else {
      flush();
    }
  }
  flush();
  std::sort(out->begin(), out->end());
  out->erase(std::unique(out->begin(), out->end()), out->end());
}

namespace {

// 1 / (1 + 10^((r_other - r) / 400)): the ELO expected score of r against r_other.
double Expected(double r, double r_other) {
  return 1.0 / (1.0 + std::pow(10.0, (r_other - r) / 400.0));
}

}  // namespace

ConfigFields PreferenceConfig::Fields() {
  return {
      {"preferences.elo_k", &elo_k, 0, 1000, false,
       "ELO K factor of a comparison update (seed 000 §3.3 \"ELO-like\")"},
      {"preferences.elo_initial", &elo_initial, 0, 10000, false,
       "rating of an attribute never compared; decay pulls ratings back to it"},
      {"preferences.slight", &slight, 0, 100, false,
       "update multiplier of a slight preference (seed 000 §3.3)"},
      {"preferences.moderate", &moderate, 0, 100, false,
       "update multiplier of a moderate preference (seed 000 §3.3)"},
      {"preferences.strong", &strong, 0, 100, false,
       "update multiplier of a strong preference (seed 000 §3.3)"},
      {"preferences.overwhelming", &overwhelming, 0, 100, false,
       "update multiplier of an overwhelming preference (seed 000 §3.3)"},
      {"preferences.stable_after", &stable_after, 1, 1e9, true,
       "comparisons after which the preference vector is stable (seed 000 §3.3: 50+)"},
      {"preferences.min_reviews_for_fit", &min_reviews_for_fit, 1, 1e9, true,
       "decided, scored reviews before dimension weights are fitted (seed 000 §3.3: 30+)"},
      {"preferences.decay_per_month", &decay_per_month, 0, 1, false,
       "share of a rating's deviation lost per month without updates (seed 000 §9.3: 5%)"},
      {"preferences.month_days", &month_days, 1, 366, false,
       "days in a decay month (seed 000 §9.3)"},
  };
}

PreferenceLearner::PreferenceLearner(const PreferenceConfig& config,
                                     const SignalWeightConfig& weights)
    : config_(config), weights_(weights) {}

// §9.3 preference decay: R = initial + (R_last - initial) x (1 - decay)^(days / month_days).
double PreferenceLearner::RatingAt(const Rating& r, int64_t now_ms) const {
  if (now_ms <= r.last_updated_ms) return r.rating;  // no time has passed: skip the pow()
  double days =
      static_cast<double>(now_ms - r.last_updated_ms) / static_cast<double>(model::kMsPerDay);
  double factor = std::pow(1.0 - config_.decay_per_month, days / config_.month_days);
  return config_.elo_initial + (r.rating - config_.elo_initial) * factor;
}

double PreferenceLearner::StrengthMultiplier(std::string_view strength) const {
  if (strength == "slight") return config_.slight;
  if (strength == "strong") return config_.strong;
  if (strength == "overwhelming") return config_.overwhelming;
  return config_.moderate;  // "moderate", and a strength the schema would not accept
}

PreferenceLearner::Rating& PreferenceLearner::FindRating(std::string_view attribute) {
  auto it = ratings_.find(attribute);
  if (it == ratings_.end()) {
    it = ratings_.emplace(std::string(attribute), Rating{config_.elo_initial, 0, 0}).first;
  }
  return it->second;
}

void PreferenceLearner::Add(const model::ReviewView& review) {
  if (review.comparison) AddComparison(review, *review.comparison);
  if (!review.scores.empty()) AddScores(review);
}

void PreferenceLearner::AddComparison(const model::ReviewView& review,
                                      const model::ComparisonView& c) {
  const std::string_view preferred = c.preferred;
  const bool decisive = preferred == "A" || preferred == "B";
  for (const model::DimensionWinnerView& d : c.dimensions) {
    Winner& win = Entry(winners_, d.dimension);
    if (d.winner == 'A') ++win.a;
    if (d.winner == 'B') ++win.b;
    if (d.winner != 'A' && d.winner != 'B') ++win.tie;
    if (decisive && (d.winner == 'A' || d.winner == 'B')) {
      ++win.decided;
      if (d.winner == preferred[0]) ++win.agreed;
    }
  }

  double s_a;
  if (preferred == "A") {
    s_a = 1;
  } else if (preferred == "B") {
    s_a = 0;
  } else if (preferred == "both-good") {
    s_a = 0.5;
  } else {
    return;  // "neither": no side won, nothing to learn about the attributes
  }
  ++comparisons_;

  // R_A, R_B: mean current rating of each side's attributes the other side lacks. A side with no
  // distinguishing attribute is rated elo_initial.
  AttributesOf(c.option_a, &attributes_a_);
  AttributesOf(c.option_b, &attributes_b_);
  struct Side {
    std::vector<std::pair<Rating*, double>> only;  // the rating and its value decayed to now
    double sum = 0;
  };
  Side a, b;
  const auto collect = [&](const std::vector<std::string>& mine,
                           const std::vector<std::string>& theirs, Side* side) {
    for (const std::string& attribute : mine) {
      if (std::binary_search(theirs.begin(), theirs.end(), attribute)) continue;  // shared
      Rating* r = &FindRating(attribute);
      double now = RatingAt(*r, review.at_ms);
      side->only.emplace_back(r, now);
      side->sum += now;
    }
  };
  collect(attributes_a_, attributes_b_, &a);
  collect(attributes_b_, attributes_a_, &b);
  const double r_a = a.only.empty() ? config_.elo_initial : a.sum / a.only.size();
  const double r_b = b.only.empty() ? config_.elo_initial : b.sum / b.only.size();
  // §3.3: "preference strength multiplies the update magnitude"; §9.2/§9.3 review weights.
  const double delta = config_.elo_k * StrengthMultiplier(c.strength) *
                       StaticWeight(weights_, review) * (s_a - Expected(r_a, r_b));
  // Pointers into an unordered_map stay valid across the inserts above (rehash moves buckets,
  // not nodes).
  const auto update = [&](const Side& side, double change) {
    for (auto [r, current] : side.only) {
      r->rating = current + change;
      r->last_updated_ms = std::max(r->last_updated_ms, review.at_ms);
      ++r->comparisons;
    }
  };
  update(a, delta);
  update(b, -delta);
}

void PreferenceLearner::AddScores(const model::ReviewView& review) {
  std::array<double, kDimensions> sum{};
  std::array<int, kDimensions> count{};
  double total = 0;
  int n = 0;
  for (const model::ScoreView& s : review.scores) {
    int i = QualityIndex(s);
    if (i < 0 || i >= static_cast<int>(kDimensions)) continue;  // not a seed dimension
    sum[i] += s.score;
    ++count[i];
    total += s.score;
    ++n;
  }
  if (n == 0) return;
  for (size_t i = 0; i < kDimensions; ++i) seen_[i] = seen_[i] || count[i] > 0;

  // §3.3 regression target: the decision on the 1..10 score scale, 1 + 9 x [approved].
  const model::Decision d = review.decision;
  if (d != model::Decision::kApproved && d != model::Decision::kRejected &&
      d != model::Decision::kNeedsWork)
    return;
  const double mean = total / n;
  std::array<double, kDimensions> x;
  for (size_t i = 0; i < kDimensions; ++i) {
    // A dimension the review did not score is imputed with the review's mean score.
    x[i] = count[i] > 0 ? sum[i] / count[i] : mean;
    fitted_[i] = fitted_[i] || count[i] > 0;
  }
  fit_.Add(x, d == model::Decision::kApproved ? 10.0 : 1.0);
}

DimensionWeights PreferenceLearner::Weights() const {
  const auto& dims = model::QualityDimensions();
  DimensionWeights out;
  out.n = fit_.n();
  std::array<double, kDimensions> w{};
  if (static_cast<double>(out.n) >= config_.min_reviews_for_fit) {
    std::vector<size_t> columns;
    for (size_t i = 0; i < kDimensions; ++i) {
      if (fitted_[i]) columns.push_back(i);
    }
    if (auto solved = fit_.Solve(columns)) {
      double sum = 0;
      for (size_t c = 0; c < columns.size(); ++c) {
        w[columns[c]] = std::max(0.0, (*solved)[c]);  // a negative weight is not a preference
        sum += w[columns[c]];
      }
      if (sum > 0) {
        for (double& v : w) v /= sum;
        out.fitted = true;
      }
    }
  }
  if (!out.fitted) {
    // §3.3 "Initially use equal weights", over the dimensions seen so far.
    int seen = 0;
    for (bool s : seen_) seen += s ? 1 : 0;
    for (size_t i = 0; i < kDimensions; ++i) w[i] = seen_[i] ? 1.0 / seen : 0.0;
  }
  for (size_t i = 0; i < kDimensions; ++i) {
    if (seen_[i]) out.by_dimension.emplace_back(std::string(dims[i]), w[i]);
  }
  std::sort(out.by_dimension.begin(), out.by_dimension.end());
  return out;
}

double PreferenceLearner::PredictScore(const std::vector<model::ScoreView>& self_assessed) const {
  if (self_assessed.empty()) return 0;
  double plain = 0;
  for (const model::ScoreView& s : self_assessed) plain += s.score;
  plain /= static_cast<double>(self_assessed.size());

  const DimensionWeights weights = Weights();
  if (!weights.fitted) return plain;
  double weighted = 0, weight_sum = 0;
  for (const model::ScoreView& s : self_assessed) {
    auto it = std::lower_bound(
        weights.by_dimension.begin(), weights.by_dimension.end(), s.dimension,
        [](const std::pair<std::string, double>& e, std::string_view d) { return e.first < d; });
    if (it == weights.by_dimension.end() || it->first != s.dimension) continue;
    weighted += it->second * s.score;
    weight_sum += it->second;
  }
  return weight_sum > 0 ? weighted / weight_sum : plain;
}

PreferenceResult PreferenceLearner::Result(int64_t now_ms) const {
  PreferenceResult out;
  out.comparisons = comparisons_;
  out.stable = static_cast<double>(comparisons_) >= config_.stable_after;
  for (const auto& [attribute, r] : ratings_) {
    AttributePreference p;
    p.attribute = attribute;
    p.rating = RatingAt(r, now_ms);
    // Shown as 0..1: the expected score against an attribute at the initial rating.
    p.preference = Expected(p.rating, config_.elo_initial);
    p.comparisons = r.comparisons;
    p.last_updated_ms = r.last_updated_ms;
    out.vector.push_back(std::move(p));
  }
  std::sort(out.vector.begin(), out.vector.end(),
            [](const auto& x, const auto& y) { return x.attribute < y.attribute; });
  for (const auto& [dimension, win] : winners_) {
    DimensionWinner d{dimension, win.a, win.b, win.tie, std::nullopt};
    if (win.decided > 0) {
      d.agrees_with_preferred = static_cast<double>(win.agreed) / static_cast<double>(win.decided);
    }
    out.dimension_winners.push_back(std::move(d));
  }
  std::sort(out.dimension_winners.begin(), out.dimension_winners.end(),
            [](const auto& x, const auto& y) { return x.dimension < y.dimension; });
  out.weights = Weights();
  return out;
}

void WriteJson(base::JsonWriter& w, const PreferenceResult& result) {
  w.StartObject();
  base::Key(w, "comparisons");
  w.Int64(result.comparisons);
  base::Key(w, "stable");
  w.Bool(result.stable);
  base::Key(w, "vector");
  w.StartObject();
  for (const AttributePreference& p : result.vector) {
    base::Key(w, p.attribute);
    w.StartObject();
    base::Key(w, "rating");
    base::Num(w, p.rating);
    base::Key(w, "preference");
    base::Num(w, p.preference);
    base::Key(w, "comparisons");
    w.Int64(p.comparisons);
    base::Key(w, "lastUpdated");
    base::Str(w, model::FormatUtc(p.last_updated_ms));
    w.EndObject();
  }
  w.EndObject();
  base::Key(w, "dimensionWinners");
  w.StartObject();
  for (const DimensionWinner& d : result.dimension_winners) {
    base::Key(w, d.dimension);
    w.StartObject();
    base::Key(w, "A");
    w.Int64(d.a);
    base::Key(w, "B");
    w.Int64(d.b);
    base::Key(w, "tie");
    w.Int64(d.tie);
    base::Key(w, "agreesWithPreferred");
    base::Num(w, d.agrees_with_preferred);
    w.EndObject();
  }
  w.EndObject();
  base::Key(w, "weights");
  w.StartObject();
  base::Key(w, "fitted");
  w.Bool(result.weights.fitted);
  base::Key(w, "n");
  w.Int64(result.weights.n);
  base::Key(w, "byDimension");
  w.StartObject();
  for (const auto& [dimension, weight] : result.weights.by_dimension) {
    base::Key(w, dimension);
    base::Num(w, weight);
  }
  w.EndObject();
  w.EndObject();
  w.EndObject();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void PreferenceLearner::Rating::serialize(Archive& ar) {
  ar(rating, last_updated_ms, comparisons);
}

template <class Archive>
void PreferenceLearner::Winner::serialize(Archive& ar) {
  ar(a, b, tie, decided, agreed);
}

template <class Archive>
void PreferenceLearner::serialize(Archive& ar) {
  ar(comparisons_, state::SortedMap(ratings_), state::SortedMap(winners_), fit_, seen_, fitted_);
}

KZ_STATE_INSTANTIATE(PreferenceLearner);

}  // namespace kaizen::learn
