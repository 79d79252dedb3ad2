// Where the members of a minified JSON object begin and end, for copying an event's fields into its
// stored line as the client wrote them. Only for text simdjson has already parsed (so it is valid)
// and minified (so there is no whitespace between tokens): all that is left to find is where each
// value ends, which is a scan for quotes and brackets, not a parse.
#pragma once

#include <string_view>

namespace kaizen::ingest {

struct MinifiedMember {
  std::string_view key;    // between the quotes, escapes left as written
  std::string_view text;   // "key":value
  std::string_view value;  // value
};

// The index just past the value that starts at `at`. REQUIRES: a valid minified value starts there
// (whitespace between tokens does not change the answer). On any other text it returns at most
// json.size(): an object or array whose brackets never balance ends there.
size_t MinifiedValueEnd(std::string_view json, size_t at);

// Calls f(const MinifiedMember&) for each member of `object`, in order.
// REQUIRES: `object` is one valid, minified JSON object.
template <typename F>
void ForEachMinifiedMember(std::string_view object, F&& f) {
  size_t at = 1;  // past '{'
  while (at < object.size() && object[at] == '"') {
    const size_t key_end = MinifiedValueEnd(object, at);  // past the closing quote
    const size_t value_at = key_end + 1;                  // past ':'
    if (value_at >= object.size()) return;  // not an object after all: the REQUIRES was broken
    const size_t value_end = MinifiedValueEnd(object, value_at);
    MinifiedMember m;
    m.key = object.substr(at + 1, key_end - at - 2);
    m.text = object.substr(at, value_end - at);
    m.value = object.substr(value_at, value_end - value_at);
    f(m);
    at = value_end + 1;  // past ',' (or '}', which ends the loop)
  }
}

}  // namespace kaizen::ingest
