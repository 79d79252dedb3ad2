// The generic half of validation: the walk of a value against its schema table (model/schema.h),
// by which events and MCP tool arguments are both checked, apart from the rules of each kind
// (validate.cc) that only events have.
#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "base/json_escape.h"
#include "ingest/validate.h"
#include "ingest/validate_walk.h"
#include "model/json_access.h"
#include "model/limits.h"
#include "model/schema.h"
#include "model/timestamp.h"
#include "model/uuid.h"

namespace kaizen::ingest {
namespace {

using model::FieldSpec;
using model::JsonType;
using model::ObjectSpec;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

std::optional<double> NumberOf(element v) {
  switch (v.type()) {
    case element_type::INT64:
      return static_cast<double>(v.get_int64().value());
    case element_type::UINT64:
      return static_cast<double>(v.get_uint64().value());
    case element_type::DOUBLE:
      return v.get_double().value();
    default:
      return std::nullopt;
  }
}

std::string FormatBound(double d) {
  if (d == std::floor(d) && std::fabs(d) < 1e15) return fmt::format("{}", static_cast<int64_t>(d));
  return fmt::format("{}", d);
}

std::string JoinEnum(const std::vector<std::string_view>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) out += ", ";
    out += values[i];
  }
  return out;
}

}  // namespace

namespace detail {

void Validator::Object(element value, const ObjectSpec& spec, const Path& path) {
  object obj = value.get_object().value();
  if (spec.open) {
    CheckDuplicateKeys(obj, path);
    for (auto [key, item] : obj) Free(item, path.Member(key));
    return;
  }
  // One pass over the keys: each known field validated once; a second occurrence is a
  // duplicate key (JSON permits them, but which one wins is undefined across readers).
  const bool reference_form =
      event_rules_ && &spec == &model::WorkProductRefSpec() && IsReferenceForm(obj);
  const size_t first_error = errors.size();
  uint64_t seen = 0, duplicated = 0;
  size_t expected = 0;  // where the next field is, if the event follows the schema's order
  for (auto [key, child] : obj) {
    const int index = spec.IndexOf(key, expected);
    if (index >= 0) expected = static_cast<size_t>(index) + 1;
    const Path member = path.Member(key);
    if (index < 0) {
      Error(member, fmt::format("unknown field (not part of {})", spec.name));
    } else if (const uint64_t bit = uint64_t{1} << index; seen & bit) {
      if (!(duplicated & bit)) Error(member, "duplicate key (each field may appear once)");
      duplicated |= bit;
    } else {
      seen |= bit;
      Field(child, spec.fields[static_cast<size_t>(index)], member);
    }
  }
  // Missing fields are reported first, in the schema's order.
  std::vector<FieldError> missing;
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    if (!f.required || (seen & (uint64_t{1} << i)) || reference_form) continue;
    if (path.IsEvent() && f.name == "kind" && !kind_given) continue;
    missing.push_back({path.Member(f.name).Text(),
                       fmt::format("missing (required {})", model::JsonTypeName(f.type))});
  }
  errors.insert(errors.begin() + static_cast<long>(first_error), missing.begin(), missing.end());
  for (size_t i = 0; i < spec.fields.size(); ++i) {
    const FieldSpec& f = spec.fields[i];
    if (f.alias_of.empty() || !(seen & (uint64_t{1} << i))) continue;
    const int other = spec.IndexOf(f.alias_of);
    if (other >= 0 && (seen & (uint64_t{1} << other))) {
      Error(path.Member(f.name), fmt::format("names the same as {}, given too (give one of them)",
                                             path.Member(f.alias_of).Text()));
    }
  }
  if (reference_form) {
    WorkReference ref;
    ref.path = path.IsEvent() ? "workProduct" : path.Text();
    ref.id = obj["id"].get_string().value_unsafe();
    std::string_view version;
    if (obj["version"].get_string().get(version) == simdjson::SUCCESS) ref.version = version;
    facts_->references.push_back(ref);
  }
}

