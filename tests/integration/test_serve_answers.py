"""CLI verbs and hooks answered by the home's running `kaizen serve` (home/serve_client.h): while it
runs, `kaizen hook`, `kaizen context` and `kaizen hints` ask its live learner (found through
<home>/run/serve.json) instead of folding the log, and the answers are byte for byte those of a
fold of the log. When the server cannot answer as a fresh fold would (none alive, another
token, a config changed since it started), the verb answers itself; an event a hook stored
through the server is stored once.
"""

import json
import os
import signal
import socket
import subprocess
import time
import unittest
import urllib.request

from kzlib import EXIT_OK, NOW, KaizenTest, feedback_event, jsonl, kaizen, strict_loads
from test_corrections import passive
from test_serve import Server

WEEK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "developer_week.jsonl")
PASSIVE_TEXT = "# Experience\n- Responsible for the billing migration\n"  # test_hook.py's


def with_a_week_of_feedback(test):
    """test.home under test.project, holding a developer's week and five passive-voice
    corrections (an enforced pattern)."""
    test.project = test.path("project")
    test.home = os.path.join(test.project, ".kaizen")
    os.makedirs(test.home)
    events = [json.loads(line) for line in open(WEEK)] + [passive(i) for i in range(5)]
    r = test.import_("-", input=jsonl(*events))
    test.assertEqual(r.rc, EXIT_OK, r)


