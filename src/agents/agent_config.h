// The JSON settings files of coding agents (Claude Code, Codex, goose, Cursor), edited the way a
// person would: kaizen's entries are added to or taken out of what is there, and every other key,
// hook and server stays as it was, in its order. `kaizen init` (cli/init.cc) is the caller.
#pragma once

#include <rapidjson/document.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::agents::agent_config {

// A JSON object read from a settings file, written back in the file's own indentation.
class JsonConfig {
 public:
  // `text` is the file's bytes, empty for a file that does not exist (an empty object). Anything
  // else than one JSON object is InvalidArgument naming `path`, the line and column, and the rule.
  static Result<JsonConfig> Parse(std::string path, std::string_view text);

  rapidjson::Document& doc() { return *doc_; }
  const rapidjson::Document& doc() const { return *doc_; }
  rapidjson::Document::AllocatorType& alloc() { return doc_->GetAllocator(); }
  const std::string& path() const { return path_; }

  // The object as the file's bytes: indented as the file was (its first indented line; two
  // spaces for a new file), and ending with a newline when the file did (always, for a new file).
  std::string Serialize() const;
  // No members left: the file holds nothing but what kaizen took out of it.
  bool Empty() const { return doc_->MemberCount() == 0; }

 private:
  JsonConfig() = default;
  std::string path_;
  std::unique_ptr<rapidjson::Document> doc_;  // a pointer: Document is not movable in old RapidJSON
  char indent_char_ = ' ';
  unsigned indent_count_ = 2;
  bool final_newline_ = true;
};

// The hook points of one agent. Two shapes exist:
//   kGrouped  {"hooks": {"Event": [{"matcher": M, "hooks": [{"type": "command", "command": C,
//             "timeout": T}]}]}}: Claude Code, Codex, goose
//   kFlat     {"version": 1, "hooks": {"event": [{"command": C, "matcher": M, "timeout": T}]}}:
//             Cursor
enum class HookShape { kGrouped, kFlat };

struct HookPoint {
  std::string event;
  std::string matcher;      // empty: every occurrence of the event (no "matcher" key is written)
  int timeout_seconds = 0;  // 0: the set's
};

struct HookSet {
  HookShape shape = HookShape::kGrouped;
  std::vector<HookPoint> points;
  std::string command;  // the shell command each hook runs
  int timeout_seconds = 30;
  std::string agent;  // the --agent the command names: tells kaizen's hooks from the user's
};

// A command is kaizen's hook for `agent` when it is `command`, or when its first word is a
// program named `kaizen` (any directory: the binary may have moved since) followed by exactly
// `hook --agent AGENT` and optionally `--home DIR`.
bool IsKaizenHookCommand(std::string_view command, std::string_view agent,
                         std::string_view current_command);

// What an edit did, for the report: one line per entry added, updated or removed, and notes
// about what was left alone on purpose.
struct EditLog {
  std::vector<std::string> changes;
  std::vector<std::string> notes;
  bool changed() const { return !changes.empty(); }
};

// Adds each hook point that has no kaizen hook yet, and brings a kaizen hook whose command,
// matcher or timeout differs up to date in place; a kaizen hook at an event `hooks` does not
// name (one an earlier kaizen registered) is taken out. A `hooks` (or event) value of the wrong
// type is InvalidArgument naming the file, the field, what it is and what it must be.
Status AddHooks(JsonConfig& config, const HookSet& hooks, EditLog* log);
// Takes out every kaizen hook of `hooks.agent` (any command path), then the groups, event arrays
// and the `hooks` object that this leaves empty. For kFlat, a `"version": 1` left alone with
// nothing else goes too (it is what AddHooks wrote).
Status RemoveHooks(JsonConfig& config, const HookSet& hooks, EditLog* log);

// An MCP server started over stdio, under `mcpServers.<name>`.
struct McpServer {
  std::string name;
  std::string command;
  std::vector<std::string> args;
  bool approve_tools = false;  // Codex's TOML table: its tools run without asking
};

// A server entry is kaizen's when its command is a program named `kaizen` and its args are
// `mcp`, optionally followed by `--home DIR`.
bool IsKaizenMcpServer(const rapidjson::Value& entry);

// Adds `mcpServers.<name>`; updates kaizen's own entry when it differs. A user's own entry under
// that name (not kaizen's) is kept, with a note.
Status AddMcpServer(JsonConfig& config, const McpServer& server, EditLog* log);
// Takes out `mcpServers.<name>` when it is kaizen's, then `mcpServers` if that leaves it empty.
Status RemoveMcpServer(JsonConfig& config, const McpServer& server, EditLog* log);

// String members kaizen owns in a file of its own (goose's plugin.json): set when absent; taken
// out only while they still hold kaizen's values.
struct StringMember {
  std::string key, value;
};
Status AddStringMembers(JsonConfig& config, const std::vector<StringMember>& members, EditLog* log);
Status RemoveStringMembers(JsonConfig& config, const std::vector<StringMember>& members,
                           EditLog* log);

// `path` ("files", "permissions.allow": objects down to an array of strings) gets `value`
// appended when absent (the objects and the array made when missing), or taken out (and the
// array, then each object, that this leaves empty).
Status AddToStringList(JsonConfig& config, std::string_view path, std::string_view value,
                       EditLog* log);
Status RemoveFromStringList(JsonConfig& config, std::string_view path, std::string_view value,
                            EditLog* log);

// Splits a shell command into words: blanks separate them; single quotes, double quotes and
// backslashes quote as in sh (no expansions).
std::vector<std::string> ShellWords(std::string_view command);
// `word` quoted for sh when it needs it (anything but letters, digits and -_./+,:=@%).
std::string ShellQuote(std::string_view word);

}  // namespace kaizen::agents::agent_config
