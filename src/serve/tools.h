// The operations every agent-facing door offers (seed 000/001/002/003/004), defined once: `kaizen
// mcp` lists them as MCP tools and `kaizen serve` routes them under /v1/. Each takes one JSON
// object of arguments, checked against its input schema; a bad argument is a tool error that names
// the field path, the value and the rule, never a crash.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "ingest/validate.h"
#include "kaizen/status.h"
#include "serve/live_state.h"

namespace kaizen::serve {

struct ToolSpec {
  std::string name;          // record_feedback, get_context, ...
  std::string description;   // one or two sentences, for the agent choosing a tool
  std::string input_schema;  // a JSON Schema object (MCP `inputSchema`)
  bool writes = false;       // stores events: the HTTP door requires the bearer token
};

struct ToolResult {
  // A tool error (MCP `isError: true`, HTTP 4xx): bad arguments or a refused event. `errors`
  // then holds one entry per problem, with its field path.
  bool is_error = false;
  std::vector<ingest::FieldError> errors;
  std::string json;  // the structured result: one JSON object (MCP structuredContent, HTTP body)
  std::string text;  // the same for a person or a model to read (markdown or plain text)
};

// Submits one event of `kind` and hands back what became of it. A non-OK status is a system
// failure (nothing acknowledged), or Internal when the pipeline saw other than one line.
Status SubmitOne(LiveState* state, std::string_view event_json, model::EventKind kind,
                 LineOutcome* line);
// The one line's outcome of a submission of one event (SubmitOne, and the HTTP route that
// submits without waiting): Internal when the pipeline saw other than one line.
Status OneLine(SubmitResult submitted, LineOutcome* line);
// What both doors answer for a stored or skipped event: {"stored":true,"kind","id"}, or
// {"stored":false,"kind","skipped":true,"reason"} when the consent gate skipped it.
std::string StoredEventJson(model::EventKind kind, const LineOutcome& line);

class Tools {
 public:
  // REQUIRES: *state outlives the Tools.
  explicit Tools(LiveState* state);

  const std::vector<ToolSpec>& Specs() const;

  // Runs the tool `name` on `args_json` (an object). NotFound for an unknown tool (its message
  // names the known ones); a non-OK status other than that is a system failure (I/O: nothing
  // unacknowledged was stored). Bad arguments are an OK status with result->is_error.
  Status Call(std::string_view name, std::string_view args_json, ToolResult* result) const;

 private:
  LiveState* state_;
};

}  // namespace kaizen::serve
