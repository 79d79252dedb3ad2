// The learning engine: every rule of the seeds folded over one log. derived = f(log, config, now):
// Add() folds events in log order (amortized O(1) each); the queries take `now` and do no I/O,
// so the same log, config and now give the same bytes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kaizen/status.h"
#include "learn/corrections/correction_patterns.h"
#include "learn/delegation/autonomy.h"
#include "learn/delegation/calibration.h"
#include "learn/delegation/gates.h"
#include "learn/event_reader.h"
#include "learn/kpis/kpis.h"
#include "learn/learner_state.h"
#include "learn/outcomes/error_accumulator.h"
#include "learn/outcomes/loop_tracker.h"
#include "learn/outcomes/outcomes.h"
#include "learn/outcomes/signals.h"
#include "learn/reviews/agreement.h"
#include "learn/reviews/approval.h"
#include "learn/reviews/bias_watch.h"
#include "learn/reviews/communication.h"
#include "learn/reviews/compare_advice.h"
#include "learn/reviews/decision_speed.h"
#include "learn/reviews/preferences.h"
#include "learn/reviews/question_bank.h"
#include "learn/reviews/recent_reviews.h"
#include "learn/reviews/review_queue.h"
#include "learn/reviews/reviewer_profiles.h"
#include "learn/reviews/score_bands.h"
#include "learn/reviews/theme_evidence.h"
#include "learn/rules/rule_book.h"
#include "learn/rules/self_check.h"
#include "learn/rules/session_prompts.h"
#include "learn/sections.h"
#include "learn/signal_weight.h"
#include "learn/state_fwd.h"
#include "model/event_kind.h"

namespace kaizen::learn {

// Every threshold, with the seeds' defaults; `<home>/config/learning.json` overrides any subset.
struct LearnConfig {
  SignalWeightConfig weights;
  GatesConfig gates;
  CalibrationConfig calibration;
  SpeedConfig speed;
  AutonomyConfig autonomy;
  PreferenceConfig preferences;
  CommunicationConfig communication;
  OutcomeConfig outcomes;
  LoopConfig loop;
  EvidenceConfig evidence;
  BiasConfig bias;
  KpiConfig kpis;
  RuleConfig rules;
  MemoryConfig memory;
  SignalConfig signals;
  CompareConfig compare;

  // Pointers into *this: valid while this object lives and is not moved.
  ConfigFields Fields();
  // The rules between keys (a fast threshold below the slow one, a soft gate below the hard
  // one, ...); InvalidArgument names both keys.
  Status Validate() const;
};

class Learner {
 public:
  // `taxonomy` finds themes in rejection reasons, blockers and suggestions; nullptr is the
  // shipped default. REQUIRES: *taxonomy outlives the Learner. Only `parts` are folded (and the
  // parts they read); the accessors and queries of the others see an empty log.
  explicit Learner(const LearnConfig& config, const text::ThemeTaxonomy* taxonomy = nullptr,
                   Parts parts = Parts::All());
  Learner(const Learner&) = delete;
  Learner& operator=(const Learner&) = delete;

  // Counts the event and, when its kind is one the folded parts read (kinds()), resolves its
  // references and folds it into them. Of an event of another kind only `kind` and the
  // timestamp are read, so a reader may leave the rest unread. REQUIRES: log order.
  void Add(EventViews& event);
  // Every bit of folded state, as bytes (learner_state.h): a checkpoint from which LoadState and
  // the log's later events give what folding the whole log gives. Deterministic: two learners
  // that folded the same events save the same bytes.
  std::string SaveState() const;
  // Restores what SaveState saved. REQUIRES: this Learner is freshly constructed (nothing added)
  // with the same config, taxonomy and parts as the one that saved; folding more events and every
  // query then give, byte for byte, what a Learner that folded everything gives. Errors:
  // FailedPrecondition for a learner that folded events, or bytes of another format version,
  // parts or config; DataLoss for damaged or truncated bytes. After an error this Learner holds
  // part of the state: destroy it, use it for nothing else.
  Status LoadState(std::string_view bytes);

