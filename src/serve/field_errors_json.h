// The field errors both doors answer with: [{"path", "message"}...], as HTTP error bodies,
// per-line results of POST /v1/events and MCP tool errors write them.
#pragma once

#include <vector>

#include "base/json_writer.h"
#include "ingest/validate.h"

namespace kaizen::serve {

inline void WriteFieldErrors(base::JsonWriter& w, const std::vector<ingest::FieldError>& errors) {
  w.StartArray();
  for (const ingest::FieldError& e : errors) {
    w.StartObject();
    base::Key(w, "path");
    base::Str(w, e.path);
    base::Key(w, "message");
    base::Str(w, e.message);
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace kaizen::serve
