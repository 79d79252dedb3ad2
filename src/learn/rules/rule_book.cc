#include "learn/rules/rule_book.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <map>
#include <set>
#include <unordered_set>

#include "learn/rules/rule_catalog.h"
#include "learn/rules/session_prompts.h"
#include "learn/state_archive.h"
#include "model/project_key.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {

constexpr size_t kExamples = 3;
static_assert(kExamples > 0, "a full list drops its oldest example before taking a new one");

// Beyond this many server types a rule is as good as global.
constexpr size_t kMaxAppliesTo = 8;
// Projects tallied per theme; the evidence of any further project counts as naming none (which
// keeps the rule global): a log of prompts from hundreds of directories stays bounded.
constexpr size_t kMaxProjects = 64;
constexpr std::array<std::string_view, 4> kSources = {
    kSourceFeedbackPattern, kSourceRejectionAnalysis, kSourceAnnotation, kSourceSessionPrompt};

size_t SourceIndex(std::string_view source) {
  for (size_t i = 0; i < kSources.size(); ++i) {
    if (kSources[i] == source) return i;
  }
  return 0;
}

// §3.2's severity scale back to a word: the average rounds to the nearest level.
std::string SeverityName(double avg) {
  if (avg >= 3.5) return "critical";
  if (avg >= 2.5) return "major";
  if (avg >= 1.5) return "moderate";
  return "minor";
}

}  // namespace

ConfigFields RuleConfig::Fields() {
  return {
      {"rules.promote_confidence", &promote_confidence, 0, 1, false,
       "confidence above which a candidate becomes an active rule (seed 000 §8.1/§8.3: 0.8)"},
      {"rules.confidence_z", &confidence_z, 0, 10, false,
       "z of the Wilson lower bound that turns count and consistency into confidence"},
      {"rules.audit_interval_days", &audit_interval_days, 1, 3650, true,
       "days after which an active rule is due for its \"still accurate?\" audit (seed 000 §9.3)"},
      {"rules.prune_age_days", &prune_age_days, 1, 36500, true,
       "candidates unseen this long are pruned when weak (seed 000 §5.2: 90)"},
      {"rules.prune_min_occurrences", &prune_min_occurrences, 0, 1e9, true,
       "candidates with fewer points are weak (seed 000 §5.2: 5)"},
      {"rules.registry_size", &registry_size, 1, 1000, true,
       "rejection patterns on the pre-review checklist (seed 000 §3.2: top 5)"},
  };
}

std::string_view RuleStatusName(RuleStatus s) {
  switch (s) {
    case RuleStatus::kActive:
      return "active";
    case RuleStatus::kRetired:
      return "retired";
    case RuleStatus::kEmerging:
      return "emerging";
    case RuleStatus::kCandidate:
      break;
  }
  return "candidate";
}

double WilsonLowerBound(double successes, double n, double z) {
  if (n <= 0) return 0;
  const double p = successes / n;
  const double z2 = z * z;
  const double centre = p + z2 / (2 * n);
  const double spread = z * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return std::max(0.0, (centre - spread) / (1 + z2 / n));
}

std::string RuleBook::ToConfirm(const LearnedRule& r) const {
  // More rejections, none approving: the fewest that pass every guard.
  const auto min_points = static_cast<int64_t>(evidence_.rule_min_points);
  int64_t more = std::max<int64_t>(0, min_points - r.occurrences);
  auto confident = [&](int64_t k) {
    const auto neg = static_cast<double>(r.occurrences + k);
    return WilsonLowerBound(neg, neg + static_cast<double>(r.positive), config_.confidence_z) >
           config_.promote_confidence;
  };
  while (more < 1000 && !confident(more)) ++more;
  const int64_t days = std::max<int64_t>(0, static_cast<int64_t>(evidence_.rule_min_days) - r.days);
  if (more == 0 && days == 0) return {};
  // A theme people corrected in their agents' sessions: its evidence is corrections, not only
  // rejections.
  const std::string_view noun = r.source == kSourceSessionPrompt ? "correction" : "rejection";
  std::string out;
  if (more >= 1000) return fmt::format("more {}s than approvals citing it", noun);
  out = fmt::format("{} more {}{} citing it", more, noun, more == 1 ? "" : "s");
  if (days > 0) out += fmt::format(" on {} more day{}", days, days == 1 ? "" : "s");
  return out;
}

