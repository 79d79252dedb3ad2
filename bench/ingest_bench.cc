// Ingest throughput on a realistic generated batch (`kaizen gen`, 20,000 events, seed 1).
//
// Stage benchmarks (one event at a time, in memory, reported per event of the whole batch so the
// per-stage figures add up):
//   BM_Parse            simdjson::dom::parser::parse
//   BM_Validate         ingest::ValidateEvent on pre-parsed events
//   BM_AnalyzeFreeText  ingest::AnalyzeFreeText on the events that carry freeText
//   BM_WriteStoredEvent ingest::StoredLineWriter + FinishStoredEvent, enrichment precomputed
//   BM_InMemoryPipeline parse + validate + enrich + serialize, as the Ingestor chains them, on one
//                       thread, without the log checks (duplicates, references) and without I/O
// Whole-Ingestor benchmarks (Ingestor::Ingest of the 20,000-event batch into a fresh home per
// iteration; wall-clock time; the Ingestor runs its stateless stages on every core):
//   BM_Ingestor/mem     an in-memory FileSystem: every stage and the log checks, no I/O
//   BM_Ingestor/nosync  the real file system, fsync/fdatasync turned into no-ops (page cache only)
//   BM_Ingestor/durable the real file system, durable (one write + fdatasync per day file per
//                       group commit), as `kaizen import` runs
// Temp homes go under $KAIZEN_BENCH_TMP, else $TMPDIR, else /tmp.
#include <benchmark/benchmark.h>
#include <simdjson.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "bench_common.h"
#include "ingest/enrich.h"
#include "ingest/ingestor.h"
#include "ingest/json_tokens.h"
#include "ingest/stored_line.h"
#include "ingest/validate.h"
#include "model/event_kind.h"
#include "model/limits.h"
#include "model/timestamp.h"
#include "model/uuid.h"
#include "store/file_system.h"
#include "text/text_analysis.h"

namespace kaizen::bench {
namespace {

void ReportBatch(benchmark::State& state) {
  const Batch& b = GeneratedBatch();
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * b.lines.size()));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * b.line_bytes));
}

ingest::ValidateOptions MakeValidateOptions() {
  ingest::ValidateOptions o;
  o.now_ms = GeneratedBatch().now_ms;
  return o;
}

// The enrichment the Ingestor computes. The two values that need the log (the session's review
// count, the prediction of a referenced work event) come from `sessions` and the event itself.
struct Enriched {
  std::string id, timestamp;  // what e.id and e.timestamp view
  ingest::Enrichment e;
  int64_t session_fatigue = 0;
  std::optional<double> prediction_delta;
};

void Enrich(simdjson::dom::element event, const ingest::EventFacts& facts, int64_t now_ms,
            std::unordered_map<std::string_view, int64_t>* sessions, Enriched* out) {
  ingest::Enrichment* e = &out->e;
  model::Timestamp ts = facts.timestamp.value_or(model::Timestamp{now_ms, 0});
  // Not value_or: it would draw randomness for every event, as the Ingestor does not.
  model::Uuid id = facts.id ? *facts.id : model::NewUuidV7(ts.unix_ms);
  e->kind = model::KindName(facts.kind);
  out->id = id.ToString();
  out->timestamp = model::FormatUtc(ts.unix_ms);
  e->id = out->id;
  e->timestamp = out->timestamp;
  if (facts.kind == model::EventKind::kFeedback) {
    model::CivilTime local = model::ToCivil(ts.unix_ms + int64_t{ts.offset_minutes} * 60000);
    e->time_of_day = ingest::TimeOfDay(local.hour);
    e->day_of_week = ingest::DayOfWeek(local.weekday);
    out->session_fatigue = ++(*sessions)[facts.session_id];
    if (facts.prediction && facts.mean_score) {
      out->prediction_delta = *facts.mean_score - *facts.prediction;
    }
    simdjson::dom::object free_text;
    if (event["freeText"].get_object().get(free_text) == simdjson::SUCCESS) {
      ingest::AnalyzeFreeText(free_text, text::ThemeTaxonomy::Default(), e);
    }
  } else if (facts.kind == model::EventKind::kReward) {
    e->signal_value = facts.normalized_signal;
  } else if (facts.kind == model::EventKind::kCorrection) {
    e->correction_category =
        ingest::CorrectionCategory(event["correction_type"].get_string().value_unsafe());
  }
}

