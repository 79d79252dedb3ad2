"""`kaizen export`, `kaizen stats`, `kaizen gen` and `kaizen demo`."""

import collections
import json
import os
import re
import subprocess
import unittest

from kzlib import (EXIT_OK, EXIT_USAGE, GEN_KINDS, KINDS, KaizenTest, jsonl, kaizen, outcome_event,
                   strict_loads)

_GEN = {}


def gen_bytes(events, seed):
    key = (events, seed)
    if key not in _GEN:
        r = kaizen("gen", "--events", events, "--seed", seed)
        assert r.rc == 0, r
        _GEN[key] = r.out_bytes
    return _GEN[key]


class Gen(KaizenTest):

    def test_same_seed_gives_the_same_bytes(self):
        a = kaizen("gen", "--events", 2000, "--seed", 42)
        b = kaizen("gen", "--events", 2000, "--seed", 42)
        self.assertEqual(a.rc, EXIT_OK, a)
        self.assertEqual(a.out_bytes, b.out_bytes)
        self.assertGreater(len(a.out_bytes), 0)

    def test_out_file_holds_the_same_bytes_as_stdout(self):
        out = self.path("gen.jsonl")
        r = kaizen("gen", "--events", 500, "--seed", 9, "--out", out)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.out, "")
        self.assertEqual(open(out, "rb").read(), gen_bytes(500, 9))

    def test_start_moves_the_history_and_a_bad_one_is_refused_naming_it(self):
        r = kaizen("gen", "--events", 300, "--seed", 3, "--start", "2026-01-05T00:00:00Z")
        self.assertEqual(r.rc, EXIT_OK, r)
        stamps = [json.loads(line)["timestamp"] for line in r.out.splitlines()]
        self.assertTrue(all("2026-01-05" <= t < "2026-04-06" for t in stamps), stamps[:3])
        self.assertNotEqual(r.out_bytes, gen_bytes(300, 3))  # the default starts 2025-07-01
        bad = kaizen("gen", "--events", 10, "--start", "last tuesday")
        self.assertEqual(bad.rc, EXIT_USAGE, bad)
        self.assertIn('--start "last tuesday"', bad.err)
        self.assertEqual(bad.out, "")

    def test_different_seeds_give_different_histories(self):
        self.assertNotEqual(gen_bytes(500, 1), gen_bytes(500, 2))

    def test_gen_prints_exactly_the_requested_number_of_events(self):
        for n in (0, 1, 37, 3000):
            with self.subTest(events=n):
                data = gen_bytes(n, 5)
                self.assertEqual(data.count(b"\n"), n)
                self.assertTrue(data == b"" or data.endswith(b"\n"))

    def test_gen_lines_are_strict_json_of_every_kind(self):
        kinds = collections.Counter()
        ids = set()
        for line in gen_bytes(3000, 5).split(b"\n")[:-1]:
            e = strict_loads(line)
            kinds[e["kind"]] += 1
            ids.add(e["id"])
        self.assertEqual(set(kinds), set(GEN_KINDS), kinds)
        self.assertEqual(len(ids), 3000)

    def test_gen_3000_events_import_with_none_rejected(self):
        p = self.write("gen.jsonl", gen_bytes(3000, 5))
        r = self.import_(p, "--json")
        self.assertEqual(r.rc, EXIT_OK, r.err[:3000])
        summary = json.loads(r.lines[-1])["summary"]
        self.assertEqual((summary["stored"], summary["rejected"]), (3000, 0))
        self.assertEqual(len(self.raw_lines()), 3000)
        self.assertEqual(self.verify().rc, EXIT_OK)

    def test_gen_with_other_seeds_imports_with_none_rejected(self):
        for seed in (1, 2, 3):
            with self.subTest(seed=seed):
                home = self.path(f"home-{seed}")
                r = kaizen("import", "-", "--home", home, "--now", "2026-01-01T00:00:00Z",
                           input=gen_bytes(1000, seed))
                self.assertEqual(r.rc, EXIT_OK, r)
                self.assertIn("imported 1000 events, rejected 0", r.out)