struct RuleBook::ProjectTally {
  int64_t negative = 0, positive = 0;
  std::set<int64_t> days;

  template <class Archive>
  void serialize(Archive& ar) {
    ar(negative, positive, days);
  }
};

struct RuleBook::ThemeState {
  std::string theme;
  int64_t negative = 0, positive = 0;
  double severity_sum = 0;
  int64_t first_seen_ms = 0, last_seen_ms = 0;
  std::array<int64_t, kSources.size()> by_source{};
  std::set<std::string, std::less<>> servers, work_types;
  bool any_without_server = false;
  std::unordered_set<int64_t> days;
  int64_t last_day = INT64_MIN;
  std::optional<int64_t> promoted_at_ms;
  // Approvals that mention the theme after promotion are what the rule asked for, not evidence
  // against it: confidence counts the positives up to promotion only. Retiring is a person's call.
  int64_t positive_at_promotion = 0;
  std::deque<std::string> examples;  // newest first
  // The registry counts rejected reviews only (§3.2 "Common Rejection Reasons").
  int64_t rejected = 0;
  double rejected_severity = 0;
  int64_t rejected_last_ms = 0;
  std::set<std::string, std::less<>> rejected_servers;
  // By model::ProjectKey; "" for the signals naming no project (or past kMaxProjects).
  std::map<std::string, ProjectTally, std::less<>> projects;

  ProjectTally& TallyOf(std::string_view project) {
    auto it = projects.find(project);
    if (it != projects.end()) return it->second;
    if (projects.size() >= kMaxProjects) project = {};
    return projects[std::string(project)];
  }

  template <class Archive>
  void serialize(Archive& ar) {
    ar(theme, negative, positive, severity_sum, first_seen_ms, last_seen_ms, by_source, servers,
       work_types, any_without_server, state::SortedSet(days), last_day, promoted_at_ms,
       positive_at_promotion, examples, rejected, rejected_severity, rejected_last_ms,
       rejected_servers, projects);
  }
};

RuleBook::RuleBook(const RuleConfig& config, const EvidenceConfig& evidence)
    : config_(config), evidence_(evidence) {}

RuleBook::~RuleBook() = default;

