// `kaizen doctor [--agent A] [--project DIR] [--home DIR]`: whether kaizen is wired into the
// agent a project uses, as the agent will see it: the hooks its config registers (and, for
// Codex, whether the user trusted them: Codex skips an unreviewed hook without a word), when each
// hook last reached kaizen and with what result, whether the MCP server starts and lists its
// tools, whether the learned section reaches the model once and current, whether the home's
// `kaizen serve` runs, the home's size and the latest hook latencies.
//
// One line per check: `ok`, `info`, or `FIX` followed by the one line that fixes it. Exit 1 when
// anything needs fixing, 0 otherwise.
#include <fmt/format.h>
#include <simdjson.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "agents/agent_config.h"
#include "agents/agent_specs.h"
#include "agents/codex_trust.h"
#include "agents/toml_text.h"
#include "base/subprocess.h"
#include "cli/verbs.h"
#include "home/hints_section.h"
#include "home/project_dir.h"
#include "home/serve_client.h"
#include "render/hints.h"
#include "store/file/raw_log.h"
#include "store/file_system.h"

namespace kaizen::cli {
namespace {

namespace ac = agents::agent_config;
namespace fs = std::filesystem;
using agents::AgentSpec;

struct DoctorOptions {
  std::string agent, project = ".";
  bool home_given = false;
};

class Report {
 public:
  void Ok(std::string what) { fmt::print("  ok    {}\n", what); }
  void Info(std::string what) { fmt::print("  info  {}\n", what); }
  void Fix(std::string what, std::string fix) {
    fmt::print("  FIX   {}\n        fix: {}\n", what, fix);
    ++to_fix_;
  }
  int to_fix() const { return to_fix_; }

