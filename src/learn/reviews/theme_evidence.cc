#include "learn/reviews/theme_evidence.h"

#include <algorithm>
#include <map>

#include "learn/state_archive.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

// The label of a signal without a context, in a contextual split.
constexpr std::string_view kNoContext = "(unspecified)";

}  // namespace

ConfigFields EvidenceConfig::Fields() {
  return {
      {"evidence.rule_min_points", &rule_min_points, 1, 1e9, true,
       "negative signals a theme needs before it is a rule candidate (seed 000 §9.3: 5)"},
      {"evidence.rule_min_days", &rule_min_days, 1, 3650, true,
       "distinct UTC days those signals must span (seed 000 §9.3: 3)"},
      {"evidence.volume_threshold", &volume_threshold, 1, 1e9, true,
       "signals a side needs before a theme has a stance or a conflict (seed 000 §9.2: 3+)"},
      {"evidence.equal_strength_ratio", &equal_strength_ratio, 0, 1, false,
       "weaker/stronger side at or above which two sides conflict (seed 000 §9.2)"},
      {"evidence.context_one_sided", &context_one_sided, 0.5, 1, false,
       "majority share that makes a context one-sided (seed 000 §9.2 context matching)"},
      {"evidence.effectiveness_window_days", &effectiveness_window_days, 1, 3650, true,
       "days before and after a rule's introduction compared (seed 000 §7.2)"},
      {"evidence.emerging_min_points", &emerging_min_points, 1, 1e9, true,
       "negative signals that make a theme below the rule guards an emerging candidate, told "
       "to the agent as a candidate (kaizen; seed 000 §9.2: 3+ times)"},
      {"evidence.emerging_min_days", &emerging_min_days, 1, 3650, true,
       "distinct UTC days an emerging candidate's negative signals must span (kaizen)"},
  };
}

ThemeEvidence::ThemeEvidence(const EvidenceConfig& config, const SignalWeightConfig& weights)
    : config_(config), weights_(weights) {
  // Each class's weight from StaticWeight itself, on a review of that class: the same double a
  // review of the class gives.
  model::ReviewView r;
  for (int confidence = 0; confidence < 5; ++confidence) {
    for (bool fatigued : {false, true}) {
      for (int override_weight = 0; override_weight < 3; ++override_weight) {
        r.confidence = static_cast<model::ConfidenceLevel>(confidence);
        r.session_fatigue = fatigued ? INT64_MAX : INT64_MIN;
        r.override_weight = static_cast<model::Override>(override_weight);
        class_weights_[WeightClass(weights_, r)] = StaticWeight(weights_, r);
      }
    }
  }
}

uint8_t ThemeEvidence::WeightClass(const SignalWeightConfig& weights,
                                   const model::ReviewView& review) {
  static_assert(static_cast<int>(model::ConfidenceLevel::kVerySure) == 4 &&
                static_cast<int>(model::Override::kWeak) == 2);
  return static_cast<uint8_t>(static_cast<int>(review.confidence) * 6 +
                              (IsFatigued(weights, review.session_fatigue) ? 3 : 0) +
                              static_cast<int>(review.override_weight));
}

uint32_t ThemeEvidence::Intern(std::string_view name) {
  if (name.empty()) return 0;
  auto it = name_ids_.find(name);
  if (it != name_ids_.end()) return it->second;
  const auto id = static_cast<uint32_t>(names_.size());
  names_.emplace_back(name);
  name_ids_.emplace(std::string(name), id);
  return id;
}

uint32_t ThemeEvidence::ContextOf(uint32_t server, uint32_t stage) {
  const uint64_t key = uint64_t{server} << 32 | stage;
  auto [it, added] = context_ids_.try_emplace(key, static_cast<uint32_t>(contexts_.size()));
  if (added) contexts_.push_back({server, stage});
  return it->second;
}

void ThemeEvidence::Add(const model::ReviewView& review, const std::vector<ReviewTheme>& themes) {
  ++total_reviews_;
  if (!review.scores.empty()) {
    DaySum& day = day_scores_[model::DayOf(review.at_ms)];
    for (const model::ScoreView& s : review.scores) {
      day.sum += s.score;
      ++day.n;
    }
  }

  Signal signal{review.at_ms, ContextOf(Intern(review.server_type), Intern(review.stage)),
                WeightClass(weights_, review), 0};
  for (const ReviewTheme& t : themes) {
    signal.polarity = t.polarity;
    AddSignal(t.theme, signal, t.severity);
  }
}

