"""Automatic signals feed learning (seed 001 tiers 1 and 2): a real git repository where an agent's
commits were rewritten and reverted by a person, scanned; what `analyze`, `context`, `hints` and
the dashboard then say, the corrections the rewrite became, and that a second scan changes nothing.
"""

import json
import os
import unittest

from kzlib import EXIT_OK, NOW, KaizenTest, jsonl, strict_loads, work_product
from test_git_scan import ALICE, CLAUDE, Repo

API_BASE = "export const base = 1;\n"
# The agent's fetch helper: the complaints a TypeScript reviewer makes most.
API_AGENT = API_BASE + """export async function getUser(id: any): Promise<any> {
  const res = await fetch(`/users/${id}`);
  return (await res.json()) as any;
}
"""
# The person's rewrite of exactly those lines.
API_HUMAN = API_BASE + """export async function getUser(id: string): Promise<User> {
  const res = await fetch(`/users/${id}`);
  if (!res.ok) throw new Error(`GET /users/${id}: ${res.status}`);
  return (await res.json()) as User;
}
"""
RETRY = "export function retry(fn: () => Promise<unknown>) {\n  return fn().catch(() => fn());\n}\n"


class SignalsFeedLearningTest(KaizenTest):

    def setUp(self):
        super().setUp()
        self.repo = Repo(self.path("web"))
        r = self.repo
        r.commit({"api.ts": API_BASE, "notes.md": "notes\n"}, ALICE, "2025-12-01T09:00:00Z",
                 "base")
        self.a1 = r.commit({"api.ts": API_AGENT}, CLAUDE, "2025-12-02T10:00:00Z",
                           "feat: getUser")
        self.h1 = r.commit({"api.ts": API_HUMAN}, ALICE, "2025-12-03T10:00:00Z",
                           "fix: type getUser, check res.ok")
        self.a2 = r.commit({"retry.ts": RETRY}, CLAUDE, "2025-12-04T10:00:00Z",
                           "feat: retry helper")
        r.git("revert", "--no-edit", self.a2, at="2025-12-05T10:00:00Z")
        self.a3 = r.commit({"readme.md": "# web\n\nHow to run it.\n"}, CLAUDE,
                           "2025-12-06T10:00:00Z", "docs: readme")
        # Ten more commits close the agent commits' rewrite windows (10 commits).
        for i in range(10):
            r.commit({"notes.md": "notes\n" * (i + 2)}, ALICE, f"2025-12-{10 + i}T09:00:00Z",
                     f"notes {i}")
        # The agent recorded each commit as work for review, and a person approved the first two.
        events = []
        for n, sha in enumerate([self.a1, self.a2, self.a3]):
            wp = work_product(art_id=f"web-{n}", version=sha)
            wp["bubaConfidence"] = 0.8
            events.append({"kind": "work", "timestamp": f"2025-12-0{2 + 2 * n}T10:30:00Z",
                           "workProduct": wp, "sessionId": f"s{n}", "mcpServerType": "ts-api"})
        for n in range(2):
            events.append({"kind": "feedback", "timestamp": f"2025-12-0{2 + 2 * n}T11:00:00Z",
                           "sessionId": f"s{n}", "modalId": f"m{n}",
                           "workProduct": {"id": f"web-{n}"}, "pipelineStage": "review",
                           "reviewerId": "dana", "decision": {"decision": "approved"},
                           "meta": {"timeToDecisionMs": 30000}})
        r_import = self.import_("-", input=jsonl(*events))
        self.assertEqual(r_import.rc, EXIT_OK, r_import)

    def scan(self):
        r = self.kz("git", "scan", self.repo.path, "--home", self.home, "--now", NOW, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        return strict_loads(r.out)

    def analysis(self):
        r = self.kz("analyze", "--json", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r.out

    def test_revert_and_rewrite_are_failed_outcomes_of_the_work_task_type(self):
        self.scan()
        a = strict_loads(self.analysis())
        ts = a["autonomy"]["ts-api"]
        self.assertEqual(ts["failedOutcomes"], 2, ts)  # a2 reverted, a1 rewritten
        self.assertEqual((ts["approvals"], ts["total"]), (2, 4), ts)
        # Calibration sees both: two approved pairs and two failed ones at 0.8.
        self.assertEqual(a["calibration"]["buckets"][8]["n"], 4, a["calibration"])
        s = a["signals"]
        self.assertEqual(s["revertRate"]["n"], 3, s)
        self.assertAlmostEqual(s["revertRate"]["value"], 1 / 3, places=6)
        # a1 rewritten, a3 measured untouched once its window closed; a2 was reverted instead.
        self.assertEqual(s["humanEditAfterAgentRate"]["n"], 2, s)
        self.assertEqual(s["humanEditAfterAgentRate"]["value"], 0.5, s)
        self.assertEqual(s["byTaskType"]["ts-api"]["failedOutcomes"], 2, s)
        whats = {(f["work"], f["what"]) for f in s["recentFailures"]}
        self.assertIn((self.a2, "reverted"), whats)
        self.assertTrue(any(w == self.a1 and what.startswith("a person rewrote")
                            for w, what in whats), whats)
        self.assertEqual([m["month"] for m in s["revertRate"]["trend"]],
                         ["2025-11", "2025-12", "2026-01"])

    def test_the_rewrite_is_a_correction_event_per_replaced_run_of_lines(self):
        self.scan()
        r = self.export("--kind", "correction")
        self.assertEqual(r.rc, EXIT_OK, r)
        corrections = [strict_loads(l) for l in r.lines]
        self.assertEqual(len(corrections), 2, corrections)
        signature, ret = corrections
        self.assertEqual(signature["original"],
                         "export async function getUser(id: any): Promise<any> {")
        self.assertEqual(signature["corrected"],
                         "export async function getUser(id: string): Promise<User> {")
        self.assertEqual(ret["original"], "  return (await res.json()) as any;")
        self.assertEqual(ret["corrected"],
                         "  if (!res.ok) throw new Error(`GET /users/${id}: ${res.status}`);\n"
                         "  return (await res.json()) as User;")
        for c, lines in ((signature, (2, 2)), (ret, (4, 4))):
            self.assertEqual(c["correction_method"], "human_edit")
            ctx = c["context"]
            self.assertEqual((ctx["file"], ctx["agent_commit"], ctx["human_commit"],
                              ctx["project"]), ("api.ts", self.a1, self.h1, "web"))
            self.assertEqual((ctx["line_start"], ctx["line_end"]), lines)
            self.assertEqual(c["user_id"], "Alice Example")
            self.assertEqual(c["session_id"], "git:" + self.a1[:12])
            self.assertIn("_proposed_type", c)  # ingest classified it

    def test_context_hints_and_dashboard_tell_the_agent(self):
        self.scan()
        r = self.kz("context", "--json", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        after = strict_loads(r.out)["afterReview"]
        self.assertIn("1 of 3 agent commits were reverted (33%).", after)
        self.assertTrue(any(self.a2[:12] in line and line.endswith("reverted.")
                            for line in after), after)
        hints = self.path("AGENTS.md")
        r = self.kz("hints", hints, "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        with open(hints) as f:
            text = f.read()
        self.assertIn("## After Review (git, CI, ratings)", text)
        self.assertIn(f"{self.a2[:12]} (ts-api): reverted.", text)
        r = self.kz("dashboard", "--json", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        rows = {k["key"]: k for k in strict_loads(r.out)["signals"]}
        self.assertEqual(rows["revertRate"]["text"][1], "33.3%", rows["revertRate"])
        r = self.kz("dashboard", "--home", self.home, "--now", NOW, "--color", "never")
        self.assertIn("Revert Rate", r.out)

    def test_a_second_scan_changes_nothing(self):
        first = self.scan()
        self.assertEqual(first["corrections"]["new"], 2, first["corrections"])
        before = self.analysis()
        lines = self.raw_bytes()
        again = self.scan()
        self.assertEqual(again["total"]["new"], 0, again["total"])
        self.assertEqual(again["total"]["already_recorded"], first["total"]["found"])
        self.assertEqual(self.raw_bytes(), lines)
        self.assertEqual(self.analysis(), before)

    def test_ratings_and_ci_are_judgements_of_their_task(self):
        self.scan()
        r = self.kz("reward", "ci", "--exit-code", "1", "--commit", self.a3, "--home", self.home,
                    "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        r = self.kz("rate", "--task", "web-2", "--score", "2", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        s = strict_loads(self.analysis())["signals"]
        self.assertEqual((s["ciPassRate"]["n"], s["ciPassRate"]["value"]), (1, 0), s)
        self.assertEqual((s["ratings"]["n"], s["ratings"]["value"]), (1, 2), s)
        # Both judged ts-api work: the CI run through its commit, the rating through its task.
        self.assertEqual(s["byTaskType"]["ts-api"]["ciRuns"], 1, s)
        self.assertEqual(s["byTaskType"]["ts-api"]["meanRating"], 2, s)


if __name__ == "__main__":
    unittest.main()
