// `kaizen hook [--agent claude-code|codex|goose]`: kaizen in the agent's own loop (issue 28). The
// agent runs it at its hook points with one JSON payload on standard input (agents/hook_payload.h);
// it answers on standard output in the agent's format:
//
//   session start     the learned context (rules, candidates, checklist, anti-patterns, what the
//                     person said in sessions, autonomy, unresolved errors) within a token budget;
//                     the hints files of <home>/config/hints.json refreshed
//   user prompt       a prompt that corrects, instructs or praises the agent's last turn is a
//                     `prompt` event (evidence for rules, never a review decision); a plain
//                     request records nothing
//   before a write    the new text checked against the enforced correction patterns (seed 004):
//                     a violation blocks the write with the pattern's hint (or warns, or nothing:
//                     <home>/config/enforcement.json)
//   after a tool      a failure is an `error` of the turn's task (seed 002 types), a retry of a
//                     failed call is counted, and resolves the error when it succeeds; written
//                     files are kept for the turn
//   end of a turn     the turn's `outcome`, and when files changed a `work` event with kaizen's
//                     prediction (the `kaizen check` self-check of those files)
//
// While the home's `kaizen serve` runs, the call is answered by it (home/serve_client.h): the same
// steps on its live learner, without a fold of the log.
//
// Fail open: whatever goes wrong (a payload it cannot read, a locked or full home, a bug, its
// time budget) it exits 0, blocks nothing and writes what went wrong to <home>/logs/hook.log.
// Only a deliberate enforcement block stops the agent.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <memory>
#include <set>

#include <fmt/format.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "agents/hook_payload.h"
#include "agents/hook_session.h"
#include "agents/hook_steps.h"
#include "base/json_writer.h"
#include "cli/verbs.h"
#include "home/clock.h"
#include "home/serve_client.h"
#include "home/store_open.h"
#include "model/timestamp.h"
#include "store/file_system.h"
#include "store/log_format.h"

namespace kaizen::cli {
namespace {

constexpr size_t kMaxPayloadBytes = size_t{64} << 20;  // an Edit payload carries the whole file

// The timeout handler may only make async-signal-safe calls: the log's descriptor and the line
// to write are ready before the timer starts.
int g_log_fd = -1;
char g_timeout_line[512];
size_t g_timeout_line_size = 0;

// One line per call in <home>/logs/hook_calls.jsonl, for `kaizen doctor`: when each hook point
// last reached kaizen, with what result, in how long. The line a timeout writes is ready too.
int g_calls_fd = -1;
char g_timeout_call[512];
size_t g_timeout_call_size = 0;

void OnTimeout(int) {
  if (g_log_fd >= 0 && g_timeout_line_size > 0) {
    ssize_t ignored = ::write(g_log_fd, g_timeout_line, g_timeout_line_size);
    (void)ignored;
  }
  if (g_calls_fd >= 0 && g_timeout_call_size > 0) {
    ssize_t ignored = ::write(g_calls_fd, g_timeout_call, g_timeout_call_size);
    (void)ignored;
  }
  ::_exit(kExitOk);
}

// Arms the timer for `arm_ms`; the log line says the whole budget, `timeout_ms`, ran out.
void StartWatchdog(int64_t arm_ms, int64_t timeout_ms, const std::string& what) {
  const std::string line = fmt::format(
      "{} timeout: gave up after {} ms (--timeout-ms); nothing was blocked\n", what, timeout_ms);
  g_timeout_line_size = std::min(line.size(), sizeof g_timeout_line);
  std::memcpy(g_timeout_line, line.data(), g_timeout_line_size);
  struct sigaction sa {};
  sa.sa_handler = OnTimeout;
  ::sigaction(SIGALRM, &sa, nullptr);
  itimerval timer{};
  timer.it_value.tv_sec = arm_ms / 1000;
  timer.it_value.tv_usec = (arm_ms % 1000) * 1000;
  ::setitimer(ITIMER_REAL, &timer, nullptr);
}

// The home: --home, else $KAIZEN_HOME, else the nearest `.kaizen` directory at or above the
// session's working directory. None: the project was never set up (`kaizen init`), and a hook
// configured for every project must not make homes where none was asked for.
std::optional<std::string> FindHome(const std::string& given, const std::string& cwd) {
  if (!given.empty()) return given;
  if (const char* env = std::getenv("KAIZEN_HOME"); env && *env) return std::string(env);
  std::error_code ec;
  std::filesystem::path dir =
      cwd.empty() ? std::filesystem::current_path(ec) : std::filesystem::path(cwd);
  for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
    if (std::filesystem::is_directory(dir / ".kaizen", ec)) return (dir / ".kaizen").string();
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return std::nullopt;
}

void OpenLog(const std::string& home) {
  const std::string dir = store::PathIn(home, "logs");
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  g_log_fd = ::open((dir + "/hook.log").c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
}

// Past this size the calls file starts again (the previous one kept as .1): doctor reads the
// latest calls only.
constexpr off_t kMaxCallsBytes = 512 << 10;

void OpenCalls(const std::string& home) {
  const std::string path = store::PathIn(home, "logs") + "/hook_calls.jsonl";
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && st.st_size > kMaxCallsBytes) {
    ::rename(path.c_str(), (path + ".1").c_str());
  }
  g_calls_fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
}

// What one call did; its line is written when the call ends, whichever way it ends.
struct CallRecord {
  std::chrono::steady_clock::time_point started;
  std::string at, agent, event;
  std::string result = "failed";  // until a step says otherwise
  std::string by = "here";        // or "serve": answered by the home's running server