class ServeAnswers(KaizenTest):

    def setUp(self):
        super().setUp()
        with_a_week_of_feedback(self)

    # ---- helpers ----------------------------------------------------------------------------

    def serve(self):
        """A server that keeps its bearer token in the home (as `kaizen serve` does by default),
        so the home's CLI can present it."""
        s = Server(self.home, token=None)
        self.addCleanup(s.kill)
        self.assertTrue(os.path.exists(self.hpath("run", "serve.json")))
        return s

    def cli_answers(self, server):
        status, _, body = server.request("GET", "/healthz", token=None)
        self.assertEqual(status, 200)
        return body["cliAnswers"]

    def hook(self, payload):
        r = kaizen("hook", "--now", NOW, input=json.dumps(payload), cwd=self.project)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r.out

    def payload(self, event, session="s-1", **extra):
        p = {"session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": self.project,
             "hook_event_name": event}
        p.update(extra)
        return p

    def answers(self):
        """Every verb the server may answer, as the CLI prints it (hints: the file written)."""
        out = {}
        for name, args in {
                "context": ["context"],
                "context json": ["context", "--json", "--server-type", "shopify", "--dimensions",
                                 "code-quality,documentation", "--budget", "300"],
                "context at end": ["context", "--now", "end"]}.items():
            r = self.kz(*args, "--home", self.home,
                        *([] if "--now" in args else ["--now", NOW]))
            self.assertEqual(r.rc, EXIT_OK, r)
            out[name] = r.out
        hints = self.path("HINTS.md")
        if os.path.exists(hints):
            os.remove(hints)
        r = self.kz("hints", hints, "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        out["hints"] = open(hints, encoding="utf-8").read()
        out["hook session start"] = self.hook(self.payload("SessionStart", source="startup"))
        out["hook pre-tool"] = self.hook(self.payload(
            "PreToolUse", tool_name="Write",
            tool_input={"file_path": os.path.join(self.project, "docs", "bio.md"),
                        "content": PASSIVE_TEXT}))
        return out

    def events(self, kind):
        return [e for e in self.stored_events() if e["kind"] == kind]

    # ---- tests ------------------------------------------------------------------------------

    def test_the_running_server_answers_as_a_fold_of_the_log(self):
        local = self.answers()
        self.assertIn("deny", local["hook pre-tool"])  # the passive write is blocked
        self.assertIn("additionalContext", local["hook session start"])
        s = self.serve()
        served = self.answers()
        self.assertEqual(self.cli_answers(s), 6)  # every call went to the server
        for name in local:
            self.assertEqual(served[name], local[name], name)

    def test_what_the_cli_records_while_the_server_runs_is_in_its_next_answer(self):
        s = self.serve()
        before = self.answers()["hints"]
        self.record_ok("feedback", feedback_event(decision={
            "decision": "rejected", "reason": "Don't use passive voice in the docs."}))
        served = self.answers()
        self.assertEqual(self.cli_answers(s), 12)
        self.assertNotEqual(served["hints"], before)
        self.assertEqual(s.stop(), 0)
        self.assertFalse(os.path.exists(self.hpath("run", "serve.json")))
        self.assertEqual(self.answers(), served)  # now folded here

    def test_events_a_hook_stored_through_the_server_are_stored_once(self):
        before = {kind: len(self.events(kind)) for kind in ("prompt", "error", "outcome")}
        s = self.serve()
        self.hook(self.payload("UserPromptSubmit", prompt="no, use pnpm, not npm"))
        self.hook(self.payload("PostToolUse", tool_name="Bash", tool_input={"command": "npm test"},
                               tool_response={"stderr": "timed out", "exit_code": 1}))
        self.hook(self.payload("Stop", stop_hook_active=False, last_assistant_message="Done."))
        self.assertEqual(self.cli_answers(s), 3)
        self.assertEqual(s.stop(), 0)
        self.assertEqual([e["text"] for e in self.events("prompt")][before["prompt"]:],
                         ["no, use pnpm, not npm"])
        self.assertEqual(len(self.events("error")), before["error"] + 1)
        self.assertEqual(len(self.events("outcome")), before["outcome"] + 1)

    def test_a_record_of_a_server_that_is_gone_is_ignored(self):
        local = self.answers()
        os.makedirs(self.hpath("run"), exist_ok=True)
        record = self.hpath("run", "serve.json")
        dead = subprocess.Popen(["true"])
        dead.wait()
        with socket.socket() as sock:  # a port nothing listens on once closed
            sock.bind(("127.0.0.1", 0))
            closed_port = sock.getsockname()[1]
        os.makedirs(self.hpath("config"), exist_ok=True)
        with open(os.open(self.hpath("config", "token"), os.O_WRONLY | os.O_CREAT, 0o600),
                  "w") as f:
            f.write("a" * 64)
        # A killed server's record (its process is gone), and one whose port no longer listens.
        for pid, port in ((dead.pid, closed_port), (os.getpid(), closed_port)):
            with open(record, "w") as f:
                json.dump({"pid": pid, "host": "127.0.0.1", "port": port}, f)
            self.assertEqual(self.answers(), local, (pid, port))

    def test_a_server_whose_config_changed_or_token_differs_is_not_asked(self):
        s = self.serve()
        with open(self.hpath("config", "learning.json"), "w") as f:
            json.dump({"memory": {"context_budget_tokens": 300}}, f)
        served = self.answers()
        self.assertEqual(self.cli_answers(s), 0)
        self.assertIn("declined (409)", open(self.hpath("logs", "hook.log")).read())
        self.assertEqual(s.stop(), 0)
        self.assertEqual(self.answers(), served)  # the new config's answers, folded here

        s = self.serve()
        with open(self.hpath("config", "token"), "w") as f:
            f.write("b" * 64)  # another home's token, as far as this server knows
        self.assertEqual(self.answers(), served)
        self.assertEqual(self.cli_answers(s), 0)


class ServerStartedForASlowHome(KaizenTest):
    """A learning call that folded the log itself slowly starts the home's server (detached, on a
    port of its own); the next call is answered by it, and it leaves once nobody has asked it
    anything for its --idle-exit. Slow here means over 0 ms (KAIZEN_AUTOSERVE_AFTER_MS)."""

    def setUp(self):
        super().setUp()
        with_a_week_of_feedback(self)
        self.env = dict(KAIZEN_AUTOSERVE="1", KAIZEN_AUTOSERVE_AFTER_MS="0",
                        KAIZEN_AUTOSERVE_IDLE_SECONDS="3")
        self.addCleanup(self.kill_started)

    def started(self):
        """The started server's (pid, port), once its record names a live process."""
        record = self.hpath("run", "serve.json")
        deadline = time.time() + 60
        while time.time() < deadline:
            if os.path.exists(record):
                with open(record) as f:
                    r = json.load(f)
                if alive(r["pid"]):
                    return r["pid"], r["port"]
            time.sleep(0.1)
        self.fail("no server started: " + self.serve_log())

    def serve_log(self):
        path = self.hpath("logs", "serve.log")
        return open(path).read() if os.path.exists(path) else "(no logs/serve.log)"

    def kill_started(self):
        record = self.hpath("run", "serve.json")
        if os.path.exists(record):
            with open(record) as f:
                pid = json.load(f)["pid"]
            if alive(pid):
                os.kill(pid, signal.SIGKILL)

    def context(self):
        r = kaizen("context", "--home", self.home, "--now", NOW, env=self.env)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r.out

    def cli_answers_at(self, port):
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30) as r:
            return json.load(r)["cliAnswers"]

    def test_a_slow_call_starts_a_server_that_answers_the_next_and_leaves_when_idle(self):
        first = self.context()  # folded here; starts the server
        pid, port = self.started()
        self.assertEqual(self.context(), first)
        self.assertEqual(self.cli_answers_at(port), 1)
        # No request for 3 s: it stops as on SIGTERM, and takes its record with it.
        deadline = time.time() + 30
        while alive(pid) and time.time() < deadline:
            time.sleep(0.2)
        self.assertFalse(alive(pid), self.serve_log())
        self.assertFalse(os.path.exists(self.hpath("run", "serve.json")))
        self.assertIn("--idle-exit", self.serve_log())
        self.assertEqual(os.stat(self.hpath("logs", "serve.log")).st_mode & 0o077, 0)

    def test_no_server_is_started_when_switched_off(self):
        self.env["KAIZEN_AUTOSERVE"] = "0"
        self.context()
        time.sleep(1)
        self.assertFalse(os.path.exists(self.hpath("run", "serve.json")))


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (exited, not yet reaped by init) counts as gone.
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


if __name__ == "__main__":
    unittest.main()
