// The tools that store events: each takes the event itself as its arguments (the event model's
// fields, docs/event-model.md; `kind` implied by the tool) and hands it to the one ingest
// pipeline, so a refused event comes back with ingest's own field errors
// (`scores[0].score: 11 is out of range 1..10`).
#include <fmt/format.h>

#include "base/json_writer.h"
#include "model/uuid.h"
#include "serve/tool_args.h"
#include "serve/tools_internal.h"

namespace kaizen::serve::internal {
namespace {

using model::EventKind;
using model::FieldSpec;
using model::JsonType;

Status Record(LiveState* state, simdjson::dom::element args, EventKind kind, ToolResult* result) {
  // One line: the pipeline reads JSONL, and the arguments may have come pretty-printed.
  return SubmitEvent(state, simdjson::to_string(args), kind, result);
}

template <EventKind kKind>
Status RecordKind(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  return Record(state, args, kKind, result);
}

ToolDef RecordTool(std::string name, EventKind kind, std::string description) {
  ToolDef d;
  d.spec.name = std::move(name);
  d.spec.description = std::move(description);
  d.spec.writes = true;
  SchemaOptions options;
  options.omit = {"kind"};
  options.work_reference = kind == EventKind::kFeedback;
  d.spec.input_schema = JsonSchemaOf(model::SchemaFor(kind), options);
  switch (kind) {
    case EventKind::kFeedback:
      d.run = RecordKind<EventKind::kFeedback>;
      break;
    case EventKind::kWork:
      d.run = RecordKind<EventKind::kWork>;
      break;
    case EventKind::kOutcome:
      d.run = RecordKind<EventKind::kOutcome>;
      break;
    case EventKind::kError:
      d.run = RecordKind<EventKind::kError>;
      break;
    case EventKind::kReward:
      d.run = RecordKind<EventKind::kReward>;
      break;
    case EventKind::kCorrection:
      d.run = RecordKind<EventKind::kCorrection>;
      break;
    default:
      d.run = RecordKind<EventKind::kLoop>;
      break;
  }
  return d;
}

const model::ObjectSpec& ResolveErrorArgs() {
  static const model::ObjectSpec spec{
      "resolve_error arguments",
      {ArgField("bead_id", JsonType::kIdentifier)
           .Req()
           .Doc("the subtask (bead) the error belongs to"),
       ArgField("error_id", JsonType::kUuid)
           .Req()
           .Doc("the id record_error returned for the error now resolved"),
       ArgField("resolution", JsonType::kString).Doc("how it was resolved, for the log")}};
  return spec;
}

// seed 002 ErrorAccumulator resolveError(): an `error` event whose `resolves` names the error.
Status ResolveError(LiveState* state, simdjson::dom::element args, ToolResult* result) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "bead_id");
  base::Str(w, ArgString(args, "bead_id"));
  base::Key(w, "resolves");
  base::Str(w, ArgString(args, "error_id"));
  // The resolution goes into `context`: the error model has no field of its own for it, and
  // `message` reads as the error's own text (a resolving event is not an error itself).
  if (std::string_view resolution = ArgString(args, "resolution"); !resolution.empty()) {
    base::Key(w, "context");
    base::Str(w, resolution);
  }
  w.EndObject();
  return SubmitEvent(state, b.GetString(), EventKind::kError, result);
}

}  // namespace

std::vector<ToolDef> RecordTools() {
  std::vector<ToolDef> tools;
  tools.push_back(RecordTool(
      "record_feedback", EventKind::kFeedback,
      "Record a reviewer's feedback on a work product (seed 000 FeedbackEvent): decision, "
      "1-10 scores per quality dimension, free text, annotations, confidence. workProduct may "
      "be {\"id\"} of a work product recorded with record_work. Returns the stored event id."));
  tools.push_back(RecordTool(
      "record_work", EventKind::kWork,
      "Record a work product you submit for review, with your predicted score "
      "(bubaScorePrediction) and confidence, before the review arrives; feedback can then "
      "reference it by id. The pair (workProduct.id, version) is recorded once."));
  tools.push_back(RecordTool(
      "record_outcome", EventKind::kOutcome,
      "Record how a subtask went after it finished (seed 002 swarm_record_outcome): bead_id, "
      "duration_ms, error_count, retry_count, success, files_touched, criteria, strategy, "
      "failure_mode, failure_details. kaizen learns which strategies work from these."));
  tools.push_back(RecordTool(
      "record_error", EventKind::kError,
      "Record an error met while working on a subtask (seed 002 ErrorAccumulator): bead_id, "
      "error_type (validation, timeout, conflict, tool_failure, unknown), message, stack_trace, "
      "tool_name. Returns the error's id, for resolve_error."));
  {
    ToolDef d;
    d.spec.name = "resolve_error";
    d.spec.description =
        "Mark an error recorded with record_error as resolved (by the id it returned), so "
        "get_error_context stops listing it as open.";
    d.spec.writes = true;
    d.args = &ResolveErrorArgs();
    d.run = ResolveError;
    tools.push_back(std::move(d));
  }
  tools.push_back(RecordTool(
      "log_correction", EventKind::kCorrection,
      "Log a human correction of your output (seed 004): the original and the corrected text, "
      "session_id, optionally correction_type and context. Repeated corrections become "
      "patterns that validate_output enforces."));
  tools.push_back(RecordTool(
      "record_reward", EventKind::kReward,
      "Record a reward signal (seed 001 RewardSignal): signal_type (e.g. ci_result, "
      "coverage_delta, satisfaction), source (automatic, human, agent) and signal_value 0..1, "
      "or raw_value for the types kaizen normalizes."));
  return tools;
}

}  // namespace kaizen::serve::internal
