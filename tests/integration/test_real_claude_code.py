"""The real Claude Code (npm @anthropic-ai/claude-code, pinned in tests/js) set up by `kaizen init`
and driven headless against a scripted model on loopback (agent_claude_code.py).

What the model receives is the evidence: the learned context reaches it once, a write against an
enforced correction comes back to it as a tool error with kaizen's reason, the clean write lands,
a failed command is an `error` event of the session's task, the turn's work item is in the review
queue, kaizen's MCP tools are offered and answer with the permission init granted, a broken home
never stops the agent, and `init --remove` gives the user's files back byte for byte.
"""

import json
import os
import subprocess

from agent_claude_code import AnthropicScriptedModel, claude_available, mcp_log_lines, run_claude
from kzlib import EXIT_OK, KaizenTest, jsonl, kaizen
from test_corrections import PASSIVE_ID, passive

HERE = os.path.dirname(os.path.abspath(__file__))
WEEK = os.path.join(HERE, "fixtures", "developer_week.jsonl")

# The user's own settings before init: a permission and a hook of theirs, which init keeps.
USER_SETTINGS = """{
  "permissions": {
    "allow": [
      "Bash(git status)"
    ]
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          {
            "type": "command",
            "command": "true"
          }
        ]
      }
    ]
  }
}
"""
USER_CLAUDE_MD = "# Project notes\n\nRun the tests with `make test`.\n"

PASSIVE_TEXT = "Responsible for the quarterly planning process\n"
CLEAN_TEXT = "Led the quarterly planning process for 4 teams\n"
# What every hints section starts with (render/hints.cc): counts the learned section's copies.
SECTION_SIGNATURE = "feedback events |"


