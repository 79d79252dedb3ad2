// The event log a team shares (docs/teams.md), as every layer above the storage sees it: the
// store a team's servers, agents and reviewers write to, of which each home is a working copy
// (ingest/store_mirror.h). One backend today, a PostgreSQL database (store/pg/pg_log.h, which
// states how new rows are found exactly and what is durable when); nothing above store/ and
// home/ names it, so another backend changes only these two folders.
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
#include "store/token_registry.h"

namespace kaizen::store {

// One stored row as read back: views into the page being delivered, valid during the callback.
// A read of the whole log (ReadSince from "0") leaves `xid` and `id` empty.
struct StoredRow {
  std::string_view xid;  // the writing transaction (decimal): where a read resumes
  int64_t seq = 0;       // insertion order
  std::string_view id;
  std::string_view day;   // YYYY-MM-DD: the raw file day
  std::string_view body;  // the stored line, without '\n'
};

// Not thread-safe: one per thread (one connection each).
class SharedLog {
 public:
  virtual ~SharedLog() = default;

  // The store as a person reads it (postgresql://user@host:port/dbname; never a password).
  virtual const std::string& name() const = 0;
  // A random id made with the store: tells one store from another (a home mirrors one).
  virtual const std::string& store_id() const = 0;

  // Stores every line of `lines_by_day` (day -> lines, each ending in '\n') at once: durable when
  // OK. AlreadyExists, naming the id, when an id is already stored (by a replay or another
  // writer): then nothing of the batch is stored. Unavailable when the store is unreachable
  // (nothing acknowledged; the caller may retry).
  virtual Status Insert(const std::map<std::string, std::string>& lines_by_day) = 0;
  // The same, skipping lines whose id is stored already (kaizen migrate, resumable): the count of
  // lines stored.
  virtual Result<uint64_t> InsertNew(const std::map<std::string, std::string>& lines_by_day) = 0;

  // Rows written since `frontier` ("0" for all), a page at a time under one snapshot; rows at or
  // above the new frontier may be passed again on the next call (skip them by id). `epoch` is the
  // log's rewrite count read with them. The whole log ("0") comes in day order, each day's rows
  // in the order they were written, with `xid` and `id` left empty.
  struct Since {
    std::string frontier;  // the next call's
    uint64_t epoch = 0;
  };
  using Page = std::function<Status(const std::vector<StoredRow>&)>;
  virtual Result<Since> ReadSince(const std::string& frontier, size_t page_rows,
                                  const Page& fn) = 0;
  // Every row in insertion order, a page at a time under one snapshot.
  virtual Status ReadAll(size_t page_rows, const Page& fn) = 0;
  // How many of `ids` the store holds.
  virtual Result<uint64_t> CountStored(const std::vector<std::string>& ids) = 0;
  // The rewrite count: bumped by every RewriteDay, so mirrors know to copy the log again.
  virtual Result<uint64_t> Epoch() = 0;
  virtual Result<uint64_t> Count() = 0;

  // Replaces the rows of day `day` given as `old_text` by `new_text` (retention, deletion): ids in
  // old and not in new are deleted, changed bytes are updated, new ids inserted; rows of that day
  // in neither (another writer's, stored meanwhile) are left alone. Bumps the epoch. Returns it.
  virtual Result<uint64_t> RewriteDay(std::string_view day, std::string_view old_text,
                                      std::string_view new_text) = 0;

  // The token registry's table (store/token_registry.h).
  virtual Result<std::vector<TokenEntry>> ListTokens() = 0;
  virtual Status AddToken(const TokenEntry& entry) = 0;
  virtual Status RevokeToken(std::string_view name, std::string_view at) = 0;

  // Subscribes to the notices of committed batches (on a connection of its own: it stays idle
  // between waits).
  virtual Status Listen() = 0;
  // Waits up to `timeout_ms` for a notice; true when one (or more) arrived from another writer
  // than `ignore` (a writer_id()).
  virtual Result<bool> WaitNotification(int timeout_ms, std::string_view ignore = {}) = 0;
  // This connection's random id, the payload of the notices its batches send.
  virtual const std::string& writer_id() const = 0;
};

// Whether --store / $KAIZEN_STORE names a shared log kaizen knows (a PostgreSQL database:
// postgresql:// or postgres://, or libpq's key=value pairs).
bool NamesSharedLog(std::string_view s);

// Connects to the shared log `uri` names, creating its schema when it has none. InvalidArgument
// when `uri` names none (NamesSharedLog), Unavailable when it cannot be reached.
Result<std::unique_ptr<SharedLog>> OpenSharedLog(const std::string& uri);

// What a home that mirrors a store knows of it (<home>/feedback/store.json): which store, the
// epoch its files were copied at, and the frontier its next read starts from.
struct MirrorState {
  std::string store_id;
  std::string store;  // the store's name, for messages
  uint64_t epoch = 0;
  std::string frontier = "0";
};
inline constexpr std::string_view kMirrorStateFile = "feedback/store.json";
// nullopt when the home mirrors no store.
Result<std::optional<MirrorState>> ReadMirrorState(const std::string& home, FileSystem* fs);
// Written after the lines it covers are durable; not itself fsynced: a lost update only makes the
// next read start earlier (rows it meets again are skipped by id).
Status WriteMirrorState(const std::string& home, FileSystem* fs, const MirrorState& state);

}  // namespace kaizen::store
