// The one pipeline every door uses (DESIGN.md "Data flow"): parse -> validate -> enrich -> append.
// Lines are processed in chunks; each chunk is one group commit under the home's writer lock, and
// a line is acknowledged (its callback reports it stored) only after its chunk is durable.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/ingest_state.h"
#include "ingest/text_analysis.h"
#include "ingest/validate.h"
#include "kaizen/status.h"
#include "store/raw_log.h"

namespace kaizen::ingest {

struct LineResult {
  uint64_t line_number = 0;
  std::string_view text;  // the line as received (without its line ending)
  bool stored = false;
  std::string id;                  // when stored
  std::vector<FieldError> errors;  // when refused
};

struct IngestOptions {
  int64_t now_ms = 0;  // default timestamp and the "sane timestamp" bound
  std::optional<model::EventKind> expected_kind;
  const ThemeTaxonomy* taxonomy = nullptr;  // nullptr: ThemeTaxonomy::Default()
  size_t chunk_events = 50000;              // events per group commit
  size_t chunk_bytes = 32 << 20;
  std::function<void(const LineResult&)> on_line;  // every non-blank line, in order
  std::function<void(uint64_t bytes_done)> on_progress;
};

struct IngestSummary {
  uint64_t stored = 0;
  uint64_t rejected = 0;
  uint64_t blank = 0;
};

class Ingestor {
 public:
  // REQUIRES: *fs outlives the Ingestor.
  Ingestor(std::string home, store::FileSystem* fs);

  // Ingests JSONL. REQUIRES: `input` is followed by at least SIMDJSON_PADDING readable bytes
  // (simdjson::padded_string / padded_string_view). Blank lines are skipped, CRLF is accepted, a
  // missing final newline is fine. A non-OK status is a system failure (I/O, full disk): the
  // chunk being written was not acknowledged, the chunks before it were.
  Status Ingest(std::string_view input, const IngestOptions& options, IngestSummary* summary);

  // What opening the log found and repaired (torn tails, unreadable lines).
  std::vector<store::RecoveryNote> TakeNotes();

  store::RawLog& log() { return log_; }

 private:
  store::RawLog log_;
  IngestCache cache_;
  std::vector<store::RecoveryNote> notes_;
};

}  // namespace kaizen::ingest
