// The shape of every event kind, as data: field names are the seeds' own (camelCase for seed 000,
// snake_case for seeds 001/002/003/004). The validator walks a parsed event against these specs;
// docs/event-model.md is generated from the same tables (`kaizen schema --markdown`).
#pragma once

#include <limits>
#include <string_view>
#include <vector>

#include "model/event_kind.h"

namespace kaizen::model {

enum class JsonType : uint8_t {
  kString,
  kIdentifier,  // a non-empty string of at most kMaxIdentifierBytes, no control characters
  kNumber,      // finite; integers and decimals
  kInteger,     // a number with no fractional part
  kBool,
  kObject,
  kArray,
  kAny,        // any JSON value (e.g. a reward's raw_value)
  kTimestamp,  // ISO 8601 with a zone, e.g. 2025-07-11T09:30:00Z or ...+02:00
  kUuid,       // 8-4-4-4-12 hex
};
std::string_view JsonTypeName(JsonType type);

struct ObjectSpec;

struct FieldSpec {
  std::string_view name;
  JsonType type = JsonType::kString;
  bool required = false;
  std::vector<std::string_view> one_of;  // allowed values of a string field
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  const ObjectSpec* object = nullptr;  // the shape of an object, or of each object in an array
  JsonType element = JsonType::kAny;   // the type of each array element
  bool nonempty = false;               // arrays and objects: at least one element
  std::string_view doc;
  // Another name of the field `alias_of` of the same object: readers take either, an object
  // giving both is refused.
  std::string_view alias_of;

  FieldSpec Req() const {
    FieldSpec f = *this;
    f.required = true;
    return f;
  }
  FieldSpec OneOf(std::vector<std::string_view> v) const {
    FieldSpec f = *this;
    f.one_of = std::move(v);
    return f;
  }
  FieldSpec AliasOf(std::string_view field) const {
    FieldSpec f = *this;
    f.alias_of = field;
    return f;
  }
  FieldSpec Range(double lo, double hi) const {
    FieldSpec f = *this;
    f.min = lo;
    f.max = hi;
    return f;
  }
  FieldSpec NonEmpty() const {
    FieldSpec f = *this;
    f.nonempty = true;
    return f;
  }
  FieldSpec Doc(std::string_view d) const {
    FieldSpec f = *this;
    f.doc = d;
    return f;
  }
};

struct ObjectSpec {
  std::string_view name;
  std::vector<FieldSpec> fields;  // at most kMaxFields: the validator tracks them in a bitset
  bool open = false;  // free-form metadata: any keys, any values (still size- and depth-capped)
  const FieldSpec* Find(std::string_view field) const;
  // The index of `field`, -1 when unknown. The search starts at `from` and wraps around: a
  // validator passes the index after the last field it found, and events that list their fields
  // in the schema's order are matched at the first comparison.
  int IndexOf(std::string_view field, size_t from = 0) const;
  static constexpr size_t kMaxFields = 64;
};

// The top-level shape of one kind, including the common `kind`, `id`, `timestamp`.
const ObjectSpec& SchemaFor(EventKind kind);
// Nested shapes that other code needs by name.
const ObjectSpec& WorkProductRefSpec();
// The QualityMetrics field `name` stands for: itself, or, for seed 003 QualityEvaluator's names
// (code_quality, documentation, type_safety), the field they are another name of.
std::string_view CanonicalMetric(std::string_view name);
// The 13 seed-000 QualityDimension values, in the seed's order.
const std::vector<std::string_view>& QualityDimensions();

}  // namespace kaizen::model
