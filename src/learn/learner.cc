#include "learn/learner.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "learn/outcomes/pattern_extraction.h"
#include "model/commit_name.h"
#include "model/schema.h"
#include "model/timestamp.h"

namespace kaizen::learn {
namespace {
constexpr size_t kRegressionsShown = 100;

// The parts with what they read: a review's copy for the memory files carries the task type's
// autonomy level.
Parts WithDependencies(Parts parts) {
  if (parts.Has(Part::kRecent)) parts |= Parts{Part::kAutonomy};
  // Rewards feed these (a revert is a failed outcome): the signals decide what each one says.
  if (parts.Has(Part::kAutonomy) || parts.Has(Part::kCalibration) || parts.Has(Part::kOutcomes)) {
    parts |= Parts{Part::kSignals};
  }
  return parts;
}

std::string CommitKey(std::string_view commit) {
  std::string key(commit.substr(0, 7));
  for (char& c : key) c = static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
  return key;
}

// Whether two commit names name the same commit: one is a prefix of the other, ignoring case.
bool SameCommit(std::string_view a, std::string_view b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}
}  // namespace

ConfigFields LearnConfig::Fields() {
  ConfigFields all;
  for (ConfigFields part :
       {weights.Fields(), gates.Fields(), calibration.Fields(), speed.Fields(), autonomy.Fields(),
        preferences.Fields(), communication.Fields(), outcomes.Fields(), loop.Fields(),
        evidence.Fields(), bias.Fields(), kpis.Fields(), rules.Fields(), memory.Fields(),
        signals.Fields(), compare.Fields()}) {
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

Status LearnConfig::Validate() const {
  auto order = [](double low, double high, std::string_view low_name,
                  std::string_view high_name) -> Status {
    if (low < high) return Status::Ok();
    return InvalidArgument(fmt::format("learning config: {} ({}) must be below {} ({})", low_name,
                                       low, high_name, high));
  };
  KZ_RETURN_IF_ERROR(
      order(speed.fast_seconds, speed.slow_seconds, "speed.fast_seconds", "speed.slow_seconds"));
  KZ_RETURN_IF_ERROR(
      order(outcomes.fast_ms, outcomes.slow_ms, "outcomes.fast_ms", "outcomes.slow_ms"));
  KZ_RETURN_IF_ERROR(order(outcomes.harmful_threshold, outcomes.helpful_threshold,
                           "outcomes.harmful_threshold", "outcomes.helpful_threshold"));
  if (gates.soft > gates.hard) {
    return InvalidArgument(
        fmt::format("learning config: gates.soft ({}) must not be above gates.hard ({})",
                    gates.soft, gates.hard));
  }
  for (int level = 1; level <= AutonomyConfig::kMaxLevel; ++level) {
    if (autonomy.ReviewRate(level) > autonomy.ReviewRate(level - 1)) {
      return InvalidArgument(fmt::format(
          "learning config: autonomy.l{}_review_rate ({}) must not be above "
          "autonomy.l{}_review_rate ({}): a higher level reviews less",
          level, autonomy.ReviewRate(level), level - 1, autonomy.ReviewRate(level - 1)));
    }
    if (autonomy.Approvals(level) < autonomy.Approvals(level - 1)) {
      return InvalidArgument(fmt::format(
          "learning config: autonomy.l{}_approvals must not be below the level below's", level));
    }
  }
  return Status::Ok();
}

Learner::Learner(const LearnConfig& config, const text::ThemeTaxonomy* taxonomy, Parts parts)
    : config_(config),
      taxonomy_(taxonomy ? *taxonomy : text::ThemeTaxonomy::Default()),
      parts_(WithDependencies(parts)),
      kinds_(parts_.Kinds()),
      gates_(config_.gates, config_.weights),
      calibration_(config_.calibration),
      speed_(config_.speed),
      autonomy_(config_.autonomy),
      preferences_(config_.preferences, config_.weights),
      communication_(config_.communication, config_.weights),
      outcomes_(config_.outcomes),
      loops_(config_.loop),
      evidence_(config_.evidence, config_.weights),
      rules_(config_.rules, config_.evidence),
      bias_(config_.bias),
      kpis_(config_.kpis),
      profiles_(config_.memory, config_.speed, config_.communication, config_.weights),
      recent_(config_.memory),
      signals_(config_.signals) {}

// Only computations whose results the fold reads and drops: the memory copy of a review
// (RecentReviews) stays in the fold, as strings allocated on a reader thread and freed on the
// folding one cost more than they save (measured: more CPU in all).
void Learner::Prepare(EventViews* event) const {
  PreparedEvent& p = event->prepared;
  p.by = this;
  if (!kinds_.Has(event->kind)) return;
  switch (event->kind) {
    case model::EventKind::kFeedback:
      p.themes.clear();
      if (parts_.NeedsThemes()) p.themes = ReviewThemes(event->review, taxonomy_);
      break;
    case model::EventKind::kCorrection:
      if (parts_.NeedsCorrectionChange()) {
        p.correction_type = CorrectionGroupType(event->correction);
        p.change = AnalyzeChange(p.correction_type, event->correction.original,
                                 event->correction.corrected, event->correction.file);
      }
      break;
    case model::EventKind::kOutcome:
      if (parts_.NeedsStrategies()) p.strategies = DetectStrategies(event->outcome.description);
      break;
    default:
      break;
  }
}

void Learner::Add(EventViews& event) {
  ++events_;
  ++by_kind_[static_cast<size_t>(event.kind)];
  newest_ms_ = std::max(newest_ms_, EventTime(event));
  if (!kinds_.Has(event.kind)) return;
  if (event.prepared.by != this) Prepare(&event);
  PreparedEvent& prepared = event.prepared;
  ResolveInLogOrder(&registry_, &event);
  auto has = [this](Part p) { return parts_.Has(p); };
  // An outcome, error, loop or correction got here only if its one part is folded (kinds_).
  switch (event.kind) {
    case model::EventKind::kFeedback: {
      const model::ReviewView& r = event.review;
      const std::vector<ReviewTheme>& themes = prepared.themes;
      if (has(Part::kApproval)) approval_.Add(r);
      if (has(Part::kGates)) gates_.Add(r);
      if (has(Part::kCalibration)) calibration_.Add(r);
      if (has(Part::kSpeed)) speed_.Add(r);
      if (has(Part::kAutonomy)) autonomy_.Add(r);
      if (has(Part::kPreferences)) preferences_.Add(r);
      if (has(Part::kCommunication)) communication_.Add(r);
      if (has(Part::kEvidence)) evidence_.Add(r, themes);
      if (has(Part::kRules)) {
        rules_.AddReview(r, themes);
        history_.Add(r, themes);
      }
      if (has(Part::kScoreBands)) score_bands_.Add(r, themes);
      if (has(Part::kBias)) bias_.Add(r);
      if (has(Part::kAgreement)) agreement_.Add(r);
      if (has(Part::kKpis)) kpis_.Add(r);
      if (has(Part::kProfiles)) {
        profiles_.Add(r, themes);
        questions_.AddReview(r);
      }
      if (has(Part::kRecent)) recent_.Add(r, themes, autonomy_.Level(OrUnspecified(r.task_type)));
      if (has(Part::kQueue)) queue_.AddReview(r);
      break;
    }
    case model::EventKind::kWork: {
      const bool auto_approved = has(Part::kAutonomy) && autonomy_.AddWork(event.work);
      if (has(Part::kBias)) bias_.AddWork(event.work);
      if (has(Part::kQueue)) queue_.AddWork(event.work);
      if (has(Part::kSignals)) AddCommitWork(event.work, auto_approved);
      break;
    }
    case model::EventKind::kOutcome:
      if (has(Part::kOutcomes)) outcomes_.Add(event.outcome, prepared.strategies);
      if (has(Part::kSignals)) signals_.AddOutcome(event.outcome);
      if (has(Part::kProfiles) && !event.outcome.success) {
        questions_.AddFailure(event.outcome.at_ms, "a failed task");
      }
      break;
    case model::EventKind::kError:
      errors_.Add(event.error);
      break;
    case model::EventKind::kLoop:
      loops_.Add(event.loop);
      break;
    case model::EventKind::kAdmin:
      if (has(Part::kRules)) rules_.AddAdmin(event.admin);
      if (has(Part::kCorrections)) corrections_.Add(event.admin);
      if (has(Part::kQueue)) queue_.AddAdmin(event.admin);
      if (has(Part::kSignals) && event.admin.action == "skip") signals_.AddSkip(event.admin);
      if (has(Part::kProfiles)) questions_.AddAdmin(event.admin);
      break;
    case model::EventKind::kCorrection:
      corrections_.Add(event.correction, prepared.correction_type, &prepared.change);
      break;
    case model::EventKind::kReward:
      AddReward(event.reward);
      break;
    case model::EventKind::kPrompt:
      AddPrompt(event.prompt);
      break;
  }
}

void Learner::AddPrompt(const model::PromptView& prompt) {
  if (parts_.Has(Part::kRules)) prompts_.Add(prompt);
  const std::vector<ReviewTheme> themes = PromptThemes(prompt);
  if (themes.empty()) return;
  // The theme trackers read a review's time, stage and weight class: a prompt is a review with
  // the default weight, filed under its own stage, with no decision, scores or reviewer.
  model::ReviewView as_review;
  as_review.at_ms = prompt.at_ms;
  as_review.session_id = prompt.session_id;
  as_review.stage = kSessionPromptStage;
  as_review.project = prompt.project;
  if (parts_.Has(Part::kEvidence)) evidence_.Add(as_review, themes);
  if (parts_.Has(Part::kRules)) rules_.AddReview(as_review, themes);
}

void Learner::AddCommitWork(const model::WorkView& work, bool auto_approved) {
  if (!model::LooksLikeCommit(work.version)) return;
  std::vector<CommitWork>& list = commit_work_[CommitKey(work.version)];
  CommitWork entry{
      std::string(work.version), std::string(work.artifact_id),
      std::string(OrUnspecified(!work.server_type.empty() ? work.server_type : work.type)),
      work.confidence, auto_approved};
  // A later registration of the same commit wins (as in the work registry).
  for (CommitWork& c : list) {
    if (c.version == entry.version) {
      c = std::move(entry);
      return;
    }
  }
  list.push_back(std::move(entry));
}

const Learner::CommitWork* Learner::FindCommitWork(std::string_view commit) const {
  if (!model::LooksLikeCommit(commit)) return nullptr;
  auto it = commit_work_.find(CommitKey(commit));
  if (it == commit_work_.end()) return nullptr;
  for (auto c = it->second.rbegin(); c != it->second.rend(); ++c) {
    if (SameCommit(c->version, commit)) return &*c;
  }
  return nullptr;
}

void Learner::AddReward(const model::RewardView& r) {
  // The work the signal judges: the recorded work product whose version is the agent's commit,
  // else the one whose id is the reward's task.
  const CommitWork* commit =
      FindCommitWork(!r.agent_commit.empty() ? r.agent_commit : r.commit_hash);
  std::optional<model::WorkView> by_task;
  if (commit == nullptr && !r.task_id.empty()) by_task = registry_.Find(r.task_id, "");
  // Its task type: the work's; else the one the signal names (`context.task_type`); else a
  // commit's work is a code module (seed 000 WorkProductRef type); else unspecified.
  std::string_view task_type = "unspecified";
  if (commit != nullptr) {
    task_type = commit->task_type;
  } else if (by_task) {
    task_type = OrUnspecified(!by_task->server_type.empty() ? by_task->server_type : by_task->type);
  } else if (!r.context_task_type.empty()) {
    task_type = r.context_task_type;
  } else if (!r.agent_commit.empty() || !r.commit_hash.empty()) {
    task_type = "code-module";
  }
  const bool agent_work = commit != nullptr || !r.detector.empty() || !r.agent.empty();
  const SignalVerdict verdict = signals_.Add(r, task_type, agent_work);
  if (verdict.failed_outcome && parts_.Has(Part::kProfiles)) {
    questions_.AddFailure(r.at_ms, "a revert or a rewrite of the agent's work");
  }

  if (verdict.failed_outcome) {
    if (parts_.Has(Part::kAutonomy)) {
      autonomy_.AddFailedOutcome(task_type, r.at_ms, commit != nullptr && commit->auto_approved);
    }
    if (parts_.Has(Part::kCalibration)) {
      if (commit != nullptr) {
        calibration_.AddPair(commit->confidence, false);
      } else if (by_task) {
        calibration_.AddPair(by_task->confidence, false);
      }
    }
  }
  // Every signal with a value is one more observation of the task's criteria and patterns.
  if (parts_.Has(Part::kOutcomes) && KindOf(r) != SignalKind::kOther) {
    for (std::string_view bead :
         {r.task_id, commit != nullptr ? std::string_view(commit->artifact_id) : std::string_view(),
          !r.agent_commit.empty() ? r.agent_commit : r.commit_hash}) {
      if (!bead.empty() && outcomes_.AddSignal(bead, r.signal_value, r.at_ms)) break;
    }
  }
}

std::vector<RuleIntroduction> Learner::RuleIntroductions(
    const std::vector<RuleCandidate>& candidates) {
  std::vector<RuleIntroduction> out;
  for (const RuleCandidate& c : candidates) {
    out.push_back({c.introduced_at_ms, c.effectiveness, c.effectiveness_days});
  }
  return out;
}

KpiResult Learner::Kpis(int64_t now_ms) const { return Kpis(now_ms, evidence_.Candidates(now_ms)); }

KpiResult Learner::Kpis(int64_t now_ms, const std::vector<RuleCandidate>& candidates) const {
  KpiResult kpis = kpis_.Result(now_ms, autonomy_.Days(), RuleIntroductions(candidates));
  for (Alert& a : signals_.Result(now_ms).alerts) kpis.alerts.push_back(std::move(a));
  return kpis;
}

std::string Learner::KpisJson(int64_t now_ms, int64_t window_days, int windows,
                              int64_t step_days) const {
  const KpiResult kpis =
      kpis_.Result(now_ms, autonomy_.Days(), RuleIntroductions(evidence_.Candidates(now_ms)),
                   window_days, windows, step_days);
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  w.StartObject();
  base::Key(w, "now");
  base::Str(w, model::FormatUtc(now_ms));
  base::Key(w, "windowDays");
  w.Int64(window_days);
  base::Key(w, "stepDays");
  w.Int64(step_days);
  base::Key(w, "kpis");
  WriteJson(w, kpis);
  w.EndObject();
  return buffer.GetString();
}

std::string Learner::AnalysisJson(int64_t now_ms, Sections sections) const {
  rapidjson::StringBuffer buffer;
  base::JsonWriter w(buffer);
  w.StartObject();
  base::Key(w, "now");
  base::Str(w, model::FormatUtc(now_ms));
  base::Key(w, "events");
  w.StartObject();
  for (int k = 0; k < model::kEventKindCount; ++k) {
    base::Key(w, model::KindName(static_cast<model::EventKind>(k)));
    w.Uint64(by_kind_[k]);
  }
  base::Key(w, "total");
  w.Uint64(events_);
  w.EndObject();
  // Each section asked for, in the contract's order.
  auto section = [&](Section s) {
    if (!sections.Has(s)) return false;
    base::Key(w, SectionName(s));
    return true;
  };
  if (section(Section::kApproval)) WriteJson(w, approval_.Result());
  if (section(Section::kGates)) WriteJson(w, gates_.Gates(now_ms));
  if (section(Section::kCalibration)) WriteJson(w, calibration_.Result());
  if (section(Section::kDecisionSpeed)) WriteJson(w, speed_.Result());
  if (section(Section::kPreferences)) WriteJson(w, preferences_.Result(now_ms));
  if (section(Section::kAutonomy)) WriteJson(w, autonomy_.Result());
  if (section(Section::kCommunication)) WriteJson(w, communication_.Result());
  if (section(Section::kCriteria)) WriteJson(w, outcomes_.Criteria(now_ms));
  if (section(Section::kPatterns)) WriteJson(w, outcomes_.Patterns(now_ms));
  if (section(Section::kAntiPatterns)) WriteJson(w, outcomes_.AntiPatterns());
  if (section(Section::kErrors)) WriteJson(w, errors_.Report());
  if (section(Section::kLoops)) WriteJson(w, loops_.Result());
  if (section(Section::kContradictions)) WriteJson(w, evidence_.Contradictions(now_ms));
  // Computed once: the KPIs and the ruleCandidates section read the same candidates.
  std::vector<RuleCandidate> candidates;
  if (sections.Has(Section::kKpis) || sections.Has(Section::kAlerts) ||
      sections.Has(Section::kRuleCandidates)) {
    candidates = evidence_.Candidates(now_ms);
  }
  if (sections.Has(Section::kKpis) || sections.Has(Section::kAlerts)) {
    const KpiResult kpis = Kpis(now_ms, candidates);
    if (section(Section::kKpis)) WriteJson(w, kpis);
    if (section(Section::kAlerts)) WriteAlertsJson(w, kpis);
  }
  // Beyond the contract: the evidence behind the sections above.
  // The regression log, newest last: the last kRegressionsShown of them, and how many in all.
  if (sections.Has(Section::kRegressions)) {
    std::vector<Regression> regressions = autonomy_.Regressions();
    base::Key(w, "regressionsTotal");
    w.Uint64(regressions.size());
    if (regressions.size() > kRegressionsShown) {
      regressions.erase(regressions.begin(), regressions.end() - kRegressionsShown);
    }
    section(Section::kRegressions);
    WriteJson(w, regressions);
  }
  if (section(Section::kStrategies)) WriteJson(w, outcomes_.Strategies());
  if (section(Section::kRuleCandidates)) WriteJson(w, candidates);
  if (section(Section::kBiasWatch)) WriteJson(w, bias_.Result(now_ms));
  if (section(Section::kSignals)) WriteJson(w, signals_.Result(now_ms));
  if (section(Section::kAgreement)) WriteJson(w, agreement_.Result());
  w.EndObject();
  std::string out(buffer.GetString(), buffer.GetSize());
  out.push_back('\n');
  return out;
}

std::optional<Parts> Learner::PartsToExplain(std::string_view what) {
  if (what == "pattern" || what == "criterion") return Parts{Part::kOutcomes};
  if (what == "gate") return Parts{Part::kGates};
  if (what == "autonomy") return Parts{Part::kAutonomy};
  if (what == "calibration") return Parts{Part::kCalibration};
  if (what == "loop") return Parts{Part::kLoops};
  return std::nullopt;
}

std::vector<std::string> Learner::KnownNames(std::string_view what, int64_t now_ms) const {
  std::vector<std::string> out;
  if (what == "pattern") {
    for (const PatternResult& p : outcomes_.Patterns(now_ms)) out.push_back(p.content);
  } else if (what == "criterion") {
    for (const CriterionResult& c : outcomes_.Criteria(now_ms)) out.push_back(c.criterion);
  } else if (what == "gate") {
    out.assign(model::QualityDimensions().begin(), model::QualityDimensions().end());
  } else if (what == "autonomy") {
    for (const TaskAutonomy& t : autonomy_.Result()) out.push_back(t.task_type);
  } else if (what == "calibration") {
    out = {"all", "0.0", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"};
  } else if (what == "loop") {
    for (const LoopReport& l : loops_.Result().recent) out.push_back(l.loop_id);
  }
  return out;
}

Status Learner::Explain(std::string_view what, std::string_view name, int64_t now_ms,
                        std::string* text) const {
  bool found = false;
  if (what == "pattern") {
    found = outcomes_.ExplainPattern(name, now_ms, text);
  } else if (what == "criterion") {
    found = outcomes_.ExplainCriterion(name, now_ms, text);
  } else if (what == "gate") {
    found = gates_.ExplainGate(name, now_ms, text);
  } else if (what == "autonomy") {
    found = autonomy_.ExplainAutonomy(name, text);
  } else if (what == "calibration") {
    found = calibration_.ExplainCalibration(name, text);
  } else if (what == "loop") {
    found = loops_.ExplainLoop(name, text);
  } else {
    return InvalidArgument(fmt::format(
        "explain: {:?} is not something kaizen explains (pattern, criterion, gate, autonomy, "
        "calibration, loop)",
        std::string(what)));
  }
  if (!found) {
    std::vector<std::string> known = KnownNames(what, now_ms);
    std::string list;
    for (size_t i = 0; i < known.size() && i < 20; ++i) list += (i ? ", " : "") + known[i];
    if (known.size() > 20) list += fmt::format(", ... ({} in all)", known.size());
    return NotFound(fmt::format(
        "explain {}: nothing named {:?} in the log{}{}", std::string(what), std::string(name),
        known.empty() ? "" : "; known: ", known.empty() ? std::string() : list));
  }
  return Status::Ok();
}

CompareAdvice Learner::AdviseComparison(const CompareQuery& query) const {
  return learn::AdviseComparison(config_.compare, calibration_, approval_.Result(), query);
}

std::vector<LearnedRule> Learner::Rules(int64_t now_ms) const {
  std::vector<RuleCandidate> candidates = evidence_.Candidates(now_ms);
  for (RuleCandidate& c : evidence_.Emerging()) candidates.push_back(std::move(c));
  return rules_.Rules(candidates, now_ms);
}

std::vector<RejectionPattern> Learner::RejectionPatterns(bool top) const {
  return rules_.RejectionPatterns(top);
}

}  // namespace kaizen::learn