void ThemeEvidence::Add(const model::ReviewView& review) {
  Add(review, ReviewThemes(review, text::ThemeTaxonomy::Default()));
}

void ThemeEvidence::AddSignal(std::string_view name, const Signal& signal, double severity) {
  if (name.empty()) return;
  Theme& theme = Entry(themes_, name);
  theme.signals.push_back(signal);
  if (signal.polarity > 0) {
    ++theme.positive;
    return;
  }
  ++theme.negative;
  theme.negative_severity += severity;
  const int64_t day = model::DayOf(signal.at_ms);
  if (day != theme.last_negative_day) {
    theme.negative_days.insert(day);
    theme.last_negative_day = day;
  }
  // §9.3 guards: enough points, spread over enough days.
  if (!theme.introduced_at_ms && static_cast<double>(theme.negative) >= config_.rule_min_points &&
      static_cast<double>(theme.negative_days.size()) >= config_.rule_min_days) {
    theme.introduced_at_ms = signal.at_ms;
  }
}

std::optional<double> ThemeEvidence::WindowMean(int64_t first_day, int64_t last_day) const {
  double sum = 0;
  int64_t n = 0;
  for (int64_t day = first_day; day <= last_day; ++day) {  // in day order: a stable sum
    auto it = day_scores_.find(day);
    if (it == day_scores_.end()) continue;
    sum += it->second.sum;
    n += it->second.n;
  }
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

std::vector<RuleCandidate> ThemeEvidence::Candidates(int64_t now_ms) const {
  std::vector<RuleCandidate> out;
  const auto window = static_cast<int64_t>(config_.effectiveness_window_days);
  for (const auto& [name, theme] : themes_) {
    if (!theme.introduced_at_ms) continue;
    RuleCandidate c;
    c.theme = name;
    c.points = theme.negative;
    c.days = static_cast<int64_t>(theme.negative_days.size());
    c.introduced_at_ms = *theme.introduced_at_ms;
    // §3.2: (occurrence_count x avg_severity_score) / total_reviews = severity sum / reviews.
    c.weight = theme.negative_severity / static_cast<double>(total_reviews_);
    // §7.2 "quality_delta after rule introduced". By whole UTC days: the introduction day
    // belongs to "before" (its reviews were written before the rule could act).
    const int64_t day = model::DayOf(c.introduced_at_ms);
    auto before = WindowMean(day - window + 1, day);
    auto after = WindowMean(day + 1, std::min(day + window, model::DayOf(now_ms)));
    if (before && after) {
      c.effectiveness = *after - *before;
      const int64_t last = std::min(day + window, model::DayOf(now_ms));
      for (int64_t d = day + 1; d <= last; ++d) {
        auto it = day_scores_.find(d);
        c.effectiveness_days += it != day_scores_.end() && it->second.n > 0;
      }
    }
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](const RuleCandidate& a, const RuleCandidate& b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    return a.theme < b.theme;
  });
  return out;
}

std::vector<RuleCandidate> ThemeEvidence::Emerging() const {
  std::vector<RuleCandidate> out;
  for (const auto& [name, theme] : themes_) {
    if (theme.introduced_at_ms || theme.negative <= theme.positive) continue;
    const auto days = static_cast<int64_t>(theme.negative_days.size());
    if (static_cast<double>(theme.negative) < config_.emerging_min_points ||
        static_cast<double>(days) < config_.emerging_min_days) {
      continue;
    }
    RuleCandidate c;
    c.theme = name;
    c.emerging = true;
    c.points = theme.negative;
    c.days = days;
    c.weight = theme.negative_severity / static_cast<double>(total_reviews_);
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](const RuleCandidate& a, const RuleCandidate& b) {
    if (a.weight != b.weight) return a.weight > b.weight;
    return a.theme < b.theme;
  });
  return out;
}

