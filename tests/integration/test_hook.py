"""`kaizen hook` as the agents call it (issue 28): one payload on stdin, in the shapes Claude Code,
Codex and Goose send (real Claude Code payloads, and Codex and Goose payloads written from their
documentation: tests/integration/fixtures/hooks), the answer on stdout in the agent's own format,
checked against the JSON Schemas Codex publishes (Ajv, tests/js). The home is found from the
session's directory, as a project set up with `kaizen init` has it. Every failure fails open:
exit 0, nothing blocked, the reason in <home>/logs/hook.log.
"""

import fcntl
import json
import os
import shutil
import subprocess
import time
import unittest

from kzlib import (BIN, EXIT_OK, NOW, REPO, KaizenTest, correction_event, feedback_event, jsonl,
                   kaizen, strict_loads)
from test_corrections import PASSIVE_ID, passive
from test_serve import TOKEN, Server

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "hooks")
SCHEMAS = os.path.join(FIXTURES, "codex-schemas")
JS = os.path.join(REPO, "tests", "js")
WEEK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "developer_week.jsonl")


def fixture(agent, name, **override):
    with open(os.path.join(FIXTURES, agent, name)) as f:
        payload = json.load(f)
    payload.update(override)
    return payload


class HookTest(KaizenTest):

    def setUp(self):
        super().setUp()
        self.project = self.path("project")
        os.makedirs(self.project)
        self.home = os.path.join(self.project, ".kaizen")
        os.makedirs(self.home)

    # ---- helpers ----------------------------------------------------------------------------

    def hook(self, payload, *flags, cwd=None, timeout=60):
        """Runs the hook from the project directory (the home is found from there)."""
        data = payload if isinstance(payload, (str, bytes)) else json.dumps(payload)
        r = kaizen("hook", "--now", NOW, *flags, input=data, cwd=cwd or self.project,
                   timeout=timeout)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def answer(self, payload, *flags):
        r = self.hook(payload, *flags)
        self.assertEqual(len(r.lines), 1, r)
        return strict_loads(r.lines[0])

    def claude(self, name, **override):
        return fixture("claude-code", name, cwd=self.project, **override)

    def payload(self, event, session="s-1", **extra):
        p = {"session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": self.project,
             "hook_event_name": event}
        p.update(extra)
        return p

    def log(self):
        path = os.path.join(self.home, "logs", "hook.log")
        return open(path).read() if os.path.exists(path) else ""

    def events(self, kind):
        return [e for e in self.stored_events() if e["kind"] == kind]

    def assert_schema(self, schema, *lines):
        """Each JSON line valid against one of the Codex output schemas (Ajv)."""
        if not os.path.isdir(os.path.join(JS, "node_modules", "ajv")):
            self.fail("tests/js/node_modules is missing: run `make js-deps`")
        proc = subprocess.run(["node", os.path.join(JS, "validate_json_schema.mjs"),
                               os.path.join(SCHEMAS, schema)],
                              input="\n".join(lines).encode(), capture_output=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stdout.decode() + proc.stderr.decode())

    def import_ok(self, *events):
        r = self.import_("-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)

    def enforce_passive_voice(self):
        """Five corrections of passive openers: an enforced pattern (seed 004)."""
        self.import_ok(*[passive(i) for i in range(5)])

    # ---- session start ----------------------------------------------------------------------

    def test_session_start_gives_the_learned_context_in_the_agents_format(self):
        self.import_ok(*[json.loads(l) for l in open(WEEK)])
        r = self.hook(self.claude("01_session_start.json"))
        out = strict_loads(r.lines[0])
        self.assertEqual(out["hookSpecificOutput"]["hookEventName"], "SessionStart")
        context = out["hookSpecificOutput"]["additionalContext"]
        # The week's complaints reach the agent as candidates, with their evidence.
        self.assertIn("Candidates", context)
        self.assertIn("types", context)
        self.assertLessEqual(len(context), 2000 * 4)
        self.assert_schema("session-start.command.output.schema.json", r.lines[0])
        # Codex answers the same shape; Goose takes no context from a hook.
        codex = self.hook(fixture("codex", "session_start.json", cwd=self.project))
        self.assert_schema("session-start.command.output.schema.json", codex.lines[0])
        self.assertEqual(self.hook(fixture("goose", "session_start.json")).out, "")

    def test_the_context_keeps_to_its_token_budget(self):
        self.import_ok(*[json.loads(l) for l in open(WEEK)])
        out = self.answer(self.claude("01_session_start.json"), "--budget-tokens", "150")
        context = out["hookSpecificOutput"]["additionalContext"]
        self.assertLessEqual(len(context), 150 * 4)
        self.assertIn("150-token budget", context)

    def test_session_start_refreshes_the_hints_file_below_its_marker_only(self):
        above = "# Project notes\n\nWrite small functions.\n"
        claude_md = os.path.join(self.project, "CLAUDE.md")
        with open(claude_md, "w") as f:
            f.write(above)
        with open(self.make_config("hints.json"), "w") as f:
            json.dump({"files": ["CLAUDE.md"]}, f)
        self.import_ok(*[json.loads(l) for l in open(WEEK)])
        self.hook(self.claude("01_session_start.json"))
        text = open(claude_md).read()
        self.assertTrue(text.startswith(above + "\n"), text[:200])
        self.assertIn("DO NOT EDIT BELOW THIS LINE", text)
        self.assertIn("Candidates", text)
        first = open(claude_md, "rb").read()
        self.hook(self.claude("01_session_start.json"))  # nothing new: not one byte changes
        self.assertEqual(open(claude_md, "rb").read(), first)

    def test_a_running_server_keeps_the_hints_file_current(self):
        claude_md = os.path.join(self.project, "CLAUDE.md")
        with open(claude_md, "w") as f:
            f.write("# Mine\n")
        with open(self.make_config("hints.json"), "w") as f:
            json.dump({"files": ["CLAUDE.md"]}, f)
        server = Server(self.home, token=TOKEN)
        self.addCleanup(server.kill)
        self.assertTrue(self.wait_for(claude_md, "Based on 0 feedback events"))
        status, _, body = server.request("POST", "/v1/feedback", feedback_event())
        self.assertEqual(status, 201, body)
        # Folded at once; the keeper looks every 2 s.
        self.assertTrue(self.wait_for(claude_md, "Based on 1 feedback events"),
                        open(claude_md).read())
        self.assertTrue(open(claude_md).read().startswith("# Mine\n\n"))

    def wait_for(self, path, text, seconds=15):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if os.path.exists(path) and text in open(path).read():
                return True
            time.sleep(0.1)
        return False

    def make_config(self, name):
        os.makedirs(os.path.join(self.home, "config"), exist_ok=True)
        return os.path.join(self.home, "config", name)

    # ---- prompts ----------------------------------------------------------------------------

    def test_real_requests_record_nothing_and_a_correction_is_a_prompt_event(self):
        for name in ("04_user_prompt_submit.json", "05_user_prompt_submit.json",
                     "06_user_prompt_submit.json", "07_user_prompt_submit.json"):
            self.assertEqual(self.hook(self.claude(name)).out, "")
        self.assertEqual(self.events("prompt"), [])
        self.hook(self.payload("UserPromptSubmit", prompt="no, use pnpm, not npm"))
        [p] = self.events("prompt")
        self.assertEqual((p["_judgement"], p["_instruction"], p["agent"]),
                         ("correction", "use pnpm, not npm", "claude-code"))
        self.assertEqual(p["text"], "no, use pnpm, not npm")

    def test_a_prompt_is_evidence_not_a_review_decision(self):
        before = strict_loads(self.kz("analyze", "--json", "--home", self.home, "--now",
                                      NOW).out)
        for i, day in enumerate(("2025-12-29", "2025-12-30", "2025-12-31", "2026-01-01",
                                 "2025-12-28")):
            r = kaizen("hook", "--now", f"{day}T10:00:00Z", input=json.dumps(self.payload(
                "UserPromptSubmit", session=f"s{i}",
                prompt="that's wrong, you swallowed the error again; handle the error")),
                cwd=self.project)
            self.assertEqual(r.rc, EXIT_OK, r)
        after = strict_loads(self.kz("analyze", "--json", "--home", self.home, "--now",
                                     NOW).out)
        self.assertEqual(before["approval"], after["approval"])
        self.assertEqual(before["autonomy"], after["autonomy"])
        rules = {r["theme"]: r for r in strict_loads(
            self.kz("rules", "--json", "--home", self.home, "--now", NOW).out)["rules"]}
        self.assertIn("error-handling", rules)
        self.assertEqual(rules["error-handling"]["occurrences"], 5)
        context = strict_loads(self.kz("context", "--json", "--home", self.home, "--now",
                                       NOW).out)
        self.assertTrue(any("handle the error" in t for t in context["told"]), context["told"])

    def test_a_prompt_holding_a_secret_is_never_learned(self):
        self.hook(self.payload("UserPromptSubmit",
                               prompt="remember: the api key is sk-live-abcdefghijklmnop"))
        self.assertEqual(self.events("prompt"), [])
        self.assertIn("secret", self.log())

    def test_a_week_of_peoples_prompts_tells_the_agent_what_they_asked_for(self):
        """The peers' labelled prompts (tests/fixtures/prompts), a week of them through the hook:
        the agent is told what people asked for in their words, never a bare "that's wrong", and
        what they repeated becomes a candidate that says it came from corrections."""
        with open(os.path.join(REPO, "tests", "fixtures", "prompts",
                               "labelled_prompts.jsonl")) as f:
            prompts = [json.loads(l)["text"] for l in f]
        for i, text in enumerate(prompts):
            r = kaizen("hook", "--now", f"2025-12-{22 + i % 7:02d}T10:{i % 60:02d}:00Z",
                       input=json.dumps(self.payload("UserPromptSubmit", session=f"w{i}",
                                                     prompt=text)), cwd=self.project)
            self.assertEqual(r.rc, EXIT_OK, r)
        context = strict_loads(self.kz("context", "--json", "--home", self.home, "--now",
                                       NOW).out)
        told = " | ".join(context["told"])
        for said in ("Make sure to validate inputs", "always answer in English", "use async"):
            self.assertIn(said, told)
        for bare in ("That is wrong", "Use this instead", "Not like that"):
            self.assertNotIn(bare, told)
        patterns = {p["id"]: p for p in context["patterns"]}
        self.assertIn("rule-concurrency", patterns)
        self.assertIn("async", patterns["rule-concurrency"]["instruction"])
        hints = self.path("CLAUDE.md")
        self.kz("hints", hints, "--home", self.home, "--now", NOW)
        text = open(hints).read()
        self.assertRegex(text, r"corrections in sessions on \d days, e\.g\. .*async")

    # ---- enforcement ------------------------------------------------------------------------

    def write_payload(self, agent="claude-code"):
        if agent == "codex":
            return fixture("codex", "pre_tool_use_apply_patch.json", cwd=self.project)
        if agent == "goose":
            return fixture("goose", "pre_tool_use_write.json", working_dir=self.project)
        return self.payload("PreToolUse", tool_name="Write", tool_input={
            "file_path": os.path.join(self.project, "docs", "bio.md"),
            "content": "# Experience\n- Responsible for the billing migration\n"})

    def test_a_write_against_an_enforced_pattern_is_blocked_with_its_hint(self):
        self.enforce_passive_voice()
        for agent in ("claude-code", "codex"):
            r = self.hook(self.write_payload(agent))
            out = strict_loads(r.lines[0])["hookSpecificOutput"]
            self.assertEqual(out["permissionDecision"], "deny", agent)
            self.assertIn(PASSIVE_ID, out["permissionDecisionReason"])
            self.assertIn("Responsible for", out["permissionDecisionReason"])
            self.assert_schema("pre-tool-use.command.output.schema.json", r.lines[0])
        goose = strict_loads(self.hook(self.write_payload("goose")).lines[0])
        self.assertEqual(goose["decision"], "block")
        self.assertIn(PASSIVE_ID, goose["reason"])

    def test_enforcement_can_warn_or_be_off_per_pattern(self):
        self.enforce_passive_voice()
        with open(self.make_config("enforcement.json"), "w") as f:
            json.dump({"patterns": {PASSIVE_ID: "warn"}}, f)
        r = self.hook(self.write_payload())
        out = strict_loads(r.lines[0])["hookSpecificOutput"]
        self.assertNotIn("permissionDecision", out)
        self.assertIn(PASSIVE_ID, out["additionalContext"])
        self.assert_schema("pre-tool-use.command.output.schema.json", r.lines[0])
        with open(self.make_config("enforcement.json"), "w") as f:
            json.dump({"default": "off"}, f)
        self.assertEqual(self.hook(self.write_payload()).out, "")

    def test_a_clean_write_passes_silently(self):
        self.enforce_passive_voice()
        p = self.write_payload()
        p["tool_input"]["content"] = "# Experience\n- Led the billing migration\n"
        self.assertEqual(self.hook(p).out, "")

    # ---- tools and the end of a turn --------------------------------------------------------

    def test_a_turn_becomes_errors_an_outcome_and_a_work_item(self):
        s = "turn-1"
        self.hook(self.payload("UserPromptSubmit", session=s, prompt="add the retry"))
        failing = self.payload("PostToolUse", session=s, tool_name="Bash",
                               tool_input={"command": "npm test"},
                               tool_response={"stdout": "", "stderr": "Error: timed out",
                                              "exit_code": 1})
        self.hook(failing)
        src = os.path.join(self.project, "retry.ts")
        with open(src, "w") as f:
            f.write("export const attempts = 3;\n")
        self.hook(self.payload("PostToolUse", session=s, tool_name="Write",
                               tool_input={"file_path": src, "content": "x"}, tool_response={}))
        failing["tool_response"] = {"stdout": "ok", "stderr": "", "exit_code": 0}
        self.hook(failing)  # the same call again: a retry that resolves the error
        self.hook(self.payload("Stop", session=s, stop_hook_active=False,
                               last_assistant_message="Added the retry."))
        errors = self.events("error")
        self.assertEqual(len(errors), 2, errors)
        self.assertEqual(errors[0]["error_type"], "timeout")
        self.assertEqual(errors[1]["resolves"], errors[0]["id"])
        [outcome] = self.events("outcome")
        self.assertEqual((outcome["error_count"], outcome["retry_count"], outcome["success"]),
                         (1, 1, True))
        self.assertEqual(outcome["files_touched"], [src])
        self.assertEqual(outcome["bead_id"], errors[0]["bead_id"])
        [work] = self.events("work")
        self.assertEqual(work["workProduct"]["path"], src)
        self.assertEqual(work["sessionId"], s)
        self.assertTrue(work["workProduct"]["summary"].startswith("Added the retry."))
        server = Server(self.home, token=TOKEN)
        self.addCleanup(server.kill)
        status, _, queue = server.request("GET", "/v1/queue")
        self.assertEqual(status, 200, queue)
        self.assertIn(work["workProduct"]["id"], json.dumps(queue))

    def test_real_claude_code_tool_payloads_are_read(self):
        for name in ("08_post_tool_use_Bash.json", "12_post_tool_use_Write.json",
                     "13_post_tool_use_Edit.json",
                     "15_post_tool_use_mcp-github-get-pull-request-status.json",
                     "19_pre_compact.json", "20_notification.json", "18_subagent_stop.json"):
            self.assertEqual(self.hook(self.claude(name)).out, "", name)
        self.assertEqual(self.events("error"), [])  # every one of them succeeded
        self.hook(self.claude("16_stop.json"))
        [outcome] = self.events("outcome")
        self.assertEqual(outcome["error_count"], 0)
        self.assertEqual(len(outcome["files_touched"]), 2)  # the Write and the Edit
        self.assertEqual(self.log(), "")

    def test_goose_and_codex_failures_are_errors_of_the_turn(self):
        self.hook(fixture("goose", "post_tool_use_failure.json", working_dir=self.project))
        self.hook(fixture("codex", "post_tool_use_failed.json", cwd=self.project))
        errors = {e["bead_id"].split(":")[0]: e for e in self.events("error")}
        self.assertEqual(errors["goose"]["error_type"], "timeout")
        self.assertEqual(errors["codex"]["tool_name"], "Bash")
        self.assertIn("Expected 200", errors["codex"]["message"])
        self.hook(fixture("codex", "stop.json", cwd=self.project))
        [outcome] = self.events("outcome")
        self.assertFalse(outcome["success"])

    # ---- failing open -----------------------------------------------------------------------

    def test_an_unreadable_payload_fails_open_and_is_logged(self):
        for bad in ("not json", "[1,2]", '{"hook_event_name":"Stop"}', ""):
            r = self.hook(bad)
            self.assertEqual(r.out, "", bad)
        log = self.log()
        self.assertIn("not JSON", log)
        self.assertIn("session_id", log)

    def test_an_agent_that_never_closes_stdin_does_not_hang_the_hook(self):
        proc = subprocess.Popen([BIN, "hook", "--timeout-ms", "300"], cwd=self.project,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            rc = proc.wait(timeout=20)  # stdin is never written to nor closed
        finally:
            proc.kill()
            proc.stdin.close()
        self.assertEqual((rc, proc.stdout.read()), (EXIT_OK, b""))
        proc.stdout.close()
        proc.stderr.close()

    def test_a_mistyped_flag_exits_0_not_the_blocking_2(self):
        r = kaizen("hook", "--agent", "cursor", input="{}", cwd=self.project)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("fail open", r.err)

    def test_no_home_for_the_project_means_nothing_is_done(self):
        elsewhere = self.path("elsewhere")
        os.makedirs(elsewhere)
        r = kaizen("hook", input=json.dumps(self.payload("SessionStart", cwd=elsewhere)),
                   cwd=elsewhere, env={"KAIZEN_HOME": ""})
        self.assertEqual((r.rc, r.out), (EXIT_OK, ""), r)
        self.assertFalse(os.path.exists(os.path.join(elsewhere, ".kaizen")))

    def test_a_locked_home_fails_open_within_the_time_budget(self):
        self.enforce_passive_voice()
        with open(os.path.join(self.home, ".lock"), "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            start = time.monotonic()
            r = self.hook(self.payload("UserPromptSubmit", prompt="no, use pnpm"),
                          "--timeout-ms", "500")
            self.assertLess(time.monotonic() - start, 10)
        self.assertEqual(r.out, "")
        self.assertIn("timeout", self.log())

    def test_a_home_it_cannot_write_fails_open(self):
        shutil.rmtree(os.path.join(self.home, "feedback"), ignore_errors=True)
        with open(os.path.join(self.home, "feedback"), "w") as f:
            f.write("not a directory")
        r = self.hook(self.payload("UserPromptSubmit", prompt="no, use pnpm"))
        self.assertEqual(r.out, "")
        self.assertIn("UserPromptSubmit", self.log())

    def test_a_broken_enforcement_config_blocks_nothing(self):
        self.enforce_passive_voice()
        with open(self.make_config("enforcement.json"), "w") as f:
            f.write('{"default": "sometimes"}')
        self.assertEqual(self.hook(self.write_payload()).out, "")
        self.assertIn('default: "sometimes" must be one of', self.log())


if __name__ == "__main__":
    unittest.main()
