// kaizen: keeps every piece of human and machine feedback on an agent's work, and learns from it.
#include <mimalloc.h>
#include <CLI/CLI.hpp>

#include <fmt/format.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/sibling.h"
#include "cli/commands.h"
#include "cli/completion.h"
#include "cli/global_options.h"
#include "cli/verb.h"
#include "cli/verbs.h"
#include "home/store_open.h"
#include "model/timestamp.h"

namespace {

std::string DefaultHome() {
  const char* env = std::getenv("KAIZEN_HOME");
  return env && *env ? env : "./.kaizen";
}

// A one-shot verb keeps the memory it frees for its next allocations instead of handing it back
// to the kernel a few milliseconds later (mimalloc's decommit delay) and faulting it in again:
// `kaizen import` of 1M events took 78k page faults instead of 140k and its kernel time fell by
// about 0.2 s (docs/performance.md, "Page faults"). The servers run for days and give freed memory
// back. MIMALLOC_DECOMMIT_DELAY (or its old name MIMALLOC_RESET_DELAY) in the environment still
// decides.
void KeepFreedMemory(std::string_view verb) {
  constexpr long kOneShotDecommitDelayMs = 100'000;
  if (verb == "serve" || verb == "mcp" || std::getenv("MIMALLOC_DECOMMIT_DELAY") ||
      std::getenv("MIMALLOC_RESET_DELAY")) {
    return;
  }
  mi_option_set(mi_option_decommit_delay, kOneShotDecommitDelayMs);
}

// CLI11 answers an unknown verb (`kaizen bogus`, `kaizen reward bogus`) with "A subcommand is
// required", naming neither the word given nor the verbs it could have been. The message that
// does, or nothing when the parse failed for another reason.
std::optional<std::string> UnknownVerb(CLI::App& app, int argc, char** argv) {
  CLI::App* at = &app;
  std::string path = "kaizen";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.empty() || arg[0] == '-') return std::nullopt;  // an option: CLI11's message names it
    auto named = at->get_subcommands([&](CLI::App* sub) { return sub->check_name(arg); });
    if (named.empty()) {
      if (at->get_require_subcommand_min() == 0) return std::nullopt;  // a verb's positional
      std::string verbs;
      for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; })) {
        verbs += (verbs.empty() ? "" : ", ") + sub->get_name();
      }
      return fmt::format("{}: \"{}\" is not a verb (one of {})", path, arg, verbs);
    }
    at = named.front();
    path += " " + at->get_name();
  }
  return std::nullopt;
}

// `kaizen hook`, which an agent runs on every tool call, sets up only its own verb: setting up
// every verb's options costs each call about 2 ms. The same parse and fail-open as below.
int HookMain(int argc, char** argv) {
  using namespace kaizen::cli;
  CLI::App app{"kaizen: makes AI agents learn from the people who review their work"};
  app.require_subcommand(1);
  Common c;
  c.home = DefaultHome();
  Verb hook = AddHookVerb(app, c);
  RefuseEmptyValues(&app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // An agent reads a hook's exit 2 as "block" (Claude Code, Codex): a hook command mistyped in
    // an agent's settings must not stop the agent. It fails open, saying why on stderr.
    if (e.get_exit_code() != 0) {
      fmt::print(stderr, "kaizen hook: {} (nothing was done; exit 0: hooks fail open)\n", e.what());
      return kaizen::kExitOk;
    }
    return app.exit(e) == 0 ? kaizen::kExitOk : kaizen::kExitUsage;
  }
  KeepFreedMemory("hook");
  return hook.run();
}

}  // namespace

