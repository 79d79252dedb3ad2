// The learned state of a home kept live for the long-running doors (`kaizen serve`, `kaizen mcp`):
// the log folded once at open, then every event stored since folded in as it lands, so a query
// answers from memory in bounded time and sees every event acknowledged before it.
//
// Writes go through one writer thread with group commit: events submitted concurrently by many
// clients are ingested together (one lock, one fsync per day file), and each Submit returns only
// after its own lines are durable (or refused). The learner is read under a shared lock and folded
// under an exclusive one.
//
// The writer folds the lines it stored itself from memory (the ingest reports them with their
// file offsets), and reads the files only when they do not continue where its last fold ended:
// another process appended in between, or a file was rewritten. Other processes' appends to files
// this process does not write are picked up by the poll (LiveOptions::poll_ms).
//
// Log order: new events are folded in the order they land. An event whose day file sorts before
// the newest one already folded (a backfill), or a log rewritten under us (compact, forget), makes
// the next refresh fold the whole log again, so the state always equals a full recomputation.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ingest/ingestor.h"
#include "kaizen/status.h"
#include "learn/learner.h"
#include "model/event_kind.h"

namespace kaizen::serve {

// What became of one submitted line (ingest::LineResult without the borrowed text).
struct LineOutcome {
  uint64_t line_number = 0;  // 1-based, within the submission
  bool stored = false;
  bool skipped = false;  // the consent gate: learning mode is off for the event's user
  std::string id;        // when stored
  std::vector<ingest::FieldError> errors;  // when refused
  std::string skip_reason;
};

struct SubmitResult {
  std::vector<LineOutcome> lines;  // one per non-blank line, in order
  ingest::IngestSummary summary;
};

struct LiveOptions {
  std::string home;
  // The clock: a fixed time (tests, `--now`), else the system clock read at each call.
  std::optional<int64_t> fixed_now_ms;
  // `--now end`: the newest folded event's time (a replayed or demo history).
  bool now_is_newest = false;
  // How often other processes' appends to the log (the CLI recording while a server runs) and
  // rewrites of it are picked up, in milliseconds, also while submissions keep arriving; 0: only
  // after each of this process's own writes, before that write is answered.
  int64_t poll_ms = 1000;
  // A shared PostgreSQL store (libpq conninfo) the home is the working copy of: writes go there
  // first, and other servers' writes are copied in when the store notifies a commit (else at the
  // poll). Empty: the home's files are the log.
  std::string store;
  // The project (a directory or a name: model::ProjectKey) the MCP tools answer for when a call
  // names none: `kaizen mcp` runs in the agent's project. Empty: the global layer only.
  std::string project;
};

class LiveState {
 public:
  // Loads <home>/config (learning.json, themes.json), folds the whole log and starts the writer.
  // InvalidArgument for a bad config (it names the file, the key and the rule).
  static Result<std::unique_ptr<LiveState>> Open(const LiveOptions& options);
  ~LiveState();  // Shutdown(), then joins the writer

  // Validates, enriches and durably stores `jsonl` (one or more lines; a missing final newline is
  // fine), every line of kind `kind` when given (a `kind` field is then optional, as for
  // `kaizen record KIND`). Returns after the lines are durable and folded into the learner.
  // Thread-safe. A non-OK status is a system failure (I/O, full disk) or Unavailable after
  // Shutdown began: nothing of this submission was acknowledged.
  // `now_ms`: the clock the pipeline stamps them with (a hook answered for a CLI call with its
  // own --now); default this state's.
  Status Submit(std::string_view jsonl, std::optional<model::EventKind> kind, SubmitResult* out,
                std::optional<int64_t> now_ms = std::nullopt);

  // The same without a waiting thread (the HTTP transport's event routes): `done` is called once,
  // with what Submit would have returned, on the writer thread once the lines are durable and
  // folded, or on this thread at once when Shutdown has begun. `done` must be quick (hand the
  // result to another thread): the writer's next group waits for it. REQUIRES: `jsonl` stays
  // valid until `done` is called.
  using SubmitDone = std::function<void(Status status, SubmitResult result)>;
  void SubmitAsync(std::string_view jsonl, std::optional<model::EventKind> kind, SubmitDone done);

  // Runs `fn` on the learner, folded up to at least every Submit that returned before this call,
  // and `now` (the clock), under a shared lock: several readers run at once; a fold waits.
  void Read(const std::function<void(const learn::Learner& learner, int64_t now_ms)>& fn);

  // Folds what other processes appended since the last fold (the CLI recording while the server
  // runs), then returns: a caller that must see every event stored before it (a CLI verb or hook
  // answered by this server, home/serve_client.h) calls it before Read. FailedPrecondition when
  // config/learning.json or config/themes.json changed since Open: this learner still folds under
  // the old config, so its answers are not the ones a fresh fold would give until a restart.
  // Unavailable after Shutdown began.
  Status CatchUp();

  // Stops taking submissions (Submit returns Unavailable), then waits until every submission
  // already queued is durable and answered. Idempotent.
  void Shutdown();

  int64_t Now() const;
  const std::string& home() const;
  const std::string& project() const;  // LiveOptions::project
  // The taxonomy in effect (the shipped default, extended by <home>/config/themes.json).
  const text::ThemeTaxonomy& taxonomy() const;
  // How many events are folded, and how many times the whole log was folded again.
  uint64_t events() const;
  uint64_t full_reloads() const;

 private:
  struct Impl;
  explicit LiveState(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace kaizen::serve