void RuleBook::AddReview(const model::ReviewView& review, const std::vector<ReviewTheme>& themes) {
  ++total_reviews_;
  const std::string_view project = model::ProjectKey(review.project);
  projects_named_.Add(project);
  for (const ReviewTheme& t : themes) {
    auto it = themes_.find(t.theme);
    if (it == themes_.end()) {
      storage_.push_back(std::make_unique<ThemeState>());
      storage_.back()->theme = t.theme;
      it = themes_.emplace(t.theme, storage_.back().get()).first;
    }
    ThemeState& s = *it->second;
    ProjectTally& tally = s.TallyOf(project);
    if (t.polarity > 0) {
      ++s.positive;
      ++tally.positive;
      continue;
    }
    ++tally.negative;
    tally.days.insert(model::DayOf(review.at_ms));
    if (s.negative == 0) s.first_seen_ms = review.at_ms;
    ++s.negative;
    s.last_seen_ms = std::max(s.last_seen_ms, review.at_ms);
    s.severity_sum += t.severity;
    ++s.by_source[SourceIndex(t.source)];
    if (review.server_type.empty()) {
      s.any_without_server = true;
    } else if (s.servers.size() <= kMaxAppliesTo && !s.servers.contains(review.server_type)) {
      s.servers.emplace(review.server_type);
    }
    if (!review.work.type.empty() && !s.work_types.contains(review.work.type)) {
      s.work_types.emplace(review.work.type);
    }
    const int64_t day = model::DayOf(review.at_ms);
    if (day != s.last_day) {
      s.days.insert(day);
      s.last_day = day;
    }
    if (!t.example.empty()) {
      // The oldest example's string makes room for the newest: no allocation once full.
      std::string kept;
      if (s.examples.size() >= kExamples) {
        kept = std::move(s.examples.back());
        s.examples.pop_back();
      }
      kept.assign(t.example);
      s.examples.push_front(std::move(kept));
    }
    if (review.decision == model::Decision::kRejected ||
        review.decision == model::Decision::kNeedsWork) {
      ++s.rejected;
      s.rejected_severity += t.severity;
      s.rejected_last_ms = std::max(s.rejected_last_ms, review.at_ms);
      // Looked up first: std::set::emplace builds its node before it finds the duplicate.
      if (!review.server_type.empty() && !s.rejected_servers.contains(review.server_type)) {
        s.rejected_servers.emplace(review.server_type);
      }
    }
    // Promotion happens at the signal that first makes the candidate confident enough (§8.1).
    const bool guards = static_cast<double>(s.negative) >= evidence_.rule_min_points &&
                        static_cast<double>(s.days.size()) >= evidence_.rule_min_days;
    if (guards && !s.promoted_at_ms &&
        WilsonLowerBound(static_cast<double>(s.negative),
                         static_cast<double>(s.negative + s.positive),
                         config_.confidence_z) > config_.promote_confidence) {
      s.promoted_at_ms = review.at_ms;
      s.positive_at_promotion = s.positive;
    }
  }
}

void RuleBook::AddAdmin(const model::AdminView& admin) {
  if (admin.action != "rule_audit" || admin.rule_id.empty()) return;
  auto it = audits_.find(admin.rule_id);
  if (it == audits_.end())
    it = audits_.emplace(std::string(admin.rule_id), std::vector<RuleAudit>{}).first;
  it->second.push_back(RuleAudit{admin.at_ms, std::string(admin.verdict),
                                 std::string(admin.reviewer), std::string(admin.note)});
}

bool RuleBook::Confirms(const ProjectTally& t) const {
  return static_cast<double>(t.negative) >= evidence_.rule_min_points &&
         static_cast<double>(t.days.size()) >= evidence_.rule_min_days &&
         WilsonLowerBound(static_cast<double>(t.negative),
                          static_cast<double>(t.negative + t.positive),
                          config_.confidence_z) > config_.promote_confidence;
}

void RuleBook::Scope(const ThemeState& s, LearnedRule* rule) const {
  std::vector<std::string> confirmed, cited;
  bool unnamed_confirms = false, unnamed_cites = false;
  for (const auto& [name, tally] : s.projects) {
    const bool confirms = Confirms(tally);
    if (name.empty()) {
      unnamed_confirms = confirms;
      unnamed_cites = tally.negative > 0;
      continue;
    }
    rule->projects.push_back(RuleProject{name, tally.negative, tally.positive,
                                         static_cast<int64_t>(tally.days.size()), confirms});
    if (confirms) confirmed.push_back(name);
    if (tally.negative > 0) cited.push_back(name);
  }
  rule->promoted_global = confirmed.size() >= 2;
  if (!projects_named_.several || rule->promoted_global || unnamed_confirms) return;
  if (confirmed.size() == 1) {
    rule->holds_in = std::move(confirmed);
  } else if (!unnamed_cites) {
    rule->holds_in = std::move(cited);
  }
}

bool HoldsIn(const LearnedRule& rule, std::string_view project) {
  if (rule.holds_in.empty()) return true;
  const std::string_view key = model::ProjectKey(project);
  return !key.empty() &&
         std::find(rule.holds_in.begin(), rule.holds_in.end(), key) != rule.holds_in.end();
}

