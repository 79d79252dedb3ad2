// Stores one event that a verb assembled (`kaizen loop`, `kaizen reward`, `kaizen rate`) through
// the one pipeline, ingest::Ingestor: validated, enriched and durable before it is acknowledged.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "home/common.h"
#include "kaizen/status.h"
#include "model/event_kind.h"

namespace kaizen::home {

struct StoredEvent {
  std::string id;        // empty when not stored
  bool skipped = false;  // the consent gate: learning mode is off for the event's user
  std::string skip_reason;
};

// `event_json` is one JSON object of kind `kind`. InvalidArgument when the pipeline refused it
// (the message lists each field path and rule) or the home's privacy config is wrong; another
// non-OK status is a system failure (nothing was acknowledged).
Result<StoredEvent> StoreEvent(const Common& c, int64_t now_ms, model::EventKind kind,
                               std::string_view event_json);

}  // namespace kaizen::home