// JSON permits duplicate keys, but which one wins is undefined across readers, so the log
// refuses them, at every depth. Objects are small: a sorted copy on the stack, no allocation.
void Validator::CheckDuplicateKeys(object obj, const Path& path) {
  constexpr size_t kInline = 48;
  std::string_view inline_keys[kInline];
  std::vector<std::string_view> heap_keys;
  size_t n = 0;
  for (auto [key, v] : obj) {
    if (n < kInline) {
      inline_keys[n] = key;
    } else {
      if (heap_keys.empty()) heap_keys.assign(inline_keys, inline_keys + kInline);
      heap_keys.push_back(key);
    }
    ++n;
  }
  std::string_view* keys = heap_keys.empty() ? inline_keys : heap_keys.data();
  std::sort(keys, keys + n);
  for (size_t i = 1; i < n; ++i) {
    if (keys[i] == keys[i - 1] && (i == 1 || keys[i] != keys[i - 2])) {
      Error(path.Member(keys[i]), "duplicate key (each field may appear once)");
    }
  }
}

bool Validator::IsReferenceForm(object obj) {
  bool has_id = false;
  for (auto [key, v] : obj) {
    if (key == "id") {
      has_id = true;
    } else if (key != "version") {
      return false;
    }
  }
  return has_id;
}

bool Validator::CheckString(std::string_view s, const Path& path, size_t cap) {
  if (s.size() > cap) {
    Error(path,
          fmt::format("a string of {} bytes is longer than the limit of {} bytes", s.size(), cap));
    return false;
  }
  return true;
}

void Validator::Field(element v, const FieldSpec& f, const Path& path) {
  if (v.is_null()) {
    // null for an optional field means "not given"; for a required one it is missing.
    if (f.required) Error(path, fmt::format("is null (required {})", model::JsonTypeName(f.type)));
    return;
  }
  switch (f.type) {
    case JsonType::kAny:
      Free(v, path);
      return;
    case JsonType::kString:
    case JsonType::kIdentifier:
    case JsonType::kTimestamp:
    case JsonType::kUuid:
      String(v, f, path);
      return;
    case JsonType::kNumber:
    case JsonType::kInteger:
      Number(v, f, path);
      return;
    case JsonType::kBool:
      if (!v.is_bool()) Error(path, fmt::format("{} is not a boolean", Show(v)));
      return;
    case JsonType::kObject:
      if (!v.is_object()) {
        Error(path, fmt::format("{} is not an object", Show(v)));
        return;
      }
      if (f.nonempty && v.get_object().value().size() == 0) {
        Error(path, "is empty (at least one field is required)");
        return;
      }
      if (f.object == nullptr) {
        Free(v, path);  // an object of any shape
      } else {
        Object(v, *f.object, path);
      }
      return;
    case JsonType::kArray:
      Array(v, f, path);
      return;
  }
}

void Validator::String(element v, const FieldSpec& f, const Path& path) {
  std::string_view s;
  if (v.get_string().get(s) != simdjson::SUCCESS) {
    Error(path, fmt::format("{} is not a {}", Show(v),
                            f.type == JsonType::kString ? "string" : model::JsonTypeName(f.type)));
    return;
  }
  if (f.type == JsonType::kString) {
    CheckString(s, path, string_cap_);
    return;
  }
  if (s.empty()) {
    Error(path, fmt::format("\"\" must be a {}", model::JsonTypeName(f.type)));
    return;
  }
  if (!CheckString(s, path, model::kMaxIdentifierBytes)) return;
  if (base::HasControlByte(s)) {
    Error(path, fmt::format("{} contains a control character", Show(v)));
    return;
  }
  if (!f.one_of.empty() && std::find(f.one_of.begin(), f.one_of.end(), s) == f.one_of.end()) {
    Error(path, fmt::format("{} is not one of {}", Show(v), JoinEnum(f.one_of)));
    return;
  }
  if (f.type == JsonType::kUuid) {
    const std::optional<model::Uuid> id = model::ParseUuid(s);
    if (!id) {
      Error(path, fmt::format("{} is not a UUID (8-4-4-4-12 hex digits)", Show(v)));
    } else if (path.IsEventField("id")) {
      facts_->id = id;  // parsed once
    }
  }
  if (f.type == JsonType::kTimestamp) {
    auto ts = model::ParseTimestamp(s);
    if (ts.ok() && path.IsEventField("timestamp")) facts_->timestamp = *ts;
    if (!ts.ok()) {
      Error(path, fmt::format("{} {}", Show(v), ts.status().message()));
    } else if (!event_rules_) {
      return;
    } else if (ts->unix_ms < options_.min_unix_ms) {
      Error(path, fmt::format("{} is before 2000-01-01, not a sane time for an event", Show(v)));
    } else if (ts->unix_ms > options_.now_ms + options_.max_future_ms) {
      Error(path, fmt::format("{} is more than 24 hours in the future (now is {})", Show(v),
                              model::FormatUtc(options_.now_ms)));
    }
  }
}

