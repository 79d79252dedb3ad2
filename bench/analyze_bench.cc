// The learning engine's costs on a realistic stored log: `kaizen gen` (100,000 events, seed 1)
// imported into a temporary home once, then read back as stored lines (kind first, enriched), in
// log order, all in memory.
//
// Per event (items = events of the whole history, a fresh Learner per iteration):
//   BM_ReadEvents    simdjson On-Demand document stream + EventReader::Read, no rule
//   BM_ReadAndAdd    the same + Learner::Add: what `kaizen analyze` spends per event
//   BM_CopyViews     copying kept views into the scratch EventViews BM_AddOnly hands to Add
//   BM_AddOnly       Learner::Add alone, on views read once and kept (their strings copied into an
//                    arena); includes the copy above, which Add needs (it resolves references in
//                    place)
//   BM_AddLatency    every Learner::Add timed on its own (steady_clock), each event's fastest of
//                    3 folds: p50/p99/p99.9/max and how many took over 10 us, so the amortized
//                    figures above cannot hide a slow event (a rehash, a new key)
// On the folded history (items = events folded):
//   BM_AnalysisJson  Learner::AnalysisJson(now): `kaizen analyze --json` after the fold
//   BM_AnalysisText  Learner::AnalysisText(now)
//   BM_AnalyzeHome   home::ReadLogViews from the home's files (page cache) + Add + AnalysisJson:
//                    `kaizen analyze --json` in process (Learner::Prepare on the reader threads)
// The target: an incremental update (one event's Add) under 10 us.
// Temp homes go under $KAIZEN_BENCH_TMP, else $TMPDIR, else /tmp; KAIZEN_BENCH_ANALYZE_EVENTS
// overrides the history's size.
#include <benchmark/benchmark.h>
#include <simdjson.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "home/log_views.h"
#include "ingest/ingestor.h"
#include "learn/event_reader.h"
#include "learn/learner.h"
#include "model/event_kind.h"
#include "sim/gen_history.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"

namespace kaizen::bench {
namespace {

namespace od = simdjson::ondemand;
using learn::EventViews;
using model::EventKind;

constexpr uint64_t kDefaultEvents = 100000;
constexpr size_t kStreamBatchBytes = 4 << 20;  // as home/log_views.cc

std::string TempRoot() {
  for (const char* var : {"KAIZEN_BENCH_TMP", "TMPDIR"}) {
    const char* v = std::getenv(var);
    if (v != nullptr && *v != '\0') return v;
  }
  return "/tmp";
}

uint64_t HistoryEvents() {
  const char* v = std::getenv("KAIZEN_BENCH_ANALYZE_EVENTS");
  if (v == nullptr || *v == '\0') return kDefaultEvents;
  return std::strtoull(v, nullptr, 10);
}

// ---- Views that outlive the parser ----

// Owns copies of the strings kept views point at.
class Arena {
 public:
  std::string_view Keep(std::string_view s) {
    if (s.empty()) return {};
    if (left_ < s.size()) {
      size_t size = std::max(kBlock, s.size());
      blocks_.push_back(std::make_unique<char[]>(size));
      next_ = blocks_.back().get();
      left_ = size;
    }
    std::memcpy(next_, s.data(), s.size());
    std::string_view kept(next_, s.size());
    next_ += s.size();
    left_ -= s.size();
    return kept;
  }
  void Keep(std::vector<std::string_view>* v) {
    for (std::string_view& s : *v) s = Keep(s);
  }

