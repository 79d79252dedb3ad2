"""`kaizen init`: sets a project up for an agent, through the binary.

Each project here already has its own settings, hooks, MCP servers and hints, in the shapes the
agents document (docs/agents.md, "Setting up an agent: kaizen init"). init must merge into them,
a second run must change no byte, --dry-run must write nothing, --remove must give the user's
files back byte for byte, and a broken settings file must be refused naming it.
"""

import json
import os
import stat

from kzlib import BIN, EXIT_OK, EXIT_USAGE, KaizenTest, kaizen

MARKER = "# kaizen (auto-generated section — DO NOT EDIT BELOW THIS LINE)"

CLAUDE_SETTINGS = """{
  "permissions": {
    "allow": [
      "Bash(npm run test:*)"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "./scripts/guard.sh"
          }
        ]
      }
    ],
    "PostToolUse": [
      {
        "matcher": "Write|Edit",
        "hooks": [
          {
            "type": "command",
            "command": "npx prettier --write \\"$CLAUDE_PROJECT_DIR\\"",
            "timeout": 60
          }
        ]
      }
    ]
  }
}
"""

MCP_JSON = """{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-github"
      ],
      "env": {
        "GITHUB_TOKEN": "${GITHUB_TOKEN}"
      }
    }
  }
}
"""

CLAUDE_MD = "# Payments service\n\nUse pnpm. Never touch migrations by hand.\n"

CODEX_CONFIG = """model = "o3"
approval_policy = "on-request"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]

[mcp_servers.docs.env]
DOCS_DIR = "docs"
"""

CODEX_HOOKS = """{
  "hooks": {
    "Stop": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "python3 .codex/hooks/stop.py",
            "timeout": 30
          }
        ]
      }
    ]
  }
}
"""

AGENTS_MD = "# Agents\n\nRun `make check` before you stop.\n"

CURSOR_MCP = """{
  "mcpServers": {
    "db": {
      "command": "npx",
      "args": [
        "-y",
        "@bytebase/dbhub"
      ]
    }
  }
}
"""

CURSOR_HOOKS = """{
  "version": 1,
  "hooks": {
    "afterFileEdit": [
      {
        "command": ".cursor/hooks/format.sh"
      }
    ]
  }
}
"""

USER_RULE = "---\ndescription: House style\nglobs:\nalwaysApply: true\n---\n\nTabs, not spaces.\n"

GOOSEHINTS = "Prefer small functions.\n"

FIXTURES = {
    "claude-code": {".claude/settings.json": CLAUDE_SETTINGS, ".mcp.json": MCP_JSON,
                    "CLAUDE.md": CLAUDE_MD},
    "codex": {".codex/config.toml": CODEX_CONFIG, ".codex/hooks.json": CODEX_HOOKS,
              "AGENTS.md": AGENTS_MD},
    "goose": {".goosehints": GOOSEHINTS},
    "cursor": {".cursor/mcp.json": CURSOR_MCP, ".cursor/hooks.json": CURSOR_HOOKS,
               ".cursor/rules/house-style.mdc": USER_RULE},
}