ThemeStance ThemeEvidence::Stance(const std::string& name, const Theme& theme,
                                  int64_t now_ms) const {
  ThemeStance s;
  s.theme = name;
  s.positive_count = theme.positive;
  s.negative_count = theme.negative;
  // §9.2 recency weighting and confidence weighting, summed in log order.
  for (const Signal& sig : theme.signals) {
    double w = class_weights_[sig.weight_class] * RecencyWeight(weights_, sig.at_ms, now_ms);
    (sig.polarity > 0 ? s.positive : s.negative) += w;
  }
  const double volume = config_.volume_threshold;
  const double stronger = std::max(s.positive, s.negative);
  const double ratio = stronger > 0 ? std::min(s.positive, s.negative) / stronger : 1.0;
  const bool conflict = static_cast<double>(s.positive_count) >= volume &&
                        static_cast<double>(s.negative_count) >= volume &&
                        ratio >= config_.equal_strength_ratio;
  if (!conflict) {
    bool prefer =
        s.positive != s.negative ? s.positive > s.negative : s.positive_count > s.negative_count;
    s.status = prefer ? "prefer" : "avoid";
    return s;
  }

  // §9.2 context matching: split by server type, or by stage when no signal has a server type.
  bool any_server = false, any_stage = false;
  for (const Signal& sig : theme.signals) {
    any_server = any_server || contexts_[sig.context].server != 0;
    any_stage = any_stage || contexts_[sig.context].stage != 0;
  }
  struct Counts {
    int64_t positive = 0, negative = 0;
  };
  std::map<uint32_t, Counts> by_server, by_context;
  for (const Signal& sig : theme.signals) {
    const Context& at = contexts_[sig.context];
    Counts& server = by_server[at.server];
    (sig.polarity > 0 ? server.positive : server.negative) += 1;
    if (any_server || any_stage) {
      Counts& c = by_context[any_server ? at.server : at.stage];
      (sig.polarity > 0 ? c.positive : c.negative) += 1;
    }
  }
  ContextSplit split;
  split.by = any_server ? "serverType" : "stage";
  bool explained = !by_context.empty();
  bool any_judged = false;
  for (const auto& [id, c] : by_context) {
    const int64_t total = c.positive + c.negative;
    if (total < 2) continue;  // one signal says nothing about a context
    any_judged = true;
    const double majority =
        static_cast<double>(std::max(c.positive, c.negative)) / static_cast<double>(total);
    if (majority < config_.context_one_sided) {
      explained = false;
      break;
    }
    std::string label(id == 0 ? kNoContext : std::string_view(names_[id]));
    (c.positive > c.negative ? split.prefer : split.avoid).push_back(std::move(label));
  }
  // Context explains the conflict only if some context prefers and another avoids.
  if (explained && any_judged && !split.prefer.empty() && !split.avoid.empty()) {
    std::sort(split.prefer.begin(), split.prefer.end());
    std::sort(split.avoid.begin(), split.avoid.end());
    s.status = "contextual";
    s.contexts = std::move(split);
    return s;
  }

  // §9.2 clarification trigger. Ask about the server type whose own signals conflict most
  // (most signals of its minority polarity, then most signals, then by name).
  std::string_view context = "all work";
  int64_t best_minority = 0, best_total = 0;
  for (const auto& [id, c] : by_server) {
    if (id == 0) continue;
    const int64_t minority = std::min(c.positive, c.negative);
    const int64_t total = c.positive + c.negative;
    if (minority == 0) continue;
    if (minority > best_minority || (minority == best_minority && total > best_total) ||
        (minority == best_minority && total == best_total && names_[id] < context)) {
      best_minority = minority;
      best_total = total;
      context = names_[id];
    }
  }
  s.status = "clarify";
  s.question = "You've previously both approved and rejected " + name +
               ". Which do you prefer for " + std::string(context) + "?";
  return s;
}

std::vector<ThemeStance> ThemeEvidence::Contradictions(int64_t now_ms) const {
  std::vector<ThemeStance> out;
  for (const auto& [name, theme] : themes_) {
    if (static_cast<double>(std::max(theme.positive, theme.negative)) < config_.volume_threshold) {
      continue;
    }
    out.push_back(Stance(name, theme, now_ms));
  }
  std::sort(out.begin(), out.end(),
            [](const ThemeStance& a, const ThemeStance& b) { return a.theme < b.theme; });
  return out;
}

