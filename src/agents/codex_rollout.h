// How a shell command Codex ran ended, read from Codex's own session log (its "rollout", the
// JSON-lines file a hook payload names as transcript_path).
//
// Codex's PostToolUse payload for a shell command carries the command's output as a plain string
// and no exit status (Codex CLI 0.171: "tool_response": "ls: cannot access ...\n"), so a failed
// command looks like a successful one. Codex writes the command's completion to the rollout
// before it runs PostToolUse hooks: an `item_completed` event whose item has the call's id, an
// `exit_code` and a `status` ("failed"); older versions wrote an `exec_command_end` event with
// the `call_id` and `exit_code`. That order is what Codex 0.171 does, not a documented contract:
// when the entry is not there, nothing is known and the command counts as having succeeded.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kaizen::agents {

struct CommandEnd {
  int64_t exit_code = 0;
  std::string output;  // what the command printed (stdout and stderr), as Codex kept it
};

// Pure: the end of call `call_id` in rollout text (JSON lines; the newest entry wins; a line that
// is not JSON, or is cut, is skipped). nullopt when the text has no entry for the call.
std::optional<CommandEnd> FindCommandEnd(std::string_view rollout, std::string_view call_id);

// The same, from the last 8 MiB of the file at `path` (a session's rollout grows with it; the
// call just ended is near its end). nullopt when the file cannot be read.
std::optional<CommandEnd> ReadCommandEnd(const std::string& path, std::string_view call_id);

}  // namespace kaizen::agents
