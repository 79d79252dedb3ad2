// `kaizen gen`: a deterministic synthetic history of every event kind, for the demo, benchmarks
// and tests. The history has the structure the learning engine looks for (reviewers with stable
// preferences, quality improving over time, revision loops, strategies that fail more often than
// others, an overconfident agent), so a learner run on it has something real to find.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace kaizen::sim {

struct GenOptions {
  uint64_t events = 1000;  // total lines to emit
  uint64_t seed = 1;
  int64_t start_unix_ms = 1751328000000;  // 2025-07-01T00:00:00Z; history spans ~span_days
  int64_t span_days = 90;
};

// Appends exactly options.events lines of JSONL to *out, each ending in '\n', in timestamp order
// within [start, start + span_days]. Every line passes ingest::ValidateEvent (so the span must end
// before tomorrow), and the whole stream passes the log's checks: unique ids, work recorded
// before feedback names it, one answer per (modalId, sessionId), resolutions after the errors
// they resolve. Same options: same bytes.
void GenerateHistory(const GenOptions& options, std::string* out);

// The same bytes, handed to `sink` in pieces of roughly `chunk_bytes` (whole lines), so a caller
// writing a million events to a file or the ingestor need not hold them all at once.
void GenerateHistory(const GenOptions& options, size_t chunk_bytes,
                     const std::function<void(std::string_view)>& sink);

}  // namespace kaizen::sim
