// The coding agents kaizen sets up (`kaizen init`) and checks (`kaizen doctor`): where each one
// reads its hooks, MCP servers and hints, which hook points kaizen needs in it, and what the user
// must still do in the agent. From each agent's documentation and, for Claude Code 2.1 and Codex
// 0.171, from running them (tests/integration/test_real_*.py; docs/agents.md lists the sources).
#pragma once

#include <string_view>
#include <vector>

#include "agents/agent_config.h"

namespace kaizen::agents {

// A hook that hangs holds the agent up; kaizen's answers from its checkpoint in milliseconds, so
// 30 s is room for a cold start on a large log, not a budget (goose's default is 30 s too).
inline constexpr int kHookTimeoutSeconds = 30;

// Where each agent looks, from its documentation (docs/agents.md lists the sources).
struct AgentSpec {
  std::string_view name;
  std::string_view hooks_file;  // relative to the project
  agent_config::HookShape shape;
  std::vector<agent_config::HookPoint> points;
  std::string_view manifest_file;  // goose's plugin manifest; empty for the others
  std::string_view mcp_file;
  bool mcp_toml;
  std::string_view hints_file;
  bool hints_frontmatter;  // Cursor's .mdc rule needs its frontmatter to be applied at all
  // The permission rule that lets the agent call kaizen's MCP tools without asking, added to the
  // hooks file's `permissions.allow` (Claude Code; empty for the others).
  std::string_view allow_mcp_rule = {};
  // The learned section reaches the model from the session-start hook, not from the hints file:
  // the agent reads its file before that hook runs (a copy one session stale) and would be given
  // the section twice, at two prices in tokens (docs/agents.md, "Context once").
  bool context_from_hook = false;
  // What the user must still do in the agent for kaizen to run ("" for nothing).
  std::string_view still_to_do = {};
};

// Every agent, in the order `--agent` lists them.
const std::vector<AgentSpec>& Agents();
// nullptr for an unknown name.
const AgentSpec* FindAgent(std::string_view name);

}  // namespace kaizen::agents