 private:
  static constexpr size_t kBlock = 1 << 20;
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* next_ = nullptr;
  size_t left_ = 0;
};

// The Keep functions below copy every string of a view. A view that gains a field must be kept
// here too, or BM_AddOnly reads freed parser memory: these sizes break the build first.
static_assert(sizeof(model::WorkView) == 224, "WorkView changed: update Keep(WorkView*)");
static_assert(sizeof(model::ReviewView) == 1192, "ReviewView changed: update Keep(ReviewView*)");
static_assert(sizeof(model::ComparisonView) == 504, "ComparisonView changed: update Keep");
static_assert(sizeof(model::AnnotationView) == 64, "AnnotationView changed: update Keep");
static_assert(sizeof(model::OutcomeView) == 208, "OutcomeView changed: update Keep");
static_assert(sizeof(model::ErrorView) == 136, "ErrorView changed: update Keep");
static_assert(sizeof(model::RewardView) == 128, "RewardView changed: update Keep");
static_assert(sizeof(model::CorrectionView) == 152, "CorrectionView changed: update Keep");
static_assert(sizeof(model::LoopView) == 264, "LoopView changed: update Keep");
static_assert(sizeof(model::AdminView) == 144, "AdminView changed: update Keep");

void Keep(Arena& a, model::WorkView* w) {
  for (std::string_view* s :
       {&w->event_id, &w->artifact_id, &w->version, &w->type, &w->server_type, &w->stage,
        &w->session_id, &w->model, &w->summary, &w->path, &w->priority}) {
    *s = a.Keep(*s);
  }
}

void Keep(Arena& a, model::ReviewView* r) {
  for (std::string_view* s : {&r->id, &r->session_id, &r->modal_id, &r->reviewer, &r->stage,
                              &r->server_type, &r->task_type, &r->reason, &r->device,
                              &r->time_of_day, &r->day_of_week, &r->presentation_format}) {
    *s = a.Keep(*s);
  }
  Keep(a, &r->work);
  a.Keep(&r->blockers);
  a.Keep(&r->suggestions);
  a.Keep(&r->themes);
  for (model::ScoreView& s : r->scores) s.dimension = a.Keep(s.dimension);
  if (r->comparison) {
    model::ComparisonView& c = *r->comparison;
    Keep(a, &c.option_a);
    Keep(a, &c.option_b);
    c.preferred = a.Keep(c.preferred);
    c.strength = a.Keep(c.strength);
    for (model::DimensionWinnerView& d : c.dimensions) d.dimension = a.Keep(d.dimension);
  }
  for (model::AnnotationView& n : r->annotations) {
    for (std::string_view* s : {&n.type, &n.severity, &n.category, &n.text}) *s = a.Keep(*s);
  }
}

void Keep(Arena& a, model::OutcomeView* v) {
  for (std::string_view* s : {&v->id, &v->bead_id, &v->strategy, &v->failure_mode,
                              &v->failure_details, &v->description}) {
    *s = a.Keep(*s);
  }
  a.Keep(&v->files_touched);
  a.Keep(&v->criteria);
  a.Keep(&v->patterns);
}

void Keep(Arena& a, model::ErrorView* v) {
  for (std::string_view* s : {&v->id, &v->bead_id, &v->error_type, &v->message, &v->stack_trace,
                              &v->tool_name, &v->context, &v->resolves}) {
    *s = a.Keep(*s);
  }
}

void Keep(Arena& a, model::RewardView* v) {
  for (std::string_view* s :
       {&v->id, &v->signal_type, &v->source, &v->task_id, &v->session_id, &v->commit_hash}) {
    *s = a.Keep(*s);
  }
}

void Keep(Arena& a, model::CorrectionView* v) {
  for (std::string_view* s : {&v->id, &v->session_id, &v->correction_type, &v->category,
                              &v->original, &v->corrected, &v->user_id, &v->method, &v->project}) {
    *s = a.Keep(*s);
  }
}

void Keep(Arena& a, model::LoopView* v) {
  for (std::string_view* s : {&v->id, &v->loop_id, &v->feedback}) *s = a.Keep(*s);
}

void Keep(Arena& a, model::AdminView* v) {
  for (std::string_view* s : {&v->id, &v->action, &v->rule_id, &v->verdict, &v->user_id,
                              &v->session_id, &v->reviewer, &v->note}) {
    *s = a.Keep(*s);
  }
}

// Every event of the history as kept views, in log order: one vector per kind and, per event,
// its kind and index there.
struct KeptEvents {
  struct Ref {
    EventKind kind;
    uint32_t index;
  };
  Arena arena;
  std::vector<Ref> order;
  std::vector<model::ReviewView> reviews;
  std::vector<model::WorkView> works;
  std::vector<model::OutcomeView> outcomes;
  std::vector<model::ErrorView> errors;
  std::vector<model::RewardView> rewards;
  std::vector<model::CorrectionView> corrections;
  std::vector<model::LoopView> loops;
  std::vector<model::AdminView> admins;

  template <typename View>
  void Push(EventKind kind, std::vector<View>* to, const View& v) {
    order.push_back({kind, static_cast<uint32_t>(to->size())});
    to->push_back(v);
    Keep(arena, &to->back());
  }

