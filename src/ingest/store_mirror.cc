#include "ingest/store_mirror.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <map>

#include "store/log_format.h"

namespace kaizen::ingest {
namespace {

// Rows per page read from the database: about 10-20 MB of events, one group commit each.
constexpr size_t kPageRows = 20000;

// How many of the home's events the store lacks (0 for an empty home), looked up a batch of ids
// at a time.
Result<uint64_t> EventsNotIn(store::RawLog& log, store::PgLog& pg) {
  KZ_ASSIGN_OR_RETURN(auto files, log.ListRawFiles());
  simdjson::dom::parser parser;
  std::vector<std::string> ids;
  uint64_t missing = 0;
  auto flush = [&]() -> Status {
    if (ids.empty()) return Status::Ok();
    KZ_ASSIGN_OR_RETURN(uint64_t stored, pg.CountStored(ids));
    missing += ids.size() - stored;
    ids.clear();
    return Status::Ok();
  };
  for (const auto& [name, size] : files) {
    if (size == 0) continue;
    KZ_ASSIGN_OR_RETURN(std::string data, log.ReadRaw(name, 0));
    Status bad;
    store::ForEachLine(data, 1, [&](std::string_view line, uint64_t) {
      simdjson::dom::element e;
      std::string_view id;
      if (parser.parse(line.data(), line.size(), true).get(e) != simdjson::SUCCESS ||
          e["id"].get(id) != simdjson::SUCCESS) {
        ++missing;  // a line that is not an event is not in the store either
        return;
      }
      ids.emplace_back(id);
      if (ids.size() == 10000 && bad.ok()) bad = flush();
    });
    KZ_RETURN_IF_ERROR(bad);
  }
  KZ_RETURN_IF_ERROR(flush());
  return missing;
}

// Drops the home's copy and everything derived from it; the next read copies the store whole.
Status DropCopy(store::RawLog& log, IngestCache& cache) {
  store::FileSystem* fs = log.fs();
  KZ_ASSIGN_OR_RETURN(auto files, log.ListRawFiles());
  for (const auto& [name, size] : files) KZ_RETURN_IF_ERROR(fs->Remove(log.RawPath(name)));
  KZ_RETURN_IF_ERROR(fs->SyncDir(store::PathIn(log.home(), store::kRawDir)));
  KZ_RETURN_IF_ERROR(fs->Remove(store::PathIn(log.home(), store::kLearnedCheckpoint)));
  KZ_RETURN_IF_ERROR(cache.Reset());
  std::vector<store::RecoveryNote> notes;
  return cache.CatchUp(&notes);
}

}  // namespace

Status AppendUnseen(store::RawLog& log, IngestCache& cache, const std::vector<DayLine>& lines,
                    uint64_t* appended) {
  *appended = 0;
  simdjson::dom::parser parser;
  std::map<std::string, std::string> by_day;
  std::vector<CacheRecord> records;
  for (const DayLine& l : lines) {
    simdjson::dom::element e;
    std::optional<CacheRecord> record;
    if (parser.parse(l.line.data(), l.line.size(), true).get(e) == simdjson::SUCCESS) {
      record = RecordOf(e);
    }
    if (!record) {
      cache.Forget();  // the state holds the lines before this one, which were not appended
      return DataLoss(fmt::format("a line of day {} is not an event: {:.120}", l.day, l.line));
    }
    if (!cache.state().Apply(*record)) continue;  // held already
    records.push_back(*record);
    by_day[std::string(l.day)].append(l.line).push_back('\n');
  }
  if (records.empty()) return Status::Ok();
  std::map<std::string, uint64_t> bytes;
  for (auto& [day, text] : by_day) bytes[day + std::string(store::kRawSuffix)] = text.size();
  if (Status s = log.AppendLocal(by_day); !s.ok()) {
    cache.Forget();  // the state holds lines that did not reach the files
    return s;
  }
  *appended = records.size();
  if (Status s = cache.Commit(records, bytes); !s.ok()) cache.Forget();  // derived only
  return Status::Ok();
}

Status PullMirror(store::RawLog& log, IngestCache& cache, uint64_t* pulled) {
  *pulled = 0;
  store::PgLog& pg = *log.remote();
  KZ_ASSIGN_OR_RETURN(auto state, store::ReadMirrorState(log.home(), log.fs()));
  const std::optional<store::MirrorState> before = state;
  KZ_ASSIGN_OR_RETURN(uint64_t epoch, pg.Epoch());
  if (!state) {
    KZ_ASSIGN_OR_RETURN(uint64_t missing, EventsNotIn(log, pg));
    if (missing > 0) {
      return FailedPrecondition(fmt::format(
          "the home {} holds {} event(s) the store {} does not: copy them there first with "
          "`kaizen migrate --from {} --to STORE`, or give this store another --home",
          log.home(), missing, pg.name(), log.home()));
    }
    state.emplace();
    state->store_id = pg.store_id();
    state->epoch = epoch;
  } else if (state->store_id != pg.store_id()) {
    return FailedPrecondition(fmt::format(
        "the home {} is a copy of another store ({}, id {}), not of {} (id {}): give each store "
        "its own --home",
        log.home(), state->store, state->store_id, pg.name(), pg.store_id()));
  } else if (state->epoch != epoch) {
    // The store was rewritten (forget, compact) since this copy was made.
    KZ_RETURN_IF_ERROR(DropCopy(log, cache));
    state->epoch = epoch;
    state->frontier = "0";
  }
  state->store = pg.name();

  // A first copy into a home holding nothing (a new home, or one the store's rewrite emptied):
  // every row is new and the store's ids are unique, so the lines go to the files as they come,
  // unparsed; the ingest cache reads them the next time an ingest catches up.
  KZ_ASSIGN_OR_RETURN(auto files, log.ListRawFiles());
  const bool whole =
      state->frontier == "0" &&
      std::all_of(files.begin(), files.end(), [](const auto& f) { return f.second == 0; });
  bool caught_up = false;
  std::map<std::string, std::string> by_day;
  auto copy_whole = [&](const std::vector<store::PgRow>& rows) -> Status {
    by_day.clear();
    std::string* day = nullptr;
    std::string_view day_name;
    for (const store::PgRow& row : rows) {
      if (day == nullptr || row.day != day_name) {
        day = &by_day[std::string(row.day)];
        day_name = row.day;
      }
      day->append(row.body).push_back('\n');
    }
    KZ_RETURN_IF_ERROR(log.AppendLocal(by_day));
    *pulled += rows.size();
    return Status::Ok();
  };
  std::vector<DayLine> lines;
  auto copy_page = [&](const std::vector<store::PgRow>& rows) -> Status {
    if (whole) return copy_whole(rows);
    if (!caught_up) {
      // Only now: a verb that finds nothing new (the usual case) never reads the cache.
      std::vector<store::RecoveryNote> notes;
      KZ_RETURN_IF_ERROR(cache.CatchUp(&notes));
      caught_up = true;
    }
    lines.clear();
    for (const store::PgRow& row : rows) lines.push_back({row.day, row.body});
    uint64_t appended = 0;
    KZ_RETURN_IF_ERROR(AppendUnseen(log, cache, lines, &appended));
    *pulled += appended;
    return Status::Ok();
  };
  KZ_ASSIGN_OR_RETURN(store::PgLog::Since since,
                      pg.ReadSince(state->frontier, kPageRows, copy_page));
  state->frontier = since.frontier;
  // A rewrite between the two reads: the copy is of the older epoch, so the next pull redoes it.
  if (since.epoch != state->epoch) state->epoch = since.epoch - 1;
  if (before && before->frontier == state->frontier && before->epoch == state->epoch &&
      before->store == state->store) {
    return Status::Ok();  // nothing moved: no rewrite of the file on every batch
  }
  return store::WriteMirrorState(log.home(), log.fs(), *state);
}

Status SyncMirror(store::RawLog& log, uint64_t* pulled) {
  KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
  KZ_RETURN_IF_ERROR(log.EnsureLayout());
  IngestCache cache(&log);  // caught up by PullMirror when it has rows to check
  KZ_RETURN_IF_ERROR(PullMirror(log, cache, pulled));
  if (*pulled > 0) (void)cache.WriteIndex();  // derived: without it the next process reads more
  return Status::Ok();
}

}  // namespace kaizen::ingest
