// `kaizen git scan REPO [--agent PATTERN] [--since T] [--revert-days N] [--rewrite-commits N]
// [--branch B] [--task-type T] [--dry-run] [--json]`: seed 001 tier 1 reward signals from a
// repository's history (signals/git_signals.h), stored as `reward` events, and each human rewrite
// of an agent's lines as `correction` events, through the one pipeline. Each event has an id
// derived from its commits, so scanning again stores only what is new.
#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <simdjson.h>

#include <array>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "cli/verbs.h"
#include "git/git_verbs.h"
#include "home/batch_store.h"
#include "home/clock.h"
#include "home/derived_files.h"
#include "home/learned_state.h"
#include "home/log_views.h"
#include "ingest/ingestor.h"
#include "model/json_access.h"
#include "model/timestamp.h"
#include "signals/git_reward.h"
#include "signals/git_signals.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::cli {
namespace {

struct GitScanFlags {
  std::string repo;
  std::string agent{signals::kDefaultAgentPattern};
  std::string since;
  std::string branch = "HEAD";
  int revert_days = 7;
  int rewrite_commits = 10;
  std::string task_type;
  bool dry_run = false;
};

enum class Fate { kWouldRecord, kNew, kAlreadyRecorded, kRejected };

const char* FateName(Fate f) {
  switch (f) {
    case Fate::kWouldRecord:
      return "would_record";
    case Fate::kNew:
      return "new";
    case Fate::kAlreadyRecorded:
      return "already_recorded";
    case Fate::kRejected:
      return "rejected";
  }
  return "?";
}

// A signal (a reward event) or a human rewrite of agent lines (a correction event).
struct Found {
  const signals::GitSignal* signal = nullptr;
  const signals::GitCorrection* correction = nullptr;
  std::string id;
  std::string event;  // the event's JSON
  Fate fate = Fate::kWouldRecord;
  std::string errors;  // when rejected
};

// --since: ISO 8601 with a zone, or a day (midnight UTC).
Result<int64_t> ParseSince(const std::string& text) {
  std::string full = text.size() == 10 ? text + "T00:00:00Z" : text;
  auto t = model::ParseTimestamp(full);
  if (!t.ok()) {
    return InvalidArgument("--since " + model::QuoteForMessage(text) +
                           " must be ISO 8601 with a zone (2025-07-11T09:30:00Z) or a day "
                           "(2025-07-11)");
  }
  return t->unix_ms;
}

// The ids of the reward and correction events already in the log: what a scan must not record
// again. A home with no log yet has none (and a dry run must not create one).
Result<std::unordered_set<std::string>> RecordedIds(const std::string& home) {
  std::unordered_set<std::string> ids;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::path(home) / store::kRawDir, ec)) return ids;
  store::RawLog log(home, store::DefaultFileSystem());
  home::LogScan scan;
  KZ_RETURN_IF_ERROR(ReadLogViews(
      log,
      [&](learn::EventViews& e) {
        if (e.kind == model::EventKind::kReward) ids.emplace(e.reward.id);
        if (e.kind == model::EventKind::kCorrection) ids.emplace(e.correction.id);
      },
      &scan));
  home::WarnUnreadable(scan);
  return ids;
}

// Stores the events not recorded yet, one group commit; marks each Found with what happened (a
// line recorded by a scan running at the same time is already recorded).
Status Store(const Common& c, int64_t now_ms, std::vector<Found>* found, uint64_t* stored) {
  std::vector<size_t> line_of;  // input line -> found index
  std::vector<std::string> events;
  for (size_t i = 0; i < found->size(); ++i) {
    if ((*found)[i].fate != Fate::kWouldRecord) continue;
    events.push_back((*found)[i].event);
    line_of.push_back(i);
  }
  std::vector<home::LineOutcome> outcomes;
  Status s = StoreBatch(c, now_ms, events, &outcomes, stored);
  for (size_t i = 0; i < outcomes.size(); ++i) {
    Found& f = (*found)[line_of[i]];
    if (!s.ok()) continue;
    f.fate = outcomes[i].fate == home::LineFate::kNew               ? Fate::kNew
             : outcomes[i].fate == home::LineFate::kAlreadyRecorded ? Fate::kAlreadyRecorded
                                                                    : Fate::kRejected;
    f.errors = outcomes[i].errors;
  }
  return s;
}