  void Push(const EventViews& e) {
    switch (e.kind) {
      case EventKind::kFeedback:
        Push(e.kind, &reviews, e.review);
        break;
      case EventKind::kWork:
        Push(e.kind, &works, e.work);
        break;
      case EventKind::kOutcome:
        Push(e.kind, &outcomes, e.outcome);
        break;
      case EventKind::kError:
        Push(e.kind, &errors, e.error);
        break;
      case EventKind::kReward:
        Push(e.kind, &rewards, e.reward);
        break;
      case EventKind::kCorrection:
        Push(e.kind, &corrections, e.correction);
        break;
      case EventKind::kLoop:
        Push(e.kind, &loops, e.loop);
        break;
      case EventKind::kAdmin:
        Push(e.kind, &admins, e.admin);
        break;
    }
  }

  // Copies event i into *out as the reader would have left it (capacity reused, no allocation
  // once warm).
  void CopyTo(size_t i, EventViews* out) const {
    const Ref ref = order[i];
    out->kind = ref.kind;
    switch (ref.kind) {
      case EventKind::kFeedback:
        out->review = reviews[ref.index];
        break;
      case EventKind::kWork:
        out->work = works[ref.index];
        break;
      case EventKind::kOutcome:
        out->outcome = outcomes[ref.index];
        break;
      case EventKind::kError:
        out->error = errors[ref.index];
        break;
      case EventKind::kReward:
        out->reward = rewards[ref.index];
        break;
      case EventKind::kCorrection:
        out->correction = corrections[ref.index];
        break;
      case EventKind::kLoop:
        out->loop = loops[ref.index];
        break;
      case EventKind::kAdmin:
        out->admin = admins[ref.index];
        break;
    }
  }
};

// ---- The history ----

struct History {
  std::string error;               // non-empty: setup failed, every benchmark skips
  std::string home;                // the imported home (removed at exit)
  simdjson::padded_string stored;  // every raw file, in log order
  uint64_t events = 0;
  int64_t now_ms = 0;
  KeptEvents kept;
  std::unique_ptr<learn::Learner> folded;  // the whole history added, default config
};

// Calls fn(views) for every stored event of `text`, as ReadLogViews' fast path does. Returns the
// number of events, or -1 when a line is not a stored event.
template <typename Fn>
int64_t ForEachStored(const simdjson::padded_string& text, od::parser& parser,
                      learn::EventReader& reader, EventViews& views, Fn&& fn) {
  od::document_stream stream;
  if (parser.iterate_many(text.data(), text.size(), kStreamBatchBytes).get(stream)) return -1;
  int64_t n = 0;
  for (auto doc : stream) {
    od::object o;
    if (doc.get_object().get(o) != simdjson::SUCCESS || !reader.Read(o, &views)) return -1;
    fn(views);
    ++n;
  }
  return n;
}

History* BuildHistory() {
  auto* h = new History;
  sim::GenOptions gen;
  gen.events = HistoryEvents();
  gen.seed = 1;
  h->now_ms = gen.start_unix_ms + (gen.span_days + 2) * model::kMsPerDay;
  std::string jsonl;
  sim::GenerateHistory(gen, &jsonl);
  simdjson::padded_string input(jsonl);
  jsonl = std::string();

  std::string tmpl = TempRoot() + "/kaizen-analyze-bench-XXXXXX";
  if (::mkdtemp(tmpl.data()) == nullptr) {
    h->error = "cannot create a temporary home under " + TempRoot();
    return h;
  }
  h->home = tmpl;
  store::FileSystem* fs = store::DefaultFileSystem();
  {
    ingest::Ingestor ingestor(h->home, fs);
    ingest::IngestOptions options;
    options.now_ms = h->now_ms;
    ingest::IngestSummary summary;
    Status st = ingestor.Ingest(std::string_view(input.data(), input.size()), options, &summary);
    if (!st.ok() || summary.stored != gen.events) {
      h->error = "import failed: " + st.ToString() + ", stored " + std::to_string(summary.stored);
      return h;
    }
  }

  store::RawLog log(h->home, fs);
  auto files = log.ListRawFiles();
  if (!files.ok()) {
    h->error = files.status().ToString();
    return h;
  }
  std::string all;
  for (const auto& [file, size] : *files) {
    auto data = log.ReadRaw(file, 0);
    if (!data.ok()) {
      h->error = data.status().ToString();
      return h;
    }
    all += *data;
  }
  h->stored = simdjson::padded_string(all);

  od::parser parser;
  learn::EventReader reader;
  EventViews views;
  int64_t n = ForEachStored(h->stored, parser, reader, views,
                            [&](const EventViews& e) { h->kept.Push(e); });
  if (n != static_cast<int64_t>(gen.events)) {
    h->error = "read back " + std::to_string(n) + " stored events of " + std::to_string(gen.events);
    return h;
  }
  h->events = static_cast<uint64_t>(n);
  h->folded = std::make_unique<learn::Learner>(learn::LearnConfig{});
  for (size_t i = 0; i < h->kept.order.size(); ++i) {
    h->kept.CopyTo(i, &views);
    h->folded->Add(views);
  }
  return h;
}

History* g_history = nullptr;  // built by the first benchmark that runs

const History& TheHistory() {
  static const History* h = g_history = BuildHistory();
  return *h;
}

// The history, or nullptr after SkipWithError.
const History* Setup(benchmark::State& state) {
  const History& h = TheHistory();
  if (!h.error.empty()) {
    state.SkipWithError(h.error.c_str());
    return nullptr;
  }
  return &h;
}

void ReportEvents(benchmark::State& state, const History& h) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * h.events));
  state.counters["events"] = static_cast<double>(h.events);
}

