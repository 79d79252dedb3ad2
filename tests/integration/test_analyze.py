"""`kaizen analyze`, `kaizen explain` and `kaizen config`: the learning rules, through the binary.

Each test builds a small home with `record`/`import`, whose answer is worked out by hand in the
test, and reads it back at a fixed `--now`.
"""

import json
import os
import subprocess
import unittest

from kzlib import (EXIT_OK, EXIT_REJECTED, EXIT_USAGE, NOW, NOW_STORED, KaizenTest, feedback_event,
                   jsonl, kaizen, loop_event, outcome_event, strict_loads, work_event)

# The keys `kaizen analyze --json` promises, in this order.
CONTRACT_KEYS = ("now", "events", "approval", "gates", "calibration", "decisionSpeed",
                 "preferences", "autonomy", "communication", "criteria", "patterns",
                 "antiPatterns", "errors", "loops", "contradictions", "kpis", "alerts")
KIND_COUNTS = ("feedback", "work", "outcome", "error", "reward", "correction", "loop", "admin",
               "prompt")

_GEN = {}


def gen_bytes(events, seed):
    key = (events, seed)
    if key not in _GEN:
        r = kaizen("gen", "--events", events, "--seed", seed)
        assert r.rc == 0, r
        _GEN[key] = r.out_bytes
    return _GEN[key]


def review(decision, server=None, stage="review", reviewer="jake", scores=None, at=None,
           work_ref=None):
    """A feedback event with an inline work product unless `work_ref` is given."""
    e = feedback_event(work_ref=work_ref, pipelineStage=stage,
                       decision={"decision": decision, "reason": "r"})
    if decision is None:
        del e["decision"]
    if server is not None:
        e["mcpServerType"] = server
    if reviewer is None:
        del e["reviewerId"]
    else:
        e["reviewerId"] = reviewer
    if scores is not None:
        e["scores"] = scores
    if at is not None:
        e["timestamp"] = at
    return e


def outcome(at, success, patterns=None, criteria=None, harmful=False):
    """An outcome whose implicit score (seed 002) is known: success, 2 min, 0 errors, 0 retries is
    raw 1.0 (helpful); a failure with harmful=True (45 min, 5 errors) is raw 0.28 (harmful); a
    plain failure (2 min, 0 errors) is raw 0.6 (neutral)."""
    e = outcome_event(timestamp=at, success=success, error_count=0, retry_count=0,
                      duration_ms=120000)
    if harmful:
        e.update(duration_ms=2_700_000, error_count=5)
    if patterns is not None:
        e["patterns"] = patterns
    if criteria is not None:
        e["criteria"] = criteria
    return e


def counts(approved=0, rejected=0, needs_work=0, deferred=0, total=0, rate=None):
    return {"approved": approved, "rejected": rejected, "needsWork": needs_work,
            "deferred": deferred, "total": total, "rate": rate}


class AnalyzeTest(KaizenTest):
    """Helpers: import events into this test's home, run the learning verbs on it."""

    def import_events(self, *events):
        r = self.import_("-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn(f"imported {len(events)} events, rejected 0", r.out, r)

    def analyze_run(self, *flags, now=NOW, home=None):
        return self.kz("analyze", *flags, "--home", home or self.home, "--now", now)

    def analyze(self, now=NOW, home=None):
        r = self.analyze_run("--json", now=now, home=home)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.err, "", r)
        self.assertTrue(r.out.endswith("}\n"), r)
        return strict_loads(r.out_bytes)

    def explain(self, what, name, now=NOW):
        return self.kz("explain", what, name, "--home", self.home, "--now", now)

    def config(self, *flags):
        return self.kz("config", *flags, "--home", self.home)

    def write_learning_config(self, text):
        os.makedirs(self.hpath("config"), exist_ok=True)
        with open(self.hpath("config", "learning.json"), "w") as f:
            f.write(text)


