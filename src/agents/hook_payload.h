// One hook call of an agent, as `kaizen hook` reads it from standard input, and the answer in the
// agent's own output format. Three agents, two payload families:
//
//   Claude Code and Codex CLI: {"hook_event_name", "session_id", "transcript_path", "cwd",
//     "tool_name", "tool_input", "tool_response", "prompt", "last_assistant_message", ...};
//     Codex adds "turn_id" and "model" (its published JSON Schemas, codex-rs/hooks/schema).
//     Both answer {"hookSpecificOutput": {"hookEventName", "additionalContext" |
//     "permissionDecision", "permissionDecisionReason"}}.
//   Goose (Open Plugins hooks): {"event", "session_id", "working_dir", "tool_name", "tool_input",
//     "message", "last_assistant_message", ...}; a PreToolUse block is
//     {"decision": "block", "reason"}; it takes no context from hooks (it reads .goosehints).
//
// Pure: text in, values out.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kaizen/status.h"

namespace kaizen::agents {

enum class HookAgent { kClaudeCode, kCodex, kGoose };
std::string_view HookAgentName(HookAgent a);  // claude-code | codex | goose
std::optional<HookAgent> ParseHookAgent(std::string_view name);

enum class HookEvent {
  kSessionStart,
  kUserPrompt,
  kPreTool,
  kPostTool,         // a tool ran (it may still have failed: tool_response says so)
  kPostToolFailure,  // Claude Code and Goose report a failed tool as its own event
  kStop,             // the end of a turn (Stop, SubagentStop)
  kSessionEnd,
  kOther,  // Notification, PreCompact, ...: nothing to learn
};

// A file the tool writes: the whole new content (Write), or the new text of each replaced
// fragment (Edit, MultiEdit, apply_patch's added lines).
struct FileWrite {
  std::string path;
  std::string text;
  bool whole = false;
};

struct HookPayload {
  HookAgent agent = HookAgent::kClaudeCode;
  HookEvent event = HookEvent::kOther;
  std::string event_name;  // as the agent named it
  std::string session_id, cwd, transcript_path, model, turn_id, source;
  bool subagent = false;          // SubagentStop
  bool stop_hook_active = false;  // the agent is already continuing because of a Stop hook
  std::string prompt;             // the person's words (UserPromptSubmit)
  std::string last_assistant_message;
  std::string tool_name, tool_use_id;
  std::string tool_call_key;      // tool name + input, to count retries of the same call
  std::vector<FileWrite> writes;  // of a file-writing tool (pre or post)
  bool tool_failed = false;       // a failure event, or a response that says it failed
  std::string failure;            // the error text, when tool_failed
  // A tool response that is a plain string (Codex's shell output) and says nothing of how the
  // command ended: the step asks Codex's rollout (agents/codex_rollout.h).
  bool response_is_text = false;
};

// Parses one payload. `given` is --agent; otherwise the agent is recognised from the payload:
// `event` without `hook_event_name` is Goose; `turn_id`, or a transcript under `.codex/`, is
// Codex; else Claude Code. InvalidArgument names the field and the rule (not JSON, not an
// object, no event name, no session_id).
Result<HookPayload> ParseHookPayload(std::string_view json, std::optional<HookAgent> given);

// The answers, as one line of JSON for standard output ("" when the agent is told nothing).
// Session start: the learned context (Claude Code and Codex; Goose takes none from hooks).
std::string SessionStartOutput(HookAgent agent, std::string_view context);
// Before a write that goes against an enforced pattern: deny with the reason, so the agent
// retries with it.
std::string BlockOutput(HookAgent agent, std::string_view reason);
// Before a write, as a warning the agent reads (Goose: nothing, it has no channel for it).
std::string WarnOutput(HookAgent agent, std::string_view context);

// Seed 002's error types for a failed tool's message: timeout, conflict, validation,
// tool_failure (the default for a tool that failed), unknown (no message at all).
std::string_view ClassifyToolError(std::string_view message);

}  // namespace kaizen::agents
