// The field errors both doors answer with: [{"path", "message"}...], as HTTP error bodies,
// per-line results of POST /v1/events and MCP tool errors write them.
#pragma once

#include <vector>

#include "ingest/validate.h"
#include "learn/json_out.h"

namespace kaizen::serve {

inline void WriteFieldErrors(learn::JsonWriter& w, const std::vector<ingest::FieldError>& errors) {
  w.StartArray();
  for (const ingest::FieldError& e : errors) {
    w.StartObject();
    learn::Key(w, "path");
    learn::Str(w, e.path);
    learn::Key(w, "message");
    learn::Str(w, e.message);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace kaizen::serve
