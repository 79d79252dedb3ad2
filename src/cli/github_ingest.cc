// `kaizen github ingest --event EVENT [--repo OWNER/NAME] [--pr N] [--agent PATTERN] [--dry-run]
// [--json] FILE...`: saved GitHub payloads (webhook delivery bodies, or `gh api` output of the
// same objects) through the mapping the webhook uses (signals/github_events.h), stored in one
// batch through the one pipeline. Every file is mapped before anything is stored: a file that is
// not JSON or not a GitHub shape stores nothing of any file. Events already in the log (a
// payload ingested twice, or delivered to the webhook before) are counted, not refused.
#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <memory>
#include <string>
#include <vector>

#include "cli/verbs.h"
#include "home/batch_store.h"
#include "home/clock.h"
#include "home/derived_files.h"
#include "home/input.h"
#include "home/learned_state.h"
#include "ingest/ingestor.h"
#include "signals/github_events.h"
#include "store/file_system.h"

namespace kaizen::cli {
namespace {

struct GithubIngestFlags {
  std::string event;
  std::string repo;
  uint64_t pr = 0;  // 0: not given
  std::string agent{signals::kDefaultAgentPattern};
  std::vector<std::string> files;
  bool dry_run = false;
};

enum class Fate { kWouldRecord, kNew, kAlreadyRecorded, kRefused };

struct Mapped {
  std::string file;
  signals::GithubEvent event;
  Fate fate = Fate::kWouldRecord;
  std::string errors;
};

const char* FateName(Fate f) {
  switch (f) {
    case Fate::kWouldRecord:
      return "would_record";
    case Fate::kNew:
      return "new";
    case Fate::kAlreadyRecorded:
      return "already_recorded";
    case Fate::kRefused:
      return "refused";
  }
  return "?";
}

Status Store(const Common& c, int64_t now_ms, std::vector<Mapped>* all) {
  std::vector<std::string> events;
  for (const Mapped& m : *all) events.push_back(m.event.json);
  std::vector<home::LineOutcome> outcomes;
  uint64_t stored = 0;
  KZ_RETURN_IF_ERROR(StoreBatch(c, now_ms, events, &outcomes, &stored));
  for (size_t i = 0; i < outcomes.size(); ++i) {
    Mapped& m = (*all)[i];
    m.fate = outcomes[i].fate == home::LineFate::kNew               ? Fate::kNew
             : outcomes[i].fate == home::LineFate::kAlreadyRecorded ? Fate::kAlreadyRecorded
                                                                    : Fate::kRefused;
    m.errors = outcomes[i].errors;
  }
  return Status::Ok();
}

void PrintJson(const std::vector<Mapped>& all,
               const std::vector<std::pair<std::string, std::string>>& ignored, bool dry_run) {
  rapidjson::StringBuffer b;
  rapidjson::Writer<rapidjson::StringBuffer> w(b);
  uint64_t counts[4] = {0, 0, 0, 0};
  w.StartObject();
  w.Key("dry_run");
  w.Bool(dry_run);
  w.Key("events");
  w.StartArray();
  for (const Mapped& m : all) {
    ++counts[static_cast<int>(m.fate)];
    w.StartObject();
    w.Key("file");
    w.String(m.file.c_str());
    w.Key("status");
    w.String(FateName(m.fate));
    w.Key("what");
    w.String(m.event.label.c_str());
    if (!m.errors.empty()) {
      w.Key("error");
      w.String(m.errors.c_str());
    }
    w.Key("event");
    w.RawValue(m.event.json.data(), m.event.json.size(), rapidjson::kObjectType);
    w.EndObject();
  }
  w.EndArray();
  w.Key("ignored");
  w.StartArray();
  for (const auto& [file, why] : ignored) {
    w.StartObject();
    w.Key("file");
    w.String(file.c_str());
    w.Key("why");
    w.String(why.c_str());
    w.EndObject();
  }
  w.EndArray();
  w.Key(dry_run ? "would_record" : "new");
  w.Uint64(counts[static_cast<int>(dry_run ? Fate::kWouldRecord : Fate::kNew)]);
  w.Key("already_recorded");
  w.Uint64(counts[static_cast<int>(Fate::kAlreadyRecorded)]);
  w.Key("refused");
  w.Uint64(counts[static_cast<int>(Fate::kRefused)]);
  w.EndObject();
  fmt::print("{}\n", b.GetString());
}

void PrintText(const std::vector<Mapped>& all,
               const std::vector<std::pair<std::string, std::string>>& ignored, bool dry_run) {
  uint64_t fresh = 0, already = 0, refused = 0;
  for (const Mapped& m : all) {
    const char* fate = m.fate == Fate::kNew               ? "stored"
                       : m.fate == Fate::kWouldRecord     ? "would record"
                       : m.fate == Fate::kAlreadyRecorded ? "already recorded"
                                                          : "refused";
    fmt::print("{}: {} {} {}\n", m.file, fate, m.event.id, m.event.label);
    fresh += m.fate == Fate::kNew || m.fate == Fate::kWouldRecord;
    already += m.fate == Fate::kAlreadyRecorded;
    refused += m.fate == Fate::kRefused;
  }
  for (const auto& [file, why] : ignored) fmt::print("{}: ignored: {}\n", file, why);
  fmt::print("{} {}, {} already recorded, {} refused, {} ignored\n", fresh,
             dry_run ? "would be recorded" : "new", already, refused, ignored.size());
}

int GithubIngestCommand(const Common& c, const GithubIngestFlags& f) {
  auto now = home::NowMs(c.now);
  if (!now.ok()) return home::FailVerb("github ingest", now.status());
  auto agents = signals::AgentMatcher::Create(f.agent);
  if (!agents.ok()) return home::FailVerb("github ingest", agents.status());
  const signals::GithubSource source{f.event, f.repo,
                                     f.pr != 0 ? std::optional<uint64_t>(f.pr) : std::nullopt};
  // Every file first: one that cannot be read or mapped stores nothing of any.
  std::vector<Mapped> all;
  std::vector<std::pair<std::string, std::string>> ignored;
  for (const std::string& file : f.files) {
    auto text = home::ReadInput(file);
    if (!text.ok()) return home::FailVerb("github ingest", text.status());
    auto mapped =
        signals::MapGithubPayload(std::string_view(text->data(), text->size()), source, *agents);
    if (!mapped.ok()) {
      fmt::print(stderr, "kaizen github ingest: {}: {}\nnothing was stored\n", file,
                 mapped.status().message());
      return kExitRejected;
    }
    for (signals::GithubEvent& e : mapped->events) all.push_back({file, std::move(e)});
    for (std::string& why : mapped->ignored) ignored.emplace_back(file, std::move(why));
  }
  if (!f.dry_run) {
    if (Status s = Store(c, *now, &all); !s.ok()) return home::FailVerb("github ingest", s);
  }
  bool refused = false;
  for (const Mapped& m : all) {
    if (m.fate != Fate::kRefused) continue;
    refused = true;
    fmt::print(stderr, "kaizen github ingest: {}: {} not stored: {}\n", m.file, m.event.label,
               m.errors);
  }
  if (c.json) {
    PrintJson(all, ignored, f.dry_run);
  } else {
    PrintText(all, ignored, f.dry_run);
  }
  return refused ? kExitRejected : kExitOk;
}

}  // namespace

Verb AddGithubVerb(CLI::App& app, Common& c) {
  auto f = std::make_shared<GithubIngestFlags>();
  auto* sub = app.add_subcommand("github", "GitHub pull-request reviews as kaizen events");
  sub->require_subcommand(1);
  auto* ingest = sub->add_subcommand(
      "ingest",
      "map saved GitHub payloads (webhook bodies or `gh api` output) as POST /v1/webhooks/github "
      "does, and store the events; ingesting again records nothing twice");
  ingest
      ->add_option("--event", f->event,
                   "the X-GitHub-Event of the payloads: pull_request, pull_request_review, "
                   "pull_request_review_comment (ping: nothing to store)")
      ->required()
      ->check(CLI::IsMember(
          {std::string(signals::kGithubPullRequest), std::string(signals::kGithubReview),
           std::string(signals::kGithubReviewComment), std::string(signals::kGithubPing)}));
  ingest->add_option("FILE", f->files, "payload files (JSON; - for standard input)")->required();
  ingest->add_option("--repo", f->repo,
                     "OWNER/NAME, for payloads without the webhook envelope that do not name it");
  ingest->add_option("--pr", f->pr, "the pull request's number, likewise")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1} << 53));
  ingest->add_option("--agent", f->agent,
                     "RE2 regex (case-insensitive) on the pull request author's login, its "
                     "branch's first segment and Co-authored-by trailers; default: `git scan`'s");
  ingest->add_flag("--dry-run", f->dry_run, "map and print, store nothing");
  AddCommonOptions(ingest, c, /*with_json=*/true, /*with_now=*/true);
  return {sub, [&c, f] { return GithubIngestCommand(c, *f); }};
}

}  // namespace kaizen::cli
