// The names of the fields of events, as types: every producer of an event (the doors, the hooks,
// the signals, the simulators) writes a field through one of these, never a string literal, so a
// field the schema does not know cannot be written by a typo. EventField's names are exactly the
// schema's (model/schema.cc; a test holds the two lists equal). ContextField names the keys kaizen
// writes inside the open objects the schema leaves free (a reward's or a correction's `context`, a
// prompt's) and reads back: the learner groups by them, the review page shows them.
#pragma once

#include <string_view>

namespace kaizen::model {

class FieldName {
 public:
  constexpr std::string_view view() const { return name_; }

 private:
  constexpr explicit FieldName(std::string_view name) : name_(name) {}
  std::string_view name_;
  friend struct EventField;
  friend struct ContextField;
};

// Every field name of model/schema.cc, of every kind and nested object, in alphabetical order.
// clang-format off
#define KAIZEN_EVENT_FIELDS(X) \
  X(action) X(_actionableItems) X(agent) X(annotations) X(baseline_seconds) X(bead_id) \
  X(blockers) X(bubaConfidence) X(bubaScorePrediction) X(_category) X(category) X(code_quality) \
  X(code_quality_score) X(comment) X(commit) X(commit_hash) X(compareWith) X(comparison) \
  X(complexity) X(concurrentModals) X(confidence) X(context) X(corrected) X(correction_method) \
  X(correction_type) X(cost) X(criteria) X(dayOfWeek) X(decision) X(delay_days) X(description) \
  X(deviceType) X(diff) X(dimension) X(dimensions) X(disliked) X(doc_coverage) X(documentation) \
  X(duplications) X(duration_ms) X(elapsed_seconds) X(error_count) X(error_type) X(expanded) \
  X(experimental) X(_extractedThemes) X(failure_details) X(failure_mode) X(feedback) \
  X(fieldsModified) X(file) X(files_touched) X(forReview) X(freeText) X(generalNotes) \
  X(generationContext) X(generationTimeMs) X(id) X(_instruction) X(iteration) X(iterationCount) \
  X(_judgement) X(kind) X(learning_mode) X(level) X(liked) X(lineEnd) X(lineStart) X(loop_id) \
  X(mcpServerType) X(memorySnapshot) X(message) X(meta) X(metrics) X(minutes) X(modalId) \
  X(modalVersion) X(modelUsed) X(name) X(needsExpertReview) X(note) X(optionA) X(optionB) \
  X(original) X(overall_quality) X(override) X(path) X(patterns) X(pipelineStage) \
  X(_predictionDelta) X(preferenceStrength) X(preferred) X(presentationFormat) X(priority) \
  X(project) X(promptHash) X(_proposed_confidence) X(_proposed_type) X(question) X(question_id) \
  X(raw_value) X(reason) X(region) X(repository) X(requiredReviews) X(resolves) X(retry_count) \
  X(reviewerId) X(revisits) X(rule_id) X(score) X(scores) X(scrollDepth) X(sections) \
  X(security_score) X(selector) X(_sentiment) X(session_id) X(sessionFatigue) X(sessionId) \
  X(severity) X(signal_id) X(signal_type) X(signal_value) X(source) X(stack_trace) X(strategy) \
  X(success) X(suggestions) X(summary) X(target) X(task_id) X(test_count) X(test_coverage) \
  X(tests_passing) X(text) X(timeOfDay) X(timestamp) X(timeToDecisionMs) \
  X(timeToFirstInteractionMs) X(tool_name) X(type) X(type_coverage) X(type_errors) X(type_safety) \
  X(unmeasured) X(user_id) X(verdict) X(version) X(visibleMs) X(vulnerabilities) X(weight) \
  X(winner) X(work_id) X(work_version) X(workProduct) X(wouldDelegateToAI)
// clang-format on

// Keys inside open objects that kaizen's own producers write.
// clang-format off
#define KAIZEN_CONTEXT_FIELDS(X) \
  X(after) X(after_format) X(after_rate) X(agent_commit) X(agent_email) X(asked) X(before) \
  X(before_format) X(before_rate) X(commits) X(cwd) X(detector) X(document_id) X(errors) \
  X(exit_code) X(failures) X(human_commit) X(line_end) X(line_start) X(merge_commit) X(model) \
  X(new_line_end) X(new_line_start) X(operation) X(prompt_template) X(pull_request) X(repo) \
  X(report) X(report_format) X(section) X(skipped) X(task_type) X(tests) X(transcriptPath) X(url) \
  X(via)
// clang-format on

// Named as they are spelled in the JSON (seed 000's camelCase, seeds 001-004's snake_case), so a
// search for a field finds its constant: EventField::reviewerId, EventField::session_id.
struct EventField {
#define KAIZEN_FIELD_NAME(name) static constexpr FieldName name{#name};
  KAIZEN_EVENT_FIELDS(KAIZEN_FIELD_NAME)
};

struct ContextField {
  KAIZEN_CONTEXT_FIELDS(KAIZEN_FIELD_NAME)
#undef KAIZEN_FIELD_NAME
};

}  // namespace kaizen::model
