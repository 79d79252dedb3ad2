// `kaizen forget --user U | --session S`: removes every trace of a user or a session (seed 004
// "User can request correction data deletion"; seed 000 §9): their events from the raw log (hot
// and cold), their PII map entries, the derived files and the rendered files built from them.
// What stays is an admin deletion_request event, with the id stored as its Pseudonym, as the audit
// trail. `kaizen pii show TOKEN`: what a PII token stands for, read from the encrypted map.
#include <fmt/format.h>
#include <simdjson.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "base/json_text.h"
#include "base/json_writer.h"
#include "cli/verbs.h"
#include "home/clock.h"
#include "home/derived_files.h"
#include "home/learned_checkpoint.h"
#include "home/learned_state.h"
#include "ingest/ingest_state.h"
#include "ingest/ingestor.h"
#include "ingest/pii_vault.h"
#include "ingest/privacy.h"
#include "model/event_kind.h"
#include "model/event_writer.h"
#include "model/json_access.h"
#include "model/limits.h"
#include "model/timestamp.h"
#include "render/artifact.h"
#include "render/prompt_files.h"
#include "render/render_all.h"
#include "store/file/log_rewrite.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::cli {
namespace {

namespace fs = std::filesystem;

// Where rendered files live: derived from the log, so regenerated without the forgotten events.
constexpr std::string_view kRenderedDirs[] = {"memory", "prompts", "patterns"};

struct ForgetTarget {
  bool user = true;  // else a session
  std::string id;
};

struct ForgetReport {
  uint64_t events = 0, unreadable_lines = 0, files = 0, vault_entries = 0, rendered = 0;
  std::vector<std::string> removed_files;  // relative to the home
  std::string audit_id;
  std::vector<std::string> mentions;  // files still containing the id, as a substring
  std::vector<store::RecoveryNote> notes;
};

bool Owns(const ForgetTarget& t, simdjson::dom::element e) {
  auto kind = model::ParseKind(model::StringAt(e, "kind"));
  if (!kind) return false;
  ingest::EventOwners owners = ingest::OwnersOf(e, *kind);
  for (std::string_view v : t.user ? owners.users : owners.sessions) {
    if (v == t.id) return true;
  }
  return false;
}

// The files under the home (relative paths, sorted) that contain `needle`, except the encrypted
// PII map and its key, which hold nothing in clear.
Result<std::vector<std::string>> FilesMentioning(const std::string& home, std::string_view sub,
                                                 std::string_view needle) {
  std::vector<std::string> out;
  std::error_code ec;
  const fs::path root = fs::path(home) / sub;
  if (!fs::exists(root, ec)) return out;
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    std::string rel = fs::relative(it->path(), home, ec).string();
    if (rel == ingest::kPiiMapFile || rel == ingest::kPiiKeyFile || rel == store::kLockFile) {
      continue;
    }
    KZ_ASSIGN_OR_RETURN(std::string data, store::DefaultFileSystem()->ReadFrom(it->path(), 0));
    if (data.find(needle) != std::string::npos) out.push_back(rel);
  }
  if (ec) return IoError(fmt::format("cannot list {}: {}", root.string(), ec.message()));
  std::sort(out.begin(), out.end());
  return out;
}