// A fresh Learner, made and the old one destroyed outside the timed region.
void FreshLearner(benchmark::State& state, std::unique_ptr<learn::Learner>* learner) {
  state.PauseTiming();
  learner->reset();
  *learner = std::make_unique<learn::Learner>(learn::LearnConfig{});
  state.ResumeTiming();
}

void BM_ReadEvents(benchmark::State& state) {
  const History* h = Setup(state);
  if (h == nullptr) return;
  od::parser parser;
  learn::EventReader reader;
  EventViews views;
  for (auto _ : state) {
    int64_t n = ForEachStored(h->stored, parser, reader, views,
                              [](EventViews& e) { benchmark::DoNotOptimize(&e); });
    if (n != static_cast<int64_t>(h->events)) {
      state.SkipWithError("reading the stored events failed");
      return;
    }
  }
  ReportEvents(state, *h);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * h->stored.size()));
}
BENCHMARK(BM_ReadEvents)->Unit(benchmark::kMillisecond);

void BM_ReadAndAdd(benchmark::State& state) {
  const History* h = Setup(state);
  if (h == nullptr) return;
  od::parser parser;
  learn::EventReader reader;
  EventViews views;
  std::unique_ptr<learn::Learner> learner;
  for (auto _ : state) {
    FreshLearner(state, &learner);
    int64_t n =
        ForEachStored(h->stored, parser, reader, views, [&](EventViews& e) { learner->Add(e); });
    if (n != static_cast<int64_t>(h->events)) {
      state.SkipWithError("reading the stored events failed");
      return;
    }
  }
  ReportEvents(state, *h);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * h->stored.size()));
}
BENCHMARK(BM_ReadAndAdd)->Unit(benchmark::kMillisecond);

void BM_CopyViews(benchmark::State& state) {
  const History* h = Setup(state);
  if (h == nullptr) return;
  EventViews views;
  for (auto _ : state) {
    for (size_t i = 0; i < h->kept.order.size(); ++i) {
      h->kept.CopyTo(i, &views);
      benchmark::DoNotOptimize(&views);
      benchmark::ClobberMemory();
    }
  }
  ReportEvents(state, *h);
}
BENCHMARK(BM_CopyViews)->Unit(benchmark::kMillisecond);

void BM_AddOnly(benchmark::State& state) {
  const History* h = Setup(state);
  if (h == nullptr) return;
  EventViews views;
  std::unique_ptr<learn::Learner> learner;
  for (auto _ : state) {
    FreshLearner(state, &learner);
    for (size_t i = 0; i < h->kept.order.size(); ++i) {
      h->kept.CopyTo(i, &views);
      learner->Add(views);
    }
  }
  ReportEvents(state, *h);
}
BENCHMARK(BM_AddOnly)->Unit(benchmark::kMillisecond);

