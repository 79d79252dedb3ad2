// Stage 1 of the pipeline (seed 000 §4): an event's shape, types, enums, ranges and timestamps.
// Checks that need the log (duplicates, references) are made by the Ingestor under its lock.
#pragma once

#include <absl/container/inlined_vector.h>
#include <simdjson.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/event_kind.h"
#include "model/schema.h"
#include "model/timestamp.h"
#include "model/uuid.h"

namespace kaizen::ingest {

// One broken rule: `scores[2].score: 11 is out of range 1..10`.
struct FieldError {
  std::string path;     // "scores[2].score"; "(event)" for the whole event
  std::string message;  // "11 is out of range 1..10"
  std::string ToString() const { return path + ": " + message; }
};

// A `workProduct` (or comparison option) given as {"id"[, "version"]}: it must name a recorded
// `work` event.
struct WorkReference {
  std::string path;
  std::string_view id;
  std::string_view version;  // empty: the latest recorded version
};

// What the later stages need from a shape-valid event. Views point into the parsed document.
struct EventFacts {
  model::EventKind kind = model::EventKind::kFeedback;
  std::optional<model::Uuid> id;
  std::optional<model::Timestamp> timestamp;
  // feedback
  std::string_view session_id;
  std::string_view modal_id;
  absl::InlinedVector<WorkReference, 2> references;  // a workProduct and a comparison at most
  std::optional<double> mean_score;                  // mean of scores[].score
  std::optional<double> prediction;  // workProduct.bubaScorePrediction when given in full
  bool has_work_product_inline = false;
  // work; feedback (the work product given in full, or referenced)
  std::string_view artifact_id;
  std::string_view artifact_version;
  // error
  std::optional<model::Uuid> resolves;
  // reward
  std::optional<double> normalized_signal;  // computed from raw_value when signal_value is absent
};

struct ValidateOptions {
  // `kaizen record KIND`: events may omit `kind`; one that names another kind is refused.
  std::optional<model::EventKind> expected_kind;
  int64_t now_ms = 0;                          // "sane timestamps" are judged against this
  int64_t max_future_ms = 24LL * 3600 * 1000;  // clock skew tolerated
  int64_t min_unix_ms = 946684800000LL;        // 2000-01-01T00:00:00Z
};

// Validates a parsed event. Returns every error found (not just the first), or none.
std::vector<FieldError> ValidateEvent(simdjson::dom::element event, const ValidateOptions& options,
                                      EventFacts* facts);

// The rules ValidateEvent applies to an event's fields, applied to an object of any schema (an MCP
// tool's arguments), in the same words: an object; no unknown or duplicate field; every required
// field present and not null; types, enums, ranges, identifier and array limits. `whole` names
// the object itself in an error ("(arguments)"). Strings are not capped (the caller caps what it
// accepts), a timestamp need only parse, and a work product is never a reference.
std::vector<FieldError> CheckObject(simdjson::dom::element value, const model::ObjectSpec& spec,
                                    std::string_view whole);

// A parse failure from simdjson, phrased for a person; `text` (the input) adds a hint when it
// holds NaN or Infinity, which JSON does not allow.
// A JSON value as an error message shows it: strings quoted and shortened, objects and arrays by
// their type, so one bad 64 KiB value does not flood the terminal.
std::string ShowValue(simdjson::dom::element v);

std::string DescribeParseError(simdjson::error_code code, std::string_view text = {});

}  // namespace kaizen::ingest