class EmptyHome(AnalyzeTest):

    def test_empty_home_has_every_contract_key_with_zero_counts_and_null_rates(self):
        r = self.analyze_run("--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.err, "")
        a = strict_loads(r.out_bytes)
        self.assertEqual([k for k in a if k in CONTRACT_KEYS], list(CONTRACT_KEYS))
        self.assertEqual(a["now"], NOW_STORED)
        self.assertEqual(a["events"], {**{k: 0 for k in KIND_COUNTS}, "total": 0})
        self.assertEqual(a["approval"], {"overall": counts(), "byServerType": {}, "byStage": {},
                                         "byReviewer": {}})
        self.assertEqual(a["gates"], [])
        cal = a["calibration"]
        self.assertEqual((cal["n"], cal["ece"]), (0, None))
        self.assertEqual(len(cal["buckets"]), 10)
        for b in cal["buckets"]:
            self.assertEqual((b["n"], b["avgPredicted"], b["actualRate"], b["error"]),
                             (0, None, None, None), b)
        self.assertEqual(cal["scorePrediction"], {"n": 0, "meanAbsError": None, "meanDelta": None})
        self.assertEqual(a["decisionSpeed"]["decided"], 0)
        self.assertEqual(a["preferences"]["comparisons"], 0)
        self.assertEqual(a["autonomy"], {})
        for key in ("criteria", "patterns", "antiPatterns", "contradictions"):
            self.assertEqual(a[key], [], key)
        self.assertEqual((a["errors"]["total"], a["errors"]["unresolved"]), (0, 0))
        loops = a["loops"]
        self.assertEqual((loops["total"], loops["avgIterations"], loops["avgFinalQuality"],
                          loops["recent"]), (0, None, None, []))
        self.assertEqual(loops["byAction"], {"ABORT": 0, "CONTINUE": 0, "HALT": 0})
        self.assertIsNone(a["kpis"]["approvalRate"]["current"])
        self.assertEqual([x["condition"] for x in a["alerts"]], ["no-feedback"])

    def test_empty_home_text_analysis_succeeds(self):
        r = self.analyze_run()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("of 0 events", r.out)


class KnownAnswers(AnalyzeTest):

    def test_approval_by_server_type_stage_and_reviewer_excludes_deferred_from_the_rate(self):
        self.import_events(
            review("approved", server="github"),
            review("approved", server="github"),
            review("rejected", server="github"),
            review("deferred", server="github"),
            review("needs-work", server="slack", stage="design", reviewer="amy"),
            review("approved", server="slack", stage="design", reviewer="amy"),
            review("deferred", reviewer="amy"),  # no server type: "unspecified"
            review(None, server="stripe", reviewer=None),  # no decision, no reviewer
        )
        a = self.analyze()["approval"]
        self.assertEqual(a["overall"], counts(3, 1, 1, 2, 8, 0.6))
        self.assertEqual(a["byServerType"], {
            "github": counts(2, 1, 0, 1, 4, 0.666667),
            "slack": counts(1, 0, 1, 0, 2, 0.5),
            "stripe": counts(total=1),
            "unspecified": counts(deferred=1, total=1),
        })
        self.assertEqual(a["byStage"], {
            "design": counts(1, 0, 1, 0, 2, 0.5),
            "review": counts(2, 1, 0, 2, 6, 0.666667),
        })
        self.assertEqual(a["byReviewer"], {
            "amy": counts(1, 0, 1, 1, 3, 0.5),
            "jake": counts(2, 1, 0, 1, 4, 0.666667),
            "unspecified": counts(total=1),
        })

    def test_feedback_referencing_a_work_event_uses_its_confidence_for_calibration(self):
        v1 = work_event(art_id="art-cal", version="v1", mcpServerType="github")
        v1["workProduct"]["bubaConfidence"] = 0.25
        v2 = work_event(art_id="art-cal", version="v2", mcpServerType="github",
                        timestamp="2025-07-10T09:00:00Z")
        v2["workProduct"]["bubaConfidence"] = 0.85
        self.import_events(
            v1, v2,
            review("approved", work_ref={"id": "art-cal", "version": "v1"}),
            review("rejected", work_ref={"id": "art-cal"}),  # the latest version: v2
            review("approved", work_ref={"id": "art-cal", "version": "v2"}),
        )
        a = self.analyze()
        cal = a["calibration"]
        self.assertEqual(cal["n"], 3)
        by_lower = {b["lower"]: b for b in cal["buckets"]}
        self.assertEqual(by_lower[0.2], {"lower": 0.2, "upper": 0.3, "avgPredicted": 0.25,
                                         "actualRate": 1.0, "error": -0.75, "n": 1})
        self.assertEqual(by_lower[0.8], {"lower": 0.8, "upper": 0.9, "avgPredicted": 0.85,
                                         "actualRate": 0.5, "error": 0.35, "n": 2})
        self.assertEqual(sum(b["n"] for b in cal["buckets"]), 3)
        # ECE = 1/3 x 0.75 + 2/3 x 0.35
        self.assertAlmostEqual(cal["ece"], 0.483333, places=6)
        # The work event's mcpServerType is the review's server type.
        self.assertEqual(a["approval"]["byServerType"], {"github": counts(2, 1, 0, 0, 3, 0.666667)})

    def test_pattern_failing_exactly_three_of_five_times_becomes_an_anti_pattern(self):
        events = []
        for i, ok in enumerate([True, False, True, False, False]):
            events.append(outcome(f"2025-12-1{i}T10:00:00Z", ok, patterns=["retry with backoff"]))
        for i, ok in enumerate([True, True, False, True, False]):  # 2 of 5: 40%
            events.append(outcome(f"2025-12-2{i}T10:00:00Z", ok, patterns=["cache the token"]))
        for i in range(2):  # 2 of 2 failed, but fewer than 3 observations
            events.append(outcome(f"2025-12-0{i + 1}T10:00:00Z", False, patterns=["big bang"]))
        self.import_events(*events)
        a = self.analyze()
        self.assertEqual(a["antiPatterns"], [{
            "content": "AVOID: retry with backoff. Failed 3/5 times (60% failure rate)",
            "reason": "Failed 3/5 times (60% failure rate)",
            "pattern": "retry with backoff",
            "successCount": 2, "failureCount": 3, "failureRate": 0.6,
        }])
        patterns = {p["content"]: p for p in a["patterns"]}
        self.assertEqual(set(patterns), {"retry with backoff", "cache the token", "big bang"})
        self.assertEqual((patterns["retry with backoff"]["successCount"],
                          patterns["retry with backoff"]["failureCount"],
                          patterns["retry with backoff"]["observations"]), (2, 3, 5))
        text = self.analyze_run()
        self.assertIn("AVOID: retry with backoff. Failed 3/5 times (60% failure rate)", text.out)
        self.assertNotIn("AVOID: cache the token", text.out)

    def gate_history(self, approved_high):
        """8 rejected reviews with error-handling 3 and `approved_high` approved ones with 8,
        all in the 30 days before NOW, one session each (so none is fatigued)."""
        events = [review("rejected", scores=[{"dimension": "error-handling", "score": 3}],
                         at=f"2025-12-{10 + i:02d}T10:00:00Z") for i in range(8)]
        events += [review("approved", scores=[{"dimension": "error-handling", "score": 8}],
                          at=f"2025-12-{10 + i:02d}T11:00:00Z") for i in range(approved_high)]
        self.import_events(*events)

    def test_twenty_scores_with_low_error_handling_rejected_make_a_hard_gate(self):
        self.gate_history(approved_high=12)
        a = self.analyze()
        # Every score below 8 (the eight 3s) was rejected: rate 1.0 >= 0.95 with 8 >= 5 below;
        # below 9 the 8s join: 8 / 20 = 0.4.
        self.assertEqual(a["gates"], [{"dimension": "error-handling", "threshold": 8,
                                       "rejectionRate": 1.0, "n": 8, "kind": "hard",
                                       "scores": 20}])
        text = self.analyze_run()
        self.assertRegex(text.out, r"error-handling\s+>= 8\s+hard gate")
        r = self.explain("gate", "error-handling")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("hard gate: score must be >= 8", r.out)

    def test_nineteen_scores_make_no_gate(self):
        self.gate_history(approved_high=11)
        self.assertEqual(self.analyze()["gates"], [])
        r = self.explain("gate", "error-handling")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("no gate: 19 scores in the window < 20", r.out)

    def test_gate_scores_older_than_thirty_days_no_longer_count(self):
        self.gate_history(approved_high=12)
        # 2026-02-10: the 30-day window starts 2026-01-12, after every score.
        self.assertEqual(self.analyze(now="2026-02-10T00:00:00Z")["gates"], [])

    def test_gate_window_ends_with_the_whole_utc_day_of_now(self):
        self.gate_history(approved_high=12)  # the last score: 2025-12-21T11:00:00Z
        # Later on now's UTC day still counts...
        gates = self.analyze(now="2025-12-21T00:00:00Z")["gates"]
        self.assertEqual([(g["threshold"], g["kind"], g["scores"]) for g in gates],
                         [(8, "hard", 20)])
        # ...a later day does not: 19 scores.
        self.assertEqual(self.analyze(now="2025-12-20T23:59:59Z")["gates"], [])

    def test_loop_with_quality_above_half_halts_quality_sufficient(self):
        zeros = {"code_quality_score": 0, "doc_coverage": 0, "type_coverage": 0}
        self.import_events(
            # All six measured: the seed's own sum, 0.25 x 0.8 + 0.30 x 1 + 0.20 x 0.5 = 0.6
            loop_event(loop_id="loop-good", metrics={"test_coverage": 0.8, "tests_passing": True,
                                                     "security_score": 0.5, **zeros}),
            # All six measured, four of them 0: 0.25 x 0.8 + 0.30 x 1 = 0.5, not > 0.5
            loop_event(loop_id="loop-even", metrics={"test_coverage": 0.8, "tests_passing": True,
                                                     "security_score": 0, **zeros},
                       timestamp="2025-07-10T14:00:00Z"),
            # Only the tests measured: renormalized, (0.2 + 0.3) / 0.55 = 0.909091
            loop_event(loop_id="loop-tests", metrics={"test_coverage": 0.8, "tests_passing": True},
                       timestamp="2025-07-10T13:00:00Z"),
        )
        loops = self.analyze()["loops"]
        self.assertEqual(loops["total"], 3)
        self.assertEqual(loops["byAction"], {"ABORT": 0, "CONTINUE": 1, "HALT": 2})
        self.assertEqual(loops["byReason"], {"quality_sufficient": 2})
        recent = {l["loopId"]: l for l in loops["recent"]}
        self.assertEqual((recent["loop-good"]["action"], recent["loop-good"]["reason"],
                          recent["loop-good"]["qHalt"]), ("HALT", "quality_sufficient", 0.6))
        self.assertEqual((recent["loop-even"]["action"], recent["loop-even"]["qHalt"]),
                         ("CONTINUE", 0.5))
        self.assertEqual((recent["loop-tests"]["action"], recent["loop-tests"]["qHalt"]),
                         ("HALT", 0.909091))
        r = self.explain("loop", "loop-good")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("HALT (quality_sufficient)", r.out)


    def test_names_with_quotes_backslashes_and_unicode_stay_valid_json(self):
        odd = 'weird "q" \\ 日本 🚀'
        self.import_events(review("approved", server=odd, stage=odd, reviewer=odd),
                           *[outcome(f"2025-12-1{i}T10:00:00Z", False, patterns=[odd],
                                     criteria=[odd]) for i in range(3)],
                           loop_event(loop_id=odd))
        a = self.analyze()
        self.assertEqual(list(a["approval"]["byServerType"]), [odd])
        self.assertEqual(list(a["approval"]["byReviewer"]), [odd])
        self.assertEqual([p["pattern"] for p in a["antiPatterns"]], [odd])
        self.assertEqual(a["antiPatterns"][0]["content"],
                         f"AVOID: {odd}. Failed 3/3 times (100% failure rate)")
        self.assertEqual(a["loops"]["recent"][0]["loopId"], odd)
        for what in ("pattern", "criterion", "autonomy", "loop"):
            with self.subTest(what=what):
                r = self.explain(what, odd)
                self.assertEqual(r.rc, EXIT_OK, r)
                self.assertIn(odd, r.out)

    def test_a_bad_now_is_a_usage_error(self):
        for now in ("yesterday", "2025-13-01T00:00:00Z", "2025-07-10T10:00:00"):
            with self.subTest(now=now):
                for verb in (["analyze", "--json"], ["explain", "pattern", "p"]):
                    r = self.kz(*verb, "--home", self.home, "--now", now)
                    self.assertEqual(r.rc, EXIT_USAGE, r)
                    self.assertEqual(r.out, "")
                    self.assertIn("--now", r.err)


class OnlySomeSections(AnalyzeTest):
    """`analyze --only`: the listed sections, each exactly as the whole analysis has it."""

    # Two days after the generated history ends: every window still holds data.
    AT = "2025-10-01T00:00:00Z"

    def setUp(self):
        super().setUp()
        r = self.import_("-", input=gen_bytes(3000, 5))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.whole = self.analyze(now=self.AT)

    def test_the_whole_analysis_has_something_in_the_sections_compared(self):
        w = self.whole
        self.assertTrue(w["gates"] and w["biasWatch"] and w["ruleCandidates"] and w["regressions"])
        self.assertTrue(w["patterns"] and w["criteria"] and w["errors"] and w["loops"]["recent"])
        kpi_values = [v for k in w["kpis"].values() if isinstance(k, dict)
                      for v in k.get("values", []) if v is not None]
        self.assertGreater(len(kpi_values), 10)
        self.assertTrue(any(v is not None for v in w["kpis"]["ruleEffectiveness"]["values"]))

    def test_each_section_alone_equals_that_section_of_the_whole_analysis(self):
        sections = [k for k in self.whole if k not in ("now", "events", "regressionsTotal")]
        self.assertEqual(len(sections), 21)
        for section in sections:
            with self.subTest(section=section):
                r = self.analyze_run("--json", "--only", section, now=self.AT)
                self.assertEqual(r.rc, EXIT_OK, r)
                got = strict_loads(r.out_bytes)
                extra = ["regressionsTotal"] if section == "regressions" else []
                self.assertEqual(list(got), ["now", "events"] + extra + [section])
                self.assertEqual(got["events"], self.whole["events"])
                self.assertEqual(got[section], self.whole[section])

    def test_several_sections_come_in_the_contracts_order_whatever_the_lists(self):
        r = self.analyze_run("--json", "--only", "calibration,approval,gates", now=self.AT)
        self.assertEqual(r.rc, EXIT_OK, r)
        got = strict_loads(r.out_bytes)
        self.assertEqual(list(got), ["now", "events", "approval", "gates", "calibration"])
        for key in got:
            self.assertEqual(got[key], self.whole[key], key)

    def test_the_python_baseline_agrees_with_the_three_sections_it_computes(self):
        r = self.analyze_run("--json", "--only", "approval,gates,calibration", now=self.AT)
        self.assertEqual(r.rc, EXIT_OK, r)
        script = os.path.join(os.path.dirname(__file__), "..", "..", "bench", "python_analysis.py")
        check = subprocess.run(["python3", script, self.home, "--now", self.AT, "--check", "-"],
                               input=r.out_bytes, capture_output=True, timeout=120)
        self.assertEqual(check.returncode, 0, check.stderr.decode())
        self.assertIn(b"python and kaizen agree", check.stdout)

    def test_text_output_has_only_the_blocks_asked_for(self):
        r = self.analyze_run("--only", "gates", now=self.AT)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("Learned gates", r.out)
        self.assertNotIn("none yet", r.out)
        for block in ("Alerts", "KPIs", "Approval", "Calibration", "Autonomy", "Patterns"):
            self.assertNotIn(f"\n{block}", r.out)
        whole = self.analyze_run(now=self.AT)
        gates = r.out[r.out.index("Learned gates"):]
        gates = gates[:gates.index("\n\n")]
        self.assertIn(gates, whole.out)

    def test_an_unknown_or_empty_section_is_a_usage_error_naming_it_and_the_known_ones(self):
        for value, why in (("approval,gaets", '"gaets" is not a section'),
                           ("approval,", "has an empty section name"),
                           ("", "has an empty section name")):
            with self.subTest(value=value):
                r = self.analyze_run("--json", "--only", value, now=self.AT)
                self.assertEqual(r.rc, EXIT_USAGE, r)
                self.assertEqual(r.out, "")
                self.assertIn("--only", r.err)
                self.assertIn(why, r.err)
                self.assertIn("calibration", r.err)

    def test_a_damaged_event_over_two_lines_is_not_read_twice_when_a_later_line_is_bad(self):
        # An outcome whose comma is missing and whose array runs onto the next line: the stream
        # reads it as one value; a bad line later in the file makes the reader go on line by line
        # from there, not from a line count that the two-line value put off by one.
        [day] = [p for p in self.raw_files() if p.endswith("2025-08-20.jsonl")]
        with open(day) as f:
            lines = f.read().split("\n")
        lines[2:2] = ['{"kind":"outcome","id":"x","timestamp":"2025-08-20T00:00:00.000Z" '
                      '"files_touched":[', '"a"]}']
        lines.insert(19, "not json")
        with open(day, "w") as f:
            f.write("\n".join(lines))
        for flags in ([], ["--only", "approval,gates"]):
            with self.subTest(flags=flags):
                r = self.analyze_run("--json", *flags, now=self.AT)
                self.assertEqual(r.rc, EXIT_OK, r)
                got = strict_loads(r.out_bytes)
                self.assertEqual(got["events"]["feedback"], self.whole["events"]["feedback"])
                self.assertEqual(got["approval"], self.whole["approval"])
                self.assertIn(":20: not a stored event", r.err)


class Determinism(AnalyzeTest):

    def test_same_log_and_now_give_byte_identical_output_twice(self):
        r = self.import_("-", input=gen_bytes(3000, 5))
        self.assertEqual(r.rc, EXIT_OK, r)
        for flags in (["--json"], []):
            with self.subTest(flags=flags):
                a = self.analyze_run(*flags)
                b = self.analyze_run(*flags)
                self.assertEqual(a.rc, EXIT_OK, a)
                self.assertEqual(a.out_bytes, b.out_bytes)
        a = strict_loads(self.analyze_run("--json").out_bytes)
        self.assertEqual(a["events"]["total"], 3000)
        self.assertGreater(a["approval"]["overall"]["total"], 0)
        self.assertTrue(a["patterns"] and a["criteria"] and a["loops"]["recent"])

    def test_events_split_across_two_imports_analyze_like_one_import(self):
        lines = gen_bytes(2000, 7).split(b"\n")[:-1]
        first = b"".join(l + b"\n" for l in lines[:1234])
        second = b"".join(l + b"\n" for l in lines[1234:])
        self.assertEqual(self.import_("-", input=first).rc, EXIT_OK)
        self.assertEqual(self.import_("-", input=second).rc, EXIT_OK)
        whole = self.path("whole")
        r = kaizen("import", "-", "--home", whole, "--now", NOW, input=gen_bytes(2000, 7))
        self.assertEqual(r.rc, EXIT_OK, r)
        split_analysis = self.analyze_run("--json")
        whole_analysis = self.analyze_run("--json", home=whole)
        self.assertEqual(split_analysis.rc, EXIT_OK, split_analysis)
        self.assertEqual(strict_loads(split_analysis.out_bytes)["events"]["total"], 2000)
        self.assertEqual(split_analysis.out_bytes, whole_analysis.out_bytes)

    def test_events_recorded_one_by_one_analyze_like_one_import(self):
        work = work_event(art_id="art-inc", mcpServerType="github",
                          id="0197c348-8800-7000-8000-000000000001")
        events = [work]
        for i, d in enumerate(["approved", "rejected", "approved", "needs-work"]):
            e = review(d, work_ref={"id": "art-inc"}, at=f"2025-12-2{i}T10:00:00Z",
                       scores=[{"dimension": "naming", "score": 3 + i}])
            e["id"] = f"0197c348-8800-7000-8000-00000000001{i}"
            events.append(e)
        for i, ok in enumerate([True, False, False]):
            e = outcome(f"2025-12-1{i}T10:00:00Z", ok, patterns=["p"], criteria=["c"])
            e["id"] = f"0197c348-8800-7000-8000-00000000002{i}"
            events.append(e)
        e = loop_event(loop_id="loop-inc", id="0197c348-8800-7000-8000-000000000030")
        events.append(e)
        for e in events:
            r = self.record(e["kind"], jsonl(e))
            self.assertEqual(r.rc, EXIT_OK, r)
        whole = self.path("whole")
        r = kaizen("import", "-", "--home", whole, "--now", NOW, input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        one_by_one = self.analyze_run("--json")
        at_once = self.analyze_run("--json", home=whole)
        self.assertEqual(strict_loads(one_by_one.out_bytes)["events"]["total"], len(events))
        self.assertEqual(one_by_one.out_bytes, at_once.out_bytes)


class Decay(AnalyzeTest):

    def setUp(self):
        super().setUp()
        # 90 days before NOW: 2025-10-03 -> 2025-11-03 (31) -> 12-03 (30) -> 2026-01-01 (29).
        self.import_events(outcome("2025-10-03T00:00:00Z", True, patterns=["p"],
                                   criteria=["tests pass"]))

    def criterion(self, now):
        [c] = self.analyze(now=now)["criteria"]
        return c

    def test_criterion_decayed_helpful_halves_every_ninety_days(self):
        for now, decayed in (("2025-10-03T00:00:00Z", 1.0), (NOW, 0.5),
                             ("2026-04-01T00:00:00Z", 0.25)):
            with self.subTest(now=now):
                c = self.criterion(now)
                self.assertEqual(c["criterion"], "tests pass")
                self.assertEqual((c["helpfulCount"], c["decayedHelpful"], c["decayedHarmful"]),
                                 (1, decayed, 0.0))
                self.assertEqual(c["weight"], 1.0)
                self.assertEqual(c["lastValidated"], "2025-10-03T00:00:00.000Z")

    def test_pattern_decayed_helpful_halves_every_ninety_days(self):
        self.assertEqual(self.analyze(now="2025-10-03T00:00:00Z")["patterns"][0]["decayedHelpful"],
                         1.0)
        self.assertEqual(self.analyze()["patterns"][0]["decayedHelpful"], 0.5)

    def test_a_configured_half_life_changes_the_decay(self):
        self.write_learning_config('{"outcomes": {"half_life_days": 45}}\n')
        self.assertEqual(self.criterion(NOW)["decayedHelpful"], 0.25)
        r = self.explain("criterion", "tests pass")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("45", r.out)


class TextOutput(AnalyzeTest):

    def test_text_output_mentions_alerts_approval_and_autonomy(self):
        self.import_events(review("approved", server="github"), review("approved", server="github"),
                           review("rejected", server="github"), review("approved", server="slack"))
        r = self.analyze_run()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.err, "")
        for heading in ("Alerts", "Approval", "Autonomy"):
            self.assertRegex(r.out, rf"(?m)^{heading}\b")
        self.assertRegex(r.out, r"(?m)^\s+overall\s+3 approved\s+1 rejected.*rate 75\.0%$")
        self.assertRegex(r.out, r"(?m)^\s+github\s+2 approved\s+1 rejected.*rate 66\.7%$")
        self.assertRegex(r.out, r"(?m)^\s+github\s+level \d")
        self.assertIn(f"kaizen analysis at {NOW_STORED} of 4 events", r.out)
        with self.assertRaises(ValueError):
            json.loads(r.out)


class Explain(AnalyzeTest):

    def setUp(self):
        super().setUp()
        # At NOW itself, so nothing has decayed: 2 helpful successes, 3 harmful failures.
        events = [outcome(NOW, True, patterns=["retry with backoff"], criteria=["tests pass"])
                  for _ in range(2)]
        events += [outcome(NOW, False, patterns=["retry with backoff"], harmful=True)
                   for _ in range(3)]
        work = work_event(art_id="art-x", mcpServerType="github")
        work["workProduct"]["bubaConfidence"] = 0.75
        events += [work, review("approved", work_ref={"id": "art-x"}),
                   loop_event(loop_id="loop-x")]
        self.import_events(*events)

    def test_explain_pattern_shows_counts_decayed_values_and_thresholds(self):
        r = self.explain("pattern", "retry with backoff")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.err, "")
        out = r.out
        self.assertIn('pattern "retry with backoff"', out)
        # decayed helpful 2, harmful 3: ratio 0.6 > 0.3 with total 5 >= 3 -> deprecated
        self.assertRegex(out.splitlines()[0], r"deprecated \(multiplier 0\)")
        self.assertIn("(2 helpful, 0 neutral, 3 harmful)", out)
        self.assertIn("2 succeeded, 3 failed", out)
        self.assertIn("half-life 90 days", out)
        self.assertIn("helpful 2, harmful 3, total 5; harmful ratio 0.6", out)
        self.assertIn("failure ratio >= 0.6", out)
        self.assertIn("AVOID: Failed 3/5 times (60% failure rate)", out)
        self.assertIn("newest observations (5 of 5)", out)

    def test_explain_every_kind_of_known_name_succeeds(self):
        for what, name, expected in (("criterion", "tests pass", "tests pass"),
                                     ("calibration", "0.7", "0.750"),
                                     ("calibration", "all", "[0.7, 0.8)"),
                                     ("autonomy", "github", "github"),
                                     ("loop", "loop-x", "loop-x")):
            with self.subTest(what=what, name=name):
                r = self.explain(what, name)
                self.assertEqual(r.rc, EXIT_OK, r)
                self.assertIn(expected, r.out)
                self.assertTrue(r.out.endswith("\n"))

    def test_explain_unknown_name_exits_1_naming_it(self):
        for what in ("pattern", "criterion", "gate", "autonomy", "calibration", "loop"):
            with self.subTest(what=what):
                r = self.explain(what, "no-such-thing-42")
                self.assertEqual(r.rc, EXIT_REJECTED, r)
                self.assertEqual(r.out, "")
                self.assertIn("no-such-thing-42", r.err)
                self.assertIn(what, r.err)

    def test_explain_with_a_bad_what_is_a_usage_error(self):
        for args in (["patterns", "retry with backoff"], ["bogus", "x"], ["pattern"], []):
            with self.subTest(args=args):
                r = self.kz("explain", *args, "--home", self.home, "--now", NOW)
                self.assertEqual(r.rc, EXIT_USAGE, r)
                self.assertEqual(r.out, "")