 private:
  int to_fix_ = 0;
};

std::optional<std::string> ReadFile(const std::string& path) {
  store::FileSystem* f = store::DefaultFileSystem();
  if (!f->Exists(path)) return std::nullopt;
  Result<std::string> text = f->ReadFrom(path, 0);
  if (!text.ok()) return std::nullopt;
  return *text;
}

// The program a command runs is there: a path that runs, or a name found on PATH.
bool Runnable(const std::string& program) {
  if (program.find('/') != std::string::npos) return ::access(program.c_str(), X_OK) == 0;
  return base::FoundOnPath(program, {}) != program;
}

std::string InitFix(const AgentSpec& a, const DoctorOptions& o) {
  return fmt::format("kaizen init --agent {}{}", a.name,
                     o.project == "." ? "" : " --project " + ac::ShellQuote(o.project));
}

// A kaizen hook found in the agent's hooks file.
struct FoundHook {
  std::string event, matcher, command;
  int timeout = 0;
  size_t group = 0, handler = 0;
};

// kaizen's hooks in a grouped hooks file ({"hooks": {"Event": [{"matcher", "hooks": [...]}]}}).
std::vector<FoundHook> KaizenHooks(const rapidjson::Value& doc, std::string_view agent) {
  std::vector<FoundHook> found;
  if (!doc.IsObject() || !doc.HasMember("hooks") || !doc["hooks"].IsObject()) return found;
  for (const auto& event : doc["hooks"].GetObject()) {
    if (!event.value.IsArray()) continue;
    size_t gi = 0;
    for (const auto& group : event.value.GetArray()) {
      if (group.IsObject() && group.HasMember("hooks") && group["hooks"].IsArray()) {
        size_t hi = 0;
        for (const auto& handler : group["hooks"].GetArray()) {
          if (handler.IsObject() && handler.HasMember("command") && handler["command"].IsString() &&
              ac::IsKaizenHookCommand(handler["command"].GetString(), agent, "")) {
            FoundHook h;
            h.event = event.name.GetString();
            if (group.HasMember("matcher") && group["matcher"].IsString()) {
              h.matcher = group["matcher"].GetString();
            }
            h.command = handler["command"].GetString();
            if (handler.HasMember("timeout") && handler["timeout"].IsInt()) {
              h.timeout = handler["timeout"].GetInt();
            }
            h.group = gi;
            h.handler = hi;
            found.push_back(std::move(h));
          }
          ++hi;
        }
      }
      ++gi;
    }
  }
  return found;
}

void CheckCodexTrust(const std::string& project, const std::string& hooks_path,
                     const std::vector<FoundHook>& hooks, Report* r) {
  const std::string config = agents::CodexConfigPath();
  Result<agents::CodexTrust> trust = agents::ReadCodexTrust(config, project);
  if (!trust.ok()) {
    r->Fix(fmt::format("Codex's config: {}", trust.status().message()), "fix the file: " + config);
    return;
  }
  if (!trust->project_trusted) {
    r->Fix(fmt::format("Codex does not trust {} ({}): it reads none of .codex/, hooks included",
                       project, config),
           "start `codex` in the project and trust it");
    return;
  }
  std::vector<std::string> unreviewed;
  for (const FoundHook& h : hooks) {
    const std::string key = agents::CodexHookKey(hooks_path, h.event, h.group, h.handler);
    const std::string want =
        agents::CodexHookTrustHash(h.event, h.matcher, h.command, h.timeout > 0 ? h.timeout : 600);
    auto it = trust->hook_hashes.find(key);
    if (it == trust->hook_hashes.end() || it->second != want) unreviewed.push_back(h.event);
  }
  if (unreviewed.empty()) {
    r->Ok(fmt::format("Codex trusts the project and all {} of kaizen's hooks", hooks.size()));
  } else {
    r->Fix(fmt::format("Codex skips {} of kaizen's hooks until you review them: {}",
                       unreviewed.size(), fmt::join(unreviewed, ", ")),
           "start `codex` in the project, open /hooks and trust kaizen's hooks");
  }
}

void CheckHooks(const AgentSpec& a, const DoctorOptions& o, const std::string& project, Report* r) {
  if (a.hooks_file.empty()) {
    r->Info(fmt::format("hooks: {} gets none from kaizen (its hook format is its own)", a.name));
    return;
  }
  const std::string path = project + "/" + std::string(a.hooks_file);
  const std::optional<std::string> text = ReadFile(path);
  if (!text) {
    r->Fix(fmt::format("hooks: {} does not exist", a.hooks_file), InitFix(a, o));
    return;
  }
  Result<ac::JsonConfig> config = ac::JsonConfig::Parse(path, *text);
  if (!config.ok()) {
    r->Fix(fmt::format("hooks: {}", config.status().message()),
           "fix the file, then " + InitFix(a, o));
    return;
  }
  const std::vector<FoundHook> hooks = KaizenHooks(config->doc(), a.name);
  std::vector<std::string> missing, outdated, broken;
  for (const ac::HookPoint& p : a.points) {
    auto it = std::find_if(hooks.begin(), hooks.end(),
                           [&](const FoundHook& h) { return h.event == p.event; });
    if (it == hooks.end()) {
      missing.push_back(p.event);
      continue;
    }
    const int timeout = p.timeout_seconds > 0 ? p.timeout_seconds : agents::kHookTimeoutSeconds;
    if (it->matcher != p.matcher || it->timeout != timeout) outdated.push_back(p.event);
    const std::vector<std::string> words = ac::ShellWords(it->command);
    if (!words.empty() && !Runnable(words[0])) broken.push_back(words[0]);
  }
  const size_t extra = std::count_if(hooks.begin(), hooks.end(), [&](const FoundHook& h) {
    return std::none_of(a.points.begin(), a.points.end(),
                        [&](const ac::HookPoint& p) { return p.event == h.event; });
  });
  if (!missing.empty()) {
    r->Fix(fmt::format("hooks: {} not registered in {}", fmt::join(missing, ", "), a.hooks_file),
           InitFix(a, o));
  }
  if (!outdated.empty() || extra > 0) {
    r->Fix(fmt::format("hooks: {} differ from what this kaizen registers{}",
                       outdated.empty() ? "none" : fmt::format("{}", fmt::join(outdated, ", ")),
                       extra > 0 ? fmt::format("; {} at events it no longer uses", extra) : ""),
           InitFix(a, o));
  }
  if (!broken.empty()) {
    std::sort(broken.begin(), broken.end());
    broken.erase(std::unique(broken.begin(), broken.end()), broken.end());
    r->Fix(fmt::format("hooks: the command {} is not there (kaizen moved since init?)",
                       fmt::join(broken, ", ")),
           InitFix(a, o));
  }
  if (missing.empty() && outdated.empty() && extra == 0 && broken.empty()) {
    r->Ok(fmt::format("hooks: all {} registered in {}", a.points.size(), a.hooks_file));
  }
  if (a.name == "codex" && !hooks.empty()) {
    std::error_code ec;
    CheckCodexTrust(project, fs::absolute(path, ec).lexically_normal().string(), hooks, r);
  }
}

// The latest line per event of this agent in the calls log (cli/hook.cc writes it).
struct Call {
  std::string at, result, by;
  int64_t ms = 0;
};

std::vector<std::pair<std::string, Call>> ReadCalls(const std::string& home,
                                                    std::string_view agent) {
  std::vector<std::pair<std::string, Call>> calls;  // (event, call), oldest first
  simdjson::dom::parser parser;
  for (const std::string name : {"hook_calls.jsonl.1", "hook_calls.jsonl"}) {
    const std::optional<std::string> text = ReadFile(home + "/logs/" + name);
    if (!text) continue;
    store::ForEachLine(*text, 1, [&](std::string_view line, uint64_t) {
      simdjson::dom::element e;
      if (parser.parse(line.data(), line.size()).get(e) != simdjson::SUCCESS) return;
      std::string_view a, ev, at, result, by;
      int64_t ms = 0;
      if (e["agent"].get(a) == simdjson::SUCCESS && a == agent &&
          e["event"].get(ev) == simdjson::SUCCESS && e["at"].get(at) == simdjson::SUCCESS &&
          e["result"].get(result) == simdjson::SUCCESS && e["ms"].get(ms) == simdjson::SUCCESS) {
        (void)e["by"].get(by);
        calls.push_back(
            {std::string(ev), Call{std::string(at), std::string(result), std::string(by), ms}});
      }
    });
  }
  return calls;
}

void CheckCalls(const AgentSpec& a, const std::string& home, Report* r) {
  if (a.points.empty()) return;
  const std::vector<std::pair<std::string, Call>> calls = ReadCalls(home, a.name);
  std::vector<std::string> never, failed;
  for (const ac::HookPoint& p : a.points) {
    auto it = std::find_if(calls.rbegin(), calls.rend(),
                           [&](const auto& c) { return c.first == p.event; });
    if (it == calls.rend()) {
      never.push_back(p.event);
      continue;
    }
    const Call& c = it->second;
    const std::string line =
        fmt::format("{}: last reached kaizen {}, {} in {} ms{}", p.event, c.at, c.result, c.ms,
                    c.by == "serve" ? " (by kaizen serve)" : "");
    if (c.result == "failed" || c.result == "timeout" || c.result == "unreadable") {
      r->Fix(line,
             fmt::format("read {}/logs/hook.log: kaizen let the agent go on without it", home));
    } else {
      r->Ok(line);
    }
  }
  if (!never.empty()) {
    r->Info(fmt::format("{}: never reached kaizen from {} yet", fmt::join(never, ", "), a.name));
  }
  // The latest latencies, as the agent waited for them.
  std::vector<int64_t> ms;
  for (size_t i = calls.size() > 50 ? calls.size() - 50 : 0; i < calls.size(); ++i) {
    ms.push_back(calls[i].second.ms);
  }
  if (!ms.empty()) {
    std::vector<int64_t> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    r->Info(fmt::format("hook latency: the last {} calls took {} ms at the median, {} ms at most",
                        ms.size(), sorted[sorted.size() / 2], sorted.back()));
  }
}

// The MCP server's command as the agent's config names it.
std::optional<std::vector<std::string>> McpCommand(const AgentSpec& a, const std::string& project,
                                                   std::string* why) {
  const std::string path = project + "/" + std::string(a.mcp_file);
  const std::optional<std::string> text = ReadFile(path);
  if (!text) {
    *why = a.mcp_file.data() + std::string(" does not exist");
    return std::nullopt;
  }
  std::vector<std::string> argv;
  if (a.mcp_toml) {
    Result<toml::table> config = agents::ParseTomlText(*text, std::string(a.mcp_file));
    if (!config.ok()) {
      *why = config.status().message();
      return std::nullopt;
    }
    const toml::node_view server = (*config)["mcp_servers"]["kaizen"];
    if (!server) {
      *why = "no [mcp_servers.kaizen] in " + std::string(a.mcp_file);
      return std::nullopt;
    }
    argv.push_back(server["command"].value_or(std::string()));
    if (const toml::array* args = server["args"].as_array()) {
      for (const toml::node& arg : *args) argv.push_back(arg.value_or(std::string()));
    }
  } else {
    Result<ac::JsonConfig> config = ac::JsonConfig::Parse(path, *text);
    if (!config.ok()) {
      *why = config.status().message();
      return std::nullopt;
    }
    const rapidjson::Value& doc = config->doc();
    if (!doc.HasMember("mcpServers") || !doc["mcpServers"].IsObject() ||
        !doc["mcpServers"].HasMember("kaizen") || !doc["mcpServers"]["kaizen"].IsObject()) {
      *why = "no mcpServers.kaizen in " + std::string(a.mcp_file);
      return std::nullopt;
    }
    const rapidjson::Value& server = doc["mcpServers"]["kaizen"];
    if (server.HasMember("command") && server["command"].IsString()) {
      argv.push_back(server["command"].GetString());
    }
    if (server.HasMember("args") && server["args"].IsArray()) {
      for (const auto& arg : server["args"].GetArray()) {
        if (arg.IsString()) argv.push_back(arg.GetString());
      }
    }
  }
  if (argv.empty() || argv[0].empty()) {
    *why = "kaizen's MCP entry names no command";
    return std::nullopt;
  }
  for (std::string& arg : argv) {
    // Cursor expands ${workspaceFolder} to the project.
    for (size_t at; (at = arg.find("${workspaceFolder}")) != std::string::npos;) {
      arg.replace(at, 18, project);
    }
  }
  return argv;
}

void CheckMcp(const AgentSpec& a, const DoctorOptions& o, const std::string& project, Report* r) {
  std::string why;
  std::optional<std::vector<std::string>> argv = McpCommand(a, project, &why);
  if (!argv) {
    r->Fix("MCP: " + why, InitFix(a, o));
    return;
  }
  base::Subprocess spec;
  spec.argv = *argv;
  spec.cwd = project;  // where the agent starts it
  spec.timeout_seconds = 20;
  spec.input =
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"kaizen-doctor","version":"1"}}})"
      "\n"
      R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
      "\n"
      R"({"jsonrpc":"2.0","id":2,"method":"tools/list"})"
      "\n";
  Result<base::SubprocessResult> run = base::RunSubprocess(spec);
  if (!run.ok()) {
    r->Fix(
        fmt::format("MCP: `{}` does not start: {}", fmt::join(*argv, " "), run.status().message()),
        InitFix(a, o));
    return;
  }
  size_t tools = 0;
  bool answered = false;
  simdjson::dom::parser parser;
  store::ForEachLine(run->out, 1, [&](std::string_view line, uint64_t) {
    simdjson::dom::element e;
    int64_t id = 0;
    simdjson::dom::array list;
    if (parser.parse(line.data(), line.size()).get(e) == simdjson::SUCCESS &&
        e["id"].get(id) == simdjson::SUCCESS && id == 2 &&
        e["result"]["tools"].get(list) == simdjson::SUCCESS) {
      answered = true;
      tools = list.size();
    }
  });
  if (!answered) {
    const std::string err = run->err.substr(0, run->err.find('\n'));
    r->Fix(fmt::format("MCP: `{}` did not list its tools{}", fmt::join(*argv, " "),
                       err.empty() ? "" : ": " + err),
           InitFix(a, o));
    return;
  }
  r->Ok(fmt::format("MCP: `{}` started and listed {} tools in {:.0f} ms", fmt::join(*argv, " "),
                    tools, run->seconds * 1000));
  if (!run->err.empty()) {
    r->Info(fmt::format("MCP: the server wrote to stderr, which {} logs as errors: {}", a.name,
                        run->err.substr(0, run->err.find('\n'))));
  }
}