  // Computes event->prepared: what Add needs that depends on this event alone (a review's
  // themes, a correction's change, an outcome's strategies). Reads only the config and the
  // taxonomy, so reader threads may call it on events not yet added, concurrently with Add.
  // Optional: Add computes what was not prepared; the results are the same either way.
  void Prepare(EventViews* event) const;

  // `kaizen analyze --json`: one object, keys documented in docs/analysis.md: `now`, `events`
  // and the sections asked for. REQUIRES: the folded parts include sections.Needs().
  std::string AnalysisJson(int64_t now_ms, Sections sections = Sections::All()) const;
  // {"now","windowDays","stepDays","kpis"}: the `kpis` object of AnalysisJson over other
  // windows, `windows` of `window_days` days, the newest ending at now's day, each `step_days`
  // after the one before (KpiTracker::Result). REQUIRES: all >= 1.
  std::string KpisJson(int64_t now_ms, int64_t window_days, int windows, int64_t step_days) const;
  // `kaizen analyze`: the same, for a person.
  std::string AnalysisText(int64_t now_ms, Sections sections = Sections::All()) const;
  // `kaizen explain WHAT NAME`: the counts, decayed values and thresholds behind one verdict.
  // WHAT is pattern | criterion | gate | autonomy | calibration | loop. NotFound names the known
  // values when NAME is unknown; InvalidArgument when WHAT is. REQUIRES: the folded parts
  // include PartsToExplain(what).
  Status Explain(std::string_view what, std::string_view name, int64_t now_ms,
                 std::string* text) const;

  // The parts Explain(what, ...) reads; nullopt when kaizen does not explain `what`.
  static std::optional<Parts> PartsToExplain(std::string_view what);

  // seed 000 §8.1: candidate, active and retired rules, and emerging candidates
  // (RuleBook::Rules).
  std::vector<LearnedRule> Rules(int64_t now_ms) const;
  // seed 000 §3.2: the rejection-pattern registry; the top registry_size when `top`.
  std::vector<RejectionPattern> RejectionPatterns(bool top) const;

  // seed 000 §7.1 KPIs over their windows ending at now, with the §7.3 alerts and seed 001's
  // signal alerts (the analysis's `kpis` and `alerts`). REQUIRES: kKpis, kAutonomy, kSignals and
  // kRules folded, as Sections{kKpis, kAlerts}.Needs() asks.
  KpiResult Kpis(int64_t now_ms) const;

  uint64_t events() const { return events_; }
  const Parts& parts() const { return parts_; }
  // The kinds the folded parts read.
  const KindSet& kinds() const { return kinds_; }
  // All that the folded parts read of the log.
  ReadScope scope() const { return {kinds_, parts_.FieldsOfReviews()}; }
  // The newest event's timestamp (0 for an empty log): `--now end` analyzes as of it.
  int64_t newest_ms() const { return newest_ms_; }
  const LearnConfig& config() const { return config_; }
  const AutonomyTracker& autonomy() const { return autonomy_; }
  const CalibrationCurve& calibration() const { return calibration_; }
  const ApprovalLearner& approval() const { return approval_; }
  // seed 000 §6.4: whether to present two versions. REQUIRES: kApproval and kCalibration folded.
  CompareAdvice AdviseComparison(const CompareQuery& query) const;
  const GateLearner& gates() const { return gates_; }
  const PreferenceLearner& preferences() const { return preferences_; }
  const OutcomeLearner& outcomes() const { return outcomes_; }
  const ErrorAccumulator& errors() const { return errors_; }
  const ThemeEvidence& evidence() const { return evidence_; }
  const RuleBook& rule_book() const { return rules_; }
  const LoopTracker& loops() const { return loops_; }
  // seed 004: patterns learned from corrections, and their audits.
  const CorrectionPatternLearner& corrections() const { return corrections_; }
  const ReviewerProfiles& profiles() const { return profiles_; }
  const RecentReviews& recent() const { return recent_; }
  // What people told agents in their sessions (`prompt` events; folded with kRules).
  const SessionPrompts& session_prompts() const { return prompts_; }
  const CommunicationLearner& communication() const { return communication_; }
  const ScoreBands& score_bands() const { return score_bands_; }
  // Work not yet decided by a reviewer (the web review queue).
  const ReviewQueue& queue() const { return queue_; }
  // Every recorded work product (by id and version; not its path or session).
  const WorkRegistry& work_registry() const { return registry_; }
  // seed 001 automatic and low-friction signals.
  const SignalTracker& signals() const { return signals_; }
  // seed 001 tier 3: questions asked and answered, and what makes the next one (kProfiles).
  const QuestionTracker& questions() const { return questions_; }
  // The decided reviews of each task type, for the self-check (folded with Part::kRules).
  const ReviewHistory& review_history() const { return history_; }