void KeepRulesOf(std::string_view project, std::vector<LearnedRule>* rules) {
  std::erase_if(*rules, [&](const LearnedRule& r) { return !HoldsIn(r, project); });
}

void KeepRejectionPatternsOf(std::string_view project, const std::vector<LearnedRule>& rules,
                             size_t limit, std::vector<RejectionPattern>* patterns) {
  std::erase_if(*patterns, [&](const RejectionPattern& p) {
    return std::any_of(rules.begin(), rules.end(), [&](const LearnedRule& r) {
      return r.theme == p.theme && !HoldsIn(r, project);
    });
  });
  if (patterns->size() > limit) patterns->resize(limit);
}

std::vector<LearnedRule> RuleBook::Rules(const std::vector<RuleCandidate>& candidates,
                                         int64_t now_ms) const {
  std::vector<LearnedRule> out;
  const int64_t audit_ms = static_cast<int64_t>(config_.audit_interval_days) * model::kMsPerDay;
  const int64_t prune_ms = static_cast<int64_t>(config_.prune_age_days) * model::kMsPerDay;
  for (const RuleCandidate& c : candidates) {
    auto it = themes_.find(c.theme);
    if (it == themes_.end()) continue;
    const ThemeState& s = *it->second;
    LearnedRule r;
    r.id = "rule-" + s.theme;
    r.theme = s.theme;
    size_t top = 0;
    for (size_t i = 1; i < kSources.size(); ++i) {
      if (s.by_source[i] > s.by_source[top]) top = i;
    }
    r.source = kSources[top];
    RuleWording wording = WordingFor(s.theme);
    r.rule = std::move(wording.rule);
    r.prompt_instruction = std::move(wording.instruction);
    r.domain = std::move(wording.domain);
    r.checklist_item = std::move(wording.checklist_item);
    r.fix_suggestion = std::move(wording.fix_suggestion);
    r.auto_fixable = wording.auto_fixable;
    r.occurrences = s.negative;
    r.positive = s.positive;
    const int64_t against = s.promoted_at_ms ? s.positive_at_promotion : s.positive;
    r.confidence =
        WilsonLowerBound(static_cast<double>(s.negative), static_cast<double>(s.negative + against),
                         config_.confidence_z);
    r.first_seen_ms = s.first_seen_ms;
    r.last_seen_ms = s.last_seen_ms;
    r.effectiveness = c.effectiveness;
    if (s.any_without_server || s.servers.empty() || s.servers.size() > kMaxAppliesTo) {
      r.applies_to = {"all"};
    } else {
      r.applies_to.assign(s.servers.begin(), s.servers.end());
    }
    r.work_types.assign(s.work_types.begin(), s.work_types.end());
    r.days = c.days;
    r.weight = c.weight;
    r.avg_severity = s.negative > 0 ? s.severity_sum / static_cast<double>(s.negative) : 0;
    r.severity = SeverityName(r.avg_severity);
    r.introduced_at_ms = c.introduced_at_ms;
    r.promoted_at_ms = s.promoted_at_ms;
    r.examples.assign(s.examples.begin(), s.examples.end());
    if (auto a = audits_.find(r.id); a != audits_.end()) r.audits = a->second;
    Scope(s, &r);

    const RuleAudit* last = r.audits.empty() ? nullptr : &r.audits.back();
    if (last && last->verdict == "retire") {
      r.status = RuleStatus::kRetired;
    } else if (c.emerging) {
      // Below the §9.3 guards: whatever its confidence, not a rule.
      r.status = RuleStatus::kEmerging;
      r.to_confirm = ToConfirm(r);
    } else if (r.confidence > config_.promote_confidence) {
      r.status = RuleStatus::kActive;
      r.confirmed = last != nullptr;
      // Monthly "still accurate?" (§9.3): counted from the last audit, else from promotion.
      const int64_t since = last ? last->at_ms : s.promoted_at_ms.value_or(c.introduced_at_ms);
      r.audit_due = now_ms - since > audit_ms;
    } else if (static_cast<double>(r.occurrences) < config_.prune_min_occurrences &&
               now_ms - r.last_seen_ms > prune_ms) {
      continue;  // §5.2: a weak candidate this old was noise
    } else {
      r.to_confirm = ToConfirm(r);
    }
    out.push_back(std::move(r));
  }
  auto rank = [](RuleStatus s) {
    switch (s) {
      case RuleStatus::kActive:
        return 0;
      case RuleStatus::kCandidate:
        return 1;
      case RuleStatus::kEmerging:
        return 2;
      case RuleStatus::kRetired:
        break;
    }
    return 3;
  };
  std::sort(out.begin(), out.end(), [&](const LearnedRule& a, const LearnedRule& b) {
    if (rank(a.status) != rank(b.status)) return rank(a.status) < rank(b.status);
    if (a.weight != b.weight) return a.weight > b.weight;
    return a.id < b.id;
  });
  return out;
}