  std::string Line(std::string_view result_now, int64_t ms) const {
    return base::JsonObject([&](base::JsonWriter& w) {
             base::Field(w, "at", at);
             base::Field(w, "agent", agent);
             base::Field(w, "event", event);
             base::Field(w, "result", result_now);
             base::Key(w, "ms");
             w.Int64(ms);
             base::Field(w, "by", by);
           }) +
           "\n";
  }
  // The line the watchdog writes if the budget runs out from here.
  void ArmTimeoutLine(int64_t timeout_ms) const {
    const std::string line = Line("timeout", timeout_ms);
    g_timeout_call_size = line.size() <= sizeof g_timeout_call ? line.size() : 0;
    std::memcpy(g_timeout_call, line.data(), g_timeout_call_size);
  }
  ~CallRecord() {
    if (g_calls_fd < 0) return;
    const int64_t ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                           std::chrono::steady_clock::now() - started)
                           .count();
    const std::string line = Line(result, ms);
    ssize_t ignored = ::write(g_calls_fd, line.data(), line.size());
    (void)ignored;
  }
};

// The result of an answer printed to the agent.
std::string_view ResultOf(std::string_view output) {
  if (output.empty()) return "ok";
  if (output.find("\"deny\"") != std::string_view::npos ||
      output.find("\"block\"") != std::string_view::npos) {
    return "blocked";
  }
  return "answered";
}

void Log(std::string_view line) {
  if (g_log_fd < 0) return;
  std::string text(line);
  if (text.empty() || text.back() != '\n') text.push_back('\n');
  ssize_t ignored = ::write(g_log_fd, text.data(), text.size());
  (void)ignored;
}

struct HookOptions {
  std::string agent, home;
  size_t budget_tokens = 2000;
  int64_t timeout_ms = 10000;
};

// Hands the call to the home's running server (home/serve_client.h), which answers from its live
// learner. False when the server did nothing (none reachable, another home's, a changed config):
// the caller then answers it here. True once the request reached the server, whatever became of
// it: the server may have stored events, so the call is never run twice.
bool AnsweredByServer(const home::ServeEndpoint& server, const HookOptions& o,
                      const std::string& now, const std::string& input, agents::HookAgent agent,
                      int64_t timeout_ms, const std::string& who, CallRecord* record) {
  const std::string target = fmt::format("/v1/cli/hook?agent={}&budget={}&{}", HookAgentName(agent),
                                         o.budget_tokens, home::NowQuery(now));
  bool sent = false;
  Result<home::ServeAnswer> answer =
      AskServer(server, target, input, std::max<int64_t>(1, timeout_ms), &sent);
  if (!answer.ok()) {
    if (!sent) return false;
    record->by = "serve";
    Log(fmt::format("{}: {} (the call was sent; not run again here)", who,
                    answer.status().message()));
    return true;
  }
  if (home::ServerDeclined(answer->status)) {
    Log(fmt::format("{}: kaizen serve declined ({}): {}; answered here", who, answer->status,
                    answer->body.substr(0, 400)));
    return false;
  }
  record->by = "serve";
  rapidjson::Document doc;
  doc.Parse(answer->body.data(), answer->body.size());
  if (answer->status != 200 || doc.HasParseError() || !doc.IsObject()) {
    Log(fmt::format("{}: kaizen serve answered {}: {}", who, answer->status,
                    answer->body.substr(0, 400)));
    return true;
  }
  if (doc.HasMember("notes") && doc["notes"].IsArray()) {
    for (const auto& note : doc["notes"].GetArray()) {
      if (note.IsString()) Log(fmt::format("{}: {}", who, note.GetString()));
    }
  }
  if (doc.HasMember("error") && doc["error"].IsString()) {
    Log(fmt::format("{}: {}", who, doc["error"].GetString()));
    return true;
  }
  const std::string_view output =
      doc.HasMember("output") && doc["output"].IsString()
          ? std::string_view(doc["output"].GetString(), doc["output"].GetStringLength())
          : std::string_view();
  record->result = ResultOf(output);
  if (!output.empty()) {
    fmt::print("{}\n", output);
    std::fflush(stdout);
  }
  return true;
}

int HookCommand(const Common& common, const HookOptions& o) {
  // The budget runs from the start: an agent that never closes stdin must not hang its session.
  const auto started = std::chrono::steady_clock::now();
  StartWatchdog(o.timeout_ms, o.timeout_ms, "(reading the payload)");
  std::string input;
  {
    char buffer[65536];
    ssize_t n;
    while ((n = ::read(STDIN_FILENO, buffer, sizeof buffer)) > 0) {
      input.append(buffer, static_cast<size_t>(n));
      if (input.size() > kMaxPayloadBytes) break;
    }
  }
  std::optional<agents::HookAgent> given;
  if (!o.agent.empty()) given = agents::ParseHookAgent(o.agent);
  Result<agents::HookPayload> payload =
      input.size() > kMaxPayloadBytes ? Result<agents::HookPayload>(InvalidArgument(fmt::format(
                                            "the payload is over {} bytes", kMaxPayloadBytes)))
                                      : ParseHookPayload(input, given);
  const std::string cwd = payload.ok() ? payload->cwd : std::string();
  const std::optional<std::string> home = FindHome(o.home, cwd);
  if (!home) return kExitOk;  // no kaizen home for this project: nothing to do, nothing to say
  OpenLog(*home);
  OpenCalls(*home);
  Result<int64_t> now = home::NowMs(common.now);
  const std::string stamp = model::FormatUtc(now.ok() ? *now : 0);
  CallRecord record;
  record.started = started;
  record.at = stamp;
  if (payload.ok()) {
    record.agent = HookAgentName(payload->agent);
    record.event = payload->event_name;
  } else {
    record.result = "unreadable";
  }
  const std::string who =
      payload.ok() ? fmt::format("{} {} {} session {}", stamp, HookAgentName(payload->agent),
                                 payload->event_name, payload->session_id)
                   : fmt::format("{} (unreadable payload)", stamp);
  if (!payload.ok()) {
    Log(fmt::format("{}: {} ({} bytes read)", who, payload.status().message(), input.size()));
    return kExitOk;
  }
  if (!now.ok()) {
    Log(fmt::format("{}: --now: {}", who, now.status().message()));
    return kExitOk;
  }
  // What the log says if the budget runs out from here; the time left of it.
  const int64_t spent = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::steady_clock::now() - started)
                            .count();
  record.ArmTimeoutLine(o.timeout_ms);
  StartWatchdog(std::max<int64_t>(1, o.timeout_ms - spent), o.timeout_ms, who);
  if (std::optional<home::ServeEndpoint> server = home::FindServer(*home)) {
    if (AnsweredByServer(*server, o, common.now, input, payload->agent, o.timeout_ms - spent, who,
                         &record)) {
      return kExitOk;
    }
  }
  Common c = common;
  c.home = *home;
  // A team's shared store ($KAIZEN_STORE): the hook stores there too, and fails open without it.
  std::unique_ptr<store::SharedLog> remote;
  if (Status opened = home::OpenStore(&c, &remote); !opened.ok()) {
    Log(fmt::format("{}: {} (nothing stored)", who, opened.message()));
    return kExitOk;
  }
  agents::LocalHookBackend backend(c);
  agents::HookContext ctx{c, &backend, *payload, *now, o.budget_tokens};
  try {
    Result<std::string> answer = RunHookStep(ctx);
    if (!answer.ok()) {
      Log(fmt::format("{}: {}", who, answer.status().message()));
      return kExitOk;
    }
    for (const std::string& note : ctx.notes) Log(fmt::format("{}: {}", who, note));
    record.result = ResultOf(*answer);
    if (!answer->empty()) {
      fmt::print("{}\n", *answer);
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    Log(fmt::format("{}: internal error: {}", who, e.what()));
  } catch (...) {
    Log(fmt::format("{}: internal error", who));
  }
  return kExitOk;
}

}  // namespace

