// `kaizen migrate --from HOME|URI --to HOME|URI`: copies every event of one log into another, a
// home's files or a PostgreSQL store, either way, byte for byte: the same ids, the same bytes,
// each line in the same day file and in the same order within it. Resumable: what the
// destination holds already (by id) is skipped, so a copy cut short is finished by running it
// again, and a second run copies nothing.
#include <fmt/format.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/json_text.h"
#include "cli/verb.h"
#include "cli/verbs.h"
#include "home/store_open.h"
#include "ingest/ingest_state.h"
#include "ingest/store_mirror.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"
#include "store/log_format.h"
#include "store/shared_log.h"

namespace kaizen::cli {
namespace {

// Lines per batch: one commit (a transaction, or an fsync per day file) each.
constexpr size_t kBatchLines = 20000;

struct MigrateReport {
  uint64_t read = 0, copied = 0;
};

// Where lines go: a store (InsertNew skips its ids) or a home (AppendUnseen does).
class Sink {
 public:
  virtual ~Sink() = default;
  virtual Result<uint64_t> Write(const std::vector<ingest::DayLine>& lines) = 0;
};

class StoreSink : public Sink {
 public:
  explicit StoreSink(store::SharedLog* pg) : pg_(pg) {}
  Result<uint64_t> Write(const std::vector<ingest::DayLine>& lines) override {
    std::map<std::string, std::string> by_day;
    for (const auto& l : lines) by_day[std::string(l.day)].append(l.line).push_back('\n');
    return pg_->InsertNew(by_day);
  }

 private:
  store::SharedLog* pg_;
};

class HomeSink : public Sink {
 public:
  explicit HomeSink(const std::string& home)
      : log_(home, store::DefaultFileSystem()), cache_(&log_) {}
  Status Open() {
    KZ_ASSIGN_OR_RETURN(lock_, log_.Lock());
    KZ_RETURN_IF_ERROR(log_.EnsureLayout());
    KZ_ASSIGN_OR_RETURN(auto mirror, store::ReadMirrorState(log_.home(), log_.fs()));
    if (mirror) {
      return FailedPrecondition(fmt::format(
          "--to {}: that home is the working copy of the store {}; copy into the store instead",
          log_.home(), mirror->store));
    }
    std::vector<store::RecoveryNote> notes;
    return cache_.CatchUp(&notes);
  }
  Result<uint64_t> Write(const std::vector<ingest::DayLine>& lines) override {
    uint64_t appended = 0;
    KZ_RETURN_IF_ERROR(ingest::AppendUnseen(log_, cache_, lines, &appended));
    return appended;
  }
  Status Close() { return cache_.WriteIndex(/*force=*/true); }

