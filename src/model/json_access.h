// Small reads of a parsed simdjson document, shared by the stages that look into events.
#pragma once

#include <simdjson.h>

#include <string>
#include <string_view>

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

// A string as it appears in an error message: quoted, control characters shown as spaces, cut
// after 60 bytes at a character boundary, so one bad 64 KiB value does not flood the terminal.
std::string QuoteForMessage(std::string_view s);

}  // namespace kaizen::model