class Config(AnalyzeTest):

    def test_config_defaults_is_json_with_the_seed_defaults(self):
        r = self.config("--defaults")
        self.assertEqual(r.rc, EXIT_OK, r)
        c = strict_loads(r.out_bytes)
        self.assertEqual(c["outcomes"]["half_life_days"], 90)
        self.assertEqual(c["outcomes"]["anti_pattern_failure_ratio"], 0.6)
        self.assertEqual(c["gates"]["min_scores"], 20)
        self.assertEqual(c["gates"]["hard"], 0.95)
        self.assertEqual(c["gates"]["window_days"], 30)
        self.assertEqual(c["loop"]["max_iterations"], 5)
        for section, keys in c.items():
            self.assertIsInstance(keys, dict, section)
            for key, value in keys.items():
                self.assertRegex(key, r"^[a-z0-9_]+$")
                self.assertIsInstance(value, (int, float), f"{section}.{key}")
        # Without a learning.json the config in effect is the defaults.
        self.assertEqual(self.config().out_bytes, r.out_bytes)

    def test_learning_json_changes_config_output_but_not_the_defaults(self):
        defaults = strict_loads(self.config("--defaults").out_bytes)
        self.write_learning_config('{"outcomes": {"half_life_days": 45}, "gates": {"hard": 0.9}}')
        r = self.config()
        self.assertEqual(r.rc, EXIT_OK, r)
        got = strict_loads(r.out_bytes)
        expected = json.loads(json.dumps(defaults))
        expected["outcomes"]["half_life_days"] = 45
        expected["gates"]["hard"] = 0.9
        self.assertEqual(got, expected)
        self.assertEqual(strict_loads(self.config("--defaults").out_bytes), defaults)

    def test_config_output_applied_as_learning_json_is_a_fixed_point(self):
        self.write_learning_config('{"kpis": {}, "outcomes": {"half_life_days": 12.5}}')
        first = self.config()
        self.assertEqual(first.rc, EXIT_OK, first)
        self.write_learning_config(first.out)
        second = self.config()
        self.assertEqual(second.rc, EXIT_OK, second)
        self.assertEqual(second.out_bytes, first.out_bytes)

    def test_bad_learning_json_values_exit_2_naming_the_key_the_value_and_the_rule(self):
        cases = (
            ('{"outcomes": {"half_life_dayz": 45}}', ["outcomes.half_life_dayz", "unknown key"]),
            ('{"outcomez": {"half_life_days": 45}}', ["outcomez", "unknown section"]),
            ('{"outcomes": {"half_life_days": "45"}}',
             ["outcomes.half_life_days", "45", "not a number"]),
            ('{"outcomes": {"half_life_days": -3}}',
             ["outcomes.half_life_days", "-3", "out of range", "0.001..36500"]),
            ('{"gates": {"hard": 1.5}}', ["gates.hard", "1.5", "out of range 0.0..1.0"]),
            ('{"gates": {"min_scores": 2.5}}', ["gates.min_scores", "2.5", "whole number"]),
            ('{"outcomes": 3}', ["outcomes", "must be an object"]),
        )
        for text, words in cases:
            self.write_learning_config(text)
            for verb in (["config"], ["analyze", "--json", "--now", NOW],
                         ["explain", "pattern", "p", "--now", NOW]):
                with self.subTest(config=text, verb=verb[0]):
                    r = self.kz(*verb, "--home", self.home)
                    self.assertEqual(r.rc, EXIT_USAGE, r)
                    self.assertEqual(r.out, "")
                    self.assertIn("learning.json", r.err)
                    for w in words:
                        self.assertIn(w, r.err)

    def test_malformed_learning_json_exits_2(self):
        for text in ('{"outcomes": {"half_life_days": ', "", "[]", "45", '{"outcomes": {}} x'):
            self.write_learning_config(text)
            with self.subTest(config=text):
                r = self.config()
                self.assertEqual(r.rc, EXIT_USAGE, r)
                self.assertEqual(r.out, "")
                self.assertIn("learning.json", r.err)
                a = self.analyze_run("--json")
                self.assertEqual(a.rc, EXIT_USAGE, a)
                self.assertEqual(a.out, "")

    def test_config_defaults_ignores_the_learning_json(self):
        self.write_learning_config("not json")
        r = self.config("--defaults")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(strict_loads(r.out_bytes)["outcomes"]["half_life_days"], 90)


