"""The agent's question bank (issue 31 item 1, seed 001 tier 3) through the binary: `kaizen ask`,
`kaizen answer`, the MCP tools next_question and record_answer, and what the agent is told of the
answers (context, hints)."""

import json
import os
import subprocess
import unittest

from kzlib import (BIN, EXIT_OK, EXIT_USAGE, KaizenTest, feedback_event, jsonl, outcome_event,
                   strict_loads)

NOW = "2025-12-20T18:00:00Z"


class QuestionsTest(KaizenTest):
    def ask(self, *flags, now=NOW):
        r = self.kz("ask", "--json", "--home", self.home, "--now", now, *flags)
        self.assertEqual(r.rc, EXIT_OK, r)
        return strict_loads(r.out)

    def answer(self, qid, words, *flags):
        r = self.kz("answer", qid, words, "--home", self.home, "--now", NOW, *flags)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def import_ok(self, *events):
        r = self.import_("-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)

    def test_seed_001s_questions_one_a_session_none_repeated_until_all_were_asked(self):
        seen = []
        for i in range(16):
            q = self.ask("--session", f"s{i}")["question"]
            seen.append(q["id"])
        self.assertEqual(len(set(seen[:15])), 15)
        self.assertEqual(seen[15], seen[0])
        self.assertEqual(self.ask("--session", "s3"),
                         {"question": None,
                          "why": "a question was asked in this session already"})
        asks = [e for e in self.stored_events() if e.get("action") == "ask"]
        self.assertEqual(len(asks), 16)
        self.assertEqual(asks[0]["question"],
                         "Do you prefer detailed explanations or concise answers?")

    def test_no_question_while_the_reviewer_is_fatigued(self):
        # jake's sixth review in a row, ten minutes ago (meta.sessionFatigue is computed).
        self.import_ok(*[feedback_event(session="rev-1", reviewerId="jake",
                                        timestamp=f"2025-12-20T17:{40 + i:02d}:00Z")
                         for i in range(11)])
        tired = self.ask("--reviewer", "jake", "--session", "a1")
        self.assertIsNone(tired["question"])
        self.assertIn("fatigued", tired["why"])
        later = self.ask("--reviewer", "jake", "--session", "a1", now="2025-12-20T20:00:00Z")
        self.assertIsNotNone(later["question"])

    def test_after_a_failed_task_the_friction_question(self):
        self.import_ok(outcome_event(success=False, timestamp="2025-12-20T17:00:00Z"))
        q = self.ask("--session", "s1")
        self.assertEqual(q["question"], {"id": "friction", "category": "friction",
                                         "text": "What would have helped?"})
        self.assertEqual(q["why"], "after a failed task")
        self.assertNotEqual(self.ask("--session", "s2")["question"]["id"], "friction")

    def test_answers_reach_the_agents_context_and_hints(self):
        q = self.ask("--session", "s1")["question"]
        self.answer(q["id"], "Concise, bullet points; skip the preamble", "--reviewer", "jake")
        context = strict_loads(self.kz("context", "--json", "--home", self.home, "--now",
                                       NOW).out)
        line = next(p for p in context["preferences"] if p.startswith("Asked"))
        self.assertIn("Do you prefer detailed explanations or concise answers?", line)
        self.assertIn("Concise, bullet points; skip the preamble", line)
        hints = self.path("AGENTS.md")
        self.kz("hints", hints, "--home", self.home, "--now", NOW)
        text = open(hints).read()
        self.assertIn("## How People Like to Work (their answers to your questions)", text)
        self.assertIn("Concise, bullet points", text)

    def test_a_configured_bank_replaces_the_default_and_a_bad_one_is_named(self):
        os.makedirs(self.hpath("config"), exist_ok=True)
        with open(self.hpath("config", "questions.json"), "w") as f:
            json.dump({"questions": [{"id": "naming", "category": "code-preferences",
                                      "text": "Long descriptive names, or short ones?"}]}, f)
        self.assertEqual(self.ask("--session", "s1")["question"]["id"], "naming")
        self.assertEqual(self.ask("--session", "s2")["question"]["id"], "naming")  # round 2
        r = self.kz("answer", "explanations", "detailed", "--home", self.home)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("one of naming, friction", r.err)
        with open(self.hpath("config", "questions.json"), "w") as f:
            json.dump({"questions": [{"id": "Bad Id", "text": "?"}]}, f)
        r = self.kz("ask", "--home", self.home, "--now", NOW)
        self.assertNotEqual(r.rc, EXIT_OK, r)
        self.assertIn("questions.json: questions[0].id: must be 1-64 bytes", r.err)

    def test_the_mcp_tools_ask_once_a_session_and_record_the_answer(self):
        lines = [
            {"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "t", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
             "params": {"name": "next_question", "arguments": {"session_id": "m1"}}},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": "next_question", "arguments": {"session_id": "m1"}}},
            {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
             "params": {"name": "record_answer",
                        "arguments": {"question_id": "explanations", "answer": "short",
                                      "reviewer": "ana", "session_id": "m1"}}},
        ]
        proc = subprocess.run([BIN, "mcp", "--home", self.home, "--now", NOW],
                              input="\n".join(json.dumps(l) for l in lines) + "\n",
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        replies = {r["id"]: r for r in map(json.loads, proc.stdout.splitlines())}
        first = replies[1]["result"]["structuredContent"]
        self.assertEqual(first["question"]["id"], "explanations")
        self.assertIsNone(replies[2]["result"]["structuredContent"]["question"])
        self.assertTrue(replies[3]["result"]["structuredContent"]["stored"])
        [answer] = [e for e in self.stored_events() if e.get("action") == "answer"]
        self.assertEqual((answer["note"], answer["reviewerId"]), ("short", "ana"))


if __name__ == "__main__":
    unittest.main()
