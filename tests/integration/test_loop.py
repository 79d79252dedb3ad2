"""`kaizen loop --evaluate CMD --refine CMD`: seed 003's refinement loop, through the binary.

Each test writes small evaluate and refine scripts (python or sh) whose metrics per iteration are
known, runs the loop in a throw-away home, and checks the decision, the exit status, what the
refine command was handed, and the `loop` events stored (`kaizen export --kind loop`).

Q(HALT) (seed 003) = 0.25 test_coverage + 0.30 tests_passing + 0.20 security_score
                     + 0.15 code_quality_score + 0.05 doc_coverage + 0.05 type_coverage,
over the metrics measured, divided by their weights' sum (renormalized: the seed's sum when all six
are there); the loop halts when Q(HALT) > 1 - Q(HALT), i.e. above 0.5, with the tests measured.
"""

import json
import os
import subprocess
import sys
import time
import unittest

from kzlib import BIN, EXIT_OK, EXIT_REJECTED, EXIT_USAGE, KaizenTest, strict_loads

# Prints the QualityMetrics of iteration $KAIZEN_ITERATION from the JSON list in argv[1].
EVALUATE_PY = r"""
import json, os, sys
plan = json.loads(open(sys.argv[1]).read())
n = int(os.environ["KAIZEN_ITERATION"])
print("evaluating iteration", n)          # output before the metrics is allowed
print(json.dumps(plan[min(n, len(plan)) - 1]))
"""

# Appends what it was handed (stdin and the environment) to the JSONL file in argv[1].
REFINE_PY = r"""
import json, os, sys
got = {"stdin": sys.stdin.read(), "env": os.environ.get("KAIZEN_FEEDBACK"),
       "iteration": os.environ.get("KAIZEN_ITERATION"), "loop_id": os.environ.get("KAIZEN_LOOP_ID")}
with open(sys.argv[1], "a") as f:
    f.write(json.dumps(got) + "\n")
"""


def coverage(c, passing=False):
    """Metrics whose Q(HALT) is (0.25 c + 0.30 passing) / 0.55."""
    return {"test_coverage": c, "tests_passing": passing}


def coverage_only(c):
    """Metrics whose Q(HALT) is c: the weights renormalize over test_coverage alone."""
    return {"test_coverage": c}


class LoopTest(KaizenTest):

    def setUp(self):
        super().setUp()
        self.evaluate_py = self.write("evaluate.py", EVALUATE_PY)
        self.refine_py = self.write("refine.py", REFINE_PY)
        self.refined = self.path("refined.jsonl")

    def evaluate_cmd(self, plan):
        return f"{sys.executable} {self.evaluate_py} {self.write('plan.json', json.dumps(plan))}"

    def refine_cmd(self):
        return f"{sys.executable} {self.refine_py} {self.refined}"

    def loop(self, evaluate, refine=None, *flags, timeout=120):
        return self.kz("loop", "--evaluate", evaluate, "--refine", refine or self.refine_cmd(),
                       "--home", self.home, *flags, timeout=timeout)

    def loop_json(self, plan, *flags, expect_rc=EXIT_OK):
        r = self.loop(self.evaluate_cmd(plan), None, "--json", *flags)
        self.assertEqual(r.rc, expect_rc, r)
        return strict_loads(r.out_bytes)

    def loop_events(self):
        r = self.export("--kind", "loop")
        self.assertEqual(r.rc, EXIT_OK, r)
        return [strict_loads(l) for l in r.lines]

    def refine_calls(self):
        if not os.path.exists(self.refined):
            return []
        with open(self.refined) as f:
            return [json.loads(l) for l in f]


