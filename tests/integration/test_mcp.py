"""`kaizen mcp`: the MCP server over stdio, driven by the official MCP TypeScript SDK client
(tests/js/mcp_client.mjs) and by raw JSON-RPC lines for the malformed cases.

The SDK session needs node and tests/js/node_modules (`make js-deps`); without them the test
fails, it does not skip.
"""

import json
import os
import shutil
import subprocess
import unittest

from kzlib import BIN, EXIT_OK, EXIT_REJECTED, NOW, REPO, KaizenTest, jsonl, strict_loads
from test_check import FIXED_CLIENT, TASK, UNSAFE_CLIENT, rejection

JS_DIR = os.path.join(REPO, "tests", "js")
CLIENT = os.path.join(JS_DIR, "mcp_client.mjs")
SDK = os.path.join(JS_DIR, "node_modules", "@modelcontextprotocol", "sdk", "package.json")

TOOLS = sorted(["record_feedback", "record_work", "record_outcome", "record_error", "resolve_error",
                "get_error_context", "log_correction", "record_reward", "get_context", "get_hints",
                "self_check", "should_review", "should_compare", "loop_decide",
                "validate_output", "next_question", "record_answer"])


def init(version="2025-06-18", id_=0):
    return {"jsonrpc": "2.0", "id": id_, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {},
                       "clientInfo": {"name": "raw", "version": "1"}}}


def call(id_, name, arguments):
    return {"jsonrpc": "2.0", "id": id_, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}


WORK = {"workProduct": {"type": "code-module", "id": "raw-work-1", "version": "v1",
                        "summary": "s", "bubaConfidence": 0.6,
                        "generationContext": {"promptHash": "h", "memorySnapshot": [],
                                              "modelUsed": "m", "generationTimeMs": 1,
                                              "iterationCount": 1}}}


