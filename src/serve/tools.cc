#include "serve/tools.h"

#include <fmt/format.h>

#include "base/json_writer.h"
#include "model/json_access.h"
#include "model/limits.h"
#include "serve/field_errors_json.h"
#include "serve/tool_args.h"
#include "serve/tools_internal.h"

namespace kaizen::serve {
namespace internal {

void Refuse(std::string_view summary, std::vector<ingest::FieldError> errors, ToolResult* result) {
  result->is_error = true;
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "error");
  base::Str(w, summary);
  base::Key(w, "errors");
  WriteFieldErrors(w, errors);
  w.EndObject();
  result->json = b.GetString();
  std::string text(summary);
  for (const ingest::FieldError& e : errors) text += "\n" + e.ToString();
  result->text = std::move(text);
  result->errors = std::move(errors);
}

Status SubmitEvent(LiveState* state, std::string_view event_json, model::EventKind kind,
                   ToolResult* result) {
  LineOutcome line;
  KZ_RETURN_IF_ERROR(SubmitOne(state, event_json, kind, &line));
  if (!line.stored && !line.skipped) {
    Refuse(fmt::format("the {} event was refused", model::KindName(kind)), line.errors, result);
    return Status::Ok();
  }
  result->json = StoredEventJson(kind, line);
  result->text = line.stored ? fmt::format("Recorded {} event {}.", model::KindName(kind), line.id)
                             : fmt::format("Not recorded: {}.", line.skip_reason);
  return Status::Ok();
}

std::string_view ArgString(simdjson::dom::element args, std::string_view key) {
  return model::StringAt(args, key);
}

ToolDef Def(std::string name, std::string description, const model::ObjectSpec& args,
            Status (*run)(LiveState*, simdjson::dom::element, ToolResult*), bool writes) {
  ToolDef d;
  d.spec.name = std::move(name);
  d.spec.description = std::move(description);
  d.spec.writes = writes;
  d.args = &args;
  d.run = run;
  return d;
}

}  // namespace internal

namespace {

const std::vector<internal::ToolDef>& Defs() {
  static const std::vector<internal::ToolDef> defs = [] {
    std::vector<internal::ToolDef> all;
    for (auto group : {internal::RecordTools(), internal::ReadTools(), internal::CheckTools(),
                       internal::QuestionTools()}) {
      for (internal::ToolDef& d : group) {
        if (d.args != nullptr) d.spec.input_schema = JsonSchemaOf(*d.args);
        all.push_back(std::move(d));
      }
    }
    return all;
  }();
  return defs;
}

}  // namespace

Status SubmitOne(LiveState* state, std::string_view event_json, model::EventKind kind,
                 LineOutcome* line) {
  SubmitResult submitted;
  KZ_RETURN_IF_ERROR(state->Submit(event_json, kind, &submitted));
  return OneLine(std::move(submitted), line);
}

Status OneLine(SubmitResult submitted, LineOutcome* line) {
  if (submitted.lines.size() != 1) {
    return Internal(fmt::format("one event submitted, {} line results", submitted.lines.size()));
  }
  *line = std::move(submitted.lines[0]);
  return Status::Ok();
}

std::string StoredEventJson(model::EventKind kind, const LineOutcome& line) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  w.StartObject();
  base::Key(w, "stored");
  w.Bool(line.stored);
  base::Key(w, "kind");
  base::Str(w, model::KindName(kind));
  if (line.stored) {
    base::Key(w, "id");
    base::Str(w, line.id);
  } else {
    base::Key(w, "skipped");
    w.Bool(true);
    base::Key(w, "reason");
    base::Str(w, line.skip_reason);
  }
  w.EndObject();
  return b.GetString();
}

Tools::Tools(LiveState* state) : state_(state) {}

const std::vector<ToolSpec>& Tools::Specs() const {
  static const std::vector<ToolSpec> specs = [] {
    std::vector<ToolSpec> out;
    for (const internal::ToolDef& d : Defs()) out.push_back(d.spec);
    return out;
  }();
  return specs;
}

Status Tools::Call(std::string_view name, std::string_view args_json, ToolResult* result) const {
  *result = ToolResult();
  const internal::ToolDef* def = nullptr;
  std::string known;
  for (const internal::ToolDef& d : Defs()) {
    if (d.spec.name == name) def = &d;
    known += (known.empty() ? "" : ", ") + d.spec.name;
  }
  if (def == nullptr) {
    return NotFound(
        fmt::format("unknown tool {}; the tools are {}", model::QuoteForMessage(name), known));
  }
  // No arguments at all means an empty object (MCP makes `arguments` optional).
  if (args_json.find_first_not_of(" \t\r\n") == std::string_view::npos) args_json = "{}";
  if (args_json.size() > model::kMaxStoredEventBytes) {
    internal::Refuse("bad arguments",
                     {{"(arguments)", fmt::format("{} bytes are over the limit of {} bytes",
                                                  args_json.size(), model::kMaxStoredEventBytes)}},
                     result);
    return Status::Ok();
  }
  simdjson::dom::parser parser;
  simdjson::padded_string padded(args_json);
  simdjson::dom::element args;
  if (auto err = parser.parse(padded).get(args); err != simdjson::SUCCESS) {
    internal::Refuse("bad arguments", {{"(arguments)", ingest::DescribeParseError(err, args_json)}},
                     result);
    return Status::Ok();
  }
  std::vector<ingest::FieldError> errors;
  if (def->args != nullptr) {
    errors = CheckArguments(args, *def->args);
  } else if (!args.is_object()) {
    errors = CheckArguments(args, model::SchemaFor(model::EventKind::kAdmin));  // "not an object"
  }
  if (!errors.empty()) {
    internal::Refuse(fmt::format("bad arguments for {}", name), std::move(errors), result);
    return Status::Ok();
  }
  return def->run(state_, args, result);
}

}  // namespace kaizen::serve