class Decisions(LoopTest):

    def test_improving_until_quality_is_sufficient_halts(self):
        # Q: 0.2, 0.4, (0.225 + 0.30) / 0.55 = 0.954545 (> 0.5: quality_sufficient)
        out = self.loop_json([coverage_only(0.2), coverage_only(0.4), coverage(0.9, True)])
        self.assertEqual(out["action"], "HALT")
        self.assertEqual(out["halt_reason"], "quality_sufficient")
        self.assertEqual(out["iterations"], 3)
        self.assertEqual([round(q, 6) for q in out["quality_progression"]],
                         [0.2, 0.4, 0.954545])
        self.assertFalse(out["stagnation_detected"])
        self.assertEqual(out["cost"], 0)
        self.assertIsNone(out["error"])
        self.assertEqual(len(self.refine_calls()), 2, "refined after iterations 1 and 2 only")

    def write_learning_config(self, text):
        os.makedirs(self.hpath("config"), exist_ok=True)
        with open(self.hpath("config", "learning.json"), "w") as f:
            f.write(text)

    def test_plateau_aborts_on_stagnation_with_the_reason(self):
        # Q: 0.2, 0.4, 0.41, 0.42: the last three have a variance below 0.001. (The minimum
        # quality gate is moved past the plateau: by default it would decide at iteration 3.)
        self.write_learning_config('{"loop": {"min_quality_after": 10}}')
        r = self.loop(self.evaluate_cmd([coverage_only(0.2), coverage_only(0.4),
                                         coverage_only(0.41), coverage_only(0.42)]))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("ABORT (stagnation) after 4 iterations", r.out)
        self.assertIn("quality progression: 0.200 -> 0.400 -> 0.410 -> 0.420", r.out)
        self.assertIn("stagnation detected: yes", r.out)
        self.assertIn("iteration 3: Q(HALT) 0.410 -> CONTINUE", r.err)
        self.assertIn("iteration 4: Q(HALT) 0.420 -> ABORT (stagnation)", r.err)

    def test_quality_still_low_at_iteration_three_aborts(self):
        # seed 003: "After 3 iterations, quality must be > 60%".
        out = self.loop_json([coverage_only(0.2), coverage_only(0.3), coverage_only(0.45)],
                             expect_rc=EXIT_REJECTED)
        self.assertEqual((out["action"], out["halt_reason"], out["iterations"]),
                         ("ABORT", "quality_too_low", 3))

    def test_same_feedback_twice_aborts_as_cycling(self):
        out = self.loop_json([coverage_only(0.4), coverage_only(0.4)], expect_rc=EXIT_REJECTED)
        self.assertEqual((out["action"], out["halt_reason"], out["iterations"]),
                         ("ABORT", "cycling", 2))

    def test_declining_quality_aborts(self):
        out = self.loop_json([coverage(1.0), coverage(0.8), coverage(0.6)], expect_rc=EXIT_REJECTED)
        self.assertEqual((out["action"], out["halt_reason"], out["iterations"]),
                         ("ABORT", "declining", 3))
        self.assertTrue(out["stagnation_detected"])

    def test_max_iterations_flag_halts_at_that_iteration(self):
        out = self.loop_json([coverage_only(0.1), coverage_only(0.3), coverage_only(0.5)],
                             "--max-iterations", "2")
        self.assertEqual((out["action"], out["halt_reason"], out["iterations"]),
                         ("HALT", "max_iterations", 2))
        self.assertEqual(len(self.loop_events()), 2)

    def test_max_cost_flag_aborts_once_spent(self):
        plan = [{"metrics": coverage_only(0.1 * i), "cost": 0.75} for i in range(1, 5)]
        out = self.loop_json(plan, "--max-cost", "1", expect_rc=EXIT_REJECTED)
        self.assertEqual((out["action"], out["halt_reason"], out["iterations"]),
                         ("ABORT", "cost_limit", 2))
        self.assertEqual(out["cost"], 1.5)
        self.assertEqual([e["cost"] for e in self.loop_events()], [0.75, 0.75])

    def test_home_learning_config_sets_the_limits(self):
        self.write_learning_config('{"loop": {"max_iterations": 1}}')
        out = self.loop_json([coverage_only(0.1)])
        self.assertEqual((out["halt_reason"], out["iterations"]), ("max_iterations", 1))

    def test_passing_suite_at_eighty_percent_coverage_halts_at_once(self):
        # The issue: Q(HALT) was 0.500 (the four unmeasured metrics counted as 0), the loop
        # went on and ended in ABORT (cycling). Renormalized: (0.30 + 0.25 x 0.8) / 0.55.
        out = self.loop_json([coverage(0.8, True)] * 3)
        self.assertEqual((out["action"], out["halt_reason"], out["iterations"]),
                         ("HALT", "quality_sufficient", 1))
        self.assertEqual([round(q, 6) for q in out["quality_progression"]], [0.909091])
        self.assertEqual(out["measured"], ["test_coverage", "tests_passing"])
        self.assertEqual(out["missing"], ["security_score", "code_quality_score", "doc_coverage",
                                          "type_coverage"])
        self.assertEqual(self.refine_calls(), [])
        r = self.loop(self.evaluate_cmd([coverage(0.8, True)]))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("HALT (quality_sufficient) after 1 iteration", r.out)
        self.assertIn("  Q(HALT) over test_coverage, tests_passing (not measured, left out: "
                      "security_score, code_quality_score, doc_coverage, type_coverage)", r.out)

    def test_all_six_metrics_weigh_exactly_as_the_seed_says(self):
        six = {"test_coverage": 0.85, "tests_passing": True, "security_score": 0.92,
               "code_quality_score": 0.88, "doc_coverage": 0.95, "type_coverage": 1.0}
        out = self.loop_json([six])
        self.assertEqual(round(out["quality_progression"][0], 9), 0.926)

    def test_security_score_alone_never_halts_on_quality(self):
        # Renormalized over itself it is 0.95, but nothing measured the tests.
        out = self.loop_json([{"security_score": 0.95}], "--max-iterations", "2")
        self.assertEqual((out["action"], out["halt_reason"], out["iterations"]),
                         ("HALT", "max_iterations", 2))
        self.assertIn("once tests_passing or test_coverage is measured",
                      self.refine_calls()[0]["stdin"])


