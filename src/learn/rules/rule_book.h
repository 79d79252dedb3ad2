// The rule lifecycle of seed 000 §3.2 and §8.1: what reviewers keep rejecting becomes a
// `LearnedRule` the agent is told, and the rejection-pattern registry behind the pre-review
// checklist.
//
//   theme evidence --(§9.3: 5+ points over 3+ days)--> candidate
//   candidate --(confidence > 0.8, §8.1/§8.3)--> active
//   active --(monthly audit, an `admin` rule_audit event)--> confirmed or retired
//
// A review's negative themes come from its free text, its rejection reason, blockers and
// suggestions (through the theme taxonomy) and its criticism annotations' categories; each theme
// counts once per review. Confidence is kaizen's choice where the seed is silent ("0-1 based on
// data strength"): the Wilson lower bound (z = rules.confidence_z) of the share of a theme's
// signals that are negative, so it grows with both count and consistency. Approvals mentioning
// the theme after promotion do not count against it (they are what the rule asked for); only a
// `retire` audit takes an active rule out.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json_writer.h"
#include "learn/config_field.h"
#include "learn/reviews/review_themes.h"
#include "learn/reviews/theme_evidence.h"
#include "learn/state_fwd.h"
#include "learn/string_hash.h"
#include "model/inputs.h"
#include "model/project_key.h"

namespace kaizen::learn {

struct RuleConfig {
  double promote_confidence = 0.8;  // §8.1/§8.3 "cross the confidence threshold (>0.8)"
  double confidence_z = 1.2816;     // Wilson bound: one-sided 90%
  double audit_interval_days = 30;  // §9.3 "Monthly, present Jake with current learned rules"
  double prune_age_days = 90;       // §5.2 "Rules with <5 occurrences that are >90 days old"
  double prune_min_occurrences = 5;
  double registry_size = 5;  // §3.2 "Top 5 Rejection Reasons"

  ConfigFields Fields();
};

// kEmerging: repeated by reviews but below the §9.3 guards (evidence.emerging_*); kCandidate:
// past the guards, confidence not yet above promote_confidence. Neither is enforced.
enum class RuleStatus : uint8_t { kCandidate, kActive, kRetired, kEmerging };
std::string_view RuleStatusName(RuleStatus s);  // candidate | active | retired | emerging

// One answer to the monthly "still accurate?" question.
struct RuleAudit {
  int64_t at_ms = 0;
  std::string verdict;   // confirm | retire
  std::string reviewer;  // may be empty
  std::string note;      // reviewer text: quote it before it reaches a prompt

  template <class Archive>
  void serialize(Archive& ar);
};

// One project's share of a rule's evidence (issue 30 item 5).
struct RuleProject {
  std::string name;  // model::ProjectKey of the reviews' repository or the prompts' project
  int64_t occurrences = 0, positive = 0, days = 0;
  // Its own evidence passes the §9.3 guards and promote_confidence: the rule holds there.
  bool confirmed = false;
};

struct LearnedRule {
  // seed 000 §8.1 LearnedRule
  std::string id;      // "rule-<theme>": stable, what rule_audit events name
  std::string source;  // feedback-pattern | rejection-analysis | annotation | session-prompt
  std::string rule;    // human-readable
  std::string prompt_instruction;  // the line injected into prompts ("ALWAYS ...")
  double confidence = 0;
  int64_t occurrences = 0;  // reviews with a negative signal on the theme
  int64_t first_seen_ms = 0, last_seen_ms = 0;
  std::optional<double> effectiveness;  // §7.2 quality delta after introduction
  std::string domain;                   // a QualityDimension
  std::vector<std::string> applies_to;  // server types (sorted), or {"all"}
  std::vector<std::string> work_types;  // work product types of the negative reviews (sorted)

  // kaizen's lifecycle and what the self-check needs
  std::string theme;
  RuleStatus status = RuleStatus::kCandidate;
  bool confirmed = false;  // the latest audit confirmed it
  int64_t days = 0;        // distinct UTC days of the negative signals
  double weight = 0;       // §3.2 (occurrences x avg severity) / total reviews
  double avg_severity = 0;
  std::string severity;                   // minor | moderate | major | critical, from avg_severity
  int64_t positive = 0;                   // reviews where the theme came with approval or praise
  int64_t introduced_at_ms = 0;           // met the §9.3 guards
  std::optional<int64_t> promoted_at_ms;  // confidence first above promote_confidence
  std::vector<RuleAudit> audits;          // log order
  bool audit_due = false;  // active, and no audit (or promotion) within audit_interval_days
  std::string checklist_item;
  bool auto_fixable = false;
  std::string fix_suggestion;
  std::vector<std::string> examples;  // up to 3 reviewer phrases, newest first, raw
  // Candidates and emerging ones: what would make it a rule, e.g. "2 more rejections on 1 more
  // day" (the §9.3 guards and promote_confidence); empty for active and retired rules.
  std::string to_confirm;

