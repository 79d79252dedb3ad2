#include "agents/hook_steps.h"

#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "agents/codex_rollout.h"
#include "agents/hook_session.h"
#include "base/json_writer.h"
#include "checks/machine_check.h"
#include "checks/output_validation.h"
#include "checks/self_check_run.h"
#include "home/hints_section.h"
#include "home/learned_state.h"
#include "home/loop_store.h"
#include "home/project_dir.h"
#include "home/serve_client.h"
#include "ingest/ingest_state.h"
#include "ingest/privacy.h"
#include "model/event_writer.h"
#include "model/project_key.h"
#include "model/timestamp.h"
#include "model/uuid.h"
#include "render/hints.h"
#include "render/safe_text.h"
#include "store/file_system.h"
#include "store/log_format.h"
#include "text/prompt_judgement.h"

namespace kaizen::agents {

using model::ContextField;
using model::EventField;
namespace {

constexpr int64_t kSessionStateDays = 7;
// A prompt that judges the last turn is short; past this it is a task with pasted context.
constexpr size_t kMaxJudgedPromptBytes = 8000;
constexpr size_t kMaxMessageBytes = 8000;  // of an error message or the agent's last words
constexpr std::string_view kStage = "agent-session";

// `s` cut to at most `max` bytes on a UTF-8 boundary.
std::string Cut(std::string_view s, size_t max) {
  if (s.size() <= max) return std::string(s);
  size_t end = max;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return std::string(s.substr(0, end));
}

std::string FirstLine(std::string_view s, size_t max) {
  const size_t end = s.find('\n');
  return Cut(s.substr(0, end), max);
}

// The task of a turn: errors and the outcome of one turn share it (seed 002's bead).
std::string Bead(const HookPayload& p, int64_t turn) {
  return fmt::format("{}:{}#{}", HookAgentName(p.agent), p.session_id, turn);
}

std::string CallKey(const HookPayload& p) {
  const ingest::Key128 k = ingest::HashKey(p.tool_call_key);
  return fmt::format("{:016x}", k.hi);
}

std::string Absolute(const std::string& cwd, const std::string& path) {
  if (path.empty() || path[0] == '/' || cwd.empty()) return path;
  return (std::filesystem::path(cwd) / path).lexically_normal().string();
}

// The project a session works in: the name of its directory.
std::string ProjectName(const HookPayload& p) {
  const std::string name = std::filesystem::path(p.cwd).filename().string();
  return name.empty() ? std::string(kStage) : name;
}


Result<home::StoredEvent> Store(HookContext& ctx, model::EventKind kind, const std::string& json) {
  Result<home::StoredEvent> stored = ctx.backend->Store(kind, json, ctx.now_ms);
  if (stored.ok() && stored->skipped) {
    ctx.notes.push_back(
        fmt::format("{} not stored: {}", model::KindName(kind), stored->skip_reason));
  }
  return stored;
}

// ---- session start ----

// `hints` is the learned hints section (render::HintsSection), rendered once for the hints files
// and this context.
std::string SessionContext(const learn::Learner& learner, std::string hints, size_t budget_tokens) {
  std::string out = std::move(hints);
  std::string autonomy;
  for (const learn::TaskAutonomy& t : learner.autonomy().Result()) {
    // Labels from the log are data, never instructions (render/safe_text.h).
    autonomy += fmt::format("- {}: level {}, {} review ({} of {} approved{})\n",
                            render::SanitizeReviewerText(t.task_type, 80), t.level,
                            learn::TaskClassName(t.task_class), t.approvals, t.decided,
                            t.regressed ? "; regressed" : "");
  }
  if (!autonomy.empty()) {
    out += "\n## Review Autonomy (how much review each task type still needs)\n" + autonomy;
  }
  const learn::ErrorReport errors = learner.errors().Report(5);
  if (errors.overall.unresolved > 0) {
    out += fmt::format("\n## Unresolved Errors ({} in all)\n", errors.overall.unresolved);
    for (const learn::BeadErrors& b : errors.beads_with_unresolved) {
      out += fmt::format("- {}: {} unresolved of {}\n",
                         render::SanitizeReviewerText(b.bead_id, 120), b.unresolved, b.total);
    }
  }
  // The budget in bytes (about 4 a token), cut at a line.
  const size_t budget = budget_tokens * 4;
  if (out.size() > budget) {
    const std::string note = fmt::format(
        "\n(cut to the {}-token budget; `kaizen context` and `kaizen rules` have the rest)\n",
        budget_tokens);
    size_t end = out.rfind('\n', budget > note.size() ? budget - note.size() : 0);
    out = out.substr(0, end == std::string::npos ? 0 : end + 1) + note;
  }
  return out;
}

Result<std::string> SessionStart(HookContext& ctx) {
  const HookPayload& p = ctx.payload;
  const std::string& home = ctx.common.home;
  PruneHookSessions(home, ctx.now_ms, kSessionStateDays * 86400000);
  KZ_RETURN_IF_ERROR(UpdateHookSession(home, p.session_id, [&](HookSession* s) {
    if (s->started_ms == 0) s->started_ms = ctx.now_ms;
  }));
  learn::Parts parts = render::kHintsParts;
  parts |= learn::Parts{learn::Part::kAutonomy, learn::Part::kErrors};
  KZ_ASSIGN_OR_RETURN(std::vector<std::string> files, HintsFiles(home));
  // The session is told what holds in the project it works in; each hints file what holds in the
  // project it lies in (the same one, unless the home serves several).
  const std::string files_dir = std::filesystem::path(home).parent_path().string();
  const std::vector<home::HintsTarget> targets = home::HintsTargets(files_dir, files);
  const std::string session_project =
      home::ProjectDirectory(p.cwd.empty() ? files_dir : std::string(p.cwd));
  std::map<std::string, std::string, std::less<>> sections;  // by model::ProjectKey
  std::string context;
  KZ_RETURN_IF_ERROR(ctx.backend->WithLearner(parts, [&](const learn::Learner& learner,
                                                         int64_t now_ms) {
    auto section = [&](const std::string& project) -> const std::string& {
      const std::string_view key = model::ProjectKey(project);
      auto it = sections.find(key);
      if (it == sections.end()) {
        it = sections
                 .emplace(std::string(key),
                          render::HintsSection(render::HintsInputFrom(learner, now_ms, project)))
                 .first;
      }
      return it->second;
    };
    context = SessionContext(learner, section(session_project), ctx.budget_tokens);
    for (const home::HintsTarget& t : targets) section(t.project);
    return Status::Ok();
  }));
  // The hints files kept current: the agent reads them at its next start, and people see them.
  for (const home::HintsTarget& t : targets) {
    const std::string& path = t.path;
    Result<bool> written =
        home::WriteHintsSection(sections.find(model::ProjectKey(t.project))->second, path);
    if (!written.ok()) {
      ctx.notes.push_back(fmt::format("hints file {}: {}", path, written.status().message()));
    } else if (*written) {
      ctx.notes.push_back("refreshed " + path);
    }
  }
  return SessionStartOutput(p.agent, context);
}

// ---- user prompt ----

bool HoldsSecret(const std::string& home, std::string_view text, HookContext& ctx) {
  Result<ingest::PrivacyConfig> config =
      ingest::LoadPrivacyConfig(home, store::DefaultFileSystem());
  Result<std::shared_ptr<const ingest::Redactor>> redactor =
      ingest::SharedRedactor(config.ok() ? *config : ingest::PrivacyConfig{});
  if (!redactor.ok()) return false;  // ingest refuses the event with the config's error
  std::vector<ingest::PiiMatch> pii;
  (*redactor)->Find(text, &pii);
  const bool secret = std::any_of(pii.begin(), pii.end(), [](const ingest::PiiMatch& m) {
    return m.category == ingest::PiiCategory::kSecret;
  });
  if (secret) ctx.notes.push_back("a prompt that holds a secret is never learned from");
  return secret;
}

Result<std::string> UserPrompt(HookContext& ctx) {
  const HookPayload& p = ctx.payload;
  const ingest::Key128 hash = ingest::HashKey(p.prompt);
  KZ_RETURN_IF_ERROR(UpdateHookSession(ctx.common.home, p.session_id, [&](HookSession* s) {
    if (s->started_ms == 0) s->started_ms = ctx.now_ms;
    if (s->turn_started_ms == 0) s->turn_started_ms = ctx.now_ms;
    s->prompt_hash = fmt::format("{:016x}{:016x}", hash.hi, hash.lo);
  }));
  if (p.prompt.size() > kMaxJudgedPromptBytes) return std::string();
  if (text::ReadPrompt(p.prompt).judgement == text::PromptJudgement::kNone) return std::string();
  if (HoldsSecret(ctx.common.home, p.prompt, ctx)) return std::string();
  const std::string event = base::JsonObject([&](base::JsonWriter& w) {
    model::Kind(w, model::EventKind::kPrompt);
    model::Field(w, EventField::session_id, p.session_id);
    model::Field(w, EventField::text, p.prompt);
    model::Field(w, EventField::agent, HookAgentName(p.agent));
    if (!p.cwd.empty()) model::Field(w, EventField::project, home::ProjectDirectory(p.cwd));
    model::Key(w, EventField::context);
    w.StartObject();
    if (!p.cwd.empty()) model::Field(w, ContextField::cwd, p.cwd);
    if (!p.transcript_path.empty())
      model::Field(w, ContextField::transcriptPath, p.transcript_path);
    if (!p.model.empty()) model::Field(w, ContextField::model, p.model);
    w.EndObject();
  });
  KZ_ASSIGN_OR_RETURN(home::StoredEvent stored, Store(ctx, model::EventKind::kPrompt, event));
  (void)stored;
  return std::string();
}

// ---- before a write ----

Result<EnforcementConfig> LoadEnforcement(const std::string& home) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string path = store::PathIn(home, "config/enforcement.json");
  if (!fs->Exists(path)) return EnforcementConfig{};
  KZ_ASSIGN_OR_RETURN(std::string text, fs->ReadFrom(path, 0));
  Result<EnforcementConfig> config = ParseEnforcementConfig(text);
  if (!config.ok()) return InvalidArgument(path + ": " + config.status().message());
  return config;
}

// The answer to a write: a block, a warning, or nothing.
Result<std::string> CheckWrites(HookContext& ctx, bool* blocked) {
  const HookPayload& p = ctx.payload;
  KZ_ASSIGN_OR_RETURN(EnforcementConfig enforcement, LoadEnforcement(ctx.common.home));
  const bool all_off = enforcement.fallback == EnforcementMode::kOff &&
                       std::all_of(enforcement.patterns.begin(), enforcement.patterns.end(),
                                   [](const auto& e) { return e.second == EnforcementMode::kOff; });
  if (all_off) return std::string();
  std::vector<checks::OutputValidation> checked;  // one per write
  KZ_RETURN_IF_ERROR(ctx.backend->WithLearner(
      {learn::Part::kCorrections}, [&](const learn::Learner& learner, int64_t) {
        const double threshold = learner.corrections().config().enforce_min_confidence;
        for (const FileWrite& write : p.writes) {
          checked.push_back(checks::ValidateOutput(learner, write.text, threshold, write.path));
        }
        return Status::Ok();
      }));
  std::vector<std::string> blocks, warnings;
  for (size_t i = 0; i < p.writes.size(); ++i) {
    const FileWrite& write = p.writes[i];
    const checks::OutputValidation& v = checked[i];
    std::vector<std::string> seen;  // patterns already told for this file: one line each
    size_t hint = 0;
    for (const learn::PatternViolation& violation : v.violations) {
      if (std::find(seen.begin(), seen.end(), violation.pattern_id) != seen.end()) continue;
      seen.push_back(violation.pattern_id);
      const std::string& text = hint < v.hints.size() ? v.hints[hint] : violation.what;
      ++hint;
      // The hint may quote people's corrections: data, never instructions (render/safe_text.h).
      const std::string line = fmt::format(
          "- {} ({}; {}:{}; pattern {})", render::SanitizeReviewerText(text, 400),
          render::SanitizeReviewerText(violation.what, 160),
          render::SanitizeReviewerText(std::filesystem::path(write.path).filename().string(), 120),
          violation.line, violation.pattern_id);
      switch (enforcement.ModeOf(violation.pattern_id)) {
        case EnforcementMode::kBlock:
          blocks.push_back(line);
          break;
        case EnforcementMode::kWarn:
          warnings.push_back(line);
          break;
        case EnforcementMode::kOff:
          break;
      }
    }
  }
  auto joined = [](const std::vector<std::string>& lines) {
    std::string out;
    for (const std::string& l : lines) out += l + "\n";
    return out;
  };
  if (!blocks.empty()) {
    *blocked = true;
    ctx.notes.push_back(fmt::format("blocked a write: {} violation(s)", blocks.size()));
    return BlockOutput(
        p.agent,
        "kaizen: this write repeats what people corrected before. Write it again with these "
        "corrections:\n" +
            joined(blocks) + joined(warnings) +
            "(`kaizen corrections` shows the evidence; config/enforcement.json in the kaizen home "
            "sets a pattern to warn or off.)");
  }
  if (!warnings.empty()) {
    return WarnOutput(p.agent,
                      "kaizen: people corrected this before; consider:\n" + joined(warnings));
  }
  return std::string();
}

// A patch applied through the shell (Codex: `apply_patch <<'EOF'` in a Bash call) reaches no
// PostToolUse hook, so its files join the turn here, when the write is let through (a file the
// patch did not make is dropped when the turn ends).
Status RememberShellWrites(HookContext& ctx) {
  const HookPayload& p = ctx.payload;
  return UpdateHookSession(ctx.common.home, p.session_id, [&](HookSession* s) {
    if (s->started_ms == 0) s->started_ms = ctx.now_ms;
    if (s->turn_started_ms == 0) s->turn_started_ms = ctx.now_ms;
    ++s->tool_calls;
    for (const FileWrite& w : p.writes) {
      const std::string path = Absolute(p.cwd, w.path);
      if (std::find(s->files.begin(), s->files.end(), path) == s->files.end()) {
        s->files.push_back(path);
      }
    }
  });
}

Result<std::string> PreTool(HookContext& ctx) {
  const HookPayload& p = ctx.payload;
  if (p.writes.empty()) return std::string();
  bool blocked = false;
  KZ_ASSIGN_OR_RETURN(std::string answer, CheckWrites(ctx, &blocked));
  if (!blocked && p.tool_name == "Bash") KZ_RETURN_IF_ERROR(RememberShellWrites(ctx));
  return answer;
}

// ---- after a tool ----

Result<std::string> PostTool(HookContext& ctx) {
  HookPayload& p = ctx.payload;
  if (p.response_is_text && p.agent == HookAgent::kCodex) {
    // Codex's shell output says nothing of how the command ended; its rollout does.
    if (std::optional<CommandEnd> end = ReadCommandEnd(p.transcript_path, p.tool_use_id);
        end && end->exit_code != 0) {
      p.tool_failed = true;
      p.failure = fmt::format("exit code {}\n{}", end->exit_code, end->output);
    }
  }
  const std::string key = CallKey(p);
  const bool failed = p.tool_failed;
  std::string error_id, resolves;
  int64_t turn = 0;
  KZ_RETURN_IF_ERROR(UpdateHookSession(ctx.common.home, p.session_id, [&](HookSession* s) {
    if (s->started_ms == 0) s->started_ms = ctx.now_ms;
    if (s->turn_started_ms == 0) s->turn_started_ms = ctx.now_ms;
    ++s->tool_calls;
    turn = s->turns + 1;
    auto open = s->open_errors.find(key);
    const bool retried = open != s->open_errors.end();
    if (retried) ++s->retries;  // the same call again, after it failed
    s->last_tool_failed = failed;
    if (failed) {
      ++s->errors;
      error_id = model::NewUuidV7(ctx.now_ms).ToString();
      s->open_errors[key] = error_id;
      return;
    }
    if (retried) {
      resolves = open->second;
      s->open_errors.erase(open);
    }
    for (const FileWrite& w : p.writes) {
      const std::string path = Absolute(p.cwd, w.path);
      if (std::find(s->files.begin(), s->files.end(), path) == s->files.end()) {
        s->files.push_back(path);
      }
    }
  }));
  if (failed) {
    const std::string message = p.failure.empty() ? "the tool reported a failure without a message"
                                                  : Cut(p.failure, kMaxMessageBytes);
    const std::string event = base::JsonObject([&](base::JsonWriter& w) {
      model::Kind(w, model::EventKind::kError);
      model::Field(w, EventField::id, error_id);
      model::Field(w, EventField::bead_id, Bead(p, turn));
      model::Field(w, EventField::error_type, ClassifyToolError(p.failure));
      model::Field(w, EventField::message, message);
      if (!p.tool_name.empty()) model::Field(w, EventField::tool_name, Cut(p.tool_name, 256));
      model::Field(w, EventField::context, Cut(p.tool_call_key, 2000));
    });
    KZ_ASSIGN_OR_RETURN(home::StoredEvent stored, Store(ctx, model::EventKind::kError, event));
    (void)stored;
  }
  if (!resolves.empty()) {
    const std::string event = base::JsonObject([&](base::JsonWriter& w) {
      model::Kind(w, model::EventKind::kError);
      model::Field(w, EventField::bead_id, Bead(p, turn));
      model::Field(w, EventField::resolves, resolves);
    });
    KZ_ASSIGN_OR_RETURN(home::StoredEvent stored, Store(ctx, model::EventKind::kError, event));
    (void)stored;
  }
  return std::string();
}

// ---- end of a turn ----

Status RecordWork(HookContext& ctx, const HookSession& turn) {
  const HookPayload& p = ctx.payload;
  std::vector<checks::CheckSpec> specs;
  learn::SelfCheckConfig config;
  KZ_RETURN_IF_ERROR(LoadChecks(ctx.common.home, &specs, &config));
  std::vector<std::string> paths;
  for (const std::string& f : turn.files) {
    if (std::filesystem::is_regular_file(f)) paths.push_back(f);  // not deleted since
  }
  if (paths.empty()) return Status::Ok();
  std::vector<checks::CheckedFile> files;
  std::vector<checks::SkippedFile> skipped;
  KZ_RETURN_IF_ERROR(CollectFiles(paths, &files, &skipped));
  if (files.empty()) return Status::Ok();
  checks::PredictionWork work;
  work.task_type = ProjectName(p);
  work.paths = paths;
  ArtifactIds(files, &work.id, &work.version);
  work.session_id = p.session_id;
  work.stage = std::string(kStage);
  work.what = FirstLine(p.last_assistant_message, 200);
  if (!turn.prompt_hash.empty()) work.prompt_hash = turn.prompt_hash;
  work.model = !p.model.empty() ? p.model : std::string(HookAgentName(p.agent));
  work.generation_ms = std::max<int64_t>(0, ctx.now_ms - turn.turn_started_ms);
  work.iterations = turn.tool_calls;
  // The turn's change as the reviewer should see it, whatever is committed later (issue 29).
  std::string note;
  work.diff = checks::WorkingTreeDiff(paths, &note);
  if (!note.empty()) ctx.notes.push_back("the change is not recorded: " + note);
  learn::SelfCheckResult result;
  KZ_RETURN_IF_ERROR(ctx.backend->WithLearner(
      checks::kSelfCheckParts, [&](const learn::Learner& learner, int64_t now_ms) {
        result = SelfCheckFiles(learner, learner.review_history(), now_ms, work.task_type, specs,
                                files, config, work.id, work.version);
        return Status::Ok();
      }));
  Result<home::StoredEvent> stored =
      Store(ctx, model::EventKind::kWork, PredictionWorkEventJson(work, result, files.size()));
  if (!stored.ok() && stored.status().message().find("workProduct.version") != std::string::npos) {
    ctx.notes.push_back("this version of the work was already recorded");
    return Status::Ok();
  }
  return stored.status();
}

Result<std::string> Stop(HookContext& ctx) {
  const HookPayload& p = ctx.payload;
  // A subagent's turn is part of its parent's: its tools are counted in the parent's outcome.
  if (p.subagent) return std::string();
  const bool end = p.event == HookEvent::kSessionEnd;
  HookSession turn;
  bool open = false;
  KZ_RETURN_IF_ERROR(UpdateHookSession(
      ctx.common.home, p.session_id,
      [&](HookSession* s) {
        if (s->turn_started_ms == 0 && s->tool_calls == 0) return;
        open = true;
        turn = *s;
        ++s->turns;
        s->turn_started_ms = 0;
        s->tool_calls = s->errors = s->retries = 0;
        s->last_tool_failed = false;
        s->prompt_hash.clear();
        s->files.clear();
        s->open_errors.clear();  // recorded, and unresolved
      },
      /*remove=*/end));
  if (!open) return std::string();
  const std::string bead = Bead(p, turn.turns + 1);
  const int64_t started = turn.turn_started_ms != 0 ? turn.turn_started_ms : ctx.now_ms;
  const std::string outcome = base::JsonObject([&](base::JsonWriter& w) {
    model::Kind(w, model::EventKind::kOutcome);
    model::Field(w, EventField::bead_id, bead);
    model::Key(w, EventField::duration_ms);
    w.Int64(std::max<int64_t>(0, ctx.now_ms - started));
    model::Key(w, EventField::error_count);
    w.Int64(turn.errors);
    model::Key(w, EventField::retry_count);
    w.Int64(turn.retries);
    // As far as the hook knows: the turn did not end on a failed tool.
    model::Key(w, EventField::success);
    w.Bool(!turn.last_tool_failed);
    model::Key(w, EventField::files_touched);
    w.StartArray();
    for (const std::string& f : turn.files) base::Str(w, f);
    w.EndArray();
    if (!p.last_assistant_message.empty()) {
      model::Field(w, EventField::description, Cut(p.last_assistant_message, kMaxMessageBytes));
    }
  });
  KZ_ASSIGN_OR_RETURN(home::StoredEvent stored, Store(ctx, model::EventKind::kOutcome, outcome));
  (void)stored;
  if (!turn.files.empty()) KZ_RETURN_IF_ERROR(RecordWork(ctx, turn));
  return std::string();
}

EnforcementMode ParseMode(std::string_view s, bool* ok) {
  *ok = true;
  if (s == "block") return EnforcementMode::kBlock;
  if (s == "warn") return EnforcementMode::kWarn;
  if (s == "off") return EnforcementMode::kOff;
  *ok = false;
  return EnforcementMode::kBlock;
}

}  // namespace

