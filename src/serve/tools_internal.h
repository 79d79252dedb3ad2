// How serve/tools.cc's table is put together: each tool file (tool_record.cc, tool_read.cc,
// tool_check.cc) defines its tools as ToolDefs. Internal to the serve layer.
#pragma once

#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/validate.h"
#include "kaizen/status.h"
#include "model/event_kind.h"
#include "model/schema.h"
#include "serve/live_state.h"
#include "serve/tools.h"

namespace kaizen::serve::internal {

struct ToolDef {
  ToolSpec spec;
  // The arguments' shape: checked (CheckArguments) before `run` is called. nullptr for a tool
  // whose arguments are an event that the ingest pipeline checks itself.
  const model::ObjectSpec* args = nullptr;
  // REQUIRES: `args` is an object that passed the check. A non-OK status is a system failure.
  Status (*run)(LiveState* state, simdjson::dom::element args, ToolResult* result) = nullptr;
};

// A tool whose arguments `args` checks, run by `run`; `writes`: it stores events.
ToolDef Def(std::string name, std::string description, const model::ObjectSpec& args,
            Status (*run)(LiveState*, simdjson::dom::element, ToolResult*), bool writes = false);

std::vector<ToolDef> RecordTools();    // record_*, log_correction, resolve_error
std::vector<ToolDef> ReadTools();      // get_error_context, get_context, get_hints, should_review,
                                       // should_compare, loop_decide
std::vector<ToolDef> CheckTools();     // self_check, validate_output
std::vector<ToolDef> QuestionTools();  // next_question, record_answer

// A tool error: `errors` with their paths, the text one line per error under `summary`.
void Refuse(std::string_view summary, std::vector<ingest::FieldError> errors, ToolResult* result);

// Stores one event of `kind` through LiveState::Submit. Stored: {"stored":true,"id","kind"};
// skipped by the consent gate: {"stored":false,"skipped":true,"reason"}; refused: a tool error
// carrying ingest's field errors.
Status SubmitEvent(LiveState* state, std::string_view event_json, model::EventKind kind,
                   ToolResult* result);

// The string at `key` of a checked argument object ("" when absent or null).
std::string_view ArgString(simdjson::dom::element args, std::string_view key);

}  // namespace kaizen::serve::internal