std::vector<RejectionPattern> RuleBook::RejectionPatterns(bool top) const {
  std::vector<RejectionPattern> out;
  for (const auto& state : storage_) {
    const ThemeState& s = *state;
    if (s.rejected == 0) continue;
    RuleWording wording = WordingFor(s.theme);
    RejectionPattern p;
    p.pattern = std::move(wording.rejection_pattern);
    p.theme = s.theme;
    p.occurrences = s.rejected;
    p.last_seen_ms = s.rejected_last_ms;
    p.avg_severity = s.rejected_severity / static_cast<double>(s.rejected);
    p.server_types.assign(s.rejected_servers.begin(), s.rejected_servers.end());
    p.auto_fixable = wording.auto_fixable;
    p.checklist_item = std::move(wording.checklist_item);
    out.push_back(std::move(p));
  }
  std::sort(out.begin(), out.end(), [](const RejectionPattern& a, const RejectionPattern& b) {
    if (a.occurrences != b.occurrences) return a.occurrences > b.occurrences;
    return a.theme < b.theme;
  });
  if (top && out.size() > static_cast<size_t>(config_.registry_size)) {
    out.resize(static_cast<size_t>(config_.registry_size));
  }
  return out;
}

namespace {

void OptionalTime(base::JsonWriter& w, std::optional<int64_t> ms) {
  if (ms) {
    base::Str(w, model::FormatUtc(*ms));
  } else {
    w.Null();
  }
}

}  // namespace

