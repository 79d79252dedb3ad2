// `kaizen gen` and `kaizen demo`.
#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "base/sibling.h"
#include "cli/commands.h"
#include "home/clock.h"
#include "home/learned_state.h"
#include "learn/learner.h"
#include "model/timestamp.h"
#include "sim/demo_project.h"
#include "sim/gen_history.h"
#include "sim/simulate.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"

namespace kaizen::cli {

int GenCommand(uint64_t events, uint64_t seed, const std::string& out_file,
               std::optional<int64_t> start_unix_ms) {
  sim::GenOptions options;
  options.events = events;
  options.seed = seed;
  if (start_unix_ms) options.start_unix_ms = *start_unix_ms;
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

namespace {

// The project the pending work was done in, as a git repository (sim/demo_project.h): the review
// queue then shows each item's change as a diff, and `kaizen git scan` reads the agent's past
// commits in it (the dashboard's automatic signals: reverts, edits after the agent's).
int WriteProject(const Common& c, int64_t now_ms) {
  const std::string dir = c.home + "/demo-project";
  fmt::print("\n2b. the project the agent's pending work changed, as a git repository: {}\n", dir);
  home::LearnedState state;
  if (Status s = home::LoadLearnedState(c, &state, nullptr, learn::Parts{learn::Part::kQueue});
      !s.ok()) {
    return home::FailVerb("demo", s);
  }
  std::vector<sim::DemoWork> work;
  for (const auto& [key, item] : state.learner->queue().pending()) {
    work.push_back({std::string(item.path), std::string(item.summary)});
  }
  Result<size_t> files = sim::WriteDemoProject(dir, work, now_ms);
  if (!files.ok()) {
    // The demo goes on: the queue is still there, its items only show no diff.
    fmt::print("   skipped: {}\n", files.status().message());
    return kExitOk;
  }
  fmt::print(
      "   {} files: committed as they were, the agent's past commits and a person's fixes after "
      "them, the agent's pending change left in the working tree\n",
      *files);
  fmt::print("\n2c. what git says of the agent's past commits: kaizen git scan {}\n", dir);
  std::fflush(stdout);
  Result<base::SiblingRun> scan =
      base::RunSibling(base::kGitProgram, {"scan", dir, "--home", c.home}, 1 << 16);
  if (!scan.ok() || scan->exit_code != kExitOk) {
    // The demo goes on without the automatic signals.
    fmt::print("   skipped: {}\n", scan.ok() ? scan->err : std::string(scan.status().message()));
    return kExitOk;
  }
  fmt::print("{}", scan->out);
  return kExitOk;
}

}  // namespace

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
    // The history's 90 days end now, so the pages of `kaizen serve`, which judge the home
    // against today, show it alive.
    Result<int64_t> now = home::NowMs("");
    if (!now.ok()) return home::FailVerb("demo", now.status());
    const sim::GenOptions defaults;
    const int64_t start = *now - defaults.span_days * model::kMsPerDay;
    fmt::print(
        "1. generate a synthetic review history of the last {} days: kaizen gen --events 5000 "
        "--seed 7 --start {} > {}\n",
        defaults.span_days, model::FormatUtc(start), history);
    std::fflush(stdout);  // keep this step's heading before gen's own report on stderr
    if (int rc = GenCommand(5000, 7, history, start); rc != kExitOk) return rc;
    fmt::print("\n2. import it durably (validate, enrich, append, fsync): kaizen import {}\n",
               history);
    if (int rc = ImportCommand(c, {history}, ""); rc != kExitOk) return rc;
    if (int rc = WriteProject(c, *now); rc != kExitOk) return rc;
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
  at_end.now = "end";  // as of the history's last event (an older home's history ended long ago)
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
  std::error_code ec;
  const bool project = std::filesystem::is_directory(c.home + "/demo-project", ec);
  fmt::print(
      "\nDone. Try: kaizen serve --home {0}{1} (the dashboard and the review queue in a browser), "
      "kaizen rules --now end --home {0}, kaizen check PATH --task-type T\n",
      c.home, project ? fmt::format(" --root {}/demo-project", c.home) : std::string());
  return kExitOk;
}

}  // namespace kaizen::cli