Verb AddHookVerb(CLI::App& app, Common& c) {
  auto o = std::make_shared<HookOptions>();
  CLI::App* sub = app.add_subcommand(
      "hook",
      "answer one agent hook call (Claude Code, Codex, Goose): its payload on stdin, the answer "
      "on stdout; always exits 0 (fails open)");
  sub->add_option("--agent", o->agent,
                  "the agent whose payload and output format to use (default: recognised from "
                  "the payload)")
      ->check(CLI::IsMember({"claude-code", "codex", "goose"}));
  sub->add_option("--home", o->home,
                  "the kaizen home (default $KAIZEN_HOME, else the nearest .kaizen at or above "
                  "the session's directory; none: the hook does nothing)")
      ->check(HomeDirectory());
  sub->add_option("--budget-tokens", o->budget_tokens,
                  "the session-start context's size, in tokens (default 2000)")
      ->check(CLI::Range(100, 200000));
  sub->add_option("--timeout-ms", o->timeout_ms,
                  "give up (exit 0, logged) after this long (default 10000)")
      ->check(CLI::Range(100, 600000));
  sub->add_option("--now", c.now, "the clock, ISO 8601 (default: the system clock)");
  return {sub, [&c, o] { return HookCommand(c, *o); }};
}

}  // namespace kaizen::cli
