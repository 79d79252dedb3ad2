// For validate*.cc only: the walk of a value against its schema table, shared by the event's rules
// (validate.cc: ValidateEvent and the rules of each kind) and its definition (validate_walk.cc).
#pragma once

#include <fmt/format.h>
#include <simdjson.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ingest/validate.h"
#include "model/limits.h"
#include "model/schema.h"

namespace kaizen::ingest::detail {

inline std::string Show(simdjson::dom::element v) { return ShowValue(v); }

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
  // `whole` names the value itself in an error; `string_cap` bounds a string (of a kString field
  // or a free-form value); `event_rules`: what only an event's fields have, a timestamp judged a
  // sane time for an event (after 2000, not in the future, by `options`) and a work product
  // given by reference ({"id"[, "version"]}, facts->references).
  Validator(const ValidateOptions& options, EventFacts* facts, std::string_view whole = "(event)",
            size_t string_cap = model::kMaxStringBytes, bool event_rules = true)
      : options_(options),
        facts_(facts),
        whole_(whole),
        string_cap_(string_cap),
        event_rules_(event_rules) {}

  void Object(simdjson::dom::element value, const model::ObjectSpec& spec, const Path& path);

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

  void CheckDuplicateKeys(simdjson::dom::object obj, const Path& path);
  static bool IsReferenceForm(simdjson::dom::object obj);
  bool CheckString(std::string_view s, const Path& path, size_t cap);
  void Field(simdjson::dom::element v, const model::FieldSpec& f, const Path& path);
  void String(simdjson::dom::element v, const model::FieldSpec& f, const Path& path);
  void Number(simdjson::dom::element v, const model::FieldSpec& f, const Path& path);
  void Array(simdjson::dom::element v, const model::FieldSpec& f, const Path& path);
  void Free(simdjson::dom::element v, const Path& path);

  const ValidateOptions& options_;
  EventFacts* facts_;
  std::string_view whole_;
  size_t string_cap_;
  bool event_rules_;
};

// "and N more errors not listed", naming `whole`, when the walk counted errors past the list.
void ListUnlisted(Validator& v, std::string_view whole);

}  // namespace kaizen::ingest::detail
