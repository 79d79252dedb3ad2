"""`kaizen doctor`: what it reports for a project set up by `kaizen init`, without the agents
themselves (tests/integration/test_real_*.py run them): a missing or outdated hook, a hook whose
last call failed, a second copy of the learned section, a stale hints file; exit 1 with the fix in
one line, 0 when nothing needs fixing.
"""

import json
import os

from kzlib import EXIT_OK, EXIT_REJECTED, KaizenTest, kaizen


class DoctorTest(KaizenTest):

    def setUp(self):
        super().setUp()
        self.project = self.path("project")
        os.makedirs(self.project)
        self.home = os.path.join(self.project, ".kaizen")

    def init(self, agent, *flags):
        r = kaizen("init", "--agent", agent, "--project", self.project, *flags)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def doctor(self, *flags):
        return kaizen("doctor", "--project", self.project, *flags)

    def hook(self, payload):
        payload = dict({"session_id": "s-1", "cwd": self.project}, **payload)
        r = kaizen("hook", "--agent", "claude-code", input=json.dumps(payload), cwd=self.project)
        self.assertEqual(r.rc, EXIT_OK, r)

    def test_a_fresh_setup_has_nothing_to_fix_and_lists_what_never_ran(self):
        self.init("claude-code")
        r = self.doctor()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("ok    hooks: all 7 registered in .claude/settings.json", r.out)
        self.assertIn("never reached kaizen from claude-code yet", r.out)
        self.assertRegex(r.out, r"ok    MCP: `\S*kaizen mcp` started and listed \d+ tools")
        self.assertIn("CLAUDE.md carries none", r.out)
        self.assertIn("kaizen doctor: nothing to fix", r.out)

    def test_a_missing_hook_is_named_with_the_command_that_fixes_it(self):
        self.init("claude-code")
        path = os.path.join(self.project, ".claude", "settings.json")
        settings = json.load(open(path))
        del settings["hooks"]["Stop"]
        json.dump(settings, open(path, "w"), indent=2)
        r = self.doctor("--agent", "claude-code")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("FIX   hooks: Stop not registered in .claude/settings.json", r.out)
        self.assertIn(f"fix: kaizen init --agent claude-code --project {self.project}", r.out)

    def test_a_hook_of_an_earlier_kaizen_is_outdated(self):
        self.init("claude-code")
        path = os.path.join(self.project, ".claude", "settings.json")
        settings = json.load(open(path))
        settings["hooks"]["SubagentStop"] = settings["hooks"]["Stop"]
        settings["hooks"]["PreToolUse"][0]["matcher"] = "Write|Edit"
        json.dump(settings, open(path, "w"), indent=2)
        r = self.doctor("--agent", "claude-code")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("hooks: PreToolUse differ from what this kaizen registers; 1 at events it "
                      "no longer uses", r.out)
        # init puts it right, and doctor agrees.
        self.init("claude-code")
        self.assertEqual(self.doctor("--agent", "claude-code").rc, EXIT_OK)

    def test_each_hook_points_last_call_is_reported_and_a_failed_one_is_to_fix(self):
        self.init("claude-code")
        self.hook({"hook_event_name": "SessionStart", "source": "startup"})
        r = self.doctor()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertRegex(r.out, r"ok    SessionStart: last reached kaizen \S+Z, answered in \d+ ms")
        self.assertRegex(r.out, r"hook latency: the last 1 calls took \d+ ms at the median")
        # A home the hook cannot use: it fails open, and doctor says where to read why.
        os.replace(os.path.join(self.home, "feedback"), os.path.join(self.home, "moved"))
        open(os.path.join(self.home, "feedback"), "w").write("not a directory\n")
        self.hook({"hook_event_name": "SessionStart", "source": "resume"})
        r = self.doctor()
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertRegex(r.out, r"FIX   SessionStart: last reached kaizen \S+, failed in \d+ ms")
        self.assertIn(f"fix: read {self.home}/logs/hook.log", r.out)

    def test_a_second_copy_of_the_section_in_claude_md_is_to_fix(self):
        self.init("claude-code")
        r = kaizen("hints", "--home", self.home, os.path.join(self.project, "CLAUDE.md"))
        self.assertEqual(r.rc, EXIT_OK, r)
        r = self.doctor("--agent", "claude-code")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("CLAUDE.md carries the learned section and the session-start hook gives "
                      "it too", r.out)

    def test_goose_hints_file_is_checked_to_be_current(self):
        self.init("goose")
        r = self.doctor("--agent", "goose")
        self.assertIn("ok    context: .goosehints carries the current learned section", r.out)
        # New reviews since: the file's section is older than the log.
        r = kaizen("gen", "--events", "300", "--seed", "3", "--out", self.path("h.jsonl"))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(kaizen("import", "--home", self.home, self.path("h.jsonl")).rc, EXIT_OK)
        r = self.doctor("--agent", "goose")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("FIX   context: .goosehints carries a learned section older than the log",
                      r.out)
        self.assertIn("fix: kaizen hints", r.out)

    def test_a_project_with_no_agent_set_up_says_so(self):
        r = self.doctor()
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("no agent is set up for kaizen", r.out)
        self.assertIn("fix: kaizen init --agent", r.out)
