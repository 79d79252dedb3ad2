#include "ingest/validate.h"

#include <absl/container/inlined_vector.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "base/json_escape.h"
#include "ingest/reward_normalize.h"
#include "model/json_access.h"
#include "model/limits.h"
#include "model/schema.h"

namespace kaizen::ingest {
namespace {

using model::EventKind;
using model::FieldSpec;
using model::JsonType;
using model::ObjectSpec;
using simdjson::dom::element;
using simdjson::dom::element_type;
using simdjson::dom::object;

std::string Show(element v) { return ShowValue(v); }

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

// Where the value being checked is in the event: the keys and indexes above it, linked on the
// stack and spelled out ("scores[2].score") only for an error. Building the text for every field
// as the walk went cost more than a tenth of the validation.
struct Path {
  const Path* parent = nullptr;  // nullptr: the event itself
  std::string_view key;          // a member's key, or
  std::optional<size_t> index;   // an array element's index

  Path Member(std::string_view k) const { return Path{this, k, std::nullopt}; }
  Path Element(size_t i) const { return Path{this, {}, i}; }
  bool IsEvent() const { return parent == nullptr; }
  bool IsEventField(std::string_view name) const {
    return parent != nullptr && parent->IsEvent() && !index && key == name;
  }
  std::string Text() const {
    if (IsEvent()) return {};
    std::string text = parent->Text();
    if (index) return fmt::format("{}[{}]", text, *index);
    if (!text.empty()) text += '.';
    if (key.size() <= model::kMaxKeyShown) return text += key;
    size_t cut = model::kMaxKeyShown;  // not inside a UTF-8 sequence
    while (cut > 0 && (static_cast<unsigned char>(key[cut]) & 0xC0) == 0x80) --cut;
    return text.append(key.substr(0, cut)).append("[...]");
  }
};

// The one walk of a value against its schema table: events (ValidateEvent) and the arguments of
// an MCP tool (CheckObject) are checked by the same rules, in the same words.
class Validator {
 public:
  // `whole` names the value itself in an error; `string_cap` bounds a kString field;
  // `judge_times`: a timestamp must also be a sane time for an event (after 2000, not in the
  // future) by `options`.
  Validator(const ValidateOptions& options, EventFacts* facts, std::string_view whole = "(event)",
            size_t string_cap = model::kMaxStringBytes, bool judge_times = true)
      : options_(options),
        facts_(facts),
        whole_(whole),
        string_cap_(string_cap),
        judge_times_(judge_times) {}