struct Tally {
  uint64_t found = 0, fresh = 0, already = 0, rejected = 0;
  void Add(Fate f) {
    ++found;
    if (f == Fate::kNew || f == Fate::kWouldRecord) ++fresh;
    if (f == Fate::kAlreadyRecorded) ++already;
    if (f == Fate::kRejected) ++rejected;
  }
};

void WriteTally(rapidjson::Writer<rapidjson::StringBuffer>& w, const Tally& t, bool dry_run) {
  w.Key("found");
  w.Uint64(t.found);
  w.Key(dry_run ? "would_record" : "new");
  w.Uint64(t.fresh);
  w.Key("already_recorded");
  w.Uint64(t.already);
  w.Key("rejected");
  w.Uint64(t.rejected);
}

void PrintJson(const GitScanFlags& f, const signals::GitScanResult& r,
               const std::vector<Found>& found, const std::array<Tally, 6>& by,
               const Tally& corrections, const Tally& all) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  w.StartObject();
  // JSON is UTF-8; a path or ref name need not be (a Latin-1 directory name made the whole
  // output unreadable to a JSON parser).
  w.Key("repo");
  w.String(signals::PrintableUtf8(f.repo).c_str());
  w.Key("branch");
  w.String(signals::PrintableUtf8(f.branch).c_str());
  w.Key("dry_run");
  w.Bool(f.dry_run);
  w.Key("commits");
  w.Uint64(r.commits);
  w.Key("agent_commits");
  w.Uint64(r.agent_commits);
  w.Key("unreadable_commits");
  w.StartArray();
  for (const std::string& sha : r.unreadable_commits) w.String(sha.c_str());
  w.EndArray();
  w.Key("signals");
  w.StartArray();
  for (int d = 0; d < signals::kGitDetectorCount; ++d) {
    auto detector = static_cast<signals::GitDetector>(d);
    w.StartObject();
    w.Key("signal");
    w.String(signals::DetectorName(detector));
    w.Key("signal_type");
    w.String(signals::DetectorSignalType(detector));
    WriteTally(w, by[static_cast<size_t>(d)], f.dry_run);
    w.EndObject();
  }
  w.EndArray();
  // Each hunk of a human commit that rewrote an agent's lines, as a seed 004 correction.
  w.Key("corrections");
  w.StartObject();
  WriteTally(w, corrections, f.dry_run);
  w.EndObject();
  w.Key("total");
  w.StartObject();
  WriteTally(w, all, f.dry_run);
  w.EndObject();
  w.Key("events");
  w.StartArray();
  for (const Found& x : found) {
    w.StartObject();
    w.Key("signal");
    w.String(x.signal != nullptr ? signals::DetectorName(x.signal->detector) : "correction");
    w.Key("status");
    w.String(FateName(x.fate));
    if (!x.errors.empty()) {
      w.Key("error");
      w.String(x.errors.c_str());
    }
    w.Key("event");
    w.RawValue(x.event.data(), x.event.size(), rapidjson::kObjectType);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
  fmt::print("{}\n", b.GetString());
}