class Recording(LoopTest):

    def test_every_iteration_is_stored_as_a_loop_event(self):
        out = self.loop_json([coverage(0.2), coverage(0.4), coverage(0.9, True)],
                             "--loop-id", "checkout-fix")
        events = self.loop_events()
        self.assertEqual([e["iteration"] for e in events], [1, 2, 3])
        self.assertEqual({e["loop_id"] for e in events}, {"checkout-fix"})
        self.assertEqual(events[0]["metrics"], {"test_coverage": 0.2, "tests_passing": False})
        self.assertEqual(events[2]["metrics"], {"test_coverage": 0.9, "tests_passing": True})
        for e in events:
            self.assertGreaterEqual(e["elapsed_seconds"], 0)
            self.assertTrue(e["feedback"].startswith("Quality Q(HALT) is "), e)
        self.assertEqual(out["events"], [e["id"] for e in events])
        # The learning engine, reading the log, reaches the decision the loop printed.
        r = self.kz("explain", "loop", "checkout-fix", "--home", self.home, "--now", "end")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("quality_sufficient", r.out)
        # ... and says what the quality rests on, and what was never measured.
        self.assertIn("iteration 3: q_halt 0.954545 over test_coverage, tests_passing; missing "
                      "security_score, code_quality_score, doc_coverage, type_coverage", r.out)
        self.assertIn("renormalized over the measured ones: 0.55 of 1", r.out)
        self.assertIn("  security_score 0.2: missing", r.out)

    def test_a_stored_iteration_with_no_usable_metric_is_not_quality_zero(self):
        # Recorded by something other than `kaizen loop`: test_count is QualityMetrics, but not
        # one of the six Q(HALT) weighs.
        events = [{"kind": "loop", "timestamp": "2025-07-10T10:00:00Z", "loop_id": "ext",
                   "iteration": 1, "metrics": {"test_coverage": 0.8, "tests_passing": True}},
                  {"kind": "loop", "timestamp": "2025-07-10T10:05:00Z", "loop_id": "ext",
                   "iteration": 2, "metrics": {"test_count": 12}}]
        r = self.kz("import", "-", "--home", self.home,
                    input="".join(json.dumps(e) + "\n" for e in events))
        self.assertEqual(r.rc, EXIT_OK, r)
        r = self.kz("explain", "loop", "ext", "--home", self.home, "--now", "end")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("loop ext: 2 iterations", r.out)
        self.assertIn("1 iterations measured none of the Q(HALT) metrics: counted in the totals, "
                      "left out of the rules, not read as quality 0; iteration 2", r.out)
        self.assertIn("decision: HALT (quality_sufficient)", r.out)

    def test_refine_gets_the_feedback_on_stdin_and_in_the_environment(self):
        self.loop_json([coverage(0.4), coverage(0.9, True)], "--loop-id", "L1")  # 0.18, 0.95
        calls = self.refine_calls()
        self.assertEqual(len(calls), 1)
        call = calls[0]
        events = self.loop_events()
        self.assertEqual(call["stdin"], events[0]["feedback"])
        self.assertEqual(call["env"], events[0]["feedback"])
        self.assertEqual((call["iteration"], call["loop_id"]), ("1", "L1"))
        self.assertIn("Tests fail: make them pass.", call["stdin"])
        self.assertIn("Test coverage is 40.0%, below 75.0%", call["stdin"])

    def test_a_loop_id_already_in_the_log_is_refused(self):
        self.loop_json([coverage(0.9, True)], "--loop-id", "once")
        r = self.loop(self.evaluate_cmd([coverage(0.9, True)]), None, "--loop-id", "once")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("--loop-id once: the log already holds iterations of this loop", r.err)
        self.assertEqual(len(self.loop_events()), 1)