class ExportAndStats(KaizenTest):

    @classmethod
    def setUpClass(cls):
        cls.history = gen_bytes(3000, 5)

    def setUp(self):
        super().setUp()
        r = self.import_("-", input=self.history)
        self.assertEqual(r.rc, EXIT_OK, r)

    def test_export_of_everything_is_the_raw_files_in_day_order(self):
        r = self.export()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.err, "")
        names = [os.path.basename(p) for p in self.raw_files()]
        self.assertEqual(names, sorted(names))
        self.assertGreater(len(names), 30)
        self.assertEqual(r.out_bytes, self.raw_bytes())

    def test_export_kind_feedback_prints_only_feedback(self):
        r = self.export("--kind", "feedback")
        self.assertEqual(r.rc, EXIT_OK, r)
        lines = r.out_bytes.split(b"\n")[:-1]
        expected = [l for l in self.raw_lines() if strict_loads(l)["kind"] == "feedback"]
        self.assertGreater(len(expected), 0)
        self.assertEqual(lines, expected)

    def test_export_kind_for_every_kind_partitions_the_log(self):
        total = 0
        for kind in GEN_KINDS:
            with self.subTest(kind=kind):
                r = self.export("--kind", kind)
                self.assertEqual(r.rc, EXIT_OK, r)
                events = [strict_loads(l) for l in r.out_bytes.split(b"\n")[:-1]]
                self.assertGreater(len(events), 0)
                self.assertTrue(all(e["kind"] == kind for e in events))
                total += len(events)
        self.assertEqual(total, 3000)

    def test_export_since_keeps_events_at_or_after_the_time(self):
        events = self.stored_events()
        cut = sorted(e["timestamp"] for e in events)[1500]
        r = self.export("--since", cut)
        self.assertEqual(r.rc, EXIT_OK, r)
        got = [strict_loads(l) for l in r.out_bytes.split(b"\n")[:-1]]
        self.assertTrue(all(e["timestamp"] >= cut for e in got))
        self.assertEqual(len(got), sum(1 for e in events if e["timestamp"] >= cut))
        self.assertGreater(len(got), 0)
        self.assertLess(len(got), 3000)

    def test_export_since_a_day_means_midnight_utc(self):
        a = self.export("--since", "2025-08-15")
        b = self.export("--since", "2025-08-15T00:00:00Z")
        c = self.export("--since", "2025-08-15T02:00:00+02:00")
        self.assertEqual(a.rc, EXIT_OK, a)
        self.assertEqual(a.out_bytes, b.out_bytes)
        self.assertEqual(a.out_bytes, c.out_bytes)
        got = [strict_loads(l) for l in a.out_bytes.split(b"\n")[:-1]]
        self.assertTrue(got)
        self.assertTrue(all(e["timestamp"] >= "2025-08-15T00:00:00.000Z" for e in got))
        expected = sum(1 for e in self.stored_events()
                       if e["timestamp"] >= "2025-08-15T00:00:00.000Z")
        self.assertEqual(len(got), expected)

    def test_export_kind_and_since_combine(self):
        r = self.export("--kind", "reward", "--since", "2025-09-01")
        self.assertEqual(r.rc, EXIT_OK, r)
        got = [strict_loads(l) for l in r.out_bytes.split(b"\n")[:-1]]
        expected = [e for e in self.stored_events()
                    if e["kind"] == "reward" and e["timestamp"] >= "2025-09-01"]
        self.assertEqual([e["id"] for e in got], [e["id"] for e in expected])

    def test_export_since_after_the_last_event_is_empty(self):
        r = self.export("--since", "2025-12-31")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.out_bytes, b"")

    def test_export_with_bad_arguments_is_a_usage_error(self):
        for flags in (["--kind", "bogus"], ["--since", "yesterday"], ["--since", "2025-13-01"]):
            with self.subTest(flags=flags):
                r = self.export(*flags)
                self.assertEqual(r.rc, EXIT_USAGE, r)
                self.assertEqual(r.out, "")

    def test_stats_json_counts_every_stored_line(self):
        r = self.kz("stats", "--json", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        s = json.loads(r.out)
        lines = self.raw_lines()
        self.assertEqual(s["events"], len(lines))
        self.assertEqual(s["rawFiles"], len(self.raw_files()))
        self.assertEqual(s["rawBytes"], sum(os.path.getsize(p) for p in self.raw_files()))
        by_kind = collections.Counter(strict_loads(l)["kind"] for l in lines)
        self.assertEqual(s["allTime"]["events"], dict(by_kind))

    def test_stats_counts_new_events_after_record(self):
        self.kz("stats", "--json", "--home", self.home)
        self.record_ok("outcome", outcome_event())
        s = json.loads(self.kz("stats", "--json", "--home", self.home).out)
        self.assertEqual(s["events"], 3001)

    def test_stats_text_names_the_event_count(self):
        r = self.kz("stats", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertRegex(r.out, r"(?m)^events\s+3000 \(")


class ExportStatsEdges(KaizenTest):

    def test_export_of_an_empty_home_prints_nothing(self):
        r = self.export()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.out_bytes, b"")

    def test_reading_verbs_on_a_home_that_does_not_exist_answer_empty_and_create_nothing(self):
        for verb in (["stats", "--json"], ["stats"], ["export"], ["analyze", "--json"],
                     ["analyze", "--only", "gates"], ["rules"], ["corrections"], ["dashboard"],
                     ["context"]):
            with self.subTest(verb=verb):
                r = self.kz(*verb, "--home", self.home)
                self.assertEqual(r.rc, EXIT_OK, r)
                self.assertFalse(os.path.exists(self.home), "the verb created the home")
        self.assertEqual(json.loads(self.kz("stats", "--json", "--home", self.home).out)["events"],
                         0)
        self.assertEqual(self.kz("export", "--home", self.home).out_bytes, b"")

    def test_export_prints_stored_lines_byte_exact(self):
        text = "naïve — 日本 🚀 \"q\" \\ \t"
        self.record_ok("outcome", outcome_event(description=text))
        r = self.export()
        self.assertEqual(r.out_bytes, self.raw_bytes())
        self.assertEqual(strict_loads(r.out_bytes.split(b"\n")[0])["description"], text)

    def test_stats_json_is_valid_json_for_any_home_path(self):
        home = self.path('odd "quoted" \\ home')
        r = kaizen("record", "outcome", "--home", home, "--now", "2026-01-01T00:00:00Z",
                   input=jsonl(outcome_event()))
        self.assertEqual(r.rc, EXIT_OK, r)
        r = kaizen("stats", "--json", "--home", home)
        self.assertEqual(r.rc, EXIT_OK, r)
        try:
            s = json.loads(r.out)
        except ValueError as e:
            self.fail(f"stats --json printed invalid JSON ({e}): {r.out[:300]}")
        self.assertEqual(s["home"], home)
        self.assertEqual(s["events"], 1)

    def test_stats_of_an_empty_home(self):
        r = self.kz("stats", "--json", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(json.loads(r.out)["events"], 0)


class Demo(KaizenTest):

    def test_demo_builds_a_verified_home_and_is_rerunnable(self):
        r = self.kz("demo", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("imported 5000 events, rejected 0", r.out)
        self.assertIn("ok: every stored line is a valid event", r.out)
        # The generated history, then what git scan read in the demo project's commits.
        scanned = int(re.search(r"^(\d+) new, 0 already recorded$", r.out, re.M).group(1))
        self.assertGreater(scanned, 0, r.out)
        self.assertEqual(len(self.raw_lines()), 5000 + scanned)
        v = self.kz("verify", "--home", self.home)
        self.assertEqual(v.rc, EXIT_OK, v)
        again = self.kz("demo", "--home", self.home)
        self.assertEqual(again.rc, EXIT_OK, again)
        self.assertIn("skipping generation and import", again.out)
        self.assertEqual(len(self.raw_lines()), 5000 + scanned)

    def test_the_demo_home_is_alive_today_and_its_queue_has_diffs_in_a_git_project(self):
        r = self.kz("demo", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        # The history ends now: the dashboard, on the system clock, has figures in its last window.
        d = self.kz("dashboard", "--json", "--home", self.home)
        self.assertEqual(d.rc, EXIT_OK, d)
        kpis = {k["key"]: k for k in json.loads(d.out)["kpis"]}
        for key in ("approvalRate", "avgQualityScore", "timeToDecisionSeconds"):
            self.assertIsNotNone(kpis[key]["current"], key)
        # The automatic signals git scan read from the agent's commits in the demo project, the
        # last of them in this calendar month: reverted once, and a person's rewrites.
        signals = {k["key"]: k for k in json.loads(d.out)["signals"]}
        for key in ("signalCoverage", "revertRate", "humanEditAfterAgentRate"):
            self.assertIsNotNone(signals[key]["current"], key)
        self.assertGreater(max(v for v in signals["revertRate"]["values"] if v is not None), 0)
        self.assertGreater(signals["humanEditAfterAgentRate"]["current"], 0)
        self.assertNotIn("no feedback events for", d.out)
        # The pending work's files are in a git repository: committed as they were, the agent's
        # change in the working tree, so the review pages read a real diff from git.
        project = os.path.join(self.home, "demo-project")
        status = subprocess.run(["git", "-C", project, "status", "--porcelain"], check=True,
                                capture_output=True, text=True).stdout.splitlines()
        changed = {line[3:] for line in status}
        self.assertTrue(changed, "no change left in the working tree")
        self.assertTrue(all(line.startswith(" M ") for line in status), status)
        q = self.kz("review", "--json", "--home", self.home)
        self.assertEqual(q.rc, EXIT_OK, q)
        queued = {i["workProduct"]["path"] for i in json.loads(q.out)["items"]
                  if "path" in i["workProduct"]}
        self.assertTrue(changed <= queued, (changed, queued))
        diff = subprocess.run(["git", "-C", project, "diff"], check=True, capture_output=True,
                              text=True).stdout
        self.assertIn("+", diff)


if __name__ == "__main__":
    unittest.main()