EnforcementMode EnforcementConfig::ModeOf(std::string_view pattern_id) const {
  for (const auto& [id, mode] : patterns) {
    if (id == pattern_id) return mode;
  }
  return fallback;
}

Result<EnforcementConfig> ParseEnforcementConfig(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::dom::object o;
  if (parser.parse(json.data(), json.size()).get_object().get(o) != simdjson::SUCCESS) {
    return InvalidArgument("is not a JSON object ({\"default\": ..., \"patterns\": {...}})");
  }
  EnforcementConfig config;
  for (auto field : o) {
    const std::string_view key = field.key;
    if (key == "default") {
      std::string_view mode;
      bool ok = field.value.get_string().get(mode) == simdjson::SUCCESS;
      if (ok) config.fallback = ParseMode(mode, &ok);
      if (!ok) {
        return InvalidArgument(
            fmt::format("default: {} must be one of \"block\", \"warn\", \"off\"",
                        simdjson::minify(field.value)));
      }
    } else if (key == "patterns") {
      simdjson::dom::object patterns;
      if (field.value.get_object().get(patterns) != simdjson::SUCCESS) {
        return InvalidArgument("patterns: must be an object of pattern id -> mode");
      }
      for (auto p : patterns) {
        std::string_view mode;
        bool ok = p.value.get_string().get(mode) == simdjson::SUCCESS;
        EnforcementMode m = EnforcementMode::kBlock;
        if (ok) m = ParseMode(mode, &ok);
        if (!ok) {
          return InvalidArgument(
              fmt::format("patterns.{}: {} must be one of \"block\", \"warn\", "
                          "\"off\"",
                          p.key, simdjson::minify(p.value)));
        }
        config.patterns.emplace_back(std::string(p.key), m);
      }
    } else {
      return InvalidArgument(fmt::format("{}: unknown key (the keys are default, patterns)", key));
    }
  }
  return config;
}