JUNIT = """<?xml version="1.0"?>
<testsuites><testsuite name="unit">
  <testcase classname="cart" name="test_total"/>
  {case}
</testsuite></testsuites>
"""
FAILING = '<testcase classname="cart" name="test_discount"><failure message="expected 90, got 100"/></testcase>'
PASSING = '<testcase classname="cart" name="test_discount"/>'

# Iteration 1: a failing test, 50% line coverage (exit 1, as test runners do); then all passing
# with 100% coverage.
EVALUATE_REPORTS_SH = r"""#!/bin/sh
if [ "$KAIZEN_ITERATION" = 1 ]; then
  cp "$1/junit-fail.xml" "$1/junit.xml"; printf 'SF:a.c\nDA:1,1\nDA:2,0\nend_of_record\n' > "$1/lcov.info"
  echo "1 failed, 1 passed"; exit 1
fi
cp "$1/junit-pass.xml" "$1/junit.xml"; printf 'SF:a.c\nDA:1,1\nDA:2,3\nend_of_record\n' > "$1/lcov.info"
"""


class Reports(LoopTest):

    def test_junit_and_lcov_reports_become_the_metrics(self):
        self.write("junit-fail.xml", JUNIT.format(case=FAILING))
        self.write("junit-pass.xml", JUNIT.format(case=PASSING))
        script = self.write("evaluate.sh", EVALUATE_REPORTS_SH)
        r = self.loop(f"sh {script} {self.tmp}", None, "--json",
                      "--junit", self.path("junit.xml"), "--lcov", self.path("lcov.info"))
        self.assertEqual(r.rc, EXIT_OK, r)
        out = strict_loads(r.out_bytes)
        self.assertEqual((out["action"], out["halt_reason"]), ("HALT", "quality_sufficient"))
        events = self.loop_events()
        self.assertEqual(events[0]["metrics"],
                         {"test_coverage": 0.5, "tests_passing": False, "test_count": 2})
        self.assertEqual(events[1]["metrics"],
                         {"test_coverage": 1, "tests_passing": True, "test_count": 2})
        feedback = self.refine_calls()[0]["stdin"]
        self.assertIn("1 of 2 tests fail", feedback)
        self.assertIn("- cart.test_discount: expected 90, got 100", feedback)

    def test_cobertura_report(self):
        script = self.write("evaluate.sh", 'echo \'<coverage lines-valid="4" lines-covered="3" '
                            'line-rate="0.75"/>\' > "$1"\n')
        out_file = self.path("coverage.xml")
        r = self.loop(f"sh {script} {out_file}", None, "--json", "--cobertura", out_file,
                      "--max-iterations", "1")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(self.loop_events()[0]["metrics"], {"test_coverage": 0.75})

    def test_missing_report_aborts_naming_the_file(self):
        missing = self.path("nowhere.xml")
        r = self.loop("true", None, "--junit", missing)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"--junit {missing}: no such file after the evaluate command ran", r.err)
        self.assertIn("ABORT (evaluate_failed)", r.out)
        self.assertEqual(self.loop_events(), [])

    def test_stale_report_is_not_read_again(self):
        junit = self.write("junit.xml", JUNIT.format(case=PASSING))
        r = self.loop("true", None, "--junit", junit)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("not written by the evaluate command", r.err)

    def test_malformed_report_names_file_and_line(self):
        script = self.write("evaluate.sh", 'printf "<testsuites>\\n<testcase>\\n" > "$1"\n')
        junit = self.path("junit.xml")
        r = self.loop(f"sh {script} {junit}", None, "--junit", junit)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"{junit}:", r.err)
        self.assertIn("not well-formed XML", r.err)