// The learned section after the marker line, without its first line (the day it was made).
std::string SectionBody(std::string_view text) {
  const size_t marker = text.find(render::kHintsMarker);
  if (marker == std::string_view::npos) return {};
  size_t start = text.find('\n', marker);
  if (start == std::string_view::npos) return {};
  std::string_view section = text.substr(start + 1);
  const size_t first = section.find('\n');
  return std::string(first == std::string_view::npos ? "" : section.substr(first + 1));
}

void CheckContext(const AgentSpec& a, const DoctorOptions& o, const Common& c,
                  const std::string& project, Report* r) {
  const std::string path = project + "/" + std::string(a.hints_file);
  const std::optional<std::string> text = ReadFile(path);
  const bool has_section = text && text->find(render::kHintsMarker) != std::string::npos;
  if (a.context_from_hook) {
    if (has_section) {
      r->Fix(fmt::format("context: {} carries the learned section and the session-start hook "
                         "gives it too: the model reads it twice",
                         a.hints_file),
             InitFix(a, o) + " (takes it out of the file)");
    } else {
      r->Ok(
          fmt::format("context: the session-start hook gives the learned section, once and "
                      "current ({} carries none)",
                      a.hints_file));
    }
    return;
  }
  if (!has_section) {
    r->Fix(fmt::format("context: {} has no learned section", a.hints_file), InitFix(a, o));
    return;
  }
  Result<std::string> current = home::LearnedHintsSection(c, home::ProjectDirectory(project));
  if (!current.ok()) {
    r->Fix(
        fmt::format("context: the learned section cannot be made: {}", current.status().message()),
        "kaizen verify");
    return;
  }
  const std::string now = std::string(render::kHintsMarker) + "\n" + *current;
  if (SectionBody(*text) == SectionBody(now)) {
    r->Ok(fmt::format("context: {} carries the current learned section", a.hints_file));
  } else {
    r->Fix(fmt::format("context: {} carries a learned section older than the log", a.hints_file),
           fmt::format("kaizen hints {}", ac::ShellQuote(path)));
  }
}