int main(int argc_in, char** argv_in) {
  using namespace kaizen::cli;
  // `kaizen --home DIR VERB ...` as well as `kaizen VERB ... --home DIR`.
  std::vector<std::string> args =
      SharedOptionsAfterVerb(std::vector<std::string>(argv_in, argv_in + argc_in));
  std::vector<char*> arg_ptrs;
  for (std::string& a : args) arg_ptrs.push_back(a.data());
  arg_ptrs.push_back(nullptr);
  const int argc = static_cast<int>(args.size());
  char** argv = arg_ptrs.data();
  if (argc > 1 && std::string_view(argv[1]) == "hook") return HookMain(argc, argv);
  if (argc > 1 && std::string_view(argv[1]) == "git") {
    const kaizen::Status s = kaizen::base::ExecSibling(
        kaizen::base::kGitProgram, std::vector<std::string>(argv + 2, argv + argc));
    fmt::print(stderr, "kaizen git: {}\n", s.message());
    return kaizen::kExitSystem;
  }
  CLI::App app{"kaizen: makes AI agents learn from the people who review their work"};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "help for every verb");
  app.set_version_flag("--version", std::string("kaizen ") + KAIZEN_VERSION,
                       "print kaizen's version and exit");

  Common c;
  c.home = DefaultHome();
  // The verbs defined here take no `--now end`, so their --now says so; --home and --json are
  // the shared ones.
  auto add_common = [&](CLI::App* sub, bool with_json, bool with_now) {
    AddCommonOptions(sub, c, with_json, /*with_now=*/false);
    if (with_now)
      sub->add_option("--now", c.now, "the clock, ISO 8601 (default: the system clock)");
  };

  std::string kind, file = "-", reject, since, out;
  std::vector<std::string> files;
  uint64_t events = 1000, seed = 1;

  auto* record =
      app.add_subcommand("record", "validate, enrich and durably store events of one kind");
  record
      ->add_option("KIND", kind, "feedback, work, outcome, error, reward, correction, loop, admin")
      ->required();
  record->add_option("FILE", file,
                     "JSONL, one event a line, or a file holding one JSON object over several "
                     "lines; - or absent: standard input");
  record->add_option("--reject", reject, "write refused lines to this file");
  add_common(record, true, true);

  auto* import =
      app.add_subcommand("import", "import JSONL files of mixed kinds (`kind` on each line)");
  import->add_option("FILE", files, "JSONL files; - for standard input")->required();
  import->add_option("--reject", reject, "write refused lines to this file");
  add_common(import, true, true);

  auto* verify =
      app.add_subcommand("verify", "check every stored line; repair torn tails and derived files");
  add_common(verify, true, true);
  auto* rebuild = app.add_subcommand("rebuild", "rebuild indexes and aggregates from the raw log");
  add_common(rebuild, true, false);
  auto* stats = app.add_subcommand("stats", "what the log holds");
  add_common(stats, true, false);
  auto* export_cmd = app.add_subcommand("export", "print stored events as JSONL");
  export_cmd->add_option("--kind", kind, "only this kind");
  export_cmd->add_option("--since", since,
                         "only events at or after this time (ISO 8601 or YYYY-MM-DD)");
  std::string export_format = "jsonl";
  export_cmd
      ->add_option("--format", export_format,
                   "jsonl: the stored events; sft: prompt/completion rows from approved work; "
                   "dpo: prompt/chosen/rejected rows from corrections and A/B comparisons "
                   "(docs/training-data.md)")
      ->check(CLI::IsMember({"jsonl", "sft", "dpo"}));
  add_common(export_cmd, false, false);

  auto* gen =
      app.add_subcommand("gen", "print a realistic synthetic history of every kind as JSONL");
  gen->add_option("--events", events, "how many events")
      ->check(CLI::Range(uint64_t{0}, uint64_t{100000000}));
  gen->add_option("--seed", seed, "the random seed; same seed, same bytes")->check(Seed());
  gen->add_option("--out", out, "write to this file instead of standard output");
  std::string gen_start;
  gen->add_option("--start", gen_start,
                  "when the history begins, ISO 8601 (default 2025-07-01T00:00:00Z; it spans 90 "
                  "days, which must end before tomorrow)");

  auto* demo =
      app.add_subcommand("demo", "generate, import, verify and summarize a history in the home");
  add_common(demo, false, false);

  auto* analyze = app.add_subcommand(
      "analyze",
      "learn from the whole log: approval, gates, calibration, autonomy, patterns, KPIs");
  add_common(analyze, true, false);
  analyze->add_option("--now", c.now,
                      "the clock, ISO 8601, or `end`: the newest event's time (default: the "
                      "system clock)");
  std::string only;
  analyze
      ->add_option("--only", only,
                   "only these sections, comma-separated (approval,gates,calibration,...): only "
                   "their rules learn, and only the kinds of event they read are read whole")
      ->check(AnalysisSections());
  std::string what, name;
  auto* explain = app.add_subcommand(
      "explain", "show the counts, decayed values and thresholds behind one verdict");
  explain->add_option("WHAT", what, "pattern, criterion, gate, autonomy, calibration or loop")
      ->required()
      ->check(CLI::IsMember({"pattern", "criterion", "gate", "autonomy", "calibration", "loop"}));
  explain
      ->add_option("NAME", name,
                   "the pattern, criterion, dimension, task type, bucket (0.7 or all) or loop id")
      ->required();
  add_common(explain, false, false);
  explain->add_option("--now", c.now,
                      "the clock, ISO 8601, or `end`: the newest event's time (default: the "
                      "system clock)");
  bool defaults = false;
  auto* config = app.add_subcommand(
      "config", "print the learning thresholds in effect (<home>/config/learning.json applied)");
  config->add_flag("--defaults", defaults, "print the seeds' defaults instead");
  add_common(config, false, false);

  uint64_t sim_seed = 1;
  int sim_days = 84;
  bool no_learning = false;
  std::string sim_out;
  auto* simulate = app.add_subcommand(
      "simulate", "show kaizen learning: a synthetic agent and a reviewer with hidden preferences");
  simulate->add_option("--seed", sim_seed, "the random seed; same flags, same bytes")
      ->check(Seed());
  simulate->add_option("--days", sim_days, "simulated days from 2025-01-06 (default 84)")
      ->check(CLI::Range(1, 364));
  simulate->add_flag("--no-learning", no_learning, "the agent ignores kaizen's advice");
  int sim_reviews_per_week = 0;
  simulate
      ->add_option("--reviews-per-week", sim_reviews_per_week,
                   "work items submitted a week (default: 15-25 a day, a team's volume; one "
                   "developer gives 20-30)")
      ->check(CLI::Range(1, 1000));
  simulate->add_flag("--json", c.json, "machine-readable output");
  simulate->add_option("--out", sim_out, "also write every generated event to this JSONL file");

  auto* schema =
      app.add_subcommand("schema", "print the event model as markdown (docs/event-model.md)");
  std::string shell;
  auto* completion = app.add_subcommand(
      "completion",
      "print the shell completion script: `source <(kaizen completion bash)`, or install it "
      "(make install does)");
  completion->add_option("SHELL", shell, "bash or zsh")
      ->required()
      ->check(CLI::IsMember({"bash", "zsh"}));

  // Verbs that register themselves from their own files (cli/verbs.h).
  std::vector<Verb> verbs;
  // (one line per verb, kept in this order)
  verbs.push_back(AddRenderVerb(app, c));
  verbs.push_back(AddHintsVerb(app, c));
  verbs.push_back(AddRulesVerb(app, c));
  verbs.push_back(AddThemesVerb(app, c));
  verbs.push_back(AddCheckVerb(app, c));
  verbs.push_back(AddValidateVerb(app, c));
  verbs.push_back(AddCorrectionsVerb(app, c));
  verbs.push_back(AddCompactVerb(app, c));
  verbs.push_back(AddForgetVerb(app, c));
  verbs.push_back(AddPiiVerb(app, c));
  verbs.push_back(AddContextVerb(app, c));
  verbs.push_back(AddServeVerb(app, c));
  verbs.push_back(AddLoopVerb(app, c));
  verbs.push_back(AddRewardVerb(app, c));
  verbs.push_back(AddRateVerb(app, c));
  verbs.push_back(AddAskVerb(app, c));
  verbs.push_back(AddAnswerVerb(app, c));
  verbs.push_back(AddReviewVerb(app, c));
  verbs.push_back(AddMcpVerb(app, c));
  // `kaizen git ...` is kaizen-git's (base/sibling.h): run above, before any parsing; listed here
  // for --help.
  app.add_subcommand("git", "automatic reward signals from a git repository (`kaizen git scan`)")
      ->allow_extras()
      ->prefix_command();
  verbs.push_back(AddGithubVerb(app, c));
  verbs.push_back(AddDashboardVerb(app, c));
  verbs.push_back(AddHookVerb(app, c));
  verbs.push_back(AddInitVerb(app, c));
  verbs.push_back(AddDoctorVerb(app, c));
  verbs.push_back(AddMigrateVerb(app, c));
  verbs.push_back(AddTokenVerb(app, c));
  RefuseEmptyValues(&app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // An agent reads a hook's exit 2 as "block" (Claude Code, Codex): a hook command mistyped in
    // an agent's settings must not stop the agent. It fails open, saying why on stderr.
    if (argc > 1 && std::string_view(argv[1]) == "hook" && e.get_exit_code() != 0) {
      fmt::print(stderr, "kaizen hook: {} (nothing was done; exit 0: hooks fail open)\n", e.what());
      return kaizen::kExitOk;
    }
    if (auto unknown = UnknownVerb(app, argc, argv)) {
      fmt::print(stderr, "{}\nRun with --help for the verbs.\n", *unknown);
      return kaizen::kExitUsage;
    }
    // CLI11 prints the message (or the help); kaizen's usage errors all exit 2.
    return app.exit(e) == 0 ? kaizen::kExitOk : kaizen::kExitUsage;
  }

  const std::string verb_name = app.get_subcommands().front()->get_name();
  KeepFreedMemory(verb_name);
  // The shared store, when one is named, for every verb that reads or writes a home's log; the
  // home brought up to date with it first, except for `token`, which reads only the store's
  // tokens (an admin's home need not be a copy of it).
  // A verb whose first read of the log is its fold folds a new home's first copy as it streams.
  std::unique_ptr<kaizen::store::SharedLog> remote;
  std::unique_ptr<kaizen::ingest::BackgroundSync> copying;  // after remote: joined first
  if (verb_name == "analyze" || verb_name == "explain" || verb_name == "rules" ||
      verb_name == "context" || verb_name == "hints") {
    if (kaizen::Status s = kaizen::home::OpenStoreFolding(&c, &remote, &copying); !s.ok()) {
      return kaizen::home::StoreOpenFailed(verb_name, s);
    }
  } else if (verb_name != "gen" && verb_name != "schema" && verb_name != "simulate" &&
             verb_name != "migrate" && verb_name != "completion") {
    if (kaizen::Status s = kaizen::home::OpenStore(&c, &remote, /*sync=*/verb_name != "token");
        !s.ok()) {
      return kaizen::home::StoreOpenFailed(verb_name, s);
    }
  }
  if (record->parsed()) return RecordCommand(c, kind, file, reject);
  if (import->parsed()) return ImportCommand(c, files, reject);
  if (verify->parsed()) return VerifyCommand(c);
  if (rebuild->parsed()) return RebuildCommand(c);
  if (stats->parsed()) return StatsCommand(c);
  if (export_cmd->parsed()) return ExportCommand(c, kind, since, export_format);
  if (gen->parsed()) {
    std::optional<int64_t> start;
    if (!gen_start.empty()) {
      auto t = kaizen::model::ParseTimestamp(gen_start);
      if (!t.ok()) {
        fmt::print(stderr, "kaizen gen: --start \"{}\" {}\n", gen_start, t.status().message());
        return kaizen::kExitUsage;
      }
      start = t->unix_ms;
    }
    return GenCommand(events, seed, out, start);
  }
  if (demo->parsed()) return DemoCommand(c);
  if (schema->parsed()) return SchemaCommand();
  if (completion->parsed()) {
    fmt::print("{}", CompletionScript(app, shell));
    return kaizen::kExitOk;
  }
  if (analyze->parsed()) return AnalyzeCommand(c, only);
  if (explain->parsed()) return ExplainCommand(c, what, name);
  if (config->parsed()) return ConfigCommand(c, defaults);
  if (simulate->parsed()) {
    return SimulateCommand(sim_seed, sim_days, !no_learning, sim_reviews_per_week, c.json, sim_out);
  }
  for (const Verb& verb : verbs) {
    if (verb.sub->parsed()) return verb.run();
  }
  return kaizen::kExitUsage;
}
