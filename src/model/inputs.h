// What the learning rules read: plain views of stored events, their work product resolved.
// The views borrow from the parsed document; they are valid only during one Add() call, so a
// rule that keeps a string copies (or interns) it. No simdjson here: rules are testable with
// hand-built views.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kaizen::model {

inline constexpr int64_t kMsPerDay = 86'400'000;

// The UTC day number (days since 1970-01-01) of an instant; floors before 1970 too.
inline constexpr int64_t DayOf(int64_t ms) { return ms / kMsPerDay - (ms % kMsPerDay < 0 ? 1 : 0); }

enum class Decision : uint8_t { kNone, kApproved, kRejected, kNeedsWork, kDeferred };
enum class Severity : uint8_t { kNone, kMinor, kModerate, kMajor, kCritical };
enum class ConfidenceLevel : uint8_t {
  kNone,
  kVeryUnsure,
  kSomewhatUnsure,
  kFairlySure,
  kVerySure
};
enum class Override : uint8_t { kNone, kStrong, kWeak };

// A work product as the agent submitted it (a `work` event, or the full WorkProductRef a
// feedback carried inline).
struct WorkView {
  int64_t at_ms = 0;
  std::string_view event_id;     // the `work` event's id; empty for an inline ref
  std::string_view artifact_id;  // workProduct.id
  std::string_view version;
  std::string_view type;         // workProduct.type
  std::string_view server_type;  // mcpServerType; empty when absent
  std::string_view stage;        // pipelineStage; empty when absent
  std::string_view session_id;
  std::string_view model;  // generationContext.modelUsed
  std::string_view summary;
  std::string_view path;      // workProduct.path; empty when absent (not kept by the registry)
  std::string_view priority;  // low | normal | high | urgent; empty when absent (ditto)
  // The agent's change (kaizen extensions; not kept by the registry either): workProduct.commit,
  // a commit or BASE..HEAD, and workProduct.diff, a recorded unified diff.
  std::string_view commit, diff;
  std::string_view project;       // repository, as given (model::ProjectKey names it)
  std::string_view compare_with;  // compareWith: the version this is an alternative to (§6.4)
  bool for_review = true;         // forReview: false for a prediction only (kaizen check)
  int64_t required_reviews = 1;   // requiredReviews: distinct reviewers who must decide it
  double confidence = 0;          // bubaConfidence 0..1
  std::optional<double> score_prediction;  // bubaScorePrediction 1..10
  int64_t iteration_count = 0;
  bool experimental = false;  // kaizen extension: spent from the exploration budget (§9.4)
};

struct ScoreView {
  std::string_view dimension;
  double score = 0;  // 1..10
  // Where `dimension` stands in model::QualityDimensions(), -1 for another name, or kNotLooked.
  // EventReader looks on its own thread, so the fold does not compare names; read it through
  // QualityIndex (quality_index.h), which looks when nobody did.
  static constexpr int8_t kNotLooked = -2;
  int8_t quality_index = kNotLooked;
};

struct AnnotationView {
  std::string_view type;      // praise | criticism | question | suggestion
  std::string_view severity;  // nit | minor | major | critical | empty
  std::string_view category;
  std::string_view text;
};

// One summary section the review page showed (meta.sections, seed 000 §3.5 detail level).
struct SectionView {
  std::string_view name;
  double visible_ms = 0;
  bool expanded = false;
};

struct DimensionWinnerView {
  std::string_view dimension;
  char winner = 'T';  // 'A', 'B' or 'T' (tie)
};

struct ComparisonView {
  WorkView option_a, option_b;
  std::string_view preferred;  // A | B | neither | both-good
  std::string_view strength;   // slight | moderate | strong | overwhelming
  std::vector<DimensionWinnerView> dimensions;
};

// A `feedback` event.
struct ReviewView {
  int64_t at_ms = 0;
  std::string_view id, session_id, modal_id, reviewer, stage;
  std::string_view server_type;  // mcpServerType of the feedback, else of its work product
  std::string_view task_type;    // server_type when present, else the work product's type
  std::string_view project;      // repository of the feedback, else of its work; as given
  WorkView work;                 // resolved through the `work` event when given by reference
  bool work_known = false;       // false when a reference could not be resolved

  Decision decision = Decision::kNone;
  Severity severity = Severity::kNone;
  std::string_view reason;
  std::vector<std::string_view> blockers, suggestions;
  std::vector<ScoreView> scores;