 private:
  store::RawLog log_;
  ingest::IngestCache cache_;
  std::unique_ptr<store::FileLock> lock_;
};

// Every line of a home, in log order (day files by name, a day's cold file before its hot one),
// a batch at a time.
Status ReadHome(const std::string& home, MigrateReport* r,
                const std::function<Status(const std::vector<ingest::DayLine>&)>& fn) {
  store::RawLog log(home, store::DefaultFileSystem());
  if (!log.HomeExists()) {
    return NotFound(fmt::format("--from {}: no such home (a directory kaizen made)", home));
  }
  KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
  KZ_ASSIGN_OR_RETURN(auto files, log.ListRawFiles());
  std::vector<ingest::DayLine> batch;
  for (const auto& [name, size] : files) {
    KZ_ASSIGN_OR_RETURN(std::string data, log.ReadRaw(name, 0));
    if (!data.empty() && data.back() != '\n') {
      return DataLoss(
          fmt::format("--from {}: {} ends in a torn line; run `kaizen verify --home "
                      "{}` first",
                      home, log.RawPath(name), home));
    }
    const std::string day = name.substr(0, 10);
    Status bad;
    store::ForEachLine(data, 1, [&](std::string_view line, uint64_t) {
      if (!bad.ok() || line.empty()) return;
      batch.push_back({day, line});
      ++r->read;
      if (batch.size() == kBatchLines) {
        bad = fn(batch);
        batch.clear();
      }
    });
    KZ_RETURN_IF_ERROR(bad);
    // The views point into `data`: the batch is written before it goes.
    if (!batch.empty()) {
      KZ_RETURN_IF_ERROR(fn(batch));
      batch.clear();
    }
  }
  return Status::Ok();
}

Status ReadStore(store::SharedLog& pg, MigrateReport* r,
                 const std::function<Status(const std::vector<ingest::DayLine>&)>& fn) {
  std::vector<ingest::DayLine> batch;
  return pg.ReadAll(kBatchLines, [&](const std::vector<store::StoredRow>& rows) {
    batch.clear();
    for (const store::StoredRow& row : rows) batch.push_back({row.day, row.body});
    r->read += rows.size();
    return fn(batch);
  });
}

int MigrateCommand(const Common& c, const std::string& from, const std::string& to) {
  auto fail = [](const Status& s) {
    fmt::print(stderr, "kaizen migrate: {}\n", s.message());
    return s.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitSystem;
  };
  if (from == to) return fail(InvalidArgument("--from and --to name the same log"));
  std::unique_ptr<store::SharedLog> from_pg, to_pg;
  if (store::NamesSharedLog(from)) {
    auto opened = store::OpenSharedLog(from);
    if (!opened.ok()) return fail(opened.status());
    from_pg = std::move(*opened);
  }
  std::unique_ptr<Sink> sink;
  HomeSink* home_sink = nullptr;
  if (store::NamesSharedLog(to)) {
    auto opened = store::OpenSharedLog(to);
    if (!opened.ok()) return fail(opened.status());
    to_pg = std::move(*opened);
    if (from_pg && from_pg->store_id() == to_pg->store_id()) {
      return fail(InvalidArgument("--from and --to are the same store"));
    }
    sink = std::make_unique<StoreSink>(to_pg.get());
  } else {
    auto h = std::make_unique<HomeSink>(to);
    if (Status s = h->Open(); !s.ok()) return fail(s);
    home_sink = h.get();
    sink = std::move(h);
  }
  MigrateReport r;
  auto write = [&](const std::vector<ingest::DayLine>& lines) -> Status {
    KZ_ASSIGN_OR_RETURN(uint64_t n, sink->Write(lines));
    r.copied += n;
    return Status::Ok();
  };
  Status s = from_pg ? ReadStore(*from_pg, &r, write) : ReadHome(from, &r, write);
  if (s.ok() && home_sink) s = home_sink->Close();
  if (!s.ok()) {
    fmt::print(stderr, "kaizen migrate: {} events copied before: {}\n", r.copied, s.message());
    fmt::print(stderr, "kaizen migrate: run it again to finish (what was copied is skipped)\n");
    return s.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitSystem;
  }
  const std::string from_name = from_pg ? from_pg->name() : from;
  const std::string to_name = to_pg ? to_pg->name() : to;
  if (c.json) {
    fmt::print("{{\"from\":{},\"to\":{},\"read\":{},\"copied\":{},\"alreadyThere\":{}}}\n",
               base::JsonQuote(from_name), base::JsonQuote(to_name), r.read, r.copied,
               r.read - r.copied);
    return kExitOk;
  }
  fmt::print("migrate: {} events read from {}; {} copied to {}, {} already there\n", r.read,
             from_name, r.copied, to_name, r.read - r.copied);
  return kExitOk;
}

}  // namespace

Verb AddMigrateVerb(CLI::App& app, Common& c) {
  auto from = std::make_shared<std::string>();
  auto to = std::make_shared<std::string>();
  auto* sub = app.add_subcommand(
      "migrate",
      "copy every event from one log to another, a home or a PostgreSQL store, either way "
      "(resumable: what the destination holds is skipped)");
  sub->add_option("--from", *from, "the home directory or postgresql:// store to copy from")
      ->required();
  sub->add_option("--to", *to, "the home directory or postgresql:// store to copy into")
      ->required();
  sub->add_flag("--json", c.json, "machine-readable output");
  return {sub, [&c, from, to] { return MigrateCommand(c, *from, *to); }};
}

}  // namespace kaizen::cli
