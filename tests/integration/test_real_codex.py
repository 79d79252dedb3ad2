"""The real Codex CLI (npm @openai/codex, pinned in tests/js) set up by `kaizen init` and driven
headless (`codex exec`) against a scripted Responses API model on loopback (agent_codex.py).

The project and its hooks are trusted in CODEX_HOME/config.toml the way Codex's own /hooks review
records it; nothing else is granted by hand. What the model receives is the evidence: the learned
context once, a blocked patch (the patch tool's, and one applied through the shell) comes back with
kaizen's reason, the clean patch lands, a failed shell command (whose payload carries no exit
status) is an `error` event, the turn is a work item in the queue, kaizen's MCP tools run with the
approval init wrote, SessionEnd runs within Codex's 3-second limit, a broken home never stops the
agent, and `init --remove` gives the user's files back byte for byte.
"""

import json
import os
import subprocess

from agent_codex import ResponsesScriptedModel, codex_available, run_codex, write_codex_config
from kzlib import EXIT_OK, KaizenTest, jsonl, kaizen
from test_corrections import PASSIVE_ID, passive

HERE = os.path.dirname(os.path.abspath(__file__))
WEEK = os.path.join(HERE, "fixtures", "developer_week.jsonl")

USER_CONFIG = '# my Codex settings\nmodel_reasoning_effort = "high"\n'
USER_AGENTS_MD = "# Agents\n\nKeep functions short.\n"
SECTION_SIGNATURE = "feedback events |"


def add_file_patch(name, text):
    body = "".join("+" + line + "\n" for line in text.splitlines())
    return f"*** Begin Patch\n*** Add File: {name}\n{body}*** End Patch\n"


