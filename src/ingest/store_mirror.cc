#include "ingest/store_mirror.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <map>
#include <memory>

#include "store/log_format.h"

namespace kaizen::ingest {
namespace {

// Rows per page read from the database: about 10-20 MB of events, one group commit each (in a
// whole copy, one write per day the page holds, and the piece a following fold reads).
constexpr size_t kPageRows = 20000;

// How many of the home's events the store lacks (0 for an empty home), looked up a batch of ids
// at a time.
Result<uint64_t> EventsNotIn(store::RawLog& log, store::SharedLog& pg) {
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

// Writes a whole copy's rows to the day files as they stream in, in log order (day, then the
// order each day's rows were written): each file opened once and written a page at a time, its
// writeback started when the next day begins and waited for in one pass at the end. The copy is
// acknowledged to nobody until the mirror state is written after Finish, so one fsync per file
// at the end is as safe as one per page, and leaves the disk busy while the rows still stream.
class WholeCopy {
 public:
  WholeCopy(store::RawLog& log, store::CopyProgress* progress) : log_(log), progress_(progress) {}

  // Appends the page's rows, a run of one day at a time, each run a piece for the reader (its
  // bytes handed over, in a buffer a reader gave back when there is one).
  Status Page(const std::vector<store::StoredRow>& rows) {
    for (size_t i = 0; i < rows.size();) {
      const std::string_view day = rows[i].day;
      size_t j = i, bytes = 0;
      for (; j < rows.size() && rows[j].day == day; ++j) bytes += rows[j].body.size() + 1;
      std::string text = progress_ != nullptr ? progress_->Reusable() : std::move(text_);
      text.clear();
      text.reserve(bytes + store::kPieceSlack);
      for (size_t k = i; k < j; ++k) text.append(rows[k].body).push_back('\n');
      if (file_ == nullptr || day != day_) KZ_RETURN_IF_ERROR(Open(day));
      const uint64_t start = file_->Size();
      if (Status s = file_->Append(text); !s.ok()) {
        (void)file_->Truncate(start);  // no torn line left behind; the next copy reads on by id
        return s;
      }
      if (progress_ != nullptr) {
        progress_->Add({name_, start, file_->Size(), lines_, std::move(text)});
      } else {
        text_ = std::move(text);
      }
      lines_ += j - i;
      i = j;
    }
    return Status::Ok();
  }

  // Makes every file written durable, and their directory entries.
  Status Finish() {
    if (file_ != nullptr) file_->StartSync();
    file_.reset();
    store::FileSystem* fs = log_.fs();
    for (const std::string& name : written_) {
      KZ_ASSIGN_OR_RETURN(auto f, fs->OpenAppendable(log_.RawPath(name)));
      KZ_RETURN_IF_ERROR(f->Sync());
    }
    if (written_.empty()) return Status::Ok();
    KZ_RETURN_IF_ERROR(fs->SyncDir(store::PathIn(log_.home(), store::kRawDir)));
    KZ_RETURN_IF_ERROR(fs->SyncDir(store::PathIn(log_.home(), "feedback")));
    return fs->SyncDir(log_.home());
  }

 private:
  Status Open(std::string_view day) {
    if (file_ != nullptr && day < day_) {
      return DataLoss(
          fmt::format("the store sent rows of day {} after day {}: a whole copy "
                      "streams in day order",
                      day, day_));
    }
    if (file_ != nullptr) file_->StartSync();
    file_.reset();  // before the next opens: a long log has more days than a process has files
    day_ = day;
    name_ = day_ + std::string(store::kRawSuffix);
    KZ_ASSIGN_OR_RETURN(file_, log_.fs()->OpenAppendable(log_.RawPath(name_)));
    written_.push_back(name_);
    lines_ = 0;
    return Status::Ok();
  }

  store::RawLog& log_;
  store::CopyProgress* progress_;
  std::unique_ptr<store::AppendableFile> file_;
  std::string day_, name_;
  uint64_t lines_ = 0;  // of file_, before what the next page appends
  std::vector<std::string> written_;
  std::string text_;  // a page's run of one day, kept for its capacity when no reader follows
};

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

Status PullMirror(store::RawLog& log, IngestCache& cache, uint64_t* pulled,
                  store::CopyProgress* progress) {
  *pulled = 0;
  store::SharedLog& pg = *log.remote();
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
  if (progress != nullptr) progress->SetWhole(whole);
  WholeCopy copy(log, progress);
  bool caught_up = false;
  std::vector<DayLine> lines;
  auto copy_page = [&](const std::vector<store::StoredRow>& rows) -> Status {
    if (whole) {
      KZ_RETURN_IF_ERROR(copy.Page(rows));
      *pulled += rows.size();
      return Status::Ok();
    }
    if (!caught_up) {
      // Only now: a verb that finds nothing new (the usual case) never reads the cache.
      std::vector<store::RecoveryNote> notes;
      KZ_RETURN_IF_ERROR(cache.CatchUp(&notes));
      caught_up = true;
    }
    lines.clear();
    for (const store::StoredRow& row : rows) lines.push_back({row.day, row.body});
    uint64_t appended = 0;
    KZ_RETURN_IF_ERROR(AppendUnseen(log, cache, lines, &appended));
    *pulled += appended;
    return Status::Ok();
  };
  KZ_ASSIGN_OR_RETURN(store::SharedLog::Since since,
                      pg.ReadSince(state->frontier, kPageRows, copy_page));
  if (whole) KZ_RETURN_IF_ERROR(copy.Finish());
  state->frontier = since.frontier;
  // A rewrite between the two reads: the copy is of the older epoch, so the next pull redoes it.
  if (since.epoch != state->epoch) state->epoch = since.epoch - 1;
  if (before && before->frontier == state->frontier && before->epoch == state->epoch &&
      before->store == state->store) {
    return Status::Ok();  // nothing moved: no rewrite of the file on every batch
  }
  return store::WriteMirrorState(log.home(), log.fs(), *state);
}

Status SyncMirror(store::RawLog& log, uint64_t* pulled, store::CopyProgress* progress) {
  KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
  KZ_RETURN_IF_ERROR(log.EnsureLayout());
  IngestCache cache(&log);  // caught up by PullMirror when it has rows to check
  KZ_RETURN_IF_ERROR(PullMirror(log, cache, pulled, progress));
  if (*pulled > 0) (void)cache.WriteIndex();  // derived: without it the next process reads more
  return Status::Ok();
}

BackgroundSync::BackgroundSync(std::string home, std::string conninfo)
    : home_(std::move(home)), progress_(std::make_shared<store::CopyProgress>()) {
  // Registered before the copy starts: a reader that comes first waits for it.
  store::SetCopyInProgress(home_, progress_);
  progress_->Start(
      [home = home_, conninfo = std::move(conninfo), progress = progress_.get()]() -> Status {
        KZ_ASSIGN_OR_RETURN(std::unique_ptr<store::SharedLog> pg, store::OpenSharedLog(conninfo));
        store::RawLog log(home, store::DefaultFileSystem());
        log.set_remote(pg.get());
        uint64_t pulled = 0;
        return SyncMirror(log, &pulled, progress);  // the home's lock is released on return
      });
}

BackgroundSync::~BackgroundSync() { (void)Join(); }

Status BackgroundSync::Join() {
  Status s = progress_->Wait();
  store::SetCopyInProgress(home_, nullptr);
  return s;
}

}  // namespace kaizen::ingest
