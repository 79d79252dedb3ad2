#include "serve/tool_args.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/json_writer.h"
#include "model/json_access.h"
#include "model/limits.h"
#include "model/uuid.h"

namespace kaizen::serve {
namespace {

using model::FieldSpec;
using model::JsonType;
using model::ObjectSpec;
using simdjson::dom::element;
using simdjson::dom::element_type;

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

std::string Show(element v) { return ingest::ShowValue(v); }

std::string Bound(double d) {
  if (d == std::floor(d) && std::fabs(d) < 1e15) return fmt::format("{}", static_cast<int64_t>(d));
  return fmt::format("{}", d);
}

class Checker {
 public:
  std::vector<ingest::FieldError> errors;

  void Object(element v, const ObjectSpec& spec, const std::string& path) {
    simdjson::dom::object obj = v.get_object().value_unsafe();
    if (spec.open) return;
    std::vector<bool> seen(spec.fields.size());
    for (auto [key, child] : obj) {
      const std::string at = Join(path, key);
      const int index = spec.IndexOf(key);
      if (index < 0) {
        Error(at, fmt::format("unknown field (not part of {})", spec.name));
      } else if (seen[static_cast<size_t>(index)]) {
        Error(at, "duplicate key (each field may appear once)");
      } else {
        seen[static_cast<size_t>(index)] = true;
        Field(child, spec.fields[static_cast<size_t>(index)], at);
      }
    }
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      const FieldSpec& f = spec.fields[i];
      if (f.required && !seen[i]) {
        Error(Join(path, f.name), fmt::format("missing (required {})", JsonTypeName(f.type)));
      }
      if (const int other = f.alias_of.empty() ? -1 : spec.IndexOf(f.alias_of);
          seen[i] && other >= 0 && seen[static_cast<size_t>(other)]) {
        Error(Join(path, f.name), fmt::format("names the same as {}, given too (give one of them)",
                                              Join(path, f.alias_of)));
      }
    }
  }

 private:
  static std::string Join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }
  void Error(std::string path, std::string message) {
    errors.push_back({path.empty() ? "(arguments)" : std::move(path), std::move(message)});
  }

  void Field(element v, const FieldSpec& f, const std::string& path) {
    if (v.is_null()) {
      if (f.required) Error(path, fmt::format("is null (required {})", JsonTypeName(f.type)));
      return;
    }
    Value(v, f, f.type, path);
  }

  void Value(element v, const FieldSpec& f, JsonType type, const std::string& path) {
    switch (type) {
      case JsonType::kAny:
        return;
      case JsonType::kString:
      case JsonType::kIdentifier:
      case JsonType::kTimestamp:
      case JsonType::kUuid:
        String(v, f, type, path);
        return;
      case JsonType::kNumber:
      case JsonType::kInteger:
        Number(v, f, type, path);
        return;
      case JsonType::kBool:
        if (!v.is_bool()) Error(path, fmt::format("{} is not a boolean", Show(v)));
        return;
      case JsonType::kObject:
        if (!v.is_object()) {
          Error(path, fmt::format("{} is not an object", Show(v)));
        } else if (f.object != nullptr) {
          Object(v, *f.object, path);
        }
        return;
      case JsonType::kArray:
        Array(v, f, path);
        return;
    }
  }

  void String(element v, const FieldSpec& f, JsonType type, const std::string& path) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) {
      Error(path, fmt::format("{} is not a {}", Show(v),
                              type == JsonType::kString ? "string" : JsonTypeName(type)));
      return;
    }
    if (type == JsonType::kString) return;  // the caller caps the size it accepts
    if (s.empty()) {
      Error(path, fmt::format("\"\" must be a {}", JsonTypeName(type)));
      return;
    }
    if (s.size() > model::kMaxIdentifierBytes) {
      Error(path, fmt::format("a string of {} bytes is longer than the limit of {} bytes", s.size(),
                              model::kMaxIdentifierBytes));
      return;
    }
    if (!f.one_of.empty() && std::find(f.one_of.begin(), f.one_of.end(), s) == f.one_of.end()) {
      std::string values;
      for (std::string_view o : f.one_of) values += (values.empty() ? "" : ", ") + std::string(o);
      Error(path, fmt::format("{} is not one of {}", Show(v), values));
      return;
    }
    if (type == JsonType::kUuid && !model::ParseUuid(s)) {
      Error(path, fmt::format("{} is not a UUID (8-4-4-4-12 hex digits)", Show(v)));
    }
  }

  void Number(element v, const FieldSpec& f, JsonType type, const std::string& path) {
    double d = 0;
    if (v.type() == element_type::INT64) {
      d = static_cast<double>(v.get_int64().value_unsafe());
    } else if (v.type() == element_type::UINT64) {
      d = static_cast<double>(v.get_uint64().value_unsafe());
    } else if (v.type() == element_type::DOUBLE) {
      d = v.get_double().value_unsafe();
    } else {
      Error(path, fmt::format("{} is not a number", Show(v)));
      return;
    }
    if (type == JsonType::kInteger && std::floor(d) != d) {
      Error(path, fmt::format("{} is not an integer", Show(v)));
      return;
    }
    if (d < f.min || d > f.max) {
      if (std::isfinite(f.min) && std::isfinite(f.max)) {
        Error(path, fmt::format("{} is out of range {}..{}", Show(v), Bound(f.min), Bound(f.max)));
      } else if (d < f.min) {
        Error(path, fmt::format("{} is below the minimum {}", Show(v), Bound(f.min)));
      } else {
        Error(path, fmt::format("{} is above the maximum {}", Show(v), Bound(f.max)));
      }
    }
  }

  void Array(element v, const FieldSpec& f, const std::string& path) {
    simdjson::dom::array arr;
    if (v.get_array().get(arr) != simdjson::SUCCESS) {
      Error(path, fmt::format("{} is not an array", Show(v)));
      return;
    }
    if (arr.size() > model::kMaxArrayItems) {
      Error(path, fmt::format("an array of {} elements is longer than the limit of {}", arr.size(),
                              model::kMaxArrayItems));
      return;
    }
    if (f.nonempty && arr.size() == 0) {
      Error(path, "is empty (at least one element is required)");
      return;
    }
    FieldSpec item = f;
    item.min = -std::numeric_limits<double>::infinity();
    item.max = std::numeric_limits<double>::infinity();
    if (f.element == JsonType::kNumber || f.element == JsonType::kInteger) {
      item.min = f.min;
      item.max = f.max;
    }
    size_t i = 0;
    for (element x : arr) {
      const std::string at = fmt::format("{}[{}]", path, i++);
      if (x.is_null()) {
        Error(at, fmt::format("is null (required {})", JsonTypeName(f.element)));
        continue;
      }
      Value(x, item, f.element, at);
    }
  }
};

}  // namespace

std::string JsonSchemaOf(const model::ObjectSpec& spec, const SchemaOptions& options) {
  rapidjson::StringBuffer b;
  base::JsonWriter w(b);
  ObjectSchema(w, spec, options.omit, options.work_reference);
  return b.GetString();
}

std::vector<ingest::FieldError> CheckArguments(simdjson::dom::element args,
                                               const model::ObjectSpec& spec) {
  Checker c;
  if (!args.is_object()) {
    c.errors.push_back({"(arguments)", fmt::format("{} is not an object", Show(args))});
    return c.errors;
  }
  c.Object(args, spec, "");
  return c.errors;
}

}  // namespace kaizen::serve