class DamagedLog(AnalyzeTest):

    def test_a_corrupted_stored_line_is_skipped_with_a_warning_naming_file_and_line(self):
        self.import_events(review("approved", server="github", at="2025-12-20T10:00:00Z"),
                           review("rejected", server="github", at="2025-12-20T11:00:00Z"),
                           outcome("2025-12-21T10:00:00Z", True, patterns=["p"]))
        [day20, day21] = self.raw_files()
        with open(day20, "ab") as f:
            f.write(b'{"kind":"feedback","timestamp":"2025-12-20T12:00:00.000Z",garbage\n')
        # A line in the middle of a file, too: later lines of that file still count.
        with open(day21, "rb") as f:
            data = f.read()
        with open(day21, "wb") as f:
            f.write(b"\xff\xfe not json at all\n" + data)
        r = self.analyze_run("--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        rel20 = "feedback/raw/" + os.path.basename(day20)
        rel21 = "feedback/raw/" + os.path.basename(day21)
        self.assertIn(f"{rel20}:3", r.err)
        self.assertIn(f"{rel21}:1", r.err)
        self.assertIn("2 unreadable", r.err)
        a = strict_loads(r.out_bytes)
        self.assertEqual(a["events"]["total"], 3)
        self.assertEqual(a["approval"]["overall"], counts(1, 1, 0, 0, 2, 0.5))
        self.assertEqual([p["content"] for p in a["patterns"]], ["p"])
        # explain reads the same log and warns the same way.
        e = self.explain("pattern", "p")
        self.assertEqual(e.rc, EXIT_OK, e)
        self.assertIn(f"{rel20}:3", e.err)

    def test_a_stored_line_with_a_malformed_array_is_skipped_not_fatal(self):
        self.import_events(outcome("2025-12-20T10:00:00Z", True, patterns=["p"]))
        [day] = self.raw_files()
        with open(day, "ab") as f:
            f.write(b'{"kind":"outcome","timestamp":"2025-12-20T12:00:00.000Z",'
                    b'"patterns":["a",]}\n')
        for verb in (["analyze", "--json"], ["explain", "pattern", "p"]):
            with self.subTest(verb=verb[0]):
                r = self.kz(*verb, "--home", self.home, "--now", NOW)
                self.assertEqual(r.rc, EXIT_OK, r)
                self.assertIn("feedback/raw/" + os.path.basename(day) + ":2", r.err)
        a = self.analyze_run("--json")
        self.assertEqual(strict_loads(a.out_bytes)["events"]["total"], 1)

    def test_two_events_on_one_line_are_reported_and_the_first_is_read(self):
        self.import_events(review("approved", server="github", at="2025-12-20T10:00:00Z"))
        [day] = self.raw_files()
        with open(day, "rb") as f:
            line = f.read().rstrip(b"\n")
        with open(day, "ab") as f:
            f.write(line + line.replace(b'"approved"', b'"rejected"') + b"\n")
        r = self.analyze_run("--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn(f"feedback/raw/{os.path.basename(day)}:2: more than one JSON value", r.err)
        a = strict_loads(r.out_bytes)
        self.assertEqual(a["approval"]["overall"], counts(2, 0, 0, 0, 2, 1.0))

    def test_hand_written_lines_of_kinds_a_section_does_not_read_count_as_when_read_whole(self):
        # Lines whose keys are spaced, reordered or escaped are not in the order ingest writes;
        # a reader of some kinds reads them with the parser, and counts them all the same.
        self.import_events(review("approved", server="github", at="2025-12-20T10:00:00Z"))
        [day] = self.raw_files()
        with open(day, "ab") as f:
            f.write(b'{ "kind" : "outcome", "timestamp" : "2025-12-20T12:00:00Z", "bead_id":"b",'
                    b'"duration_ms":5,"error_count":0,"retry_count":0,"success":true,'
                    b'"files_touched":[]}\n'
                    b'{"kind":"error","id":"e\\u0031","timestamp":"2025-12-20T12:00:01Z",'
                    b'"bead_id":"b","error_type":"validation","message":"m"}\n'
                    b'{"kind":"loop","loop_id":"L","timestamp":"2025-12-20T12:00:02Z","id":"x",'
                    b'"iteration":1,"metrics":{}}\n')
        whole = self.analyze_run("--json")
        only = self.analyze_run("--json", "--only", "approval")
        self.assertEqual(whole.rc, EXIT_OK, whole)
        self.assertEqual(only.rc, EXIT_OK, only)
        self.assertEqual(strict_loads(only.out_bytes)["events"],
                         strict_loads(whole.out_bytes)["events"])
        self.assertEqual(strict_loads(only.out_bytes)["events"]["total"], 4)

    def test_a_hand_edited_huge_number_still_gives_valid_json(self):
        os.makedirs(self.hpath("feedback", "raw"), exist_ok=True)
        self.assertEqual(self.analyze_run("--json").rc, EXIT_OK)  # creates the layout
        with open(self.hpath("feedback", "raw", "2025-07-10.jsonl"), "ab") as f:
            f.write(b'{"kind":"loop","id":"0197c348-8800-7000-8000-000000000001",'
                    b'"timestamp":"2025-07-10T15:00:00.000Z","loop_id":"L","iteration":1,'
                    b'"metrics":{"test_coverage":0.7},"cost":1e303}\n')
        r = self.analyze_run("--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        try:
            strict_loads(r.out_bytes)
        except ValueError as e:
            self.fail(f"analyze --json printed invalid JSON ({e}): ...{r.out[2200:2400]}")


if __name__ == "__main__":
    unittest.main()
