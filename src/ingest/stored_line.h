// The stored line: an event as the log keeps it (seed 000 §4, stage 2's output), written in
// parallel and finished in log order.
#pragma once

#include <rapidjson/stringbuffer.h>
#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/enrich.h"
#include "ingest/json_tokens.h"

namespace kaizen::ingest {

// The stored form of an event, still missing the two values only the log can give: the session's
// review count and the prediction of a referenced work event. A view: the text is in the buffer
// the writer appended it to.
struct StoredLine {
  std::string_view text;                  // one JSON object
  size_t fatigue_at = std::string::npos;  // feedback: offset of the meta.sessionFatigue placeholder
};

// Writes stored lines. The event's own fields are copied as the client wrote them, minified,
// found through the tokens simdjson's parse of the event left behind (ingest/json_tokens.h):
// re-serializing every value from the DOM cost more than parsing and validating the event
// together. Only what kaizen adds or replaces is written here. One per thread: it keeps its
// buffers between events.
class StoredLineWriter {
 public:
  // Appends to *buffer the stored form of `event`, whose text and tokens are `tokens`: `kind`,
  // `id`, `timestamp` first, then the event's fields in their order, with enrichment fields (those
  // starting with '_', and the computed meta fields) replaced by the values in `enrichment`.
  // *out views it (until *buffer grows again). False only when `tokens` are not those of a JSON
  // object (not the parse `event` came from); *buffer is then as it was. The Ingestor's threads
  // each append a chunk's lines one after the other in a buffer of their own: a buffer per line
  // put every line's first bytes in a cold cache line of its own.
  bool Write(simdjson::dom::object event, const JsonTokens& tokens, const Enrichment& enrichment,
             std::string* buffer, StoredLine* out);

 private:
  // `raw_key` unescaped (it points into the event's text, between the key's quotes).
  std::string_view Key(std::string_view raw_key);
  // Appends the members of the object whose '{' is token `open`, minified and comma-separated,
  // except those whose key `skip` accepts.
  template <typename Skip>
  void CopyMembers(const JsonTokens& tokens, size_t open, Skip skip, std::string* out);
  void String(std::string_view s, std::string* out);
  // "key":"value", the value escaped.
  void StringMember(std::string_view key, std::string_view value, std::string* out);
  void StringArray(const std::vector<std::string>& items, std::string* out);

  std::string quoted_key_;
  simdjson::dom::parser key_parser_;
  rapidjson::StringBuffer fragment_;  // strings kaizen adds, escaped by RapidJSON
};

// Appends the finished line and '\n' to *out. REQUIRES: session_fatigue >= 1 for feedback.
void FinishStoredEvent(const StoredLine& line, int64_t session_fatigue,
                       std::optional<double> prediction_delta, std::string* out);

}  // namespace kaizen::ingest