void PrintText(const GitScanFlags& f, const signals::GitScanResult& r,
               const std::vector<Found>& found, const std::array<Tally, 6>& by,
               const Tally& corrections, const Tally& all) {
  fmt::print("scanned {} commits of {} in {} ({} by agents){}\n", r.commits, f.branch, f.repo,
             r.agent_commits, f.dry_run ? "; dry run, nothing stored" : "");
  if (f.dry_run) {
    for (const Found& x : found) {
      const char* fate = x.fate == Fate::kAlreadyRecorded ? "already recorded" : "would record";
      if (x.correction != nullptr) {
        const signals::GitCorrection& k = *x.correction;
        fmt::print("  {}  {:<18}  {}:{}-{}  {} rewrote {}  {}\n", model::FormatUtc(k.observed_ms),
                   "correction", signals::PrintableUtf8(k.path), k.line_start, k.line_end,
                   k.human_commit.substr(0, 12), k.agent_commit.substr(0, 12), fate);
        continue;
      }
      const signals::GitSignal& s = *x.signal;
      fmt::print("  {}  {:<18}  {}={}  {} ({})  {}\n", model::FormatUtc(s.observed_ms),
                 signals::DetectorName(s.detector), signals::DetectorSignalType(s.detector),
                 s.raw_json, s.agent_commit.substr(0, 12), s.agent, fate);
    }
  }
  const char* fresh = f.dry_run ? "would record" : "new";
  fmt::print("{:<20} {:<24} {:>6} {:>12} {:>17}\n", "signal", "signal_type", "found", fresh,
             "already recorded");
  for (int d = 0; d < signals::kGitDetectorCount; ++d) {
    auto detector = static_cast<signals::GitDetector>(d);
    const Tally& t = by[static_cast<size_t>(d)];
    fmt::print("{:<20} {:<24} {:>6} {:>12} {:>17}\n", signals::DetectorName(detector),
               signals::DetectorSignalType(detector), t.found, t.fresh, t.already);
  }
  fmt::print("{:<20} {:<24} {:>6} {:>12} {:>17}\n", "human_edit", "correction (seed 004)",
             corrections.found, corrections.fresh, corrections.already);
  fmt::print("{:<20} {:<24} {:>6} {:>12} {:>17}\n", "total", "", all.found, all.fresh, all.already);
  fmt::print("{} {}, {} already recorded{}\n", all.fresh, f.dry_run ? "would be recorded" : "new",
             all.already, all.rejected ? fmt::format(", {} rejected", all.rejected) : "");
}

