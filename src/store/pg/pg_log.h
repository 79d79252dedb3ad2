// The event log in a shared PostgreSQL database (docs/teams.md): the store a team's servers,
// agents and reviewers share, where one machine's home outgrows its files. Each event keeps its
// exact bytes (`body`, text) beside typed columns for what a query or a partition needs (id,
// day, time, kind, reviewer, project). The table is partitioned by month of `day` (the raw file
// day the line belongs to), partitions made as events arrive.
//
// A home stays the working copy (its day files mirror the database; ingest/store_mirror.h): every
// reader above the storage layer keeps reading files, and the database is the truth they are
// brought up to date from. What makes that exact is how new rows are found: each row records the
// transaction that wrote it (`xid`, pg_current_xact_id()). Every transaction older than a
// snapshot's xmin has ended, so a reader that has consumed every row below a frontier F, and then
// reads the rows at or above F under a snapshot whose xmin is X, can move its frontier to X: no
// row below X can appear later. Rows at or above X are read again next time (a re-read window as
// wide as the oldest open transaction) and skipped by id. Sequence values that commit out of
// order, a long transaction, or a writer on another machine lose nothing.
//
// Writes are one transaction per batch (the ingest's group commit), durable when Insert returns
// OK (PostgreSQL's commit; a team that set synchronous_commit off or to a standby chose its own
// durability). Ids are unique across the whole log (kaizen_event_ids), so a replayed batch is
// refused whole rather than stored twice. A committed batch notifies `kaizen_events`, which other
// servers LISTEN to.
//
// Not thread-safe: one PgLog (one connection) per thread.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"
#include "store/file_system.h"
#include "store/shared_log.h"
#include "store/token_registry.h"

struct pg_conn;

namespace kaizen::store {

// The notification channel of committed batches.
inline constexpr std::string_view kPgChannel = "kaizen_events";

class PgLog final : public SharedLog {
 public:
  // Connects with libpq's conninfo (a postgresql:// URI or key=value pairs; PG* environment
  // variables, sslmode, several hosts and target_session_attrs as libpq has them) and creates the
  // schema when the database has none. Unavailable when the server cannot be reached.
  static Result<std::unique_ptr<PgLog>> Open(const std::string& conninfo);
  ~PgLog() override;
  PgLog(const PgLog&) = delete;
  PgLog& operator=(const PgLog&) = delete;

  // The store as a person reads it: postgresql://user@host:port/dbname (never the password).
  const std::string& name() const override { return name_; }
  // A random id made with the schema: tells one database from another (a home mirrors one).
  const std::string& store_id() const override { return store_id_; }

  // Stores every line of `lines_by_day` (day -> lines, each ending in '\n') in one transaction:
  // durable when OK. AlreadyExists, naming the id, when an id is already stored (by a replay or
  // another writer): then nothing of the batch is stored. Unavailable when the server is
  // unreachable (nothing acknowledged; the caller may retry).
  Status Insert(const std::map<std::string, std::string>& lines_by_day) override;
  // The same, skipping lines whose id is stored already (kaizen migrate, resumable): the count of
  // lines stored.
  Result<uint64_t> InsertNew(const std::map<std::string, std::string>& lines_by_day) override;

  // Rows written since `frontier` (a decimal xid8; "0" for all), in (xid, seq) order, a page at a
  // time under one snapshot; rows at or above the new frontier may be passed again on the next
  // call (skip them by id). `epoch` is the log's rewrite count read in the same snapshot. The
  // whole log ("0") comes in day order, each day's rows in the order they were written, with
  // `xid` and `id` left empty: the server spends nothing on what a copy of every row does not
  // ask (the ids are in the bodies).
  Result<Since> ReadSince(const std::string& frontier, size_t page_rows, const Page& fn) override;
  // Every row in insertion order (seq), a page at a time under one snapshot.
  Status ReadAll(size_t page_rows, const Page& fn) override;
  // How many of `ids` the store holds.
  Result<uint64_t> CountStored(const std::vector<std::string>& ids) override;
  // The rewrite count: bumped by every RewriteDay, so mirrors know to copy the log again.
  Result<uint64_t> Epoch() override;
  Result<uint64_t> Count() override;

  // Replaces the rows of day `day` given as `old_text` by `new_text` (retention, deletion): ids in
  // old and not in new are deleted, changed bytes are updated, new ids inserted; rows of that day
  // in neither (another writer's, stored meanwhile) are left alone. Bumps the epoch. Returns it.
  Result<uint64_t> RewriteDay(std::string_view day, std::string_view old_text,
                              std::string_view new_text) override;

  // The token registry's table (store/token_registry.h).
  Result<std::vector<TokenEntry>> ListTokens() override;
  Status AddToken(const TokenEntry& entry) override;
  Status RevokeToken(std::string_view name, std::string_view at) override;

  // LISTEN on kPgChannel (a connection of its own: it stays idle between waits).
  Status Listen() override;
  // Waits up to `timeout_ms` for a notification; true when one (or more) arrived from another
  // writer than `ignore` (a writer_id()).
  Result<bool> WaitNotification(int timeout_ms, std::string_view ignore = {}) override;
  // This connection's random id, the payload of the notifications its batches send.
  const std::string& writer_id() const override { return writer_id_; }

 private:
  explicit PgLog(pg_conn* conn);
  Status Connected();
  Status EnsureSchema();
  // Streams the rows of `select` (xid::text, seq, id, day::text, body) with COPY ... (FORMAT
  // binary): no escaping to undo, no cursor round trip per page. `page_rows` at a time into fn.
  Status CopyRows(const std::string& select, size_t page_rows, const Page& fn);
  Status EnsurePartitions(const std::map<std::string, std::string>& lines_by_day);
  Result<uint64_t> InsertBatch(const std::map<std::string, std::string>& lines_by_day,
                               bool skip_stored);

  pg_conn* conn_;
  std::string name_;
  std::string store_id_;
  std::vector<std::string> months_;  // partitions this connection made sure of, sorted
  bool listening_ = false;
  std::string writer_id_;
};

// One tuple of COPY's binary format (its field count first) from [p, end) into `row` (views into
// those bytes); false when the bytes are not the five fields a read asks for (xid::text, seq,
// id, day::text, body), none of them NULL. The bytes come from the server: never trusted.
bool ParseCopyTuple(const char* p, const char* end, StoredRow* row);

}  // namespace kaizen::store