class RealCodexTest(KaizenTest):

    def setUp(self):
        super().setUp()
        ok, why = codex_available()
        if not ok:
            self.fail(f"Codex is not runnable ({why}): run `make js-deps`")
        self.project = self.path("project")
        os.makedirs(os.path.join(self.project, ".codex"))
        self.write_file(".codex/config.toml", USER_CONFIG)
        self.write_file("AGENTS.md", USER_AGENTS_MD)
        git = ["git", "-C", self.project, "-c", "user.name=t", "-c", "user.email=t@example.com"]
        subprocess.run(git + ["init", "-q"], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "start"], check=True)
        self.before = self.snapshot()
        self.home = os.path.join(self.project, ".kaizen")
        r = kaizen("init", "--agent", "codex", "--project", self.project)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.init_output = r.out
        events = [json.loads(line) for line in open(WEEK)] + [passive(i) for i in range(5)]
        r = kaizen("import", "--home", self.home, "-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        # What the user does once in Codex: trust the project, review and trust kaizen's hooks.
        self.codex_home = self.path("codex-home")
        write_codex_config(self.codex_home, trusted_projects=[self.project],
                           trusted_hooks=[os.path.join(self.project, ".codex", "hooks.json")])

    def write_file(self, rel, text):
        with open(os.path.join(self.project, rel), "w") as f:
            f.write(text)

    def snapshot(self):
        out = {}
        for rel in (".codex/hooks.json", ".codex/config.toml", "AGENTS.md"):
            p = os.path.join(self.project, rel)
            out[rel] = open(p, "rb").read() if os.path.exists(p) else None
        return out

    def stored(self, kind):
        r = kaizen("export", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        return [e for e in map(json.loads, r.lines) if e["kind"] == kind]

    def session(self, steps, prompt="tighten the resume"):
        model = ResponsesScriptedModel(steps)
        try:
            # Codex's own approval policy for exec ("never": nothing is asked, so a tool that
            # needs approval is refused), with full file access instead of its sandbox.
            run = run_codex(self.project, prompt, model, self.codex_home, bypass_approvals=False,
                            extra_args=["-s", "danger-full-access"])
        finally:
            model.close()
        self.assertEqual(run.returncode, 0, run)
        return run, model

    def test_a_session_is_told_once_blocked_with_the_reason_and_recorded(self):
        shell_patch = add_file_patch("cover.md", "Responsible for the cover letter")
        run, model = self.session([
            ("patch", add_file_patch("resume.md", "Responsible for the quarterly planning")),
            ("patch", add_file_patch("resume.md", "Led the quarterly planning for 4 teams")),
            ("shell", f"apply_patch <<'EOF'\n{shell_patch}EOF"),
            ("shell", "ls /nonexistent-kaizen-dir; exit 3"),
            ("tool", "mcp__kaizen__record_error",
             {"bead_id": "codex-test", "error_type": "validation", "message": "from the model"}),
            ("text", "Rewrote the resume in the active voice."),
        ])
        main = model.main_requests()
        first = main[0]
        # Once, from the session-start hook; AGENTS.md carries the user's words only.
        self.assertEqual(sum(t.count(SECTION_SIGNATURE) for t in first.texts), 1, first.texts)
        self.assertTrue(any("Keep functions short." in t for t in first.texts))
        self.assertNotIn(SECTION_SIGNATURE, open(os.path.join(self.project, "AGENTS.md")).read())

        outputs = model.tool_outputs()
        self.assertEqual(len(outputs), 5, outputs)
        blocked, clean, shell_blocked, failed, mcp = outputs
        for out in (blocked, shell_blocked):
            self.assertIn("repeats what people corrected before", out["text"])
            self.assertIn(PASSIVE_ID, out["text"])
        self.assertNotIn("blocked", clean["text"])
        self.assertFalse(os.path.exists(os.path.join(self.project, "cover.md")))
        self.assertEqual(open(os.path.join(self.project, "resume.md")).read(),
                         "Led the quarterly planning for 4 teams\n")
        self.assertNotIn("requires approval", mcp["text"])

        # The failed command: an error of the session's turn, though its payload said nothing of
        # how it ended (kaizen read Codex's rollout).
        errors = [e for e in self.stored("error") if e.get("tool_name") == "Bash"]
        self.assertEqual(len(errors), 1, errors)
        self.assertRegex(errors[0]["bead_id"], r"^codex:.+#1$")
        self.assertIn("exit code 3", errors[0]["message"])
        self.assertIn("No such file or directory", errors[0]["message"])
        # The MCP tool ran: the model's error was stored.
        self.assertTrue(any(e.get("bead_id") == "codex-test" for e in self.stored("error")))

        r = kaizen("review", "--home", self.home, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        items = [i for i in json.loads(r.out)["items"] if "resume.md" in json.dumps(i)]
        self.assertEqual(len(items), 1, r.out)

        # SessionEnd is registered within Codex's limit: no clamping warning.
        self.assertNotIn("clamping SessionEnd", run.stdout + run.stderr)

    def test_doctor_sees_what_codex_trusts_and_when_each_hook_last_ran(self):
        doctor = ("doctor", "--agent", "codex", "--project", self.project)
        # The hooks reviewed as Codex's /hooks screen records it (agent_codex.hook_trust_state,
        # the hash a real Codex ran the hooks with): nothing to fix once the session ran.
        self.session([("patch", add_file_patch("notes.md", "Led the planning")), ("text", "ok")])
        r = kaizen(*doctor, env={"CODEX_HOME": self.codex_home})
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("Codex trusts the project and all 6 of kaizen's hooks", r.out)
        self.assertRegex(r.out, r"ok    PreToolUse: last reached kaizen \S+, \w+ in \d+ ms")
        self.assertRegex(r.out, r"ok    MCP: .* listed \d+ tools")
        # Trusted project, hooks never reviewed: Codex would skip them all, silently.
        untrusted = self.path("codex-home-untrusted")
        write_codex_config(untrusted, trusted_projects=[self.project])
        r = kaizen(*doctor, env={"CODEX_HOME": untrusted})
        self.assertEqual(r.rc, 1, r)
        self.assertIn("Codex skips 6 of kaizen's hooks until you review them", r.out)
        self.assertIn("open /hooks and trust kaizen's hooks", r.out)

    def test_a_broken_home_never_stops_the_agent(self):
        feedback = os.path.join(self.home, "feedback")
        subprocess.run(["rm", "-rf", feedback], check=True)
        with open(feedback, "w") as f:
            f.write("not a directory\n")
        self.session([
            ("patch", add_file_patch("resume.md", "Responsible for the quarterly planning")),
            ("text", "done"),
        ])
        self.assertEqual(open(os.path.join(self.project, "resume.md")).read(),
                         "Responsible for the quarterly planning\n")
        self.assertIn("PreToolUse", open(os.path.join(self.home, "logs", "hook.log")).read())

    def test_init_says_to_trust_the_hooks_and_remove_gives_every_byte_back(self):
        self.assertIn("/hooks", self.init_output)
        self.assertIn("kaizen doctor --agent codex", self.init_output)
        self.session([("patch", add_file_patch("notes.md", "Led the planning")), ("text", "ok")])
        r = kaizen("init", "--agent", "codex", "--project", self.project, "--remove")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(self.snapshot(), self.before)
