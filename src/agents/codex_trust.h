// Whether Codex will run a project's hooks: Codex loads a project's .codex/ layer only when the
// user trusts the project, and runs a hook nobody reviewed in its /hooks screen not at all, and
// silently (Codex CLI 0.171). Both answers live in the user's CODEX_HOME/config.toml:
//
//   [projects."/abs/project"]              trust_level = "trusted"
//   [hooks.state."<hooks.json>:<event>:<group>:<handler>"]
//                                          trusted_hash = "sha256:<hex>"
//
// where <event> is the event in snake case (pre_tool_use) and the hash is SHA-256 of the compact,
// key-sorted JSON of the hook as Codex normalises it: {"event_name", "hooks": [{"async", "command",
// "timeout", "type"}], "matcher"} (codex-rs/hooks: lib.rs hook_key, engine/discovery.rs; a
// changed command, matcher or timeout needs a new review). kaizen reads this to tell the user;
// it never writes it: trusting a hook is the user's decision.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "kaizen/status.h"

namespace kaizen::agents {

// "PreToolUse" -> "pre_tool_use".
std::string CodexEventLabel(std::string_view event);

// The trusted_hash Codex keeps for a command hook once it is reviewed. `matcher` is left out for
// UserPromptSubmit and Stop (Codex ignores their matchers) and when empty.
std::string CodexHookTrustHash(std::string_view event, std::string_view matcher,
                               std::string_view command, int timeout_seconds);

// The [hooks.state] key of the hook at `group` and `handler` of `event` in the hooks.json at
// `hooks_json` (an absolute path).
std::string CodexHookKey(std::string_view hooks_json, std::string_view event, size_t group,
                         size_t handler);

struct CodexTrust {
  bool project_trusted = false;
  std::map<std::string, std::string, std::less<>> hook_hashes;  // key -> trusted_hash
};

// Pure: the trust of `project` (absolute) and every reviewed hook in the text of a config.toml.
// Text that is not TOML is InvalidArgument naming `path`, the line and column.
Result<CodexTrust> ParseCodexTrust(std::string_view text, const std::string& path,
                                   std::string_view project);
// The same from the file at `config_path`; a missing file trusts nothing.
Result<CodexTrust> ReadCodexTrust(const std::string& config_path, std::string_view project);

// $CODEX_HOME/config.toml, else ~/.codex/config.toml.
std::string CodexConfigPath();

}  // namespace kaizen::agents
