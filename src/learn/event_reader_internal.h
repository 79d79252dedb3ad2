// Internal to learn/: what the reader's dispatch (event_reader.cc) shares with the decoders of
// each kind (event_reader_*.cc). The scanning primitives are inline: every field of every event
// goes through them.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "learn/event_reader.h"
#include "learn/sections.h"
#include "model/inputs.h"

namespace kaizen::learn::internal {

namespace od = simdjson::ondemand;
using simdjson::SUCCESS;

// Where strings with escape sequences go when the views must outlive the parser's buffers
// (ReadDurable); null: they stay in the parser's string buffer.
inline thread_local std::deque<std::string>* tls_escaped = nullptr;

// A field's key, without unescaping: kaizen's keys have no escapes, and a key that had one would
// simply match no field.
inline std::string_view RawKey(const od::field& f) {
  const char* p = reinterpret_cast<const char*>(f.key().raw());
  const char* q = p;
  while (*q != '"') {
    if (*q == '\\') ++q;  // skip the escaped character
    ++q;
  }
  return std::string_view(p, static_cast<size_t>(q - p));
}

// Calls fn(key, value) for each field of `v`'s object; false when `v` is not a readable object
// or fn returns false. Fields fn does not consume are skipped without being parsed.
template <typename Fn>
bool ForFields(od::value v, Fn&& fn) {
  od::object o;
  if (v.get_object().get(o) != SUCCESS) return false;
  for (auto result : o) {
    od::field field;
    if (std::move(result).get(field) != SUCCESS) return false;
    std::string_view key = RawKey(field);
    if (!fn(key, field.value())) return false;
  }
  return true;
}

template <typename Fn>
bool ForElements(od::value v, Fn&& fn) {
  od::array a;
  if (v.get_array().get(a) != SUCCESS) return false;
  for (auto element : a) {
    od::value value;
    if (element.get(value) != SUCCESS) return false;
    if (!fn(value)) return false;
  }
  return true;
}

// Typed reads: a value of another type (never in stored lines) leaves the default. Always inlined:
// they run for nearly every field of every event, and as inline functions of a header shared by
// the reader's files the compiler kept them out of line (docs/performance.md, "After the splits").
// A string without escapes is its raw bytes in the input: no copy, and valid as long as the
// input is. One with escapes is unescaped by simdjson (into the parser's buffer, or kept in
// tls_escaped for a durable read).
[[gnu::always_inline]] inline std::string_view Str(od::value v) {
  std::string_view token = v.raw_json_token();
  if (token.size() >= 2 && token.front() == '"') {
    size_t end = token.size() - 1;
    while (end > 0 && token[end] != '"') --end;  // trailing spaces after the closing quote
    std::string_view content = token.substr(1, end > 0 ? end - 1 : 0);
    if (end > 0 && content.find('\\') == std::string_view::npos) return content;
  }
  std::string_view s;
  if (v.get_string().get(s) != SUCCESS) return {};
  if (tls_escaped != nullptr) return tls_escaped->emplace_back(s);
  return s;
}
[[gnu::always_inline]] inline std::optional<double> Dbl(od::value v) {
  double d;
  if (v.get_double().get(d) != SUCCESS) return std::nullopt;
  return d;
}
[[gnu::always_inline]] inline int64_t IntOr0(od::value v) {
  int64_t i;
  if (v.get_int64().get(i) == SUCCESS) return i;
  return 0;
}
[[gnu::always_inline]] inline std::optional<bool> Bool(od::value v) {
  bool b;
  if (v.get_bool().get(b) != SUCCESS) return std::nullopt;
  return b;
}
inline bool Strings(od::value v, std::vector<std::string_view>* out) {
  out->clear();
  return ForElements(v, [&](od::value e) {
    od::json_type type;
    if (e.type().get(type) == SUCCESS && type == od::json_type::string) out->push_back(Str(e));
    return true;
  });
}
inline size_t CountElements(od::value v) {
  size_t n = 0;
  ForElements(v, [&](od::value) {
    ++n;
    return true;
  });
  return n;
}

// Defined in event_reader_reviews.cc.

// What of a review to read (EventReader::set_review_fields), and where to parse a `meta` again
// that must be walked for its sessionFatigue alone.
struct ReviewReading {
  ReviewFields fields;
  od::parser* meta_parser;
  std::string* meta_padded;
};

void ResetReview(model::ReviewView* r);

bool ReadReviewField(std::string_view k, od::value x, const ReviewReading& how,
                     model::ReviewView* r);

// Defined in event_reader_work.cc.

bool ReadRef(od::value v, model::WorkView* w, bool* known);
bool Resolve(const WorkRegistry& registry, model::WorkView* w);

bool WorkField(std::string_view k, od::value x, model::WorkView* w);

// Defined in event_reader_runs.cc.

bool OutcomeField(std::string_view k, od::value x, model::OutcomeView* v);
bool ErrorField(std::string_view k, od::value x, model::ErrorView* v);
bool RewardField(std::string_view k, od::value x, model::RewardView* v);
bool LoopField(std::string_view k, od::value x, model::LoopView* v);

// Defined in event_reader_people.cc.

bool CorrectionField(std::string_view k, od::value x, model::CorrectionView* v);
bool AdminField(std::string_view k, od::value x, model::AdminView* v);
bool PromptField(std::string_view k, od::value x, model::PromptView* v);

}  // namespace kaizen::learn::internal