  bool has_free_text = false;
  std::vector<std::string_view> themes;  // freeText._extractedThemes
  std::optional<double> sentiment;       // freeText._sentiment
  size_t free_text_chars = 0;            // liked + disliked + generalNotes
  // The reviewer's words, for the examples a rule quotes (views valid during one Add()).
  std::string_view liked, disliked;

  std::optional<ComparisonView> comparison;
  std::vector<AnnotationView> annotations;

  ConfidenceLevel confidence = ConfidenceLevel::kNone;
  bool would_delegate = false, needs_expert = false;
  Override override_weight = Override::kNone;

  // meta
  double time_to_decision_ms = 0;
  // meta.unmeasured lists timeToDecisionMs (kaizen review with decision flags): nobody timed the
  // decision, so it counts in no speed, fatigue or time-to-decision figure.
  bool decision_untimed = false;
  std::optional<double> time_to_first_interaction_ms;
  size_t fields_modified = 0;
  std::optional<double> scroll_depth;
  int64_t revisits = 0;
  std::string_view device, time_of_day, day_of_week, presentation_format;
  int64_t concurrent_modals = 0;
  int64_t session_fatigue = 0;             // the Nth review in its session (1-based)
  std::vector<SectionView> sections;       // meta.sections
  std::optional<double> prediction_delta;  // _predictionDelta: mean score - bubaScorePrediction
};

struct OutcomeView {
  int64_t at_ms = 0;
  std::string_view id, bead_id, strategy, failure_mode, failure_details, description;
  double duration_ms = 0;
  int64_t error_count = 0, retry_count = 0;
  bool success = false;
  std::vector<std::string_view> files_touched, criteria, patterns;
};

struct ErrorView {
  int64_t at_ms = 0;
  std::string_view id, bead_id, error_type, message, stack_trace, tool_name, context;
  std::string_view resolves;  // non-empty: this event marks that error resolved
};

struct RewardView {
  int64_t at_ms = 0;
  std::string_view id, signal_type, source, task_id, session_id, commit_hash;
  double signal_value = 0;
  std::optional<double> raw_number;  // raw_value when it is a number (seconds, a rating, a delta)
  std::optional<double> confidence;
  int64_t delay_days = 0;
  // context (open in the schema): where the signal came from. `kaizen git scan` writes
  // `commits` (the agent's commit first) and `detector`; `task_type` names the task type the
  // signal judges when no recorded work product links it.
  std::string_view agent_commit;  // context.commits[0]
  std::string_view detector;      // context.detector
  std::string_view agent;         // context.agent: whose work the signal judges
  std::string_view context_task_type;
};

struct CorrectionView {
  int64_t at_ms = 0;
  std::string_view id, session_id, correction_type, category, original, corrected, user_id, method;
  std::string_view project;  // context.project; empty when absent
  std::string_view file;     // context.file (the edited file, code or prose); empty when absent
};

// A person's words to an agent in its session that judge its last turn (`prompt`).
struct PromptView {
  int64_t at_ms = 0;
  std::string_view id, session_id, text, agent, project;
  std::string_view judgement, instruction;  // _judgement, _instruction
  std::vector<std::string_view> themes;     // _extractedThemes
  double sentiment = 0;
};

// seed 003 QualityMetrics of one iteration; absent metrics are nullopt.
struct LoopMetricsView {
  std::optional<double> test_coverage, code_quality_score, security_score, type_coverage,
      doc_coverage, overall_quality, duplications;
  std::optional<bool> tests_passing;
  std::optional<int64_t> test_count, complexity, vulnerabilities, type_errors;
};

struct LoopView {
  int64_t at_ms = 0;
  std::string_view id, loop_id, feedback;
  int64_t iteration = 0;
  LoopMetricsView metrics;
  double cost = 0, elapsed_seconds = 0;
};

struct AdminView {
  int64_t at_ms = 0;
  std::string_view id, action, rule_id, verdict, user_id, session_id, reviewer, note;
  std::string_view work_id, work_version;  // dismiss, submit, reserve, release
  std::string_view task_id, question;      // skip, ask, answer
  std::string_view question_id;            // ask, answer
  std::optional<bool> learning_mode;
  int64_t minutes = 0;  // reserve: how long (0: absent)
};

}  // namespace kaizen::model