// Step 1, under the writer lock: the raw log, the PII map, torn tails kept for inspection.
Status ForgetStored(store::RawLog& log, const ForgetTarget& t, ForgetReport* r) {
  KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
  KZ_RETURN_IF_ERROR(log.EnsureLayout());
  KZ_ASSIGN_OR_RETURN(auto files, log.ListRawFiles());
  simdjson::dom::parser parser;
  for (const auto& [file, size] : files) {
    KZ_ASSIGN_OR_RETURN(bool cut, log.CutTornTail(file, &r->notes));
    (void)cut;
    KZ_ASSIGN_OR_RETURN(std::string data, log.ReadRaw(file, 0));
    if (data.find(t.id) == std::string::npos) continue;  // cheap: most files are untouched
    simdjson::padded_string padded(data);
    std::string out;
    out.reserve(data.size());
    uint64_t dropped = 0;
    store::ForEachLine(
        std::string_view(padded.data(), data.size()), 1, [&](std::string_view line, uint64_t) {
          simdjson::dom::element e;
          const bool parsed =
              line.size() <= model::kMaxStoredEventBytes &&
              parser.parse(line.data(), line.size(), false).get(e) == simdjson::SUCCESS &&
              e.is_object();
          // A line that is not an event cannot be judged by its fields: an
          // explicit request to forget removes it when it names the id at all.
          if (parsed ? Owns(t, e) : line.find(t.id) != std::string_view::npos) {
            ++dropped;
            ++(parsed ? r->events : r->unreadable_lines);
            return;
          }
          out += line;
          out += '\n';
        });
    if (dropped == 0) continue;
    KZ_RETURN_IF_ERROR(store::RewriteDayFile(log, file, out));
    ++r->files;
  }

  auto vault = ingest::PiiVault::Open(log.home());
  if (!vault.ok()) return vault.status();
  r->vault_entries = t.user ? vault->ForgetUser(t.id) : vault->ForgetSession(t.id);
  KZ_RETURN_IF_ERROR(vault->Save());

  // Torn tails cut by recovery are raw bytes too.
  KZ_ASSIGN_OR_RETURN(auto torn, FilesMentioning(log.home(), store::kRecoveredDir, t.id));
  for (const std::string& rel : torn) {
    KZ_RETURN_IF_ERROR(log.fs()->Remove(store::PathIn(log.home(), rel)));
    r->removed_files.push_back(rel);
  }
  // The ingest cache holds only hashes, but its offsets no longer match the rewritten files.
  ingest::IngestCache cache(&log);
  KZ_RETURN_IF_ERROR(home::RemoveCheckpoint(log.home()));
  KZ_RETURN_IF_ERROR(cache.Reset());
  KZ_RETURN_IF_ERROR(cache.CatchUp(&r->notes));
  return cache.WriteIndex(/*force=*/true);
}

// Step 2: the audit trail, through the one pipeline (which stores the id as its pseudonym).
Status RecordDeletion(const Common& c, const ForgetTarget& t, int64_t now_ms, ForgetReport* r) {
  std::string event = base::JsonObject([&](base::JsonWriter& w) {
    model::Kind(w, model::EventKind::kAdmin);
    model::Field(w, model::EventField::action, "deletion_request");
    model::Field(w, t.user ? model::EventField::user_id : model::EventField::session_id, t.id);
    model::Field(w, model::EventField::note,
                 fmt::format("kaizen forget: {} events removed", r->events));
  });
  event += '\n';
  simdjson::padded_string padded(event);
  ingest::Ingestor ingestor(c.home, store::DefaultFileSystem());
  ingestor.set_remote(c.remote);
  ingest::IngestOptions options;
  options.now_ms = now_ms;
  std::string refused;
  options.on_line = [&](const ingest::LineResult& line) {
    if (line.stored) r->audit_id = line.id;
    for (const auto& e : line.errors) refused += e.ToString() + "; ";
  };
  ingest::IngestSummary summary;
  KZ_RETURN_IF_ERROR(
      ingestor.Ingest(std::string_view(padded.data(), padded.size()), options, &summary));
  for (auto& n : ingestor.TakeNotes()) r->notes.push_back(std::move(n));
  if (!refused.empty()) return Internal("the deletion_request event was refused: " + refused);
  return Status::Ok();
}

