// For the Ingestor's own files only: what the steps of Ingest hand each other, shared by
// ingestor.cc (the order of the steps), ingestor_prepare.cc (the stateless stages, on every core)
// and ingestor_commit.cc (the stateful ones, under the home's writer lock).
#pragma once

#include <fmt/format.h>
#include <simdjson.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/ingest_state.h"
#include "ingest/ingestor.h"
#include "ingest/line_source.h"
#include "ingest/pii_vault.h"
#include "ingest/privacy.h"
#include "ingest/stored_line.h"
#include "ingest/validate.h"
#include "model/event_kind.h"
#include "model/uuid.h"

namespace kaizen::ingest {
namespace detail {

// One line after the stateless stages (parse, validate, enrich, serialize), with what the
// stateful checks need copied out of the parsed document.
struct PreparedLine {
  uint64_t line_number = 0;
  std::string_view text;
  std::vector<FieldError> errors;

  model::EventKind kind = model::EventKind::kFeedback;
  model::Uuid id;
  bool id_given = false;
  // The stored line: stored_size bytes from stored_begin in the chunk's buffer number stored_in
  // (the preparing thread's), fatigue_at from its start; or `resolved`, when it had PII.
  size_t stored_in = 0, stored_begin = 0, stored_size = 0;
  size_t fatigue_at = std::string::npos;
  std::string resolved;  // the stored line with the PII's tokens in place of its placeholders
  std::string id_text;   // `id` as text, as the stored line has it
  std::string day;       // YYYY-MM-DD: the raw file the line goes to
  CacheRecord record;
  // feedback
  std::string modal_id, session_id;
  // A reference to a recorded work event. Its path, id and version are kept one after the other
  // in ref_text, a buffer for all the line's references kept from chunk to chunk (not three
  // strings each); offsets, not views, since a short string's bytes move with it.
  struct Ref {
    Key128 key;
    size_t at = 0, path_size = 0, id_size = 0, version_size = 0;
  };
  std::vector<Ref> refs;
  std::string ref_text;
  std::string_view RefPath(const Ref& r) const {
    return std::string_view(ref_text).substr(r.at, r.path_size);
  }
  std::string_view RefId(const Ref& r) const {
    return std::string_view(ref_text).substr(r.at + r.path_size, r.id_size);
  }
  std::string_view RefVersion(const Ref& r) const {  // empty: the latest version
    return std::string_view(ref_text).substr(r.at + r.path_size + r.id_size, r.version_size);
  }
  std::optional<double> inline_prediction, mean_score;
  // work
  std::string artifact_id, artifact_version;
  // error
  std::optional<model::Uuid> resolves;
  // privacy
  simdjson::padded_string
      rewritten;  // the event with PII replaced by placeholders, when it had any
  struct Pii {
    PiiCategory category;
    std::string key, value;
  };
  std::vector<Pii> pii;            // placeholder i stands for pii[i]
  std::vector<std::string> users;  // hashed for the consent gate only when someone opted out
  bool consent = false;            // admin consent or deletion_request: never held back by the gate
  PiiVault::Source source;
  bool skipped = false;
};

// The placeholder for pii[index] in a prepared line: "[NAME_<nonce>.<index>]". The nonce is random
// per Ingestor, so no input can contain it; the tokens replace placeholders under the writer lock,
// where the PII map is consistent across processes.
inline std::string Placeholder(PiiCategory category, std::string_view nonce, size_t index) {
  return fmt::format("[{}_{}.{}]", PiiCategoryName(category), nonce, index);
}

// Size each day's buffer once: appending a chunk's 40 MB by doubling copies it again and again.
// The buffers come from `spare_days` while it has some.
void SizeDayBuffers(const std::vector<PreparedLine>& lines, std::vector<std::string>* spare_days,
                    std::map<std::string, std::string>* by_day);

// Tells options.on_appended, once per raw file appended to, where its append started and what
// it was.
void ReportAppended(const std::map<std::string, std::string>& by_day,
                    std::map<std::string, uint64_t>& start, const IngestOptions& options);

// Acknowledge only now that the chunk is durable: on_line for every line and the summary's counts.
void Acknowledge(std::vector<PreparedLine>& lines, const IngestOptions& options,
                 IngestSummary* summary);

}  // namespace detail

// One chunk of the input: its lines as cut, then prepared.
struct Ingestor::Chunk {
  LineChunk cut;
  std::vector<detail::PreparedLine> lines;
  // The lines are prepared by whichever threads are free: each claims the next block of
  // lines until none is left. Splitting a chunk evenly between threads left a core idle
  // whenever one half took longer, or the thread committing the chunk before got the core.
  std::atomic<size_t> next_block{0};
  std::atomic<bool> claimable{false};  // `lines` are cut and reset: blocks may be claimed
  // The stored lines, one buffer per scratch (so per thread), each line after the last that
  // thread prepared; kept from chunk to chunk.
  std::vector<std::string> stored;
  StoredLine StoredOf(const detail::PreparedLine& l) const {
    if (!l.resolved.empty()) return {l.resolved, l.fatigue_at};
    return {std::string_view(stored[l.stored_in]).substr(l.stored_begin, l.stored_size),
            l.fatigue_at};
  }
};

// What one chunk's group commit writes, gathered under the writer lock.
struct Ingestor::GroupCommit {
  std::map<std::string, std::string> by_day;  // the stored lines, by the day of their raw file
  std::vector<CacheRecord> records;
  std::optional<PiiVault> vault;          // loaded under the lock by the first line with PII
  std::map<std::string, uint64_t> start;  // by raw file: its size before the append
};

}  // namespace kaizen::ingest