void BM_AddLatency(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const History* h = Setup(state);
  if (h == nullptr) return;
  EventViews views;
  std::unique_ptr<learn::Learner> learner;
  // Each event's fastest time over the iterations: the folds are identical, so a slow event in
  // every fold is the rule's cost (a rehash, a new key), a slow one in a single fold is this
  // process waiting for the CPU.
  std::vector<int64_t> ns(h->kept.order.size(), INT64_MAX);
  for (auto _ : state) {
    FreshLearner(state, &learner);
    for (size_t i = 0; i < h->kept.order.size(); ++i) {
      h->kept.CopyTo(i, &views);
      auto t0 = Clock::now();
      learner->Add(views);
      auto t1 = Clock::now();
      ns[i] = std::min<int64_t>(
          ns[i], std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count());
    }
  }
  const size_t slowest = std::max_element(ns.begin(), ns.end()) - ns.begin();
  // The clock's own cost, to read the percentiles against.
  std::vector<int64_t> empty(10000);
  for (int64_t& e : empty) {
    auto t0 = Clock::now();
    auto t1 = Clock::now();
    e = std::chrono::duration_cast<std::chrono::nanoseconds>(t1 - t0).count();
  }
  std::sort(empty.begin(), empty.end());
  // Which kinds the slow events are, for the label: "over 10 us: feedback 12, work 30; slowest:
  // event 91356 (work, 2654 us)".
  std::array<int64_t, model::kEventKindCount> slow_by_kind{};
  for (size_t i = 0; i < ns.size(); ++i) {
    if (ns[i] > 10000) ++slow_by_kind[static_cast<size_t>(h->kept.order[i].kind)];
  }
  std::string label = "over 10 us:";
  for (int k = 0; k < model::kEventKindCount; ++k) {
    if (slow_by_kind[k] == 0) continue;
    label += " " + std::string(model::KindName(static_cast<EventKind>(k))) + " " +
             std::to_string(slow_by_kind[k]);
  }
  label += "; slowest: event " + std::to_string(slowest) + " (" +
           std::string(model::KindName(h->kept.order[slowest].kind)) + ", " +
           std::to_string(ns[slowest] / 1000) + " us)";
  state.SetLabel(label);
  std::sort(ns.begin(), ns.end());
  auto at = [&](double q) {
    return static_cast<double>(ns[std::min(ns.size() - 1, static_cast<size_t>(q * ns.size()))]);
  };
  int64_t over = ns.end() - std::upper_bound(ns.begin(), ns.end(), int64_t{10000});
  state.counters["p50_ns"] = at(0.5);
  state.counters["p99_ns"] = at(0.99);
  state.counters["p999_ns"] = at(0.999);
  state.counters["max_ns"] = static_cast<double>(ns.back());
  state.counters["over_10us"] = static_cast<double>(over);
  state.counters["clock_ns"] = static_cast<double>(empty[empty.size() / 2]);
  ReportEvents(state, *h);
}
BENCHMARK(BM_AddLatency)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_AnalysisJson(benchmark::State& state) {
  const History* h = Setup(state);
  if (h == nullptr) return;
  size_t bytes = 0;
  for (auto _ : state) {
    std::string json = h->folded->AnalysisJson(h->now_ms);
    bytes = json.size();
    benchmark::DoNotOptimize(json.data());
  }
  state.counters["output_bytes"] = static_cast<double>(bytes);
  state.counters["events"] = static_cast<double>(h->events);
}
BENCHMARK(BM_AnalysisJson)->Unit(benchmark::kMillisecond);

void BM_AnalysisText(benchmark::State& state) {
  const History* h = Setup(state);
  if (h == nullptr) return;
  size_t bytes = 0;
  for (auto _ : state) {
    std::string text = h->folded->AnalysisText(h->now_ms);
    bytes = text.size();
    benchmark::DoNotOptimize(text.data());
  }
  state.counters["output_bytes"] = static_cast<double>(bytes);
  state.counters["events"] = static_cast<double>(h->events);
}
BENCHMARK(BM_AnalysisText)->Unit(benchmark::kMillisecond);

void BM_AnalyzeHome(benchmark::State& state) {
  const History* h = Setup(state);
  if (h == nullptr) return;
  std::unique_ptr<learn::Learner> learner;
  size_t bytes = 0;
  for (auto _ : state) {
    FreshLearner(state, &learner);
    store::RawLog log(h->home, store::DefaultFileSystem());
    home::LogScan scan;
    Status st = home::ReadLogViews(
        log, [&](EventViews& e) { learner->Add(e); }, &scan,
        [&](EventViews* e) { learner->Prepare(e); });
    if (!st.ok() || scan.events != h->events) {
      state.SkipWithError(("ReadLogViews: " + st.ToString()).c_str());
      return;
    }
    std::string json = learner->AnalysisJson(h->now_ms);
    bytes = json.size();
    benchmark::DoNotOptimize(json.data());
  }
  state.counters["output_bytes"] = static_cast<double>(bytes);
  ReportEvents(state, *h);
}
BENCHMARK(BM_AnalyzeHome)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace kaizen::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  const kaizen::bench::History* h = kaizen::bench::g_history;
  if (h != nullptr && !h->home.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(h->home, ec);
  }
  return 0;
}
