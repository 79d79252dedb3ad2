// What `get_context` costs once the history is folded: the part of a GET /v1/context (or an MCP
// get_context call) that is kaizen's own, without the socket. `kaizen gen` (1,000,000 events,
// seed 7; KAIZEN_BENCH_CONTEXT_EVENTS overrides) is imported into a temporary home once and
// opened as serve::LiveState, as `kaizen serve` opens it; then, under LiveState::Read:
//   BM_Context          render::Context + RenderContext(JSON, default budget): the whole answer
//   BM_Rules            Learner::Rules(now) alone (the rule book, recomputed per call)
//   BM_Similar          the recent-reviews ring's similarity search alone
//   BM_AntiPatterns     the rejection-pattern registry and the outcome anti-patterns
// Latency percentiles (p50/p99/p99.9/max over 20,000 calls of BM_ContextLatency) are counters,
// so the mean cannot hide a slow call. The target is GET /v1/context p99 under 2 ms.
#include <benchmark/benchmark.h>
#include <simdjson.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "ingest/ingestor.h"
#include "render/context.h"
#include "serve/live_state.h"
#include "sim/gen_history.h"
#include "store/file_system.h"

namespace kaizen::bench {
namespace {

uint64_t HistoryEvents() {
  const char* v = std::getenv("KAIZEN_BENCH_CONTEXT_EVENTS");
  return v && *v ? std::strtoull(v, nullptr, 10) : 1000000;
}

std::string TempHome() {
  const char* root = std::getenv("KAIZEN_BENCH_TMP");
  std::string tmpl = std::string(root && *root ? root : "/tmp") + "/kaizen-context-bench-XXXXXX";
  return ::mkdtemp(tmpl.data()) ? tmpl : std::string();
}

// The home, imported once per process; removed at exit.
struct Home {
  std::string path;
  std::unique_ptr<serve::LiveState> state;
  int64_t now_ms = 0;

  Home() {
    path = TempHome();
    ingest::Ingestor ingestor(path, store::DefaultFileSystem());
    sim::GenOptions gen;
    gen.events = HistoryEvents();
    gen.seed = 7;
    std::string jsonl;
    sim::GenerateHistory(gen, &jsonl);
    simdjson::padded_string padded(jsonl);
    ingest::IngestOptions opts;
    opts.now_ms = gen.start_unix_ms + (gen.span_days + 1) * 86400000;
    ingest::IngestSummary summary;
    if (!ingestor.Ingest(padded, opts, &summary).ok()) std::abort();
    serve::LiveOptions o;
    o.home = path;
    o.now_is_newest = true;
    o.poll_ms = 0;
    auto opened = serve::LiveState::Open(o);
    if (!opened.ok()) std::abort();
    state = std::move(opened).value();
    now_ms = state->Now();
  }
  ~Home() {
    state.reset();
    std::filesystem::remove_all(path);
  }
};

Home& TheHome() {
  static Home* home = new Home();  // leaked on purpose: outlives every benchmark
  return *home;
}

// The bench's query: what serve_context.lua asks.
render::ContextQuery Query() {
  render::ContextQuery q;
  q.server_type = "shopify";
  q.stage = "review";
  q.dimensions = {"error-handling", "security"};
  return q;
}

std::string Answer(const learn::Learner& learner, int64_t now) {
  render::ContextResult r = render::Context(learner, Query(), now);
  return render::RenderContext(&r, render::ContextFormat::kJson,
                               static_cast<size_t>(learner.config().memory.context_budget_tokens));
}

void BM_Context(benchmark::State& st) {
  Home& h = TheHome();
  for (auto _ : st) {
    h.state->Read(
        [&](const learn::Learner& l, int64_t) { benchmark::DoNotOptimize(Answer(l, h.now_ms)); });
  }
  st.counters["events"] = static_cast<double>(h.state->events());
}
BENCHMARK(BM_Context)->Unit(benchmark::kMicrosecond);

void BM_ContextLatency(benchmark::State& st) {
  Home& h = TheHome();
  std::vector<double> us;
  for (auto _ : st) {
    us.clear();
    for (int i = 0; i < 20000; ++i) {
      auto t0 = std::chrono::steady_clock::now();
      h.state->Read(
          [&](const learn::Learner& l, int64_t) { benchmark::DoNotOptimize(Answer(l, h.now_ms)); });
      us.push_back(
          std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    }
  }
  std::sort(us.begin(), us.end());
  auto at = [&](double q) {
    return us[static_cast<size_t>(q * static_cast<double>(us.size() - 1))];
  };
  st.counters["p50_us"] = at(0.5);
  st.counters["p99_us"] = at(0.99);
  st.counters["p999_us"] = at(0.999);
  st.counters["max_us"] = us.back();
}
BENCHMARK(BM_ContextLatency)->Unit(benchmark::kMillisecond)->Iterations(1);

void BM_Rules(benchmark::State& st) {
  Home& h = TheHome();
  for (auto _ : st) {
    h.state->Read(
        [&](const learn::Learner& l, int64_t) { benchmark::DoNotOptimize(l.Rules(h.now_ms)); });
  }
}
BENCHMARK(BM_Rules)->Unit(benchmark::kMicrosecond);

void BM_Similar(benchmark::State& st) {
  Home& h = TheHome();
  const render::ContextQuery q = Query();
  for (auto _ : st) {
    h.state->Read([&](const learn::Learner& l, int64_t) {
      const learn::MemoryConfig& m = l.config().memory;
      benchmark::DoNotOptimize(
          l.recent().Similar({q.server_type, q.work_type, q.stage, q.dimensions}, h.now_ms,
                             static_cast<size_t>(m.similar_limit), m.min_similarity));
    });
  }
}
BENCHMARK(BM_Similar)->Unit(benchmark::kMicrosecond);

void BM_AntiPatterns(benchmark::State& st) {
  Home& h = TheHome();
  for (auto _ : st) {
    h.state->Read([&](const learn::Learner& l, int64_t) {
      benchmark::DoNotOptimize(l.RejectionPatterns(false));
      benchmark::DoNotOptimize(l.outcomes().AntiPatterns());
    });
  }
}
BENCHMARK(BM_AntiPatterns)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace kaizen::bench

BENCHMARK_MAIN();
