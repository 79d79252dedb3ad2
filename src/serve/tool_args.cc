#include "serve/tool_args.h"

#include <algorithm>
#include <cmath>

#include "base/json_writer.h"
#include "model/limits.h"

namespace kaizen::serve {
namespace {

using model::FieldSpec;
using model::JsonType;
using model::ObjectSpec;

bool Omitted(std::string_view name, const std::vector<std::string_view>& omit) {
  return (!name.empty() && name[0] == '_') ||
         std::find(omit.begin(), omit.end(), name) != omit.end();
}

void ObjectSchema(base::JsonWriter& w, const ObjectSpec& spec,
                  const std::vector<std::string_view>& omit, bool work_reference);

// The reference form of a work product: {"id"[, "version"]} naming a recorded work event.
void ReferenceSchema(base::JsonWriter& w) {
  w.StartObject();
  base::Key(w, "type");
  base::Str(w, "object");
  base::Key(w, "description");
  base::Str(w, "a recorded work event by id (the latest version when version is absent)");
  base::Key(w, "properties");
  w.StartObject();
  for (std::string_view k : {"id", "version"}) {
    base::Key(w, k);
    w.StartObject();
    base::Key(w, "type");
    base::Str(w, "string");
    base::Key(w, "minLength");
    w.Int(1);
    w.EndObject();
  }
  w.EndObject();
  base::Key(w, "required");
  w.StartArray();
  base::Str(w, "id");
  w.EndArray();
  base::Key(w, "additionalProperties");
  w.Bool(false);
  w.EndObject();
}

void TypeSchema(base::JsonWriter& w, const FieldSpec& f, JsonType type, bool work_reference) {
  auto type_is = [&](std::string_view t) {
    base::Key(w, "type");
    base::Str(w, t);
  };
  switch (type) {
    case JsonType::kString:
      type_is("string");
      break;
    case JsonType::kIdentifier:
      type_is("string");
      if (f.one_of.empty()) {
        base::Key(w, "minLength");
        w.Int(1);
        base::Key(w, "maxLength");
        w.Uint64(model::kMaxIdentifierBytes);
      } else {
        base::Key(w, "enum");
        w.StartArray();
        for (std::string_view v : f.one_of) base::Str(w, v);
        w.EndArray();
      }
      break;
    case JsonType::kTimestamp:
      type_is("string");
      base::Key(w, "format");
      base::Str(w, "date-time");
      break;
    case JsonType::kUuid:
      type_is("string");
      base::Key(w, "format");
      base::Str(w, "uuid");
      break;
    case JsonType::kNumber:
    case JsonType::kInteger:
      type_is(type == JsonType::kInteger ? "integer" : "number");
      if (std::isfinite(f.min)) {
        base::Key(w, "minimum");
        base::Num(w, f.min);
      }
      if (std::isfinite(f.max)) {
        base::Key(w, "maximum");
        base::Num(w, f.max);
      }
      break;
    case JsonType::kBool:
      type_is("boolean");
      break;
    case JsonType::kObject:
      if (f.object == nullptr || f.object->open) {
        type_is("object");
      }
      break;
    case JsonType::kArray:
      type_is("array");
      if (f.nonempty) {
        base::Key(w, "minItems");
        w.Int(1);
      }
      base::Key(w, "maxItems");
      w.Uint64(model::kMaxArrayItems);
      base::Key(w, "items");
      if (f.element == JsonType::kObject && f.object != nullptr) {
        ObjectSchema(w, *f.object, {}, work_reference);
      } else {
        w.StartObject();
        FieldSpec item = f;
        item.nonempty = false;
        item.doc = {};
        TypeSchema(w, item, f.element, work_reference);
        w.EndObject();
      }
      break;
    case JsonType::kAny:
      break;
  }
}

void FieldSchema(base::JsonWriter& w, const FieldSpec& f, bool work_reference) {
  if (f.type == JsonType::kObject && f.object != nullptr && !f.object->open) {
    if (work_reference && f.object == &model::WorkProductRefSpec()) {
      w.StartObject();
      base::Key(w, "anyOf");
      w.StartArray();
      ObjectSchema(w, *f.object, {}, work_reference);
      ReferenceSchema(w);
      w.EndArray();
      w.EndObject();
    } else {
      ObjectSchema(w, *f.object, {}, work_reference);
    }
    return;
  }
  w.StartObject();
  TypeSchema(w, f, f.type, work_reference);
  if (!f.doc.empty()) {
    base::Key(w, "description");
    base::Str(w, f.doc);
  }
  w.EndObject();
}

void ObjectSchema(base::JsonWriter& w, const ObjectSpec& spec,
                  const std::vector<std::string_view>& omit, bool work_reference) {
  w.StartObject();
  base::Key(w, "type");
  base::Str(w, "object");
  if (spec.open) {
    w.EndObject();
    return;
  }
  base::Key(w, "properties");
  w.StartObject();
  std::vector<std::string_view> required;
  for (const FieldSpec& f : spec.fields) {
    if (Omitted(f.name, omit)) continue;
    base::Key(w, f.name);
    FieldSchema(w, f, work_reference);
    if (f.required) required.push_back(f.name);
  }
  w.EndObject();
  if (!required.empty()) {
    base::Key(w, "required");
    w.StartArray();
    for (std::string_view r : required) base::Str(w, r);
    w.EndArray();
  }
  base::Key(w, "additionalProperties");
  w.Bool(false);
  w.EndObject();
}

}  // namespace

std::string JsonSchemaOf(const model::ObjectSpec& spec, const SchemaOptions& options) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  ObjectSchema(w, spec, options.omit, options.work_reference);
  return b.GetString();
}

std::vector<ingest::FieldError> CheckArguments(simdjson::dom::element args,
                                               const model::ObjectSpec& spec) {
  return ingest::CheckObject(args, spec, "(arguments)");
}

}  // namespace kaizen::serve