// Step 3: derived and rendered files, rebuilt from the log without the forgotten events.
Status RebuildFromLog(const Common& c, const ForgetTarget& t, ForgetReport* r) {
  store::RawLog log(c.home, store::DefaultFileSystem());
  {
    KZ_ASSIGN_OR_RETURN(auto lock, log.Lock());
    ingest::DerivedBuilder builder;
    uint64_t written = 0;
    KZ_RETURN_IF_ERROR(home::RebuildDerived(log, &builder, &written));
  }
  bool rendered_before = false;
  for (std::string_view dir : kRenderedDirs) {
    std::error_code ec;
    rendered_before |= fs::exists(fs::path(c.home) / dir, ec);
    KZ_ASSIGN_OR_RETURN(auto stale, FilesMentioning(c.home, dir, t.id));
    for (const std::string& rel : stale) {
      KZ_RETURN_IF_ERROR(store::DefaultFileSystem()->Remove(store::PathIn(c.home, rel)));
      r->removed_files.push_back(rel);
    }
  }
  if (!rendered_before) return Status::Ok();
  home::LearnedState state;
  KZ_RETURN_IF_ERROR(home::LoadLearnedState(c, &state));
  std::vector<render::RenderedFile> files = render::RenderAll(*state.learner, state.now_ms);
  r->rendered = files.size();
  KZ_RETURN_IF_ERROR(render::WriteRenderedFiles(c.home, files));
  // Owned prompt files the log without the forgotten events no longer produces (a checklist item
  // only they supported) are derived from them: removed, as `kaizen render` removes stale ones.
  std::set<std::string> produced;
  for (const auto& f : files) produced.insert(f.path);
  std::vector<std::string> candidates;
  for (std::string_view single :
       {render::kChecklistPath, render::kAntiPatternsPath, render::kProvenPatternsPath,
        std::string_view("prompts/global-rules.md")}) {
    candidates.emplace_back(single);
  }
  for (const std::string& dir : render::OwnedPromptDirs()) {
    KZ_ASSIGN_OR_RETURN(auto names,
                        store::DefaultFileSystem()->ListFiles(store::PathIn(c.home, dir)));
    for (const std::string& name : names) candidates.push_back(dir + "/" + name);
  }
  for (const std::string& rel : candidates) {
    const std::string path = store::PathIn(c.home, rel);
    if (!render::IsOwnedPromptFile(rel) || produced.count(rel) ||
        !store::DefaultFileSystem()->Exists(path)) {
      continue;
    }
    KZ_RETURN_IF_ERROR(store::DefaultFileSystem()->Remove(path));
    r->removed_files.push_back(rel);
  }
  return Status::Ok();
}

int ForgetCommand(const Common& c, const std::string& user, const std::string& session) {
  if (user.empty() == session.empty()) {
    fmt::print(stderr, "kaizen forget: give exactly one of --user ID or --session ID\n");
    return kExitUsage;
  }
  // No stored event can name a longer id, and the deletion_request that records this run could
  // not hold it: refused up front, not after the log was rewritten, with exit 3 and "run it again".
  const std::string& id = user.empty() ? session : user;
  if (id.size() > model::kMaxIdentifierBytes) {
    fmt::print(stderr, "kaizen forget: {} is {} bytes; at most {}\n",
               user.empty() ? "--session" : "--user", id.size(), model::kMaxIdentifierBytes);
    return kExitUsage;
  }
  auto now = home::NowMs(c.now);
  if (!now.ok()) {
    fmt::print(stderr, "kaizen forget: {}\n", now.status().message());
    return kExitUsage;
  }
  const ForgetTarget t{!user.empty(), user.empty() ? session : user};
  ForgetReport r;
  store::RawLog log(c.home, store::DefaultFileSystem());
  log.set_remote(c.remote);  // the shared store is rewritten first
  Status s = ForgetStored(log, t, &r);
  if (s.ok()) s = RecordDeletion(c, t, *now, &r);
  if (s.ok()) s = RebuildFromLog(c, t, &r);
  for (const auto& n : r.notes) fmt::print(stderr, "kaizen: recovered {}: {}\n", n.file, n.text);
  if (!s.ok()) {
    fmt::print(stderr, "kaizen forget: {} (run it again: every step is idempotent)\n", s.message());
    return kExitSystem;
  }
  auto mentions = FilesMentioning(c.home, "", t.id);
  if (mentions.ok()) r.mentions = std::move(mentions).value();
  const std::string_view what = t.user ? "user" : "session";
  if (c.json) {
    std::string removed = "[", left = "[";
    for (size_t i = 0; i < r.removed_files.size(); ++i)
      removed += (i ? "," : "") + base::JsonQuote(r.removed_files[i]);
    for (size_t i = 0; i < r.mentions.size(); ++i)
      left += (i ? "," : "") + base::JsonQuote(r.mentions[i]);
    fmt::print(
        "{{\"{}\":{},\"removedEvents\":{},\"removedUnreadableLines\":{},\"rewrittenFiles\":{},"
        "\"piiEntriesRemoved\":{},\"removedFiles\":{}],\"renderedFiles\":{},\"auditEvent\":{},"
        "\"auditId\":{},\"remainingMentions\":{}]}}\n",
        what, base::JsonQuote(t.id), r.events, r.unreadable_lines, r.files, r.vault_entries,
        removed, r.rendered, base::JsonQuote(r.audit_id), base::JsonQuote(ingest::Pseudonym(t.id)),
        left);
    return kExitOk;
  }
  fmt::print("forgot {} {}: removed {} events from {} day files", what, t.id, r.events, r.files);
  if (r.unreadable_lines) fmt::print(" (and {} unreadable lines naming it)", r.unreadable_lines);
  fmt::print(", {} PII map entries\n", r.vault_entries);
  for (const auto& f : r.removed_files) fmt::print("removed {}\n", f);
  fmt::print("rebuilt the derived files{}\n",
             r.rendered ? fmt::format(" and re-rendered {} files", r.rendered) : "");
  fmt::print("recorded deletion_request {} (the {} stored as {})\n", r.audit_id, what,
             ingest::Pseudonym(t.id));
  for (const auto& m : r.mentions) {
    fmt::print(
        "note: {} still contains the text {} (in another person's words; not this {}'s "
        "event)\n",
        m, model::QuoteForMessage(t.id), what);
  }
  return kExitOk;
}