void CheckHome(const std::string& home, Report* r) {
  if (std::optional<home::ServeEndpoint> server = home::FindServer(home)) {
    r->Info(fmt::format("kaizen serve runs for this home on {}:{}: hooks are answered by it",
                        server->host, server->port));
  } else {
    r->Info(
        "kaizen serve is not running for this home (a hook that had to fold a large log "
        "starts it)");
  }
  std::error_code ec;
  uintmax_t bytes = 0;
  size_t files = 0;
  for (auto it = fs::recursive_directory_iterator(home, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec)) {
      bytes += it->file_size(ec);
      ++files;
    }
  }
  r->Info(fmt::format("home {}: {:.1f} MB in {} files", home, bytes / 1e6, files));
}

// The agents this project is set up for: those whose hooks or MCP file names kaizen.
std::vector<const AgentSpec*> AgentsSetUp(const std::string& project) {
  std::vector<const AgentSpec*> found;
  for (const AgentSpec& a : agents::Agents()) {
    for (std::string_view file : {a.hooks_file, a.mcp_file}) {
      if (file.empty()) continue;
      const std::optional<std::string> text = ReadFile(project + "/" + std::string(file));
      if (text && text->find("kaizen") != std::string::npos) {
        found.push_back(&a);
        break;
      }
    }
  }
  return found;
}

