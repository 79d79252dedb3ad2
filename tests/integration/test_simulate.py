"""`kaizen simulate`: a synthetic agent and reviewer show that kaizen's learning works."""

import json
import re
import unittest

from kzlib import EXIT_OK, EXIT_USAGE, KaizenTest, kaizen, strict_loads

_RUNS = {}


def simulate(*args):
    """`kaizen simulate ARGS`, run once per distinct ARGS for the whole module."""
    key = tuple(str(a) for a in args)
    if key not in _RUNS:
        _RUNS[key] = kaizen("simulate", *key)
    return _RUNS[key]


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


def weeks(*args):
    r = simulate("--json", *args)
    assert r.rc == EXIT_OK, r
    return strict_loads(r.out_bytes)["weeks"]


class Simulate(KaizenTest):

    def test_prints_one_row_per_week_and_a_summary(self):
        r = simulate()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.err, "")
        rows = [l for l in r.lines if re.match(r"^\s+\d+\s+\d{4}-\d{2}-\d{2}\s", l)]
        self.assertEqual(len(rows), 12, r)  # 84 days from a Monday: 12 ISO weeks
        self.assertTrue(rows[0].split()[1] == "2025-01-06", rows[0])
        self.assertTrue(rows[-1].split()[1] == "2025-03-24", rows[-1])
        self.assertIn("seed 1, 84 days", r.lines[0])
        self.assertIn("recovered", r.lines[-1])

    def test_json_has_the_documented_shape(self):
        r = simulate("--json", "--seed", 3, "--days", 10)
        self.assertEqual(r.rc, EXIT_OK, r)
        doc = strict_loads(r.out_bytes)
        self.assertEqual((doc["seed"], doc["days"], doc["learning"]), (3, 10, True))
        self.assertEqual(len(doc["weeks"]), 2)
        self.assertEqual(list(doc["weeks"][0]),
                         ["week", "from", "submitted", "reviewed", "approvalRate",
                          "predictionError", "autoApproveRate", "recovered",
                          "hiddenPreferences"])
        self.assertEqual([w["from"] for w in doc["weeks"]], ["2025-01-06", "2025-01-13"])
        for w in doc["weeks"]:
            self.assertLessEqual(w["reviewed"], w["submitted"])
            self.assertLessEqual(w["recovered"], w["hiddenPreferences"])
        self.assertIsInstance(doc["recovered"], list)
        for key in ("events", "submitted", "reviewed", "approvalRate", "predictionError",
                    "autoApproveRate", "gates", "flaggedPatterns", "autonomy"):
            self.assertIn(key, doc["final"])

    def test_learning_improves_approval_by_15_points_first_week_to_last(self):
        w = weeks()
        self.assertEqual(len(w), 12)
        self.assertGreaterEqual(w[-1]["approvalRate"] - w[0]["approvalRate"], 0.15, w)
        self.assertLess(w[-1]["predictionError"], w[0]["predictionError"], w)
        self.assertGreater(w[-1]["autoApproveRate"], 0, w)
        self.assertGreater(w[-1]["recovered"], 0, w)

    def test_without_learning_approval_stays_within_10_points(self):
        w = weeks("--no-learning")
        self.assertEqual(len(w), 12)
        self.assertLessEqual(abs(w[-1]["approvalRate"] - w[0]["approvalRate"]), 0.10, w)
        self.assertEqual([x["autoApproveRate"] for x in w], [0] * 12)

    def test_same_seed_gives_the_same_bytes(self):
        a_out, b_out = self.path("a.jsonl"), self.path("b.jsonl")
        a = kaizen("simulate", "--seed", 7, "--days", 21, "--out", a_out)
        b = kaizen("simulate", "--seed", 7, "--days", 21, "--out", b_out)
        self.assertEqual(a.rc, EXIT_OK, a)
        self.assertEqual(a.out_bytes, b.out_bytes)
        self.assertEqual(read_bytes(a_out), read_bytes(b_out))
        c = kaizen("simulate", "--seed", 8, "--days", 21)
        self.assertNotEqual(a.out_bytes, c.out_bytes)

    def test_out_file_imports_cleanly_and_is_stored_as_written(self):
        out = self.path("sim.jsonl")
        r = kaizen("simulate", "--days", 28, "--json", "--out", out)
        self.assertEqual(r.rc, EXIT_OK, r)
        events = strict_loads(r.out_bytes)["final"]["events"]
        self.assertIn(f"wrote {events} events to {out}", r.err)
        data = read_bytes(out)
        self.assertEqual(data.count(b"\n"), events)
        imp = self.import_(out)
        self.assertEqual(imp.rc, EXIT_OK, imp)
        self.assertIn(f"imported {events} events, rejected 0", imp.out)
        # The lines are what ingest stores: enrichment (timeOfDay, dayOfWeek, sessionFatigue,
        # _predictionDelta) recomputed at import gives the same bytes.
        self.assertEqual(sorted(self.raw_lines()), sorted(data.split(b"\n")[:-1]))
        kinds = {json.loads(l)["kind"] for l in data.split(b"\n")[:-1]}
        self.assertEqual(kinds, {"work", "feedback", "outcome"})

    def test_analyze_of_the_imported_events_agrees_with_the_final_state(self):
        out = self.path("sim.jsonl")
        r = kaizen("simulate", "--days", 28, "--json", "--out", out)
        self.assertEqual(r.rc, EXIT_OK, r)
        final = strict_loads(r.out_bytes)["final"]
        self.assertEqual(self.import_(out).rc, EXIT_OK)
        # The simulation's last day ends at 2025-02-03T00:00:00Z.
        a = self.kz("analyze", "--json", "--home", self.home, "--now", "2025-02-03T00:00:00Z")
        self.assertEqual(a.rc, EXIT_OK, a)
        analysis = strict_loads(a.out_bytes)
        self.assertEqual([(g["dimension"], g["threshold"], g["kind"]) for g in analysis["gates"]],
                         [(g["dimension"], g["threshold"], g["kind"]) for g in final["gates"]])
        self.assertEqual({t: v["level"] for t, v in analysis["autonomy"].items()},
                         final["autonomy"])
        flagged = {p["pattern"] for p in analysis["antiPatterns"]}
        flagged |= {p["content"] for p in analysis["patterns"] if p["state"] == "deprecated"}
        self.assertEqual(sorted(flagged), final["flaggedPatterns"])

    def test_days_out_of_range_is_a_usage_error(self):
        for days in (0, 365):
            with self.subTest(days=days):
                r = kaizen("simulate", "--days", days)
                self.assertEqual(r.rc, EXIT_USAGE, r)

    def test_demo_ends_with_the_simulation_side_by_side(self):
        r = self.kz("demo", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("kaizen simulate --days 56", r.out)
        step = r.out[r.out.index("kaizen simulate --days 56"):]
        rows = [l for l in step.split("\n") if re.match(r"^\s+\d+\s+\d", l)]
        self.assertEqual(len(rows), 8, step)


if __name__ == "__main__":
    unittest.main()