class RealClaudeCodeTest(KaizenTest):

    def setUp(self):
        super().setUp()
        ok, why = claude_available()
        if not ok:
            self.fail(f"Claude Code is not runnable ({why}): run `make js-deps`")
        self.project = self.path("project")
        os.makedirs(os.path.join(self.project, ".claude"))
        self.write_file(".claude/settings.json", USER_SETTINGS)
        self.write_file("CLAUDE.md", USER_CLAUDE_MD)
        self.write_file("README.md", "# Resume tools\n")
        git = ["git", "-C", self.project, "-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(git + ["init", "-q"], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "start"], check=True)
        self.before = self.snapshot()
        self.home = os.path.join(self.project, ".kaizen")
        r = kaizen("init", "--agent", "claude-code", "--project", self.project)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.init_output = r.out
        # A developer's week (the learned context) and five corrections of passive openers (an
        # enforced pattern, seed 004).
        events = [json.loads(line) for line in open(WEEK)] + [passive(i) for i in range(5)]
        r = kaizen("import", "--home", self.home, "-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)

    def write_file(self, rel, text):
        with open(os.path.join(self.project, rel), "w") as f:
            f.write(text)

    def snapshot(self):
        out = {}
        for rel in (".claude/settings.json", ".mcp.json", "CLAUDE.md"):
            p = os.path.join(self.project, rel)
            out[rel] = open(p, "rb").read() if os.path.exists(p) else None
        return out

    def stored(self, kind):
        r = kaizen("export", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        return [e for e in map(json.loads, r.lines) if e["kind"] == kind]

    def session(self, steps, prompt="tighten the resume"):
        model = AnthropicScriptedModel(steps)
        try:
            # The permission mode that asks: only what the project's settings grant (Write and
            # Bash on the command line, kaizen's MCP tools from init) runs unasked.
            run = run_claude(self.project, prompt, model, permission_mode="default",
                             extra_args=["--allowedTools", "Write,Bash"])
        finally:
            model.close()
        self.assertFalse(run.timed_out, run)
        self.assertEqual(run.returncode, 0, run)
        return run, model

    def test_a_session_is_told_once_blocked_with_the_reason_and_recorded(self):
        # A new file: Claude Code writes over an existing one only after reading it.
        summary = os.path.join(self.project, "summary.md")
        run, model = self.session([
            ("tool", "Write", {"file_path": summary, "content": PASSIVE_TEXT}),
            ("tool", "Write", {"file_path": summary, "content": CLEAN_TEXT}),
            ("tool", "Bash", {"command": "ls /nonexistent-kaizen-dir; exit 3"}),
            ("tool", "mcp__kaizen__get_hints", {}),
            ("text", "Rewrote the resume bullet in the active voice."),
        ])
        main = model.main_requests()
        self.assertGreaterEqual(len(main), 5, main)

        # The learned section reaches the model once, from the session-start hook: CLAUDE.md
        # holds the user's notes only.
        first = main[0]
        self.assertEqual(sum(t.count(SECTION_SIGNATURE) for t in first.texts), 1, first.texts)
        self.assertTrue(any("Run the tests with `make test`" in t for t in first.texts))
        self.assertNotIn(SECTION_SIGNATURE, open(os.path.join(self.project, "CLAUDE.md")).read())

        # kaizen's MCP tools are offered, and the one called answers (init granted them).
        self.assertIn("mcp__kaizen__get_hints", first.tool_names)
        results = model.tool_results()
        self.assertEqual(len(results), 4, results)
        blocked, clean, failed, hints = results
        self.assertTrue(blocked["is_error"], blocked)
        self.assertIn("repeats what people corrected before", blocked["text"])
        self.assertIn(PASSIVE_ID, blocked["text"])
        self.assertFalse(clean["is_error"], clean)
        self.assertTrue(failed["is_error"], failed)
        self.assertFalse(hints["is_error"], hints)
        self.assertIn(SECTION_SIGNATURE, hints["text"])

        # The clean write landed, the blocked one never did.
        self.assertEqual(open(summary).read(), CLEAN_TEXT)

        # The failed command is an error of the session's first turn.
        errors = [e for e in self.stored("error") if "message" in e]
        self.assertEqual(len(errors), 1, errors)
        self.assertRegex(errors[0]["bead_id"], r"^claude-code:.+#1$")
        self.assertIn("Exit code 3", errors[0]["message"])
        self.assertEqual(errors[0]["tool_name"], "Bash")
        outcome = self.stored("outcome")[-1]
        self.assertEqual(outcome["error_count"], 1, outcome)

        # The turn's change is a work item in the review queue, with its diff.
        # kaizen doctor saw every hook point the session went through.
        r = kaizen("doctor", "--agent", "claude-code", "--project", self.project)
        self.assertEqual(r.rc, EXIT_OK, r)
        for event, result in (("SessionStart", "answered"), ("PreToolUse", "ok"),
                              ("PostToolUseFailure", "ok"), ("Stop", "ok")):
            self.assertRegex(r.out, rf"ok    {event}: last reached kaizen \S+, {result} in")

        r = kaizen("review", "--home", self.home, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        queue = json.loads(r.out)
        items = [i for i in queue["items"] if "summary.md" in json.dumps(i)]
        self.assertEqual(len(items), 1, queue)

    def test_mcp_server_says_nothing_on_stderr_when_all_is_well(self):
        model = AnthropicScriptedModel([("tool", "mcp__kaizen__get_hints", {}), ("text", "ok")])
        home = self.path("claude-home")
        try:
            run = run_claude(self.project, "hints?", model, home=home)
        finally:
            model.close()
        self.assertEqual(run.returncode, 0, run)
        errors = [e for e in mcp_log_lines(home, self.project, "kaizen") if "error" in e]
        self.assertEqual(errors, [])

    def test_a_broken_home_never_stops_the_agent(self):
        # The log's directory is a file: every hook that stores or reads fails, and must fail open.
        log_dir = os.path.join(self.home, "feedback")
        subprocess.run(["rm", "-rf", log_dir], check=True)
        with open(log_dir, "w") as f:
            f.write("not a directory\n")
        summary = os.path.join(self.project, "summary.md")
        run, model = self.session([
            ("tool", "Write", {"file_path": summary, "content": PASSIVE_TEXT}),
            ("text", "done"),
        ])
        self.assertFalse(model.tool_results()[0]["is_error"], model.tool_results())
        self.assertEqual(open(summary).read(), PASSIVE_TEXT)
        log = open(os.path.join(self.home, "logs", "hook.log")).read()
        self.assertIn("PreToolUse", log)

    def test_init_says_what_is_left_to_do_and_remove_gives_every_byte_back(self):
        self.assertIn("kaizen doctor --agent claude-code", self.init_output)
        self.session([("tool", "Write", {"file_path": os.path.join(self.project, "summary.md"),
                                         "content": CLEAN_TEXT}), ("text", "done")])
        r = kaizen("init", "--agent", "claude-code", "--project", self.project, "--remove")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(self.snapshot(), self.before)