int DoctorCommand(const DoctorOptions& o, Common c) {
  std::error_code ec;
  const fs::path project_path = fs::canonical(o.project, ec);
  if (ec || !fs::is_directory(project_path)) {
    fmt::print(stderr, "kaizen doctor: --project '{}': not a directory\n", o.project);
    return kExitUsage;
  }
  const std::string project = project_path.string();
  if (!o.home_given) {
    const char* env = std::getenv("KAIZEN_HOME");
    c.home = env && *env ? env : project + "/.kaizen";
  }
  std::vector<const AgentSpec*> chosen;
  if (!o.agent.empty()) {
    chosen.push_back(agents::FindAgent(o.agent));
  } else {
    chosen = AgentsSetUp(project);
    if (chosen.empty()) {
      fmt::print("kaizen doctor: no agent is set up for kaizen in {}\n", project);
      fmt::print(
          "  FIX   no hooks or MCP entry of kaizen's\n        fix: kaizen init --agent "
          "claude-code|codex|goose|cursor\n");
      return kExitRejected;
    }
  }
  Report r;
  fmt::print("kaizen doctor: {} (home {})\n", project, c.home);
  if (!store::DefaultFileSystem()->Exists(c.home)) {
    r.Fix(fmt::format("the home {} does not exist: the hooks do nothing", c.home),
          chosen.size() == 1 ? InitFix(*chosen.front(), o) : "kaizen init --agent AGENT");
  }
  for (const AgentSpec* a : chosen) {
    fmt::print("{}:\n", a->name);
    CheckHooks(*a, o, project, &r);
    CheckCalls(*a, c.home, &r);
    CheckMcp(*a, o, project, &r);
    CheckContext(*a, o, c, project, &r);
  }
  CheckHome(c.home, &r);
  fmt::print("{}\n", r.to_fix() == 0 ? "kaizen doctor: nothing to fix"
                                     : fmt::format("kaizen doctor: {} to fix", r.to_fix()));
  return r.to_fix() == 0 ? kExitOk : kExitRejected;
}

}  // namespace

Verb AddDoctorVerb(CLI::App& app, Common& c) {
  CLI::App* sub = app.add_subcommand(
      "doctor",
      "check that an agent reaches kaizen in this project: hooks registered (and trusted, for "
      "Codex), their latest calls, the MCP server, the learned context, the home");
  auto o = std::make_shared<DoctorOptions>();
  std::vector<std::string> names;
  for (const AgentSpec& a : agents::Agents()) names.emplace_back(a.name);
  sub->add_option("--agent", o->agent,
                  "claude-code, codex, goose or cursor (default: every agent set up here)")
      ->check(CLI::IsMember(names));
  sub->add_option("--project", o->project, "the project directory (default: the current one)");
  sub->add_option("--home", c.home, "the kaizen home (default $KAIZEN_HOME, else PROJECT/.kaizen)")
      ->check(HomeDirectory());
  return {sub, [&c, o, sub] {
            o->home_given = sub->get_option("--home")->count() > 0;
            return DoctorCommand(*o, c);
          }};
}

}  // namespace kaizen::cli