int GitScanCommand(const Common& c, const GitScanFlags& f) {
  auto now = home::NowMs(c.now);
  if (!now.ok()) return home::FailVerb("git scan", now.status());
  signals::GitScanOptions options;
  options.branch = f.branch;
  options.revert_days = f.revert_days;
  options.rewrite_commits = f.rewrite_commits;
  if (!f.since.empty()) {
    auto since = ParseSince(f.since);
    if (!since.ok()) return home::FailVerb("git scan", since.status());
    options.since_ms = *since;
  }
  auto agents = signals::AgentMatcher::Create(f.agent);
  if (!agents.ok()) return home::FailVerb("git scan", agents.status());
  auto repo = signals::GitRepo::Open(f.repo);
  if (!repo.ok()) return home::FailVerb("git scan", repo.status());
  auto result = signals::ScanGitHistory(**repo, *agents, options);
  if (!result.ok()) return home::FailVerb("git scan", result.status());

  const std::string repo_name = (*repo)->Name();
  if (!result->unreadable_commits.empty()) {
    // A partial (blobless) clone or a damaged repository: what could be read is still scanned.
    fmt::print(stderr,
               "kaizen git scan: {} commits have missing objects and were skipped where they were "
               "needed (first: {}); fetch them (`git fetch --refetch`) and scan again to judge "
               "them\n",
               result->unreadable_commits.size(), result->unreadable_commits.front());
  }
  auto recorded = RecordedIds(c.home);
  if (!recorded.ok()) return home::FailVerb("git scan", recorded.status());
  std::vector<Found> found;
  for (const signals::GitSignal& s : result->signals) {
    Found x;
    x.signal = &s;
    x.id = signals::GitSignalUuid(s).ToString();
    x.event = signals::GitRewardEvent(s, repo_name, f.task_type);
    if (recorded->count(x.id)) x.fate = Fate::kAlreadyRecorded;
    found.push_back(std::move(x));
  }
  for (const signals::GitCorrection& k : result->corrections) {
    Found x;
    x.correction = &k;
    x.id = signals::GitCorrectionUuid(k).ToString();
    x.event = signals::GitCorrectionEvent(k, repo_name, f.task_type);
    if (recorded->count(x.id)) x.fate = Fate::kAlreadyRecorded;
    found.push_back(std::move(x));
  }
  Status stored_status;
  uint64_t stored = 0;
  if (!f.dry_run) stored_status = Store(c, *now, &found, &stored);

  std::array<Tally, signals::kGitDetectorCount> by{};
  Tally corrections, all;
  for (const Found& x : found) {
    (x.signal != nullptr ? by[static_cast<size_t>(x.signal->detector)] : corrections).Add(x.fate);
    all.Add(x.fate);
    if (x.fate != Fate::kRejected) continue;
    // The label names the commits: the event id alone does not tell a user which to look at.
    if (x.signal != nullptr) {
      fmt::print(stderr, "kaizen git scan: {} {} ({}) not stored: {}\n",
                 signals::DetectorName(x.signal->detector), x.id,
                 signals::GitSignalLabel(*x.signal), x.errors);
    } else {
      fmt::print(stderr, "kaizen git scan: correction {} ({} lines {}-{} of {}) not stored: {}\n",
                 x.id, signals::PrintableUtf8(x.correction->path), x.correction->line_start,
                 x.correction->line_end, x.correction->agent_commit.substr(0, 12), x.errors);
    }
  }
  if (!stored_status.ok()) {
    fmt::print(stderr, "kaizen git scan: {} ({} events were stored before the failure)\n",
               stored_status.message(), stored);
    return stored_status.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitSystem;
  }
  if (c.json) {
    PrintJson(f, *result, found, by, corrections, all);
  } else {
    PrintText(f, *result, found, by, corrections, all);
  }
  return all.rejected ? kExitRejected : kExitOk;
}

}  // namespace

Verb AddGitScanVerb(CLI::App& app, Common& c) {
  auto f = std::make_shared<GitScanFlags>();
  auto* scan = app.add_subcommand(
      "scan",
      "record merge outcomes, reverts, human rewrites of agent lines, iteration counts and times "
      "to completion (seed 001 tier 1) as reward events, and each rewrite's hunks as correction "
      "events (seed 004); scanning again records nothing twice");
  scan->add_option("REPO", f->repo, "the repository (its top directory or .git)")->required();
  scan->add_option("--agent", f->agent,
                   "RE2 regex (case-insensitive) matched against \"Name <email>\" of the author "
                   "and of Co-authored-by trailers; default: common coding agents and [bot] "
                   "accounts");
  scan->add_option("--since", f->since,
                   "only signals observed at or after this time (ISO 8601 or YYYY-MM-DD)");
  scan->add_option("--revert-days", f->revert_days,
                   "a revert counts within this many days of the agent commit (default 7)")
      ->check(CLI::Range(0, 36500));
  scan->add_option("--rewrite-commits", f->rewrite_commits,
                   "a human rewrite counts within this many commits after the agent's (default "
                   "10)")
      ->check(CLI::Range(1, 100000));
  scan->add_option("--branch", f->branch, "the branch, tag or commit to walk (default HEAD)");
  scan->add_option("--task-type", f->task_type,
                   "the task type the signals judge when no recorded work product has the agent's "
                   "commit as its version (context.task_type; default code-module)");
  scan->add_flag("--dry-run", f->dry_run, "print the signals, store nothing");
  AddCommonOptions(scan, c, /*with_json=*/true, /*with_now=*/true);
  return {scan, [&c, f] { return GitScanCommand(c, *f); }};
}

}  // namespace kaizen::cli