std::vector<DayScores> ThemeEvidence::ScoreDays() const {
  std::vector<DayScores> out;
  out.reserve(day_scores_.size());
  for (const auto& [day, s] : day_scores_) out.push_back({day, s.sum, s.n});
  std::sort(out.begin(), out.end(),
            [](const DayScores& a, const DayScores& b) { return a.day < b.day; });
  return out;
}

void WriteJson(base::JsonWriter& w, const std::vector<ThemeStance>& stances) {
  w.StartArray();
  for (const ThemeStance& s : stances) {
    w.StartObject();
    base::Key(w, "theme");
    base::Str(w, s.theme);
    base::Key(w, "positive");
    base::Num(w, s.positive);
    base::Key(w, "negative");
    base::Num(w, s.negative);
    base::Key(w, "positiveCount");
    w.Int64(s.positive_count);
    base::Key(w, "negativeCount");
    w.Int64(s.negative_count);
    base::Key(w, "status");
    base::Str(w, s.status);
    if (s.question) {
      base::Key(w, "question");
      base::Str(w, *s.question);
    }
    if (s.contexts) {
      base::Key(w, "contexts");
      w.StartObject();
      base::Key(w, "by");
      base::Str(w, s.contexts->by);
      for (auto [key, list] :
           {std::pair{"prefer", &s.contexts->prefer}, std::pair{"avoid", &s.contexts->avoid}}) {
        base::Key(w, key);
        w.StartArray();
        for (const std::string& c : *list) base::Str(w, c);
        w.EndArray();
      }
      w.EndObject();
    }
    w.EndObject();
  }
  w.EndArray();
}

void WriteJson(base::JsonWriter& w, const std::vector<RuleCandidate>& candidates) {
  w.StartArray();
  for (const RuleCandidate& c : candidates) {
    w.StartObject();
    base::Key(w, "theme");
    base::Str(w, c.theme);
    base::Key(w, "points");
    w.Int64(c.points);
    base::Key(w, "days");
    w.Int64(c.days);
    base::Key(w, "introducedAt");
    base::Str(w, model::FormatUtc(c.introduced_at_ms));
    base::Key(w, "weight");
    base::Num(w, c.weight);
    base::Key(w, "effectiveness");
    base::Num(w, c.effectiveness);
    w.EndObject();
  }
  w.EndArray();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void ThemeEvidence::Signal::serialize(Archive& ar) {
  ar(at_ms, context, weight_class, polarity);
}

template <class Archive>
void ThemeEvidence::Context::serialize(Archive& ar) {
  ar(server, stage);
}

template <class Archive>
void ThemeEvidence::Theme::serialize(Archive& ar) {
  ar(signals, positive, negative, negative_severity, state::SortedSet(negative_days),
     last_negative_day, introduced_at_ms);
}

template <class Archive>
void ThemeEvidence::DaySum::serialize(Archive& ar) {
  ar(sum, n);
}

template <class Archive>
void ThemeEvidence::serialize(Archive& ar) {
  ar(total_reviews_, state::SortedMap(themes_), names_, contexts_, state::SortedMap(day_scores_));
  if constexpr (state::kLoading<Archive>) {
    state::Require(!names_.empty() && names_[0].empty(), "the names start with the empty one");
    name_ids_.clear();
    for (size_t i = 1; i < names_.size(); ++i) {
      state::Require(name_ids_.emplace(names_[i], static_cast<uint32_t>(i)).second,
                     "a server type or stage saved twice");
    }
    context_ids_.clear();
    for (size_t i = 0; i < contexts_.size(); ++i) {
      const Context& c = contexts_[i];
      state::Require(c.server < names_.size() && c.stage < names_.size(), "a context's names");
      const uint64_t key = uint64_t{c.server} << 32 | c.stage;
      state::Require(context_ids_.emplace(key, static_cast<uint32_t>(i)).second,
                     "a context saved twice");
    }
    for (const auto& [name, theme] : themes_) {
      for (const Signal& s : theme.signals) {
        state::Require(s.context < contexts_.size() && s.weight_class < kWeightClasses,
                       "a theme signal's context or weight class");
      }
    }
  }
}

KZ_STATE_INSTANTIATE(ThemeEvidence);

}  // namespace kaizen::learn