class InitTest(KaizenTest):
    def setUp(self):
        super().setUp()
        self.project = self.path("project")
        os.makedirs(self.project)

    def put(self, files):
        for rel, text in files.items():
            p = os.path.join(self.project, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8") as f:
                f.write(text)

    def tree(self, skip_home=False):
        """Every file under the project: its path and bytes."""
        out = {}
        for root, dirs, names in os.walk(self.project):
            if skip_home:
                dirs[:] = [d for d in dirs if d != ".kaizen" or root != self.project]
            for n in names:
                p = os.path.join(root, n)
                with open(p, "rb") as f:
                    out[os.path.relpath(p, self.project)] = f.read()
        return out

    def read(self, rel):
        with open(os.path.join(self.project, rel), encoding="utf-8") as f:
            return f.read()

    def json(self, rel):
        with open(os.path.join(self.project, rel), encoding="utf-8") as f:
            return json.load(f)

    def init(self, agent, *extra, env=None):
        r = kaizen("init", "--agent", agent, "--project", self.project, *extra, env=env)
        self.assertGreaterEqual(r.rc, 0, repr(r))
        return r

    def hook_commands(self, settings, event):
        return [h["command"] for group in settings["hooks"].get(event, [])
                for h in group["hooks"]]


class ClaudeCode(InitTest):
    def test_merges_into_the_users_settings_mcp_servers_and_hints(self):
        self.put(FIXTURES["claude-code"])
        r = self.init("claude-code")
        self.assertEqual(r.rc, EXIT_OK, repr(r))
        ours = f"{os.path.realpath(BIN)} hook --agent claude-code"

        settings = self.json(".claude/settings.json")
        self.assertEqual(list(settings), ["permissions", "hooks"])
        # The user's permission first; kaizen's MCP tools granted after it.
        self.assertEqual(settings["permissions"], {"allow": ["Bash(npm run test:*)", "mcp__kaizen"]})
        # The user's hooks first, untouched; kaizen's beside them at every hook point.
        self.assertEqual(self.hook_commands(settings, "PreToolUse"), ["./scripts/guard.sh", ours])
        self.assertEqual(settings["hooks"]["PreToolUse"][1]["matcher"], "Write|Edit|MultiEdit")
        self.assertEqual(settings["hooks"]["PostToolUse"][0]["hooks"][0]["timeout"], 60)
        for event in ("SessionStart", "UserPromptSubmit", "PostToolUse", "PostToolUseFailure",
                      "Stop", "SessionEnd"):
            self.assertEqual(self.hook_commands(settings, event)[-1], ours, event)
        self.assertNotIn("SubagentStop", settings["hooks"])
        self.assertNotIn("--home", ours)

        mcp = self.json(".mcp.json")
        self.assertEqual(list(mcp["mcpServers"]), ["github", "kaizen"])
        self.assertEqual(mcp["mcpServers"]["kaizen"],
                         {"command": os.path.realpath(BIN), "args": ["mcp"]})

        # The learned section comes from the session-start hook: CLAUDE.md is the user's alone.
        self.assertEqual(self.read("CLAUDE.md"), CLAUDE_MD)
        self.assertFalse(os.path.exists(os.path.join(self.project, ".kaizen/config/hints.json")))
        self.assertTrue(os.path.isdir(os.path.join(self.project, ".kaizen", "feedback", "raw")))
        self.assertIn("next: Claude Code applies the project's permission", r.out)
        self.assertIn("check: kaizen doctor --agent claude-code --project", r.out)

    def test_a_section_an_earlier_init_wrote_is_moved_to_the_hook(self):
        # What an earlier kaizen left: the section in CLAUDE.md, registered for refreshing, and
        # a SubagentStop hook.
        self.put(FIXTURES["claude-code"])
        self.assertEqual(kaizen("hints", "--home", os.path.join(self.project, ".kaizen"),
                                os.path.join(self.project, "CLAUDE.md")).rc, EXIT_OK)
        os.makedirs(os.path.join(self.project, ".kaizen", "config"), exist_ok=True)
        with open(os.path.join(self.project, ".kaizen", "config", "hints.json"), "w") as f:
            f.write('{"files": ["CLAUDE.md"]}\n')
        self.assertIn(MARKER, self.read("CLAUDE.md"))
        r = self.init("claude-code")
        self.assertEqual(r.rc, EXIT_OK, repr(r))
        self.assertEqual(self.read("CLAUDE.md"), CLAUDE_MD)
        self.assertIn("removed the learned section (the session-start hook gives it, current, "
                      "instead)", r.out)
        self.assertIn('removed "CLAUDE.md" from files', r.out)

    def test_a_second_run_changes_no_byte(self):
        self.put(FIXTURES["claude-code"])
        self.assertEqual(self.init("claude-code").rc, EXIT_OK)
        before = self.tree()
        r = self.init("claude-code")
        self.assertEqual(r.rc, EXIT_OK, repr(r))
        self.assertEqual(self.tree(), before)
        self.assertEqual([l for l in r.lines if l.startswith("unchanged ")],
                         [f"unchanged {os.path.join(self.project, p)}" for p in
                          (".claude/settings.json", ".mcp.json")])

    def test_dry_run_writes_nothing_and_shows_the_diff(self):
        self.put(FIXTURES["claude-code"])
        before = self.tree()
        r = self.init("claude-code", "--dry-run")
        self.assertEqual(r.rc, EXIT_OK, repr(r))
        self.assertEqual(self.tree(), before)
        self.assertFalse(os.path.exists(os.path.join(self.project, ".kaizen")))
        settings = os.path.join(self.project, ".claude/settings.json")
        self.assertIn(f"--- a/{settings}", r.out)
        self.assertIn(f"+++ b/{settings}", r.out)
        self.assertIn('+    "SessionStart": [', r.out)
        self.assertIn('+      "mcp__kaizen"', r.out)
        self.assertNotIn(MARKER, r.out)
        self.assertIn("dry run, nothing written", r.out)

    def test_remove_gives_the_users_files_back_byte_for_byte(self):
        self.put(FIXTURES["claude-code"])
        before = self.tree()
        self.assertEqual(self.init("claude-code").rc, EXIT_OK)
        r = self.init("claude-code", "--remove")
        self.assertEqual(r.rc, EXIT_OK, repr(r))
        self.assertEqual(self.tree(skip_home=True), before)
        # The home keeps the log: --remove never deletes it.
        self.assertTrue(os.path.isdir(os.path.join(self.project, ".kaizen", "feedback")))
        self.assertFalse(os.path.exists(os.path.join(self.project, ".kaizen/config/hints.json")))

    def test_remove_deletes_the_files_init_created(self):
        before = self.tree()
        self.assertEqual(self.init("claude-code").rc, EXIT_OK)
        self.assertTrue(os.path.exists(os.path.join(self.project, ".mcp.json")))
        self.assertEqual(self.init("claude-code", "--remove").rc, EXIT_OK)
        self.assertEqual(self.tree(skip_home=True), before)
        self.assertFalse(os.path.exists(os.path.join(self.project, ".claude")))

    def test_a_broken_settings_file_is_refused_naming_it_and_nothing_is_written(self):
        broken = CLAUDE_SETTINGS.replace('"Bash(npm run test:*)"\n', '"Bash(npm run test:*)",\n')
        self.put({".claude/settings.json": broken, "CLAUDE.md": CLAUDE_MD})
        before = self.tree()
        r = self.init("claude-code")
        self.assertEqual(r.rc, EXIT_USAGE, repr(r))
        settings = os.path.join(self.project, ".claude/settings.json")
        self.assertIn(f"{settings}:5:5", r.err)
        self.assertIn("trailing comma", r.err)
        self.assertEqual(self.tree(), before)
        self.assertFalse(os.path.exists(os.path.join(self.project, ".kaizen")))

    def test_hooks_of_the_wrong_type_are_refused_naming_the_field(self):
        self.put({".claude/settings.json": '{"hooks": {"Stop": {"command": "x"}}}\n'})
        r = self.init("claude-code")
        self.assertEqual(r.rc, EXIT_USAGE, repr(r))
        self.assertIn("hooks.Stop: is an object", r.err)

    def test_kaizen_on_path_is_named_by_its_name(self):
        bin_dir = self.path("bin")
        os.makedirs(bin_dir)
        os.symlink(os.path.realpath(BIN), os.path.join(bin_dir, "kaizen"))
        env = {"PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
        self.assertEqual(self.init("claude-code", env=env).rc, EXIT_OK)
        settings = self.json(".claude/settings.json")
        self.assertEqual(self.hook_commands(settings, "Stop"), ["kaizen hook --agent claude-code"])
        self.assertEqual(self.json(".mcp.json")["mcpServers"]["kaizen"]["command"], "kaizen")

    def test_another_home_is_named_in_the_hook_and_the_server(self):
        home = self.path("elsewhere")
        self.assertEqual(self.init("claude-code", "--home", home).rc, EXIT_OK)
        command = self.hook_commands(self.json(".claude/settings.json"), "Stop")[0]
        self.assertTrue(command.endswith(f"hook --agent claude-code --home {home}"), command)
        self.assertEqual(self.json(".mcp.json")["mcpServers"]["kaizen"]["args"],
                         ["mcp", "--home", home])
        # goose's hints file, in a home elsewhere, is registered by its full path.
        self.assertEqual(self.init("goose", "--home", home).rc, EXIT_OK)
        with open(os.path.join(home, "config", "hints.json")) as f:
            self.assertEqual(json.load(f),
                             {"files": [os.path.join(os.path.realpath(self.project), ".goosehints")]})

    def test_a_private_settings_file_stays_private(self):
        self.put({".claude/settings.json": CLAUDE_SETTINGS})
        p = os.path.join(self.project, ".claude/settings.json")
        os.chmod(p, 0o600)
        self.assertEqual(self.init("claude-code").rc, EXIT_OK)
        self.assertEqual(stat.S_IMODE(os.stat(p).st_mode), 0o600)


class OtherAgents(InitTest):
    def test_every_agent_round_trips_its_users_files(self):
        for agent, files in FIXTURES.items():
            with self.subTest(agent=agent):
                self.put(files)
                before = self.tree(skip_home=True)
                self.assertEqual(self.init(agent).rc, EXIT_OK)
                once = self.tree()
                second = self.init(agent)
                self.assertEqual(second.rc, EXIT_OK)
                self.assertEqual(self.tree(), once, agent)
                self.assertEqual(self.init(agent, "--remove").rc, EXIT_OK)
                self.assertEqual(self.tree(skip_home=True), before, agent)

    def test_codex_gets_hooks_json_and_a_marked_mcp_table(self):
        self.put(FIXTURES["codex"])
        self.assertEqual(self.init("codex").rc, EXIT_OK)
        hooks = self.json(".codex/hooks.json")
        self.assertEqual(self.hook_commands(hooks, "Stop")[0], "python3 .codex/hooks/stop.py")
        self.assertTrue(self.hook_commands(hooks, "Stop")[1].endswith("hook --agent codex"))
        # A patch applied through the shell is a Bash call; Codex clamps SessionEnd to 3 s.
        self.assertEqual(hooks["hooks"]["PreToolUse"][0]["matcher"], "apply_patch|Edit|Write|Bash")
        self.assertEqual(hooks["hooks"]["SessionEnd"][0]["hooks"][0]["timeout"], 3)
        self.assertNotIn("SubagentStop", hooks["hooks"])
        config = self.read(".codex/config.toml")
        self.assertTrue(config.startswith(CODEX_CONFIG + "\n# >>> kaizen init"), config)
        self.assertIn(f'[mcp_servers.kaizen]\ncommand = "{os.path.realpath(BIN)}"\n'
                      'args = ["mcp"]\ndefault_tools_approval_mode = "approve"\n'
                      '# <<< kaizen init\n', config)
        self.assertEqual(self.read("AGENTS.md"), AGENTS_MD)

    def test_codex_keeps_the_users_own_kaizen_server(self):
        own = CODEX_CONFIG + '\n[mcp_servers.kaizen]\ncommand = "/opt/kz/kaizen-wrapper"\n'
        self.put({".codex/config.toml": own})
        r = self.init("codex")
        self.assertEqual(r.rc, EXIT_OK, repr(r))
        self.assertEqual(self.read(".codex/config.toml"), own)
        self.assertIn("kept your own [mcp_servers.kaizen]", r.out)
        self.assertEqual(self.init("codex", "--remove").rc, EXIT_OK)
        self.assertEqual(self.read(".codex/config.toml"), own)

    def test_goose_gets_a_project_plugin_with_hooks_and_an_mcp_server(self):
        self.put(FIXTURES["goose"])
        self.assertEqual(self.init("goose").rc, EXIT_OK)
        plugin = ".agents/plugins/kaizen"
        self.assertEqual(self.json(f"{plugin}/plugin.json")["name"], "kaizen")
        hooks = self.json(f"{plugin}/hooks/hooks.json")
        self.assertEqual(sorted(hooks["hooks"]), ["PostToolUse", "PreToolUse", "SessionEnd",
                                                  "SessionStart", "Stop", "UserPromptSubmit"])
        self.assertEqual(self.json(f"{plugin}/.mcp.json")["mcpServers"]["kaizen"]["args"], ["mcp"])
        self.assertTrue(self.read(".goosehints").startswith(GOOSEHINTS + "\n" + MARKER))
        self.assertEqual(self.init("goose", "--remove").rc, EXIT_OK)
        self.assertFalse(os.path.exists(os.path.join(self.project, ".agents")))

    def test_cursor_gets_mcp_and_an_always_applied_rule_and_its_hooks_are_left_alone(self):
        self.put(FIXTURES["cursor"])
        self.assertEqual(self.init("cursor").rc, EXIT_OK)
        # Cursor's hook format is not one `kaizen hook` reads: the user's hooks stay as they were.
        self.assertEqual(self.read(".cursor/hooks.json"), FIXTURES["cursor"][".cursor/hooks.json"])
        self.assertEqual(self.json(".cursor/mcp.json")["mcpServers"]["kaizen"]["args"],
                         ["mcp", "--home", "${workspaceFolder}/.kaizen"])
        rule = self.read(".cursor/rules/kaizen.mdc")
        self.assertTrue(rule.startswith("---\ndescription: "), rule)
        self.assertIn("\nglobs:\nalwaysApply: true\n---\n\n" + MARKER + "\n", rule)
        self.assertEqual(self.read(".cursor/rules/house-style.mdc"), USER_RULE)

    def test_agents_share_the_hints_registry(self):
        self.assertEqual(self.init("goose").rc, EXIT_OK)
        self.assertEqual(self.init("cursor").rc, EXIT_OK)
        self.assertEqual(self.init("claude-code").rc, EXIT_OK)  # its context is the hook's
        registry = os.path.join(self.project, ".kaizen", "config", "hints.json")
        with open(registry) as f:
            self.assertEqual(json.load(f), {"files": [".goosehints", ".cursor/rules/kaizen.mdc"]})
        self.assertEqual(self.init("goose", "--remove").rc, EXIT_OK)
        with open(registry) as f:
            self.assertEqual(json.load(f), {"files": [".cursor/rules/kaizen.mdc"]})

    def test_an_unknown_agent_is_a_usage_error(self):
        r = self.init("copilot")
        self.assertEqual(r.rc, EXIT_USAGE, repr(r))
        self.assertIn("copilot", r.err)


if __name__ == "__main__":
    import unittest
    unittest.main()