int PiiShowCommand(const Common& c, const std::string& token) {
  store::RawLog log(c.home, store::DefaultFileSystem());
  auto lock = log.Lock();
  if (!lock.ok()) return home::FailVerb("pii show", lock.status());
  auto vault = ingest::PiiVault::Open(c.home);
  if (!vault.ok()) return home::FailVerb("pii show", vault.status());
  const ingest::PiiVault::Entry* e = vault->Find(token);
  if (!e) {
    fmt::print(stderr,
               "kaizen pii show: TOKEN {} is not in {} (never handed out, forgotten, or its key "
               "{} was deleted)\n",
               model::QuoteForMessage(token), ingest::kPiiMapFile, ingest::kPiiKeyFile);
    return kExitRejected;
  }
  if (c.json) {
    std::string sources = "[";
    for (size_t i = 0; i < e->sources.size(); ++i) {
      sources +=
          fmt::format("{}{{\"user\":{},\"session\":{}}}", i ? "," : "",
                      base::JsonQuote(e->sources[i].user), base::JsonQuote(e->sources[i].session));
    }
    fmt::print("{{\"token\":{},\"category\":{},\"value\":{},\"sources\":{}]}}\n",
               base::JsonQuote(e->token()), base::JsonQuote(ingest::PiiCategoryName(e->category)),
               base::JsonQuote(e->value), sources);
    return kExitOk;
  }
  fmt::print("{} = {}\n", e->token(), e->value);
  for (const auto& s : e->sources) {
    fmt::print("  from user {} session {}\n", s.user.empty() ? "-" : s.user,
               s.session.empty() ? "-" : s.session);
  }
  return kExitOk;
}

}  // namespace

Verb AddForgetVerb(CLI::App& app, Common& c) {
  auto* sub = app.add_subcommand(
      "forget",
      "remove every trace of a user or a session: events, PII map entries, derived "
      "and rendered files (an admin deletion_request keeps a pseudonym as the audit "
      "trail)");
  static std::string user, session;
  sub->add_option("--user", user, "the user id (reviewerId, user_id)");
  sub->add_option("--session", session, "the session id (sessionId, session_id)");
  AddCommonOptions(sub, c, /*with_json=*/true, /*with_now=*/true);
  return {sub, [&c] { return ForgetCommand(c, user, session); }};
}

Verb AddPiiVerb(CLI::App& app, Common& c) {
  auto* sub = app.add_subcommand("pii", "read the encrypted PII map");
  sub->require_subcommand(1);
  auto* show = sub->add_subcommand("show", "print the original value a token stands for");
  static std::string token;
  show->add_option("TOKEN", token, "a token from the log, e.g. [NAME_1]")->required();
  AddCommonOptions(show, c, /*with_json=*/true, /*with_now=*/false);
  return {sub, [&c] { return PiiShowCommand(c, token); }};
}

}  // namespace kaizen::cli
