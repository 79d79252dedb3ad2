// Stores the events a verb assembled in a batch (`kaizen git scan`, `kaizen github ingest`)
// through the one pipeline, ingest::Ingestor: one group commit, and what became of each line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "home/common.h"
#include "ingest/ingestor.h"
#include "kaizen/status.h"

namespace kaizen::home {

enum class LineFate { kNew, kAlreadyRecorded, kRefused };

struct LineOutcome {
  LineFate fate = LineFate::kRefused;
  std::string errors;  // why it was refused (each field error, or the consent gate's reason)
};

// Refused only because the log holds it already: the same id, review or work version (a scan or
// delivery running at the same time, or a replay).
bool AlreadyRecorded(const ingest::LineResult& r);

// `events[i]` is one JSON object; `out` gets one outcome per event, in order. A non-OK status is
// a system failure (nothing unacknowledged was stored).
Status StoreBatch(const Common& c, int64_t now_ms, const std::vector<std::string>& events,
                  std::vector<LineOutcome>* out, uint64_t* stored);

}  // namespace kaizen::home
