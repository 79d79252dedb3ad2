#include "learn/rules/self_check.h"

#include "learn/state_archive.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "learn/reviews/approval.h"
#include "learn/reviews/review_themes.h"

namespace kaizen::learn {
namespace {

bool AtLeastMajor(std::string_view severity) {
  return severity == "major" || severity == "critical";
}

// A rule without a severity (a rule book that has not scored it yet) counts as moderate.
std::string SeverityOf(const LearnedRule& rule) {
  return rule.severity.empty() ? "moderate" : rule.severity;
}

const RuleCheck* FindCheck(const std::vector<RuleCheck>& checks, std::string_view id) {
  for (const RuleCheck& c : checks) {
    if (c.rule_id == id) return &c;
  }
  return nullptr;
}

// What is left of a task type's history once the addressed rejections are left out.
struct History {
  int64_t decided = 0, approved = 0, addressed = 0;
  std::map<std::string, std::pair<double, int64_t>> scores;
};

History Remaining(const std::map<std::string, ReviewHistory::Group>* groups,
                  const std::set<std::string>& passed, const std::set<std::string>& open) {
  History h;
  if (!groups) return h;
  for (const auto& [key, g] : *groups) {
    const bool addressed = !g.approved &&
                           std::any_of(g.themes.begin(), g.themes.end(),
                                       [&](const std::string& t) { return passed.count(t) > 0; }) &&
                           std::none_of(g.themes.begin(), g.themes.end(),
                                        [&](const std::string& t) { return open.count(t) > 0; });
    if (addressed) {
      h.addressed += g.reviews;
      continue;
    }
    h.decided += g.reviews;
    if (g.approved) h.approved += g.reviews;
    for (const auto& [dim, sn] : g.scores) {
      auto& acc = h.scores[dim];
      acc.first += sn.first;
      acc.second += sn.second;
    }
  }
  return h;
}

}  // namespace

ConfigFields SelfCheckConfig::Fields() {
  return {
      {"check.confidence_threshold", &confidence_threshold, 0, 1, false,
       "calibrated confidence below which a version gets a second self-review pass (seed 000 "
       "§3.1: 0.60)"},
      {"check.min_score", &min_score, 1, 10, false,
       "predicted score below which a version gets a second self-review pass (seed 000 §8.2: "
       "6.5)"},
      {"check.prior_score", &prior_score, 1, 10, false,
       "predicted score of a task type with no scored reviews (kaizen: 7)"},
      {"check.score_shrinkage", &score_shrinkage, 0, 1e6, false,
       "pseudo-scores of prior_score mixed into each dimension's mean (seed 000 §9.3: 5)"},
      {"check.prior_confidence", &prior_confidence, 0, 1, false,
       "approval chance of a task type with no decided reviews (kaizen: 0.7)"},
      {"check.prior_strength", &prior_strength, 0, 1e6, false,
       "pseudo-reviews of prior_confidence mixed into the approval rate (kaizen: 2)"},
      {"check.score_penalty_minor", &score_penalty_minor, 0, 9, false,
       "predicted-score points lost per violated minor rule"},
      {"check.score_penalty_moderate", &score_penalty_moderate, 0, 9, false,
       "predicted-score points lost per violated moderate rule"},
      {"check.score_penalty_major", &score_penalty_major, 0, 9, false,
       "predicted-score points lost per violated major rule"},
      {"check.score_penalty_critical", &score_penalty_critical, 0, 9, false,
       "predicted-score points lost per violated critical rule"},
      {"check.risk_minor", &risk_minor, 0, 1, false,
       "chance a violated minor rule alone gets the work rejected"},
      {"check.risk_moderate", &risk_moderate, 0, 1, false,
       "chance a violated moderate rule alone gets the work rejected"},
      {"check.risk_major", &risk_major, 0, 1, false,
       "chance a violated major rule alone gets the work rejected"},
      {"check.risk_critical", &risk_critical, 0, 1, false,
       "chance a violated critical rule alone gets the work rejected"},
      {"check.timeout_seconds", &timeout_seconds, 0.001, 86400, false,
       "seconds an external command check may run before it is killed (kaizen: 60)"},
  };
}

double SelfCheckConfig::ScorePenalty(std::string_view severity) const {
  if (severity == "minor") return score_penalty_minor;
  if (severity == "major") return score_penalty_major;
  if (severity == "critical") return score_penalty_critical;
  return score_penalty_moderate;
}

double SelfCheckConfig::Risk(std::string_view severity) const {
  if (severity == "minor") return risk_minor;
  if (severity == "major") return risk_major;
  if (severity == "critical") return risk_critical;
  return risk_moderate;
}

void ReviewHistory::Add(const model::ReviewView& review, const text::ThemeTaxonomy& taxonomy) {
  if (!IsDecided(review.decision)) return;
  Add(review, ReviewThemes(review, taxonomy));
}

void ReviewHistory::Add(const model::ReviewView& review, const std::vector<ReviewTheme>& found) {
  if (!IsDecided(review.decision)) return;
  // Views and a reused key: the fold allocates only for a group or a dimension it has not seen.
  std::vector<std::string_view> themes;
  for (const ReviewTheme& t : found) {
    if (t.polarity < 0) themes.push_back(t.theme);
  }
  std::sort(themes.begin(), themes.end());
  themes.erase(std::unique(themes.begin(), themes.end()), themes.end());
  const bool approved = review.decision == model::Decision::kApproved;
  // The task type, '\0', then the group's key within it: the decision, then the themes.
  const std::string_view task_type = OrUnspecified(review.task_type);
  key_.assign(task_type);
  key_ += '\0';
  key_ += approved ? '+' : '-';
  for (std::string_view t : themes) {
    key_ += '\n';
    key_ += t;
  }
  Indexed& indexed = index_.of[key_];
  if (indexed.group == nullptr) {
    auto task = by_task_type_.find(task_type);
    if (task == by_task_type_.end()) task = by_task_type_.try_emplace(std::string(task_type)).first;
    // A map's elements stay where they are as it grows.
    indexed.group = &task->second[std::string(key_, task_type.size() + 1)];
  }
  Group& g = *indexed.group;
  if (g.reviews == 0) {
    g.themes.assign(themes.begin(), themes.end());
    g.approved = approved;
  }
  ++g.reviews;
  for (const model::ScoreView& s : review.scores) {
    std::pair<double, int64_t>* acc = nullptr;
    for (const auto& [dimension, sum] : indexed.dimensions) {
      if (dimension == s.dimension) {
        acc = sum;
        break;
      }
    }
    if (acc == nullptr) {
      auto it = g.scores.find(s.dimension);
      if (it == g.scores.end()) it = g.scores.try_emplace(std::string(s.dimension)).first;
      acc = &it->second;
      indexed.dimensions.emplace_back(it->first, acc);
    }
    acc->first += s.score;
    ++acc->second;
  }
}

template <class Archive>
void ReviewHistory::Group::serialize(Archive& ar) {
  ar(themes, approved, reviews, scores);
}

template <class Archive>
void ReviewHistory::serialize(Archive& ar) {
  index_.of.clear();  // a loaded state has groups of its own
  ar(by_task_type_);
}

KZ_STATE_INSTANTIATE(ReviewHistory);

const std::map<std::string, ReviewHistory::Group>* ReviewHistory::Of(
    std::string_view task_type) const {
  auto it = by_task_type_.find(OrUnspecified(task_type));
  return it == by_task_type_.end() ? nullptr : &it->second;
}

SelfCheckResult RunSelfCheck(const SelfCheckInput& in, const SelfCheckConfig& config) {
  SelfCheckResult r;
  r.task_type = std::string(OrUnspecified(in.task_type));

  // §6.1 "for (const rule of rules)": active rules only, in the rule book's order.
  std::set<std::string> passed_themes, open_themes;
  std::map<std::string, double> dimension_penalty;  // rule domain -> points
  for (const LearnedRule& rule : *in.rules) {
    if (rule.status != RuleStatus::kActive) continue;
    const RuleCheck* check = FindCheck(*in.checks, rule.id);
    if (!check || !check->applied) {
      r.rules_unchecked.push_back(rule.id);
      open_themes.insert(rule.theme);
      continue;
    }
    r.rules_checked.push_back(rule.id);
    if (check->findings.empty()) {
      passed_themes.insert(rule.theme);
      continue;
    }
    open_themes.insert(rule.theme);
    SelfCheckViolation v;
    v.rule = rule.id;
    v.description = rule.rule;
    v.severity = SeverityOf(rule);
    v.auto_fixable = rule.auto_fixable;
    v.suggestion = check->fix.empty() ? rule.fix_suggestion : check->fix;
    v.findings = check->findings;
    if (!rule.domain.empty()) dimension_penalty[rule.domain] += config.ScorePenalty(v.severity);
    r.violations.push_back(std::move(v));
  }
  std::sort(r.rules_checked.begin(), r.rules_checked.end());
  std::sort(r.rules_unchecked.begin(), r.rules_unchecked.end());

  const History h = Remaining(in.history->Of(in.task_type), passed_themes, open_themes);
  r.history_reviews = h.decided;
  r.addressed_reviews = h.addressed;

  // d_i: the shrunk dimension means.
  std::vector<std::string> dims;  // owns the names the ScoreViews borrow
  std::vector<double> values;
  for (const auto& [dim, sn] : h.scores) {
    const double k = config.score_shrinkage;
    double d = (sn.first + k * config.prior_score) / (static_cast<double>(sn.second) + k);
    dims.push_back(dim);
    values.push_back(std::clamp(d, 1.0, 10.0));
  }

  // §3.1 learned gates: a dimension predicted below its threshold.
  for (const ScoreGate& gate : *in.gates) {
    auto it = std::find(dims.begin(), dims.end(), gate.dimension);
    if (it == dims.end()) continue;
    // What this work's violations in the gate's dimension cost it (the score pays them once,
    // below, so the predictor reads the unpenalized d_i).
    double d = values[static_cast<size_t>(it - dims.begin())];
    if (auto p = dimension_penalty.find(gate.dimension); p != dimension_penalty.end()) {
      d -= p->second;
    }
    if (d >= gate.threshold) continue;
    // The work's own violations in the dimension are part of what puts it under: fixing them
    // moves it. Otherwise the history alone predicts it, which no change to the work clears.
    const bool fixable = dimension_penalty.count(gate.dimension) > 0;
    // A hard and a soft gate on one dimension: the hard one (sorted first) speaks.
    const std::string id = "gate-" + gate.dimension;
    if (std::any_of(r.violations.begin(), r.violations.end(),
                    [&](const SelfCheckViolation& v) { return v.rule == id; })) {
      continue;
    }
    SelfCheckViolation v;
    v.rule = id;
    v.severity = gate.kind == GateKind::kHard ? "major" : "moderate";
    v.fixable = fixable;
    v.description = fmt::format(
        "{} must score >= {} ({} gate: {:.0f}% of reviews below it were "
        "not approved)",
        gate.dimension, gate.threshold, GateKindName(gate.kind), gate.rejection_rate * 100);
    v.suggestion =
        fixable
            ? fmt::format("raise {}: this task type's reviews predict {:.1f}", gate.dimension, d)
            : fmt::format(
                  "{}: this task type's reviews predict {:.1f} whatever this work does; "
                  "a prediction, not a fix (it lowers score and confidence)",
                  gate.dimension, d);
    r.violations.push_back(std::move(v));
  }

  // score: the §3.3 predictor over the d_i, less every violation's penalty.
  double score = config.prior_score;
  if (!dims.empty()) {
    std::vector<model::ScoreView> views;
    for (size_t i = 0; i < dims.size(); ++i) views.push_back({dims[i], values[i]});
    score = in.preferences->PredictScore(views);
  }
  double survive = 1;
  for (const SelfCheckViolation& v : r.violations) {
    score -= config.ScorePenalty(v.severity);
    survive *= 1 - config.Risk(v.severity);
    if (v.fixable && AtLeastMajor(v.severity)) r.passed = false;
  }
  r.score = std::clamp(score, 1.0, 10.0);

  const double s = config.prior_strength;
  const double base = (static_cast<double>(h.approved) + s * config.prior_confidence) /
                      (static_cast<double>(h.decided) + s);
  r.raw_confidence =
      std::clamp(std::isfinite(base) ? base * survive : config.prior_confidence, 0.0, 1.0);
  r.confidence = in.calibration->Calibrate(r.raw_confidence);  // §6.2 applyCalibration

  for (const SelfCheckViolation& v : r.violations) {
    if (v.auto_fixable && !v.suggestion.empty()) r.recommendations.push_back(v.suggestion);
  }

  // The self-review triggers (§3.1, §8.2), then the gate.
  if (r.confidence < config.confidence_threshold) {
    r.triggers.push_back(fmt::format("calibrated confidence {:.2f} < {:.2f}", r.confidence,
                                     config.confidence_threshold));
  }
  if (r.score < config.min_score) {
    r.triggers.push_back(fmt::format("predicted score {:.1f} < {:.1f}", r.score, config.min_score));
  }
  std::string triggers;
  for (const std::string& t : r.triggers) triggers += (triggers.empty() ? "" : "; ") + t;
  r.checked_before = in.checked_before;
  if (!r.passed) {
    r.decided_by = "violation";
    r.reasons.push_back("a major or critical rule is violated");
  } else if (!r.triggers.empty() && !in.checked_before) {
    r.decided_by = "second_pass_due";
    r.reasons.push_back(fmt::format("second self-review pass due ({})", triggers));
  } else if (!r.triggers.empty()) {
    r.decided_by = "second_pass_done";
  } else {
    r.decided_by = "ready";
  }
  r.ready_for_review = r.reasons.empty();

  if (in.autonomy) {
    for (const TaskAutonomy& t : in.autonomy->Result()) {
      if (t.task_type != r.task_type) continue;
      r.autonomy_level = t.level;
      r.review_rate = t.review_rate;
    }
  }
  return r;
}

void WriteJsonMembers(base::JsonWriter& w, const SelfCheckResult& r) {
  auto strings = [&](std::string_view key, const std::vector<std::string>& v) {
    base::Key(w, key);
    base::StrArray(w, v);
  };
  base::Key(w, "passed");
  w.Bool(r.passed);
  base::Key(w, "score");
  base::Num(w, r.score);
  base::Key(w, "confidence");
  base::Num(w, r.confidence);
  base::Key(w, "rawConfidence");
  base::Num(w, r.raw_confidence);
  base::Key(w, "readyForReview");
  w.Bool(r.ready_for_review);
  base::Key(w, "decidedBy");
  base::Str(w, r.decided_by);
  strings("triggers", r.triggers);
  base::Key(w, "checkedBefore");
  w.Bool(r.checked_before);
  strings("reasons", r.reasons);
  base::Key(w, "violations");
  w.StartArray();
  for (const SelfCheckViolation& v : r.violations) {
    w.StartObject();
    base::Key(w, "rule");
    base::Str(w, v.rule);
    base::Key(w, "description");
    base::Str(w, v.description);
    base::Key(w, "severity");
    base::Str(w, v.severity);
    base::Key(w, "fixable");
    w.Bool(v.fixable);
    base::Key(w, "autoFixable");
    w.Bool(v.auto_fixable);
    base::Key(w, "suggestion");
    base::Str(w, v.suggestion);
    base::Key(w, "findings");
    w.StartArray();
    for (const CheckFinding& f : v.findings) {
      w.StartObject();
      base::Key(w, "location");
      base::Str(w, f.location);
      base::Key(w, "detail");
      base::Str(w, f.detail);
      w.EndObject();
    }
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
  strings("recommendations", r.recommendations);
  base::Key(w, "taskType");
  base::Str(w, r.task_type);
  strings("rulesChecked", r.rules_checked);
  strings("rulesUnchecked", r.rules_unchecked);
  base::Key(w, "historyReviews");
  w.Int64(r.history_reviews);
  base::Key(w, "addressedReviews");
  w.Int64(r.addressed_reviews);
  base::Key(w, "autonomyLevel");
  w.Int(r.autonomy_level);
  base::Key(w, "reviewRate");
  base::Num(w, r.review_rate);
}

}  // namespace kaizen::learn