 private:
  // Kpis(now_ms) with the rule candidates already computed.
  KpiResult Kpis(int64_t now_ms, const std::vector<RuleCandidate>& candidates) const;
  static std::vector<RuleIntroduction> RuleIntroductions(
      const std::vector<RuleCandidate>& candidates);
  std::vector<std::string> KnownNames(std::string_view what, int64_t now_ms) const;
  // A work product whose version names a commit, kept so a reward about that commit reaches it.
  struct CommitWork {
    std::string version, artifact_id, task_type;
    double confidence = 0;
    bool auto_approved = false;  // its autonomy sample let it skip review
    template <class Archive>
    void serialize(Archive& ar);
  };
  void AddCommitWork(const model::WorkView& work, bool auto_approved);
  // A `prompt`: its themes as evidence, its instruction as something the agent was told.
  void AddPrompt(const model::PromptView& prompt);
  const CommitWork* FindCommitWork(std::string_view commit) const;
  // Folds a reward into the signals and, through what it judges, into autonomy, calibration
  // and the outcomes' criteria and patterns (docs/analysis.md `signals`).
  void AddReward(const model::RewardView& reward);
  // learner_state.cc: what SaveState saves, in order.
  friend class cereal::access;
  template <class Archive>
  void serialize(Archive& ar);
  // The header fields that must match on load.
  uint64_t PartsBits() const;
  uint64_t ConfigFingerprint() const;

  LearnConfig config_;
  const text::ThemeTaxonomy& taxonomy_;
  Parts parts_;
  KindSet kinds_;
  WorkRegistry registry_;
  uint64_t events_ = 0;
  int64_t newest_ms_ = 0;
  std::array<uint64_t, model::kEventKindCount> by_kind_{};
  ApprovalLearner approval_;
  QuestionTracker questions_;
  GateLearner gates_;
  CalibrationCurve calibration_;
  DecisionSpeedLearner speed_;
  AutonomyTracker autonomy_;
  PreferenceLearner preferences_;
  CommunicationLearner communication_;
  OutcomeLearner outcomes_;
  ErrorAccumulator errors_;
  LoopTracker loops_;
  ThemeEvidence evidence_;
  RuleBook rules_;
  ScoreBands score_bands_;
  BiasWatch bias_;
  AgreementTracker agreement_;
  KpiTracker kpis_;
  CorrectionPatternLearner corrections_{CorrectionPatternConfig()};
  ReviewerProfiles profiles_;
  RecentReviews recent_;
  SessionPrompts prompts_;
  ReviewQueue queue_;
  SignalTracker signals_;
  ReviewHistory history_;
  // By the first 7 hex digits of the version, lowercase.
  std::unordered_map<std::string, std::vector<CommitWork>> commit_work_;
};

}  // namespace kaizen::learn
