// The one pipeline every door uses (docs/architecture.md): parse -> validate -> enrich -> append.
// Lines are processed in chunks; each chunk is one group commit under the home's writer lock, and
// a line is acknowledged (its callback reports it stored) only after its chunk is durable.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/ingest_state.h"
#include "ingest/line_source.h"
#include "ingest/privacy.h"
#include "ingest/stored_line.h"
#include "ingest/validate.h"
#include "kaizen/status.h"
#include "store/file/raw_log.h"
#include "text/text_analysis.h"

namespace kaizen::ingest {

struct LineResult {
  uint64_t line_number = 0;
  std::string_view text;  // the line as received (without its line ending)
  bool stored = false;
  std::string id;                  // when stored
  std::vector<FieldError> errors;  // when refused
  // Not stored, and not an error: the consent gate (learning mode is off for the event's user).
  bool skipped = false;
  std::string skip_reason;
};

// The lines one group commit appended to one raw file: what a caller that keeps its own view of
// the log (serve's live state) needs to fold them without listing and re-reading the files.
struct AppendedLines {
  std::string file;       // the raw file name, YYYY-MM-DD.jsonl
  uint64_t offset = 0;    // the file's size before the append: where `text` starts
  std::string_view text;  // the stored lines, each ending in '\n'; valid during the call only
};

struct IngestOptions {
  int64_t now_ms = 0;  // default timestamp and the "sane timestamp" bound
  std::optional<model::EventKind> expected_kind;
  const text::ThemeTaxonomy* taxonomy = nullptr;  // nullptr: ThemeTaxonomy::Default()
  size_t chunk_events = 50000;                    // events per group commit
  // 8 MiB: the same import time as 32 MiB on the 1M-event benchmark, with a third of the memory
  // (two chunks are in flight) and fewer page faults.
  size_t chunk_bytes = 8 << 20;
  std::function<void(const LineResult&)> on_line;  // every non-blank line, in order
  std::function<void(uint64_t bytes_done)> on_progress;
  // After each group commit is durable, once per raw file it appended to, in file-name order,
  // before the chunk's on_line calls. Offsets are read under the writer lock, so `offset` equals
  // the end of whatever was in the file before, this process's or another's.
  std::function<void(const AppendedLines&)> on_appended;
  // After the last group commit, the ingest index is rewritten when the journal records past it
  // reach IngestCache::kIndexTail, so the next short-lived process reads few of them. A
  // long-lived server keeps what it ingests in memory instead: false.
  bool write_index = true;
};

struct IngestSummary {
  uint64_t stored = 0;
  uint64_t rejected = 0;
  uint64_t blank = 0;
  uint64_t skipped = 0;   // LineResult::skipped: learning mode off for the event's user
  uint64_t redacted = 0;  // PII values replaced by tokens in the stored events
};

class Ingestor {
 public:
  // REQUIRES: *fs outlives the Ingestor.
  Ingestor(std::string home, store::FileSystem* fs);

  // Ingests JSONL through parse, validate, privacy (consent gate, PII redaction: ingest/privacy.h),
  // enrich and append. <home>/config/privacy.json is read on the first call; an error in it is
  // returned as InvalidArgument before anything is stored. REQUIRES: `input` is followed by at
  // least SIMDJSON_PADDING readable bytes (simdjson::padded_string / padded_string_view). Blank
  // lines are skipped, CRLF is accepted, a missing final newline is fine. A non-OK status is a
  // system failure (I/O, full disk): the chunk being written was not acknowledged, the chunks
  // before it were.
  Status Ingest(std::string_view input, const IngestOptions& options, IngestSummary* summary);
  // The same over lines cut from `source` a chunk at a time (FdLineSource: a file or a pipe read
  // as the pipeline goes). A read error is returned after the chunks before it are stored.
  Status Ingest(LineSource& source, const IngestOptions& options, IngestSummary* summary);

  // What opening the log found and repaired (torn tails, unreadable lines).
  std::vector<store::RecoveryNote> TakeNotes();

  store::RawLog& log() { return log_; }
  // Stores into a shared log too (store/shared_log.h), the home its working copy
  // (ingest/store_mirror.h). REQUIRES: *remote outlives the Ingestor.
  void set_remote(store::SharedLog* remote) { log_.set_remote(remote); }
  // A long-lived caller that is told when other writers commit (kaizen serve LISTENs) pulls
  // before a chunk only when `*dirty` was set since (cleared here); nullptr: before every chunk.
  void set_pull_when(std::atomic<bool>* dirty) { pull_when_ = dirty; }
  // Copies what the remote holds and the home lacks (ingest/store_mirror.h), under the writer
  // lock, keeping this Ingestor's cache. REQUIRES: a remote.
  Status Pull(uint64_t* pulled);

 private:
  store::RawLog log_;
  IngestCache cache_;
  std::vector<store::RecoveryNote> notes_;
  std::atomic<bool>* pull_when_ = nullptr;
  std::shared_ptr<const Redactor> redactor_;  // on the first Ingest (SharedRedactor)
  std::string placeholder_nonce_;  // random: marks PII placeholders until tokens are known
  // One per thread of the stateless stages, kept between calls: a server ingests small batches
  // many times a second, and allocating parsers for each cost more than the batch itself.
  struct PrepareScratch {
    simdjson::dom::parser parser;
    StoredLineWriter writer;
  };
  std::vector<PrepareScratch> scratch_;

  // The steps of Ingest, in the order it takes them (ingestor.cc). The types they hand each other
  // are ingestor_steps.h's; the stateless steps are in ingestor_prepare.cc, the ones under the
  // writer lock in ingestor_commit.cc.
  struct Chunk;
  struct GroupCommit;
  Status LoadPrivacyConfigOnce();
  Status CutAndPrepare(LineSource& source, const IngestOptions& options,
                       const ValidateOptions& vopts, const text::ThemeTaxonomy* taxonomy,
                       size_t threads, Chunk* chunk);
  void PrepareBlocks(Chunk* chunk, size_t s, const IngestOptions& options,
                     const ValidateOptions& vopts, const text::ThemeTaxonomy* taxonomy);
  Status CatchUpWithTheLog();
  Status CheckAndApplyLines(Chunk& chunk, IngestState& state,
                            absl::flat_hash_map<std::string, Key128>& user_keys,
                            GroupCommit* commit, IngestSummary* summary);
  Status SaveVault(GroupCommit& commit);
  Status ReadAppendOffsets(GroupCommit* commit);
  Status AppendAndCommit(const GroupCommit& commit, bool write_index);
};

}  // namespace kaizen::ingest
