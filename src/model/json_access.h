// Small reads of a parsed simdjson document, shared by the stages that look into events.
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

#include "base/quote.h"

namespace kaizen::model {

// The string at `key`, or empty when absent or not a string.
inline std::string_view StringAt(simdjson::dom::object o, std::string_view key) {
  std::string_view s;
  if (o.at_key(key).get_string().get(s) != simdjson::SUCCESS) return {};
  return s;
}
inline std::string_view StringAt(simdjson::dom::element e, std::string_view key) {
  std::string_view s;
  if (e[key].get_string().get(s) != simdjson::SUCCESS) return {};
  return s;
}

// A string as it appears in an error message (base/quote.h).
using base::QuoteForMessage;

}  // namespace kaizen::model