class Failures(LoopTest):

    def errors(self):
        r = self.export("--kind", "error")
        return [strict_loads(l) for l in r.lines]

    def test_an_evaluation_with_no_usable_metric_is_an_error_naming_what_is_missing(self):
        r = self.loop(self.evaluate_cmd([{"test_count": 12, "overall_quality": 0.9}]), None,
                      "--loop-id", "L-none", "--json")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        out = strict_loads(r.out_bytes)
        self.assertEqual((out["action"], out["halt_reason"], out["iterations"]),
                         ("ABORT", "no_metric", 0))
        self.assertIn("reported no metric Q(HALT) weighs", out["error"])
        self.assertIn('it gave {"test_count":12,"overall_quality":0.9}', out["error"])
        self.assertIn("missing: test_coverage, tests_passing, security_score, code_quality_score, "
                      "doc_coverage, type_coverage", out["error"])
        self.assertIn("--junit", out["error"])
        self.assertEqual(out["quality_progression"], [], "no quality 0 made up")
        self.assertEqual(self.loop_events(), [])
        self.assertEqual([e["error_type"] for e in self.errors()], ["validation"])

    def test_a_coverage_report_with_no_line_is_no_metric(self):
        script = self.write("evaluate.sh", 'printf "SF:a.c\\nend_of_record\\n" > "$1"\n')
        lcov = self.path("lcov.info")
        r = self.loop(f"sh {script} {lcov}", None, "--lcov", lcov)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"it gave nothing from --lcov {lcov}", r.err)
        self.assertIn("ABORT (no_metric)", r.out)

    def test_failing_evaluate_command_aborts_and_is_recorded(self):
        r = self.loop("echo boom; exit 3", None, "--loop-id", "L-fail", "--json")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        out = strict_loads(r.out_bytes)
        self.assertEqual((out["action"], out["halt_reason"], out["iterations"]),
                         ("ABORT", "evaluate_failed", 0))
        self.assertIn("exit status 3", out["error"])
        self.assertIn("boom", out["error"])
        errors = self.errors()
        self.assertEqual(len(errors), 1)
        self.assertEqual((errors[0]["bead_id"], errors[0]["error_type"], errors[0]["tool_name"]),
                         ("L-fail", "tool_failure", "kaizen loop --evaluate"))
        self.assertEqual(out["events"], [errors[0]["id"]])

    def test_unparseable_metrics_name_the_field(self):
        r = self.loop(self.evaluate_cmd([{"test_coverage": 85}]))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("test_coverage: 85 must be a number in 0..1", r.err)
        self.assertEqual(self.errors()[0]["error_type"], "validation")
        r = self.loop("echo not json")
        self.assertIn("not QualityMetrics JSON", r.err)

    def test_failing_refine_command_aborts_after_recording_the_iteration(self):
        r = self.loop(self.evaluate_cmd([coverage(0.1)]), "exit 4")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("ABORT (refine_failed) after 1 iteration", r.out)
        self.assertIn("the refine command failed (exit status 4)", r.out)
        self.assertEqual(len(self.loop_events()), 1)

    def test_max_seconds_kills_a_hanging_child(self):
        start = time.monotonic()
        r = self.loop("sleep 30", None, "--max-seconds", "1", "--json", timeout=25)
        self.assertLess(time.monotonic() - start, 15, "the child was not killed")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        out = strict_loads(r.out_bytes)
        self.assertEqual((out["action"], out["halt_reason"]), ("ABORT", "time_limit"))
        self.assertIn("timed out after 1.0 s and was killed", out["error"])
        self.assertEqual(self.errors()[0]["error_type"], "timeout")

    def test_children_do_not_read_kaizens_stdin(self):
        # kaizen's stdin stays open and silent; an evaluate command reading it (`cat`) would wait
        # for ever. It gets /dev/null instead, so `cat` ends at once.
        evaluate = "cat; echo '{\"tests_passing\": true, \"test_coverage\": 1}'"
        proc = subprocess.Popen([BIN, "loop", "--evaluate", evaluate, "--refine", "true",
                                 "--home", self.home, "--json"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            proc.wait(timeout=30)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stdin.close()
        with proc.stdout, proc.stderr:
            out, err = proc.stdout.read(), proc.stderr.read()
        self.assertEqual(proc.returncode, EXIT_OK, err)
        self.assertEqual(strict_loads(out)["halt_reason"], "quality_sufficient")

    def test_usage_errors(self):
        r = self.kz("loop", "--evaluate", "true", "--home", self.home)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        r = self.loop("true", None, "--max-iterations", "0")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        r = self.loop("true", None, "--lcov", "a", "--cobertura", "b")
        self.assertEqual(r.rc, EXIT_USAGE, r)


if __name__ == "__main__":
    unittest.main()