// StoredLineWriter + FinishStoredEvent: the stored line, appended to *out.
// `scratch` is the writer's buffer, as a preparing thread of the Ingestor keeps one.
void Serialize(simdjson::dom::element event, const ingest::JsonTokens& tokens, const Enriched& en,
               std::string* scratch, std::string* out) {
  static ingest::StoredLineWriter writer;
  ingest::StoredLine line;
  scratch->clear();
  if (!writer.Write(event.get_object().value_unsafe(), tokens, en.e, scratch, &line)) std::abort();
  ingest::FinishStoredEvent(line, en.session_fatigue, en.prediction_delta, out);
}

void BM_Parse(benchmark::State& state) {
  const Batch& b = GeneratedBatch();
  simdjson::dom::parser parser;
  if (parser.allocate(model::kMaxEventBytes, model::kMaxDepth)) {
    state.SkipWithError("cannot allocate the parser");
    return;
  }
  for (auto _ : state) {
    for (std::string_view line : b.lines) {
      simdjson::dom::element event;
      if (parser.parse(line.data(), line.size(), false).get(event)) {
        state.SkipWithError("parse failed");
        return;
      }
      benchmark::DoNotOptimize(event);
    }
  }
  ReportBatch(state);
}
BENCHMARK(BM_Parse)->Unit(benchmark::kMillisecond);

void BM_Validate(benchmark::State& state) {
  const auto& docs = ParsedBatch();
  const ingest::ValidateOptions vopts = MakeValidateOptions();
  for (auto _ : state) {
    for (const auto& doc : docs) {
      ingest::EventFacts facts;
      auto errors = ingest::ValidateEvent(doc->root(), vopts, &facts);
      if (!errors.empty()) {
        state.SkipWithError(("a generated event is invalid: " + errors[0].ToString()).c_str());
        return;
      }
      benchmark::DoNotOptimize(facts);
    }
  }
  ReportBatch(state);
}
BENCHMARK(BM_Validate)->Unit(benchmark::kMillisecond);

void BM_AnalyzeFreeText(benchmark::State& state) {
  std::vector<simdjson::dom::object> texts;
  for (const auto& doc : ParsedBatch()) {
    simdjson::dom::object free_text;
    if (doc->root()["freeText"].get_object().get(free_text) == simdjson::SUCCESS) {
      texts.push_back(free_text);
    }
  }
  const text::ThemeTaxonomy& taxonomy = text::ThemeTaxonomy::Default();
  for (auto _ : state) {
    for (simdjson::dom::object t : texts) {
      ingest::Enrichment e;
      ingest::AnalyzeFreeText(t, taxonomy, &e);
      benchmark::DoNotOptimize(e);
    }
  }
  state.counters["events_with_freeText"] = static_cast<double>(texts.size());
  ReportBatch(state);  // amortized over the whole batch, like the other stages
}
BENCHMARK(BM_AnalyzeFreeText)->Unit(benchmark::kMillisecond);