class McpTest(KaizenTest):

    def session(self, *lines, timeout=120):
        """Runs `kaizen mcp` on these lines (dicts are JSON-encoded; bytes and str sent as
        they are, a newline added to each but the last bytes item), then EOF. Returns (rc,
        replies parsed from stdout, stderr)."""
        data = b""
        for line in lines:
            if isinstance(line, dict) or isinstance(line, list):
                data += json.dumps(line).encode() + b"\n"
            elif isinstance(line, str):
                data += line.encode() + b"\n"
            else:
                data += line  # raw bytes: no newline added
        proc = subprocess.run([BIN, "mcp", "--home", self.home, "--now", NOW], input=data,
                              capture_output=True, timeout=timeout)
        replies = [strict_loads(l) for l in proc.stdout.decode().split("\n") if l]
        return proc.returncode, replies, proc.stderr.decode()

    def error_code(self, reply):
        self.assertEqual(reply["jsonrpc"], "2.0", reply)
        self.assertIn("error", reply, reply)
        return reply["error"]["code"]

    def stored(self, kind):
        r = self.export("--kind", kind)
        self.assertEqual(r.rc, EXIT_OK, r)
        return [strict_loads(l) for l in r.lines]

    # ---- the official SDK client ----

    def test_sdk_client_session(self):
        node = shutil.which("node")
        self.assertIsNotNone(node, "node is not installed: `make js-deps` installs it")
        self.assertTrue(os.path.exists(SDK),
                        "tests/js/node_modules lacks @modelcontextprotocol/sdk: run `make js-deps`")
        proc = subprocess.run([node, CLIENT, BIN, self.home, NOW], capture_output=True,
                              timeout=180, cwd=JS_DIR)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode()[-3000:])
        s = strict_loads(proc.stdout.decode().strip().split("\n")[-1])

        self.assertEqual(s["serverInfo"]["name"], "kaizen")
        self.assertIn("tools", s["capabilities"])
        self.assertIn("resources", s["capabilities"])
        self.assertEqual(s["tools"], TOOLS)
        self.assertEqual(s["toolsWithObjectSchema"], 17)

        self.assertFalse(s["work"]["isError"], s["work"])
        self.assertTrue(s["work"]["stored"])
        self.assertFalse(s["feedback"]["isError"], s["feedback"])
        self.assertTrue(s["feedback"]["stored"])
        self.assertTrue(s["refused"]["isError"])
        self.assertIn({"path": "scores[0].score", "message": "11 is out of range 1..10"},
                      s["refused"]["errors"])
        self.assertIn("scores[0].score: 11 is out of range 1..10", s["refused"]["text"])

        self.assertFalse(s["context"]["isError"])
        self.assertIn("recentSimilar", s["context"]["keys"])
        self.assertFalse(s["hints"]["isError"])
        self.assertTrue(s["hints"]["text"].startswith("# Generated: 2026-01-01 | Based on 1 "),
                        s["hints"]["text"])

        first, second = s["shouldReview"]
        self.assertEqual(first, second)
        self.assertEqual(first["level"], 0)
        self.assertTrue(first["should_review"])  # level 0 reviews every output
        # seed 000 §6.4: a 50% confidence (no calibration data yet: taken as it is) is under 65%.
        compare = s["shouldCompare"]
        self.assertTrue(compare["compare"], compare)
        self.assertEqual(compare["reasons"], ["calibrated confidence 50% is under 65%"])
        self.assertEqual(compare["triggers"], {"lowConfidence": True, "severalApproaches": False,
                                               "mixedPreferences": False})

        self.assertFalse(s["loop"]["isError"])
        self.assertIn(s["loop"]["action"], ("HALT", "CONTINUE", "ABORT"))
        self.assertEqual(s["loop"]["iterations"], 2)
        self.assertEqual(s["loop"]["action"], "ABORT")  # the same feedback twice: a cycle
        self.assertEqual(s["loop"]["reason"], "cycling")

        self.assertTrue(s["resources"], "no resources listed")
        self.assertTrue(all(u.startswith("kaizen://") for u in s["resources"]), s["resources"])
        self.assertEqual(s["read"]["contentUri"], s["read"]["uri"])
        self.assertGreater(s["read"]["length"], 0)
        self.assertEqual(s["ping"], {})

        # What the pipeline stored: the work and the one accepted review, not the refused one.
        works = self.stored("work")
        self.assertEqual([w["workProduct"]["id"] for w in works], ["sdk-work-1"])
        reviews = self.stored("feedback")
        self.assertEqual([f["modalId"] for f in reviews], ["sdk-modal-1"])
        self.assertEqual(reviews[0]["id"], s["feedback"]["id"])

    # ---- raw JSON-RPC ----

    def test_malformed_messages_get_json_rpc_errors(self):
        rc, replies, _ = self.session(
            "this is not json",
            "[1, 2",
            "42",
            init(),
            {"id": 5, "method": "ping"},  # no "jsonrpc"
            {"jsonrpc": "2.0", "id": 6, "method": "no/such/method"},
            {"jsonrpc": "2.0", "id": None, "method": "ping"},
            {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "nope"}},
            [{"jsonrpc": "2.0", "id": 8, "method": "ping"}],  # no batches in 2025-06-18
            {"jsonrpc": "2.0", "id": 9, "method": "ping"},
        )
        self.assertEqual(rc, EXIT_OK)
        self.assertEqual(len(replies), 10, replies)
        self.assertEqual([self.error_code(r) for r in replies[:3]], [-32700, -32700, -32600])
        self.assertTrue(all(r["id"] is None for r in replies[:3]))
        self.assertEqual(replies[3]["result"]["protocolVersion"], "2025-06-18")
        self.assertEqual((replies[4]["id"], self.error_code(replies[4])), (5, -32600))
        self.assertEqual((replies[5]["id"], self.error_code(replies[5])), (6, -32601))
        self.assertEqual((replies[6]["id"], self.error_code(replies[6])), (None, -32600))
        self.assertEqual((replies[7]["id"], self.error_code(replies[7])), (7, -32602))
        self.assertIn("record_feedback", replies[7]["error"]["message"])
        self.assertEqual(self.error_code(replies[8]), -32600)
        self.assertEqual(replies[9], {"jsonrpc": "2.0", "id": 9, "result": {}})

    def test_batches_are_served_in_2025_03_26(self):
        rc, replies, _ = self.session(
            init("2025-03-26"),
            [{"jsonrpc": "2.0", "id": 1, "method": "ping"},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "nope"}])
        self.assertEqual(rc, EXIT_OK)
        self.assertEqual(replies[1][0], {"jsonrpc": "2.0", "id": 1, "result": {}})
        self.assertEqual(self.error_code(replies[1][1]), -32601)
        self.assertEqual(len(replies[1]), 2)

    def test_requests_before_initialize_are_refused_but_ping_is_served(self):
        rc, replies, _ = self.session(
            {"jsonrpc": "2.0", "id": 1, "method": "ping"},
            call(2, "record_work", WORK),
            init(),
            {"jsonrpc": "2.0", "id": 3, "method": "tools/list"})
        self.assertEqual(rc, EXIT_OK)
        self.assertEqual(replies[0]["result"], {})
        self.assertEqual((replies[1]["id"], self.error_code(replies[1])), (2, -32600))
        self.assertIn("before initialize", replies[1]["error"]["message"])
        self.assertEqual(len(replies[3]["result"]["tools"]), 17)
        self.assertEqual(self.stored("work"), [])  # the early call stored nothing

    def test_oversized_line_is_refused_and_the_session_goes_on(self):
        big = json.dumps(call(2, "validate_output", {"text": "x" * (5 << 20)}))
        rc, replies, _ = self.session(init(), big, {"jsonrpc": "2.0", "id": 3, "method": "ping"})
        self.assertEqual(rc, EXIT_OK)
        self.assertEqual(len(replies), 3)
        self.assertEqual((replies[1]["id"], self.error_code(replies[1])), (None, -32600))
        self.assertIn("4194304", replies[1]["error"]["message"])
        self.assertEqual(replies[2]["result"], {})

    def test_tool_errors_name_path_value_and_rule(self):
        rc, replies, _ = self.session(
            init(),
            call(1, "should_review", {"task_type": "api", "artifact_id": 5, "extra": True}),
            call(2, "get_context", {"dimensions": ["speed"]}),
            call(3, "record_outcome", {"bead_id": "b1", "duration_ms": -1, "error_count": 0,
                                       "retry_count": 0, "success": True}))
        self.assertEqual(rc, EXIT_OK)
        errors = [r["result"]["structuredContent"]["errors"] for r in replies[1:]]
        self.assertTrue(all(r["result"]["isError"] for r in replies[1:]))
        self.assertIn({"path": "artifact_id", "message": "5 is not a non-empty string"}, errors[0])
        self.assertIn({"path": "extra",
                       "message": "unknown field (not part of should_review arguments)"},
                      errors[0])
        self.assertEqual(errors[1][0]["path"], "dimensions[0]")
        self.assertIn('"speed" is not one of code-quality', errors[1][0]["message"])
        self.assertEqual(errors[2], [{"path": "duration_ms", "message": "-1 is below the minimum 0"}])

    def test_errors_resolve_and_the_error_context_follows(self):
        rc, replies, _ = self.session(
            init(),
            call(1, "record_error", {"bead_id": "bd-7", "error_type": "timeout",
                                     "message": "npm install timed out"}))
        self.assertEqual(rc, EXIT_OK)
        error_id = replies[1]["result"]["structuredContent"]["id"]
        rc, replies, _ = self.session(
            init(),
            call(1, "get_error_context", {"bead_id": "bd-7"}),
            call(2, "resolve_error", {"bead_id": "bd-7", "error_id": error_id,
                                      "resolution": "retried with a longer timeout"}),
            call(3, "get_error_context", {"bead_id": "bd-7"}))
        self.assertEqual(rc, EXIT_OK)
        before = replies[1]["result"]["structuredContent"]
        self.assertEqual((before["total"], before["unresolved"]), (1, 1))
        self.assertIn("npm install timed out", before["context"])
        self.assertFalse(replies[2]["result"]["isError"], replies[2])
        after = replies[3]["result"]["structuredContent"]
        self.assertEqual(after["unresolved"], 0)
        errors = self.stored("error")
        self.assertEqual(errors[1]["resolves"], error_id)

    def test_eof_mid_session_exits_cleanly_with_acknowledged_events_durable(self):
        rc, replies, err = self.session(
            init(), call(1, "record_work", WORK),
            b'{"jsonrpc":"2.0","id":2,"method":"tools/ca')  # cut off: no newline, then EOF
        self.assertEqual(rc, EXIT_OK, err)
        self.assertTrue(replies[1]["result"]["structuredContent"]["stored"])
        self.assertEqual(self.error_code(replies[2]), -32700)
        self.assertEqual([w["workProduct"]["id"] for w in self.stored("work")], ["raw-work-1"])

    def test_self_check_answers_as_kaizen_check_on_the_same_bytes(self):
        # 10 rejections about missing retries make rule-retries active (tests/test_check.py).
        r = self.kz("import", "-", "--home", self.home, "--now", NOW,
                    input=jsonl(*[rejection(d) for d in range(1, 11)]))
        self.assertEqual(r.rc, EXIT_OK, r)
        for text, cli_rc in ((UNSAFE_CLIENT, EXIT_REJECTED), (FIXED_CLIENT, EXIT_OK)):
            path = self.write("client.ts", text)
            cli = self.kz("check", path, "--task-type", TASK, "--no-record", "--json",
                          "--home", self.home, "--now", NOW)
            self.assertEqual(cli.rc, cli_rc, cli)
            expected = strict_loads(cli.out_bytes)
            rc, replies, _ = self.session(
                init(), call(1, "self_check", {"task_type": TASK,
                                               "files": [{"path": path, "text": text}]}))
            self.assertEqual(rc, EXIT_OK)
            got = replies[1]["result"]["structuredContent"]
            for key in ("workEventId", "recordNote"):
                expected.pop(key)
                got.pop(key)
            self.assertEqual(got, expected)
        self.assertEqual([e for e in self.stored("work")], [])  # record defaults to false

    def test_self_check_asks_one_second_pass_then_lets_the_same_files_through(self):
        # 3 rejections: no active rule yet, so clean work rests on a rejecting history (< 60%).
        r = self.kz("import", "-", "--home", self.home, "--now", NOW,
                    input=jsonl(*[rejection(d) for d in range(1, 4)]))
        self.assertEqual(r.rc, EXIT_OK, r)
        args = {"task_type": TASK, "record": True,
                "files": [{"path": "src/client.ts", "text": FIXED_CLIENT}]}
        rc, replies, _ = self.session(init(), call(1, "self_check", args),
                                      call(2, "self_check", args))
        self.assertEqual(rc, EXIT_OK)
        first = replies[1]["result"]["structuredContent"]
        second = replies[2]["result"]["structuredContent"]
        self.assertEqual((first["decidedBy"], first["readyForReview"]), ("second_pass_due", False))
        self.assertIn("second self-review pass due (calibrated confidence", first["reasons"][0])
        self.assertEqual((second["decidedBy"], second["readyForReview"], second["checkedBefore"]),
                         ("second_pass_done", True, True))
        self.assertEqual(len(self.stored("work")), 1)  # the first call's prediction, once

    def test_loop_decide_renormalizes_and_refuses_an_iteration_with_no_metric(self):
        rc, replies, _ = self.session(
            init(),
            call(1, "loop_decide", {"iterations": [
                {"iteration": 1, "metrics": {"test_coverage": 0.8, "tests_passing": True}}]}),
            call(2, "loop_decide", {"iterations": [
                {"iteration": 1, "metrics": {"test_count": 40}}]}))
        self.assertEqual(rc, EXIT_OK)
        halted = replies[1]["result"]["structuredContent"]
        self.assertEqual((halted["action"], halted["reason"], halted["q_halt"]),
                         ("HALT", "quality_sufficient", 0.909091))
        self.assertEqual(halted["missing"], ["security_score", "code_quality_score",
                                             "doc_coverage", "type_coverage"])
        refused = replies[2]["result"]
        self.assertTrue(refused["isError"], refused)
        self.assertIn("iterations[0].metrics: no metric Q(HALT) weighs; missing: test_coverage, "
                      "tests_passing, security_score", refused["content"][0]["text"])

    def test_resources_match_kaizen_render(self):
        self.assertEqual(self.session(init(), call(1, "record_work", WORK))[0], EXIT_OK)
        rc, replies, _ = self.session(
            init(), {"jsonrpc": "2.0", "id": 1, "method": "resources/list"})
        uris = [r["uri"] for r in replies[1]["result"]["resources"]]
        self.assertTrue(uris)
        memory = [u for u in uris if u.startswith("kaizen://memory/")]
        self.assertTrue(memory, uris)
        rc, replies, _ = self.session(
            init(), {"jsonrpc": "2.0", "id": 1, "method": "resources/read",
                     "params": {"uri": memory[0]}},
            {"jsonrpc": "2.0", "id": 2, "method": "resources/read",
             "params": {"uri": "kaizen://memory/none.md"}})
        text = replies[1]["result"]["contents"][0]["text"]
        self.assertEqual((replies[2]["id"], self.error_code(replies[2])), (2, -32602))
        r = self.kz("render", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        with open(self.hpath(memory[0][len("kaizen://"):]), encoding="utf-8") as f:
            self.assertEqual(f.read(), text)


if __name__ == "__main__":
    unittest.main()
