#include "agents/agent_specs.h"

namespace kaizen::agents {

namespace ac = agent_config;

const std::vector<AgentSpec>& Agents() {
  static const std::vector<AgentSpec> agents = {
      {"claude-code",
       ".claude/settings.json",
       ac::HookShape::kGrouped,
       // A failed tool reaches PostToolUseFailure only (Claude Code 2.1); a subagent's tools
       // count in its parent's turn, so SubagentStop is not needed.
       {{"SessionStart", ""},
        {"UserPromptSubmit", ""},
        {"PreToolUse", "Write|Edit|MultiEdit"},
        {"PostToolUse", ""},
        {"PostToolUseFailure", ""},
        {"Stop", ""},
        {"SessionEnd", ""}},
       "",
       ".mcp.json",
       false,
       "CLAUDE.md",
       false,
       // Every tool of the server named kaizen (Claude Code's rule syntax): a headless run, or
       // one where nobody is there to click "allow", is refused otherwise.
       "mcp__kaizen",
       true,
       "Claude Code applies the project's permission for kaizen's tools once you trust this "
       "folder (it asks at the first start in it)"},
      // Codex names its file tool apply_patch and matches Edit and Write as its aliases; a patch
      // it applies through the shell (`apply_patch <<'EOF'`) is a Bash call. A failed command
      // is a PostToolUse like any other (its rollout tells how it ended). Codex clamps a
      // SessionEnd hook to 3 s, so kaizen's says 3.
      {"codex",
       ".codex/hooks.json",
       ac::HookShape::kGrouped,
       {{"SessionStart", ""},
        {"UserPromptSubmit", ""},
        {"PreToolUse", "apply_patch|Edit|Write|Bash"},
        {"PostToolUse", ""},
        {"Stop", ""},
        {"SessionEnd", "", 3}},
       "",
       ".codex/config.toml",
       true,
       "AGENTS.md",
       false,
       "",
       true,
       // Codex skips a hook nobody reviewed, and says so only in its terminal UI.
       "Codex runs these hooks only once you trust them: start `codex` in the project, trust the "
       "project, then open /hooks and trust kaizen's hooks (again whenever `kaizen init` "
       "changes them)"},
      // goose reads hooks and MCP servers from plugins (Open Plugins layout); kaizen's is a
      // project plugin of its own. goose's matcher is an unanchored regex.
      {"goose",
       ".agents/plugins/kaizen/hooks/hooks.json",
       ac::HookShape::kGrouped,
       {{"SessionStart", ""},
        {"UserPromptSubmit", ""},
        {"PreToolUse", "^developer__(write|edit|text_editor)$"},
        {"PostToolUse", ""},
        {"Stop", ""},
        {"SessionEnd", ""}},
       ".agents/plugins/kaizen/plugin.json",
       ".agents/plugins/kaizen/.mcp.json",
       false,
       ".goosehints",
       false},
      // Cursor's hooks speak their own payload and output format, which `kaizen hook` does not
      // (it reads Claude Code's, Codex's and Goose's): Cursor gets the MCP server and the rule
      // file, and its hooks file is left as the user has it.
      {"cursor",
       "",
       ac::HookShape::kFlat,
       {},
       "",
       ".cursor/mcp.json",
       false,
       ".cursor/rules/kaizen.mdc",
       true},
  };
  return agents;
}

const AgentSpec* FindAgent(std::string_view name) {
  for (const AgentSpec& a : Agents()) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

}  // namespace kaizen::agents