void WriteJson(base::JsonWriter& w, const LearnedRule& r) {
  w.StartObject();
  base::Key(w, "id");
  base::Str(w, r.id);
  base::Key(w, "source");
  base::Str(w, r.source);
  base::Key(w, "rule");
  base::Str(w, r.rule);
  base::Key(w, "prompt_instruction");
  base::Str(w, r.prompt_instruction);
  base::Key(w, "confidence");
  base::Num(w, r.confidence);
  base::Key(w, "occurrences");
  w.Int64(r.occurrences);
  base::Key(w, "first_seen");
  base::Str(w, model::FormatUtc(r.first_seen_ms));
  base::Key(w, "last_seen");
  base::Str(w, model::FormatUtc(r.last_seen_ms));
  base::Key(w, "effectiveness");
  base::Num(w, r.effectiveness);
  base::Key(w, "domain");
  base::Str(w, r.domain);
  base::Key(w, "applies_to");
  base::StrArray(w, r.applies_to);
  base::Key(w, "theme");
  base::Str(w, r.theme);
  base::Key(w, "status");
  base::Str(w, RuleStatusName(r.status));
  base::Key(w, "confirmed");
  w.Bool(r.confirmed);
  base::Key(w, "auditDue");
  w.Bool(r.audit_due);
  base::Key(w, "workTypes");
  base::StrArray(w, r.work_types);
  base::Key(w, "positive");
  w.Int64(r.positive);
  base::Key(w, "days");
  w.Int64(r.days);
  base::Key(w, "weight");
  base::Num(w, r.weight);
  base::Key(w, "severity");
  base::Str(w, r.severity);
  base::Key(w, "avgSeverity");
  base::Num(w, r.avg_severity);
  base::Key(w, "introducedAt");
  base::Str(w, model::FormatUtc(r.introduced_at_ms));
  base::Key(w, "promotedAt");
  OptionalTime(w, r.promoted_at_ms);
  base::Key(w, "checklistItem");
  base::Str(w, r.checklist_item);
  base::Key(w, "autoFixable");
  w.Bool(r.auto_fixable);
  base::Key(w, "fixSuggestion");
  base::Str(w, r.fix_suggestion);
  base::Key(w, "examples");
  base::StrArray(w, r.examples);
  base::Key(w, "toConfirm");
  base::Str(w, r.to_confirm);
  base::Key(w, "holdsIn");  // empty: every project (the global layer)
  base::StrArray(w, r.holds_in);
  base::Key(w, "promotedToGlobal");
  w.Bool(r.promoted_global);
  base::Key(w, "projects");
  w.StartArray();
  for (const RuleProject& p : r.projects) {
    w.StartObject();
    base::Key(w, "name");
    base::Str(w, p.name);
    base::Key(w, "occurrences");
    w.Int64(p.occurrences);
    base::Key(w, "positive");
    w.Int64(p.positive);
    base::Key(w, "days");
    w.Int64(p.days);
    base::Key(w, "confirmed");
    w.Bool(p.confirmed);
    w.EndObject();
  }
  w.EndArray();
  base::Key(w, "audits");
  w.StartArray();
  for (const RuleAudit& a : r.audits) {
    w.StartObject();
    base::Key(w, "at");
    base::Str(w, model::FormatUtc(a.at_ms));
    base::Key(w, "verdict");
    base::Str(w, a.verdict);
    base::Key(w, "reviewerId");
    base::Str(w, a.reviewer);
    base::Key(w, "note");
    base::Str(w, a.note);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void WriteJson(base::JsonWriter& w, const std::vector<RejectionPattern>& v) {
  w.StartArray();
  for (const RejectionPattern& p : v) {
    w.StartObject();
    base::Key(w, "pattern");
    base::Str(w, p.pattern);
    base::Key(w, "theme");
    base::Str(w, p.theme);
    base::Key(w, "occurrences");
    w.Int64(p.occurrences);
    base::Key(w, "lastSeen");
    base::Str(w, model::FormatUtc(p.last_seen_ms));
    base::Key(w, "avgSeverity");
    base::Num(w, p.avg_severity);
    base::Key(w, "serverTypes");
    base::StrArray(w, p.server_types);
    base::Key(w, "autoFixable");
    w.Bool(p.auto_fixable);
    base::Key(w, "checklistItem");
    base::Str(w, p.checklist_item);
    w.EndObject();
  }
  w.EndArray();
}

// ---- State (Learner::SaveState) -------------------------------------------------------------

template <class Archive>
void RuleAudit::serialize(Archive& ar) {
  ar(at_ms, verdict, reviewer, note);
}

template <class Archive>
void RuleBook::serialize(Archive& ar) {
  ar(total_reviews_, storage_, state::SortedMap(audits_), projects_named_);
  if constexpr (state::kLoading<Archive>) {
    themes_.clear();
    for (const std::unique_ptr<ThemeState>& s : storage_) {
      state::Require(s != nullptr, "a rule theme missing");
      state::Require(themes_.emplace(s->theme, s.get()).second, "a rule theme saved twice");
    }
  }
}

KZ_STATE_INSTANTIATE(RuleBook);

}  // namespace kaizen::learn