  void Object(element value, const ObjectSpec& spec, const Path& path) {
    object obj = value.get_object().value();
    if (spec.open) {
      CheckDuplicateKeys(obj, path);
      for (auto [key, item] : obj) Free(item, path.Member(key));
      return;
    }
    // One pass over the keys: each known field validated once; a second occurrence is a
    // duplicate key (JSON permits them, but which one wins is undefined across readers).
    const bool reference_form = &spec == &model::WorkProductRefSpec() && IsReferenceForm(obj);
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

  void Error(std::string path, std::string message) {
    if (CountOnly()) return;
    errors.push_back({path.empty() ? std::string(whole_) : std::move(path), std::move(message)});
  }
  void Error(const Path& path, std::string message) {
    if (CountOnly()) return;  // before the path is spelled out
    Error(path.Text(), std::move(message));
  }

  std::vector<FieldError> errors;
  size_t unlisted = 0;  // errors past kMaxErrorsListed, counted only
  bool kind_given = true;

 private:
  // True, and the error counted, once kMaxErrorsListed errors are listed.
  bool CountOnly() {
    if (errors.size() < model::kMaxErrorsListed) return false;
    ++unlisted;
    return true;
  }

  // JSON permits duplicate keys, but which one wins is undefined across readers, so the log
  // refuses them, at every depth. Objects are small: a sorted copy on the stack, no allocation.
  void CheckDuplicateKeys(object obj, const Path& path) {
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

  static bool IsReferenceForm(object obj) {
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

  bool CheckString(std::string_view s, const Path& path, size_t cap) {
    if (s.size() > cap) {
      Error(path, fmt::format("a string of {} bytes is longer than the limit of {} bytes", s.size(),
                              cap));
      return false;
    }
    return true;
  }

  void Field(element v, const FieldSpec& f, const Path& path) {
    if (v.is_null()) {
      // null for an optional field means "not given"; for a required one it is missing.
      if (f.required)
        Error(path, fmt::format("is null (required {})", model::JsonTypeName(f.type)));
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

  void String(element v, const FieldSpec& f, const Path& path) {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) {
      Error(path,
            fmt::format("{} is not a {}", Show(v),
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
      } else if (!judge_times_) {
        return;
      } else if (ts->unix_ms < options_.min_unix_ms) {
        Error(path, fmt::format("{} is before 2000-01-01, not a sane time for an event", Show(v)));
      } else if (ts->unix_ms > options_.now_ms + options_.max_future_ms) {
        Error(path, fmt::format("{} is more than 24 hours in the future (now is {})", Show(v),
                                model::FormatUtc(options_.now_ms)));
      }
    }
  }

  void Number(element v, const FieldSpec& f, const Path& path) {
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

  void Array(element v, const FieldSpec& f, const Path& path) {
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
  void Free(element v, const Path& path) {
    switch (v.type()) {
      case element_type::STRING:
        CheckString(v.get_string().value(), path, model::kMaxStringBytes);
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

  const ValidateOptions& options_;
  EventFacts* facts_;
  std::string_view whole_;
  size_t string_cap_;
  bool judge_times_;
};

void ListUnlisted(Validator& v, std::string_view whole) {
  if (v.unlisted > 0) {
    v.errors.push_back({std::string(whole), fmt::format("and {} more error{} not listed",
                                                        v.unlisted, v.unlisted == 1 ? "" : "s")});
  }
}

// A field that is there and not null (null means "not given").
bool Present(object o, std::string_view key) {
  element e;
  return o.at_key(key).get(e) == simdjson::SUCCESS && !e.is_null();
}

using model::StringAt;

void KindRules(EventKind kind, object event, Validator& v, EventFacts* facts) {
  switch (kind) {
    case EventKind::kFeedback: {
      facts->session_id = StringAt(event, "sessionId");
      facts->modal_id = StringAt(event, "modalId");
      object wp;
      if (event.at_key("workProduct").get_object().get(wp) == simdjson::SUCCESS) {
        double p;
        if (wp.at_key("bubaScorePrediction").get_double().get(p) == simdjson::SUCCESS)
          facts->prediction = p;
        facts->has_work_product_inline = Present(wp, "summary");
        facts->artifact_id = StringAt(wp, "id");
        facts->artifact_version = StringAt(wp, "version");
      }
      // How long the reviewer took is required, unless the client says it could not measure it
      // (kaizen review with decision flags): then it is absent, never invented.
      object meta;
      if (event.at_key("meta").get_object().get(meta) == simdjson::SUCCESS &&
          !Present(meta, "timeToDecisionMs")) {
        bool unmeasured = false;
        simdjson::dom::array list;
        if (meta.at_key("unmeasured").get_array().get(list) == simdjson::SUCCESS) {
          for (element x : list) {
            std::string_view name;
            if (x.get_string().get(name) == simdjson::SUCCESS && name == "timeToDecisionMs")
              unmeasured = true;
          }
        }
        if (!unmeasured)
          v.Error("meta.timeToDecisionMs",
                  "missing (required unless meta.unmeasured lists it: a client that could not "
                  "measure it)");
      }
      simdjson::dom::array scores;
      if (event.at_key("scores").get_array().get(scores) == simdjson::SUCCESS) {
        double sum = 0;
        size_t n = 0, i = 0;
        absl::InlinedVector<std::string_view, 16> seen;  // 13 dimensions: no allocation
        for (element s : scores) {
          object so;
          if (s.get_object().get(so) != simdjson::SUCCESS) continue;
          double score;
          if (so.at_key("score").get_double().get(score) == simdjson::SUCCESS) {
            sum += score;
            ++n;
          }
          std::string_view dim = StringAt(so, "dimension");
          if (!dim.empty() && std::find(seen.begin(), seen.end(), dim) != seen.end()) {
            v.Error(fmt::format("scores[{}].dimension", i),
                    fmt::format("\"{}\" is scored twice in one review", dim));
          }
          seen.push_back(dim);
          ++i;
        }
        if (n) facts->mean_score = sum / n;
      }
      simdjson::dom::array annotations;
      if (event.at_key("annotations").get_array().get(annotations) == simdjson::SUCCESS) {
        size_t i = 0;
        for (element a : annotations) {
          double start, end;  // integers, possibly written as 12.0
          if (a["target"]["lineStart"].get_double().get(start) == simdjson::SUCCESS &&
              a["target"]["lineEnd"].get_double().get(end) == simdjson::SUCCESS && end < start) {
            v.Error(fmt::format("annotations[{}].target.lineEnd", i),
                    fmt::format("{} is before lineStart {}", end, start));
          }
          ++i;
        }
      }
      return;
    }
    case EventKind::kWork: {
      object wp;
      if (event.at_key("workProduct").get_object().get(wp) == simdjson::SUCCESS) {
        facts->artifact_id = StringAt(wp, "id");
        facts->artifact_version = StringAt(wp, "version");
        double p;
        if (wp.at_key("bubaScorePrediction").get_double().get(p) == simdjson::SUCCESS)
          facts->prediction = p;
      }
      // A work event registers an artifact; a bare reference registers nothing.
      for (auto it = facts->references.begin(); it != facts->references.end();) {
        v.Error(it->path, "a work event must carry the full WorkProductRef, not a reference");
        it = facts->references.erase(it);
      }
      return;
    }
    case EventKind::kError: {
      std::string_view resolves = StringAt(event, "resolves");
      if (!resolves.empty()) {
        facts->resolves = model::ParseUuid(resolves);
      } else {
        if (!Present(event, "error_type"))
          v.Error("error_type", "missing (required unless the event resolves an earlier error)");
        if (!Present(event, "message"))
          v.Error("message", "missing (required unless the event resolves an earlier error)");
      }
      return;
    }
    case EventKind::kReward: {
      if (Present(event, "signal_value")) return;
      std::string_view type = StringAt(event, "signal_type");
      element raw;
      if (event.at_key("raw_value").get(raw) != simdjson::SUCCESS || raw.is_null()) {
        v.Error("signal_value",
                "missing (give signal_value in 0..1, or raw_value with a known signal_type)");
        return;
      }
      if (!HasNormalization(type)) {
        v.Error("signal_type",
                fmt::format("\"{}\" has no normalization rule, so signal_value in 0..1 is required",
                            type));
        return;
      }
      std::optional<double> baseline;
      double b;
      if (event.at_key("baseline_seconds").get_double().get(b) == simdjson::SUCCESS) baseline = b;
      auto n = NormalizeReward(type, raw, baseline);
      if (!n.ok()) {
        v.Error("raw_value", fmt::format("{} {}", Show(raw), n.status().message()));
      } else {
        facts->normalized_signal = *n;
      }
      return;
    }
    case EventKind::kCorrection: {
      std::string_view original = StringAt(event, "original");
      std::string_view corrected = StringAt(event, "corrected");
      if (Present(event, "original") && original == corrected) {
        v.Error("corrected", "is identical to original (a correction must change something)");
      }
      return;
    }
    case EventKind::kAdmin: {
      std::string_view action = StringAt(event, "action");
      auto need = [&](std::string_view field) {
        if (!Present(event, field))
          v.Error(std::string(field), fmt::format("missing (required for action {})", action));
      };
      if (action == "rule_audit") {
        need("rule_id");
        need("verdict");
      } else if (action == "consent") {
        need("user_id");
        need("learning_mode");
      } else if (action == "deletion_request") {
        if (!Present(event, "user_id") && !Present(event, "session_id")) {
          v.Error("user_id", "missing (deletion_request needs user_id or session_id)");
        }
      } else if (action == "dismiss") {
        need("work_id");
      } else if (action == "submit") {
        need("work_id");
        need("work_version");
      } else if (action == "reserve" || action == "release") {
        need("work_id");
        need("reviewerId");
      } else if (action == "ask") {
        need("question_id");
        need("question");
      } else if (action == "answer") {
        need("question_id");
        need("note");
      }
      return;
    }
    case EventKind::kOutcome:
    case EventKind::kLoop:
    case EventKind::kPrompt:
      return;
  }
}

}  // namespace

std::vector<FieldError> ValidateEvent(element event, const ValidateOptions& options,
                                      EventFacts* facts) {
  Validator v(options, facts);
  object obj;
  if (event.get_object().get(obj) != simdjson::SUCCESS) {
    v.Error("", fmt::format("{} is not a JSON object (each event is one object)", Show(event)));
    return std::move(v.errors);
  }
  std::string_view kind_name;
  element kind_value;
  std::optional<model::EventKind> kind;
  if (obj.at_key("kind").get(kind_value) != simdjson::SUCCESS) {
    if (!options.expected_kind) {
      v.Error("kind", fmt::format("missing (required: one of {})", model::KindList()));
      return std::move(v.errors);
    }
    kind = options.expected_kind;
    v.kind_given = false;
  } else {
    if (kind_value.get_string().get(kind_name) != simdjson::SUCCESS) {
      v.Error("kind",
              fmt::format("{} is not a string (one of {})", Show(kind_value), model::KindList()));
      return std::move(v.errors);
    }
    kind = model::ParseKind(kind_name);
    if (!kind) {
      v.Error("kind", fmt::format("{} is not one of {}", Show(kind_value), model::KindList()));
      return std::move(v.errors);
    }
    if (options.expected_kind && *kind != *options.expected_kind) {
      v.Error("kind", fmt::format("{} does not match the kind being recorded ({})",
                                  Show(kind_value), model::KindName(*options.expected_kind)));
      return std::move(v.errors);
    }
  }
  facts->kind = *kind;
  v.Object(event, model::SchemaFor(*kind), Path());  // sets facts->id and ->timestamp
  if (v.errors.empty()) KindRules(*kind, obj, v, facts);
  ListUnlisted(v, "(event)");
  return std::move(v.errors);
}

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

static std::string DescribeParseErrorCode(simdjson::error_code code);

std::string ShowValue(simdjson::dom::element v) {
  switch (v.type()) {
    case simdjson::dom::element_type::OBJECT:
      return "an object";
    case simdjson::dom::element_type::ARRAY:
      return "an array";
    case simdjson::dom::element_type::NULL_VALUE:
      return "null";
    case simdjson::dom::element_type::STRING:
      return model::QuoteForMessage(v.get_string().value());
    default:
      return simdjson::to_string(v);
  }
}

std::string DescribeParseError(simdjson::error_code code, std::string_view text) {
  std::string message = DescribeParseErrorCode(code);
  const bool non_finite =
      text.find("NaN") != std::string_view::npos || text.find("Infinity") != std::string_view::npos;
  if (non_finite && message.find("NaN") == std::string::npos) {
    message += " (NaN and Infinity are not JSON numbers)";
  }
  return message;
}

static std::string DescribeParseErrorCode(simdjson::error_code code) {
  switch (code) {
    case simdjson::DEPTH_ERROR:
      return fmt::format("is nested deeper than the limit of {} levels", model::kMaxDepth);
    case simdjson::UTF8_ERROR:
      return "is not valid UTF-8";
    case simdjson::CAPACITY:
      return fmt::format("is larger than the limit of {} bytes", model::kMaxEventBytes);
    case simdjson::NUMBER_ERROR:
      return "is not JSON: a number is malformed or out of range (NaN and Infinity are not JSON)";
    case simdjson::UNCLOSED_STRING:
      return "is not JSON: a string is not closed";
    case simdjson::EMPTY:
      return "is empty";
    case simdjson::T_ATOM_ERROR:
    case simdjson::F_ATOM_ERROR:
    case simdjson::N_ATOM_ERROR:
      return "is not JSON: a bare word that is not true, false or null (NaN and Infinity are not "
             "JSON)";
    default:
      return fmt::format("is not JSON ({})", simdjson::error_message(code));
  }
}

}  // namespace kaizen::ingest