Result<std::vector<std::string>> HintsFiles(const std::string& home) {
  store::FileSystem* fs = store::DefaultFileSystem();
  const std::string path = store::PathIn(home, "config/hints.json");
  std::vector<std::string> out;
  if (!fs->Exists(path)) return out;
  KZ_ASSIGN_OR_RETURN(std::string text, fs->ReadFrom(path, 0));
  simdjson::dom::parser parser;
  simdjson::dom::array files;
  if (parser.parse(text).at_key("files").get_array().get(files) != simdjson::SUCCESS) {
    return InvalidArgument(path + ": files: must be an array of paths relative to the project");
  }
  for (auto f : files) {
    std::string_view name;
    if (f.get_string().get(name) != simdjson::SUCCESS || name.empty() || name[0] == '/' ||
        name.find("..") != std::string_view::npos) {
      return InvalidArgument(fmt::format("{}: files: {} must be a path inside the project", path,
                                         simdjson::minify(f)));
    }
    out.emplace_back(name);
  }
  return out;
}

Status LocalHookBackend::WithLearner(learn::Parts parts, const LearnerFn& fn) {
  home::LearnedState st;
  KZ_RETURN_IF_ERROR(LoadLearnedStateUnserved(common_, &st, parts));
  return fn(*st.learner, st.now_ms);
}

Result<home::StoredEvent> LocalHookBackend::Store(model::EventKind kind, const std::string& json,
                                                  int64_t now_ms) {
  return StoreEvent(common_, now_ms, kind, json);
}

Result<std::string> RunHookStep(HookContext& ctx) {
  switch (ctx.payload.event) {
    case HookEvent::kSessionStart:
      return SessionStart(ctx);
    case HookEvent::kUserPrompt:
      return UserPrompt(ctx);
    case HookEvent::kPreTool:
      return PreTool(ctx);
    case HookEvent::kPostTool:
    case HookEvent::kPostToolFailure:
      return PostTool(ctx);
    case HookEvent::kStop:
    case HookEvent::kSessionEnd:
      return Stop(ctx);
    case HookEvent::kOther:
      break;
  }
  return std::string();
}

}  // namespace kaizen::agents
