// A tool's arguments described once, as a model::ObjectSpec (the table the event validator walks):
// the same table gives the MCP `inputSchema` (JSON Schema) and checks the arguments of a call,
// with the event validator's wording: `dimensions[1]: "speed" is not one of code-quality, ...`.
#pragma once

#include <simdjson.h>

#include <string>
#include <vector>

#include "ingest/validate.h"
#include "model/schema.h"

namespace kaizen::serve {

// One field of a tool's arguments (model::FieldSpec is an aggregate; naming only these two
// members keeps -Wmissing-field-initializers quiet).
inline model::FieldSpec ArgField(std::string_view name, model::JsonType type) {
  model::FieldSpec f;
  f.name = name;
  f.type = type;
  return f;
}

struct SchemaOptions {
  // Leave out these top-level fields (`kind`: the tool implies it) and every field whose name
  // starts with `_` (computed at ingest).
  std::vector<std::string_view> omit;
  // A `workProduct` (and comparison option) may also be the reference form {"id"[, "version"]}
  // naming a recorded work event: true for feedback, false for work.
  bool work_reference = false;
};

// The JSON Schema (draft 2020-12 subset: type, properties, required, additionalProperties, enum,
// minimum, maximum, minLength, maxLength, items, minItems, format, anyOf, description) of `spec`.
std::string JsonSchemaOf(const model::ObjectSpec& spec, const SchemaOptions& options = {});

// Checks `args` against `spec` by the event validator's walk (ingest::CheckObject): every problem,
// paths as it writes them (`files[0].path`), "(arguments)" for the whole object.
std::vector<ingest::FieldError> CheckArguments(simdjson::dom::element args,
                                               const model::ObjectSpec& spec);

}  // namespace kaizen::serve
