// `kaizen gen` and `kaizen demo`.
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "cli/commands.h"
#include "sim/gen_history.h"
#include "sim/simulate.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"

namespace kaizen::cli {

int GenCommand(uint64_t events, uint64_t seed, const std::string& out_file) {
  sim::GenOptions options;
  options.events = events;
  options.seed = seed;
  const bool to_stdout = out_file.empty() || out_file == "-";
  // Streamed in pieces: a million events are ~800 MB that need not sit in memory at once.
  std::string tmp = out_file + ".tmp";
  std::FILE* out = to_stdout ? stdout : std::fopen(tmp.c_str(), "wb");
  if (out == nullptr) {
    fmt::print(stderr, "kaizen gen: cannot write {}: {}\n", tmp, std::strerror(errno));
    return kExitSystem;
  }
  bool ok = true;
  uint64_t bytes = 0;
  GenerateHistory(options, 1 << 20, [&](std::string_view piece) {
    ok = ok && std::fwrite(piece.data(), 1, piece.size(), out) == piece.size();
    bytes += piece.size();
  });
  ok = std::fflush(out) == 0 && ok;
  if (!to_stdout) {
    ok = std::fclose(out) == 0 && ok;
    ok = ok && std::rename(tmp.c_str(), out_file.c_str()) == 0;
    if (!ok) std::remove(tmp.c_str());
  }
  if (!ok) {
    fmt::print(stderr, "kaizen gen: cannot write {}: {}\n",
               to_stdout ? "standard output" : out_file, std::strerror(errno));
    return kExitSystem;
  }
  if (!to_stdout) {
    fmt::print(stderr, "wrote {} events ({:.1f} MB) to {}\n", events,
               static_cast<double>(bytes) / 1e6, out_file);
  }
  return kExitOk;
}

int DemoCommand(const Common& c) {
  store::RawLog log(c.home, store::DefaultFileSystem());
  uint64_t existing = 0;
  {
    auto lock = log.Lock();
    if (!lock.ok()) {
      fmt::print(stderr, "kaizen demo: {}\n", lock.status().message());
      return kExitSystem;
    }
    auto files = log.ListRawFiles();
    if (files.ok()) existing = files->size();
  }
  fmt::print("kaizen demo: the embedded store in {}\n\n", c.home);
  if (existing == 0) {
    const std::string history = c.home + "/demo-history.jsonl";
    (void)store::DefaultFileSystem()->CreateDirs(c.home);
    fmt::print("1. generate a synthetic review history: kaizen gen --events 5000 --seed 7 > {}\n",
               history);
    std::fflush(stdout);  // keep this step's heading before gen's own report on stderr
    if (int rc = GenCommand(5000, 7, history); rc != kExitOk) return rc;
    fmt::print("\n2. import it durably (validate, enrich, append, fsync): kaizen import {}\n",
               history);
    if (int rc = ImportCommand(c, {history}, ""); rc != kExitOk) return rc;
  } else {
    fmt::print(
        "1-2. {} already holds a log ({} day files); skipping generation and import "
        "(delete {} to start over)\n",
        c.home, existing, c.home);
  }
  fmt::print("\n3. check every stored line and repair what is safe to repair: kaizen verify\n");
  if (int rc = VerifyCommand(c); rc != kExitOk) return rc;
  fmt::print("\n4. what the log holds: kaizen stats\n");
  if (int rc = StatsCommand(c); rc != kExitOk) return rc;
  fmt::print(
      "\n5. what kaizen learned from it: kaizen analyze --now end (--json for every field)\n");
  Common at_end = c;
  at_end.now = "end";  // the generated history lies in the past: analyze as of its last event
  if (int rc = AnalyzeCommand(at_end); rc != kExitOk) return rc;
  fmt::print(
      "\n6. what learning changes, simulated: kaizen simulate --days 56, with and without "
      "--no-learning\n");
  sim::PrintSimulationDemo();
  fmt::print(
      "\n7. what the agent is told: kaizen render --now end (memory files, prompts, rubrics, "
      "checklist)\n");
  if (int rc = RenderCommand(at_end); rc != kExitOk) return rc;
  const std::string hints = c.home + "/AGENTS.md";
  fmt::print("\n8. the hints file an agent reads: kaizen hints {} --now end\n", hints);
  if (int rc = HintsCommand(at_end, hints, /*project=*/""); rc != kExitOk) return rc;
  if (auto text = store::DefaultFileSystem()->ReadFrom(hints, 0); text.ok()) {
    fmt::print("\n{}", *text);
  }
  fmt::print("\nDone. Try: kaizen rules --now end --home {}, kaizen check PATH --task-type T\n",
             c.home);
  return kExitOk;
}

}  // namespace kaizen::cli