  // Where it holds (issue 30 item 5, seed 004 "Pattern Promotion Across Projects"). `projects`:
  // the projects whose reviews or prompts cited it, by name (evidence naming no project is not
  // listed). `holds_in` empty: the global layer, every project; that is the case while the log
  // names fewer than two projects (one person's home), for a rule confirmed in 2+ projects
  // (`promoted_global`), and for one whose evidence naming no project confirms it alone or, no
  // project confirming it, counts at all. Otherwise the project that confirmed it, or, when none
  // did alone, every project that cited it.
  std::vector<RuleProject> projects;
  std::vector<std::string> holds_in;
  bool promoted_global = false;
};

// Whether the rule is told to an agent working in `project` (any spelling model::ProjectKey
// reads; empty: unknown, which sees the global layer only).
bool HoldsIn(const LearnedRule& rule, std::string_view project);
// Keeps the rules that hold in `project` (HoldsIn), in order.
void KeepRulesOf(std::string_view project, std::vector<LearnedRule>* rules);

// seed 000 §3.2 RejectionPattern: one per theme seen in rejected reviews.
struct RejectionPattern {
  std::string pattern;  // "Missing retry logic on external calls"
  std::string theme;
  int64_t occurrences = 0;
  int64_t last_seen_ms = 0;
  double avg_severity = 0;
  std::vector<std::string> server_types;  // sorted
  bool auto_fixable = false;
  std::string checklist_item;
};

// Drops the registry entries whose theme's rule (in `rules`, every rule) does not hold in
// `project`: another project's lesson; a theme that is no rule yet stays. Then keeps at most
// `limit`.
void KeepRejectionPatternsOf(std::string_view project, const std::vector<LearnedRule>& rules,
                             size_t limit, std::vector<RejectionPattern>* patterns);

class RuleBook {
 public:
  RuleBook(const RuleConfig& config, const EvidenceConfig& evidence);
  ~RuleBook();
  RuleBook(const RuleBook&) = delete;
  RuleBook& operator=(const RuleBook&) = delete;

  // Folds one review with its themes (ReviewThemes). REQUIRES: log order.
  void AddReview(const model::ReviewView& review, const std::vector<ReviewTheme>& themes);
  // Folds an `admin` rule_audit event (other actions are ignored).
  void AddAdmin(const model::AdminView& admin);

  // Every candidate, active and retired rule, sorted by status (active, candidate, emerging,
  // retired),
  // then weight (highest first), then id. Candidates with fewer than prune_min_occurrences
  // points whose last signal is older than prune_age_days are pruned (§5.2). `candidates` are
  // the ThemeEvidence candidates at the same now (they carry the guards and effectiveness).
  std::vector<LearnedRule> Rules(const std::vector<RuleCandidate>& candidates,
                                 int64_t now_ms) const;
  // The registry, by occurrences (highest first), then theme; at most registry_size when
  // `top` is true.
  std::vector<RejectionPattern> RejectionPatterns(bool top) const;
  // Audits naming ids that are not rules (yet): they are kept and apply when the rule appears.
  const RuleConfig& config() const { return config_; }

 private:
  struct ThemeState;
  struct ProjectTally;
  // Whether one project's evidence alone would make the rule active.
  bool Confirms(const ProjectTally& t) const;
  // Fills rule.projects, holds_in and promoted_global from the theme's tallies.
  void Scope(const ThemeState& s, LearnedRule* rule) const;
  // What would make a candidate or emerging rule a rule: the negative signals and days it lacks
  // against the §9.3 guards, and the rejections with no approval that would lift its confidence
  // above promote_confidence.
  std::string ToConfirm(const LearnedRule& r) const;
  // storage_ in order; themes_ is rebuilt to point into it.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
  RuleConfig config_;
  EvidenceConfig evidence_;
  int64_t total_reviews_ = 0;
  // Whether reviews and prompts named more than one project: scoping starts with the second.
  model::ProjectsNamed projects_named_;
  std::unordered_map<std::string, ThemeState*, StringHash, std::equal_to<>> themes_;
  std::vector<std::unique_ptr<ThemeState>> storage_;
  std::unordered_map<std::string, std::vector<RuleAudit>, StringHash, std::equal_to<>> audits_;
};

// The Wilson score lower bound of `successes` out of `n` at z; 0 when n == 0.
double WilsonLowerBound(double successes, double n, double z);

void WriteJson(base::JsonWriter& w, const LearnedRule& rule);                 // one rule object
void WriteJson(base::JsonWriter& w, const std::vector<RejectionPattern>& v);  // `rejectionPatterns`

}  // namespace kaizen::learn