void BM_WriteStoredEvent(benchmark::State& state) {
  const auto& docs = ParsedBatch();
  const ingest::ValidateOptions vopts = MakeValidateOptions();
  std::vector<Enriched> enrichments(docs.size());
  std::unordered_map<std::string_view, int64_t> sessions;
  for (size_t i = 0; i < docs.size(); ++i) {
    ingest::EventFacts facts;
    if (!ingest::ValidateEvent(docs[i]->root(), vopts, &facts).empty()) {
      state.SkipWithError("a generated event is invalid");
      return;
    }
    Enrich(docs[i]->root(), facts, vopts.now_ms, &sessions, &enrichments[i]);
  }
  std::string out;
  std::string scratch;
  size_t out_bytes = 0;
  for (auto _ : state) {
    out.clear();
    for (size_t i = 0; i < docs.size(); ++i) {
      const ingest::JsonTokens tokens(GeneratedBatch().lines[i], ParsedBatchWithTokens().tokens[i]);
      Serialize(docs[i]->root(), tokens, enrichments[i], &scratch, &out);
    }
    out_bytes = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["stored_bytes_per_event"] = static_cast<double>(out_bytes) / docs.size();
  ReportBatch(state);
}
BENCHMARK(BM_WriteStoredEvent)->Unit(benchmark::kMillisecond);

void BM_InMemoryPipeline(benchmark::State& state) {
  const Batch& b = GeneratedBatch();
  const ingest::ValidateOptions vopts = MakeValidateOptions();
  simdjson::dom::parser parser;
  if (parser.allocate(model::kMaxEventBytes, model::kMaxDepth)) {
    state.SkipWithError("cannot allocate the parser");
    return;
  }
  std::map<std::string, std::string> by_day;
  std::string scratch;
  size_t out_bytes = 0;
  for (auto _ : state) {
    by_day.clear();
    std::unordered_map<std::string_view, int64_t> sessions;
    for (std::string_view line : b.lines) {
      simdjson::dom::element event;
      if (parser.parse(line.data(), line.size(), false).get(event)) {
        state.SkipWithError("parse failed");
        return;
      }
      ingest::EventFacts facts;
      if (!ingest::ValidateEvent(event, vopts, &facts).empty()) {
        state.SkipWithError("a generated event is invalid");
        return;
      }
      Enriched en;
      Enrich(event, facts, vopts.now_ms, &sessions, &en);
      int64_t ms = facts.timestamp ? facts.timestamp->unix_ms : vopts.now_ms;
      Serialize(event, ingest::JsonTokens::Of(parser, line), en, &scratch,
                &by_day[model::FormatDay(ms)]);
    }
    out_bytes = 0;
    for (const auto& [day, data] : by_day) out_bytes += data.size();
    benchmark::DoNotOptimize(out_bytes);
  }
  state.counters["stored_bytes_per_event"] = static_cast<double>(out_bytes) / b.lines.size();
  ReportBatch(state);
}
BENCHMARK(BM_InMemoryPipeline)->Unit(benchmark::kMillisecond);

// ---- Whole Ingestor ----

// Everything in memory: the log's files are strings. Enough of the FileSystem contract for the
// Ingestor and RawLog (append, read, list, atomic replace, locks).
class MemFileSystem final : public store::FileSystem {
 public:
  class File final : public store::AppendableFile {
   public:
    explicit File(std::string* data) : data_(data) {}
    Status Append(std::string_view data) override {
      data_->append(data);
      return Status::Ok();
    }
    Status Sync() override { return Status::Ok(); }
    Status Truncate(uint64_t size) override {
      data_->resize(size);
      return Status::Ok();
    }
    uint64_t Size() const override { return data_->size(); }

   private:
    std::string* data_;
  };
  class Lock final : public store::FileLock {};

  Result<std::unique_ptr<store::AppendableFile>> OpenAppendable(const std::string& path) override {
    return std::unique_ptr<store::AppendableFile>(new File(&files_[path]));
  }
  Result<std::string> ReadFrom(const std::string& path, uint64_t offset) override {
    auto it = files_.find(path);
    if (it == files_.end()) return IoError("cannot open " + path + ": No such file or directory");
    return offset < it->second.size() ? it->second.substr(offset) : std::string();
  }
  Result<uint64_t> FileSize(const std::string& path) override {
    auto it = files_.find(path);
    if (it == files_.end()) return IoError("cannot stat " + path + ": No such file or directory");
    return static_cast<uint64_t>(it->second.size());
  }
  bool Exists(const std::string& path) override { return files_.count(path) || dirs_.count(path); }
  Status CreateDirs(const std::string& path) override {
    for (size_t pos = path.find('/', 1);; pos = path.find('/', pos + 1)) {
      dirs_.insert(path.substr(0, pos));
      if (pos == std::string::npos) break;
    }
    return Status::Ok();
  }
  Result<std::vector<std::string>> ListFiles(const std::string& dir) override {
    std::vector<std::string> names;
    std::string prefix = dir + "/";
    for (auto it = files_.lower_bound(prefix); it != files_.end(); ++it) {
      if (it->first.compare(0, prefix.size(), prefix) != 0) break;
      std::string rest = it->first.substr(prefix.size());
      if (rest.find('/') == std::string::npos) names.push_back(rest);
    }
    return names;  // std::map: already sorted
  }
  Status WriteFileAtomic(const std::string& path, std::string_view data, bool) override {
    files_[path] = std::string(data);
    return Status::Ok();
  }
  Status SyncDir(const std::string&) override { return Status::Ok(); }
  Status Remove(const std::string& path) override {
    files_.erase(path);
    return Status::Ok();
  }
  Result<std::unique_ptr<store::FileLock>> LockFile(const std::string& path) override {
    files_[path];
    return std::unique_ptr<store::FileLock>(new Lock);
  }

 private:
  std::map<std::string, std::string> files_;
  std::set<std::string> dirs_;
};

// The real file system with fsync turned off: what durability costs on this disk.
class NoSyncFileSystem final : public store::FileSystem {
 public:
  class File final : public store::AppendableFile {
   public:
    explicit File(std::unique_ptr<store::AppendableFile> base) : base_(std::move(base)) {}
    Status Append(std::string_view data) override { return base_->Append(data); }
    Status Sync() override { return Status::Ok(); }
    Status Truncate(uint64_t size) override { return base_->Truncate(size); }
    uint64_t Size() const override { return base_->Size(); }

   private:
    std::unique_ptr<store::AppendableFile> base_;
  };

  Result<std::unique_ptr<store::AppendableFile>> OpenAppendable(const std::string& path) override {
    auto f = base_->OpenAppendable(path);
    if (!f.ok()) return f.status();
    return std::unique_ptr<store::AppendableFile>(new File(std::move(*f)));
  }
  Result<std::string> ReadFrom(const std::string& path, uint64_t offset) override {
    return base_->ReadFrom(path, offset);
  }
  Result<uint64_t> FileSize(const std::string& path) override { return base_->FileSize(path); }
  bool Exists(const std::string& path) override { return base_->Exists(path); }
  Status CreateDirs(const std::string& path) override { return base_->CreateDirs(path); }
  Result<std::vector<std::string>> ListFiles(const std::string& dir) override {
    return base_->ListFiles(dir);
  }
  Status WriteFileAtomic(const std::string& path, std::string_view data, bool) override {
    return base_->WriteFileAtomic(path, data, /*durable=*/false);
  }
  Status SyncDir(const std::string&) override { return Status::Ok(); }
  Status Remove(const std::string& path) override { return base_->Remove(path); }
  Result<std::unique_ptr<store::FileLock>> LockFile(const std::string& path) override {
    return base_->LockFile(path);
  }

 private:
  store::FileSystem* base_ = store::DefaultFileSystem();
};

std::string TempRoot() {
  for (const char* var : {"KAIZEN_BENCH_TMP", "TMPDIR"}) {
    const char* v = std::getenv(var);
    if (v != nullptr && *v != '\0') return v;
  }
  return "/tmp";
}

std::string MakeTempHome() {
  std::string tmpl = TempRoot() + "/kaizen-bench-home-XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr) return {};
  return tmpl;
}

enum class FsMode { kMemory, kNoSync, kDurable };

void BM_Ingestor(benchmark::State& state, FsMode mode) {
  const Batch& b = GeneratedBatch();
  std::string_view input(b.text.data(), b.text.size());
  ingest::IngestOptions options;
  options.now_ms = b.now_ms;
  NoSyncFileSystem nosync_fs;
  for (auto _ : state) {
    state.PauseTiming();
    std::unique_ptr<MemFileSystem> mem_fs;
    store::FileSystem* fs = nullptr;
    std::string home;
    if (mode == FsMode::kMemory) {
      mem_fs = std::make_unique<MemFileSystem>();
      fs = mem_fs.get();
      home = "/mem/home";
    } else {
      fs = mode == FsMode::kNoSync ? static_cast<store::FileSystem*>(&nosync_fs)
                                   : store::DefaultFileSystem();
      home = MakeTempHome();
      if (home.empty()) {
        state.SkipWithError("cannot create a temporary home");
        return;
      }
    }
    state.ResumeTiming();

    ingest::Ingestor ingestor(home, fs);
    ingest::IngestSummary summary;
    Status st = ingestor.Ingest(input, options, &summary);

    state.PauseTiming();
    if (!home.empty() && mode != FsMode::kMemory) {
      std::error_code ec;
      std::filesystem::remove_all(home, ec);
    }
    if (!st.ok()) {
      state.SkipWithError(("Ingest failed: " + st.ToString()).c_str());
      return;
    }
    if (summary.stored != b.lines.size()) {
      state.SkipWithError(("stored " + std::to_string(summary.stored) + " of " +
                           std::to_string(b.lines.size()) + " events")
                              .c_str());
      return;
    }
    state.ResumeTiming();
  }
  ReportBatch(state);
}
// An iteration takes most of a second: a fixed count rather than --benchmark_min_time.
BENCHMARK_CAPTURE(BM_Ingestor, mem, FsMode::kMemory)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Ingestor, nosync, FsMode::kNoSync)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);
BENCHMARK_CAPTURE(BM_Ingestor, durable, FsMode::kDurable)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

}  // namespace
}  // namespace kaizen::bench

BENCHMARK_MAIN();