void Validator::Number(element v, const FieldSpec& f, const Path& path) {
  auto d = NumberOf(v);
  if (!d) {
    Error(path, fmt::format("{} is not a number", Show(v)));
    return;
  }
  if (f.type == JsonType::kInteger && std::floor(*d) != *d) {
    Error(path, fmt::format("{} is not an integer", Show(v)));
    return;
  }
  if (*d < f.min || *d > f.max) {
    // Small ranges are part of the meaning (scores 1..10) and are stated whole; large upper
    // bounds only guard against absurd values, so the bound that was crossed is named.
    const bool meaningful_range = !std::isinf(f.min) && f.max < 1e6;
    if (meaningful_range) {
      Error(path, fmt::format("{} is out of range {}..{}", Show(v), FormatBound(f.min),
                              FormatBound(f.max)));
    } else if (*d < f.min) {
      Error(path, fmt::format("{} is below the minimum {}", Show(v), FormatBound(f.min)));
    } else {
      Error(path, fmt::format("{} is above the maximum {}", Show(v), FormatBound(f.max)));
    }
  }
}

void Validator::Array(element v, const FieldSpec& f, const Path& path) {
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
  FieldSpec element_spec;
  element_spec.name = f.name;
  element_spec.type = f.element;
  element_spec.required = true;
  element_spec.object = f.object;
  element_spec.one_of = f.one_of;
  if (f.element == JsonType::kNumber || f.element == JsonType::kInteger) {
    element_spec.min = f.min;
    element_spec.max = f.max;
  }
  size_t i = 0;
  for (element item : arr) Field(item, element_spec, path.Element(i++));
}

// Free-form values (correction.context, reward.raw_value): only the global caps apply.
void Validator::Free(element v, const Path& path) {
  switch (v.type()) {
    case element_type::STRING:
      CheckString(v.get_string().value(), path, string_cap_);
      return;
    case element_type::ARRAY:
      for (simdjson::dom::array a = v.get_array().value_unsafe(); element item : a)
        Free(item, path);  // elements of free-form arrays are named by the array
      return;
    case element_type::OBJECT: {
      simdjson::dom::object o = v.get_object().value_unsafe();
      CheckDuplicateKeys(o, path);
      for (auto [key, item] : o) Free(item, path.Member(key));
    }
      return;
    default:
      return;
  }
}

void ListUnlisted(Validator& v, std::string_view whole) {
  if (v.unlisted > 0) {
    v.errors.push_back({std::string(whole), fmt::format("and {} more error{} not listed",
                                                        v.unlisted, v.unlisted == 1 ? "" : "s")});
  }
}

}  // namespace detail

using detail::ListUnlisted;
using detail::Path;
using detail::Show;
using detail::Validator;

std::vector<FieldError> CheckObject(element value, const model::ObjectSpec& spec,
                                    std::string_view whole) {
  const ValidateOptions options;
  EventFacts facts;
  Validator v(options, &facts, whole, std::numeric_limits<size_t>::max(), false);
  if (!value.is_object()) {
    v.Error("", fmt::format("{} is not an object", Show(value)));
    return std::move(v.errors);
  }
  v.Object(value, spec, Path());
  ListUnlisted(v, whole);
  return std::move(v.errors);
}

}  // namespace kaizen::ingest
