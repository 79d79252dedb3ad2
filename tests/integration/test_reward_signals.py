"""`kaizen reward ci` and `kaizen reward coverage`: seed 001 tier 1 reward signals, through the binary.

Normalization (seed 001): CI result pass/fail -> 1.0/0.0; coverage delta -100..+100 points ->
0.0..1.0 with 0.5 for no change.
"""

import unittest

from kzlib import EXIT_OK, EXIT_REJECTED, EXIT_USAGE, NOW, NOW_STORED, KaizenTest, strict_loads

JUNIT_PASS = """<testsuites><testsuite name="unit">
<testcase classname="a" name="one"/><testcase classname="a" name="two"/>
<testcase classname="a" name="three"><skipped/></testcase>
</testsuite></testsuites>"""
JUNIT_FAIL = """<testsuite name="unit"><testcase name="one"/>
<testcase name="two"><error message="boom"/></testcase></testsuite>"""

LCOV_HALF = "TN:\nSF:src/a.c\nDA:1,1\nDA:2,0\nDA:3,1\nDA:4,0\nLF:4\nLH:2\nend_of_record\n"
COBERTURA_80 = '<?xml version="1.0"?>\n<coverage lines-valid="10" lines-covered="8" line-rate="0.8"/>\n'


class RewardTest(KaizenTest):

    def reward(self, *args):
        return self.kz("reward", *args, "--home", self.home, "--now", NOW)

    def rewards(self):
        r = self.export("--kind", "reward")
        self.assertEqual(r.rc, EXIT_OK, r)
        return [strict_loads(l) for l in r.lines]


class Ci(RewardTest):

    def test_passing_junit_report_records_ci_result_one(self):
        junit = self.write("junit.xml", JUNIT_PASS)
        r = self.reward("ci", "--junit", junit, "--task", "T-7", "--agent", "claude")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("ci_result pass (signal 1.0): 3 tests: 2 passed, 0 failed, 0 errors, "
                      "1 skipped", r.out)
        [e] = self.rewards()
        self.assertEqual(e["id"], r.lines[0])
        self.assertEqual((e["signal_type"], e["raw_value"], e["signal_value"], e["source"]),
                         ("ci_result", "pass", 1, "automatic"))
        self.assertEqual((e["task_id"], e["signal_id"]), ("T-7", "ci:junit:junit.xml"))
        self.assertEqual(e["context"], {"via": "kaizen reward ci", "agent": "claude",
                                        "report": junit, "report_format": "junit", "tests": 3,
                                        "failures": 0, "errors": 0, "skipped": 1})
        self.assertEqual(e["timestamp"], NOW_STORED)

    def test_failing_junit_report_records_zero(self):
        junit = self.write("junit.xml", JUNIT_FAIL)
        r = self.reward("ci", "--junit", junit, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        out = strict_loads(r.out_bytes)
        self.assertEqual((out["raw_value"], out["signal_value"]), ("fail", 0))
        self.assertEqual(self.rewards()[0]["signal_value"], 0)

    def test_exit_code(self):
        self.assertEqual(self.reward("ci", "--exit-code", "0").rc, EXIT_OK)
        self.assertEqual(self.reward("ci", "--exit-code", "2", "--commit", "abc123").rc, EXIT_OK)
        a, b = self.rewards()
        self.assertEqual((a["raw_value"], a["signal_value"]), ("pass", 1))
        self.assertEqual((b["raw_value"], b["signal_value"], b["commit_hash"]),
                         ("fail", 0, "abc123"))
        self.assertEqual((a["signal_id"], b["signal_id"]), ("ci:exit-code", "ci:exit-code"))
        self.assertEqual(b["context"], {"via": "kaizen reward ci", "exit_code": 2})
        self.assertNotIn("agent", a["context"], "no --agent, no agent")

    def test_exactly_one_source_is_required(self):
        junit = self.write("junit.xml", JUNIT_PASS)
        for args in ([], ["--junit", junit, "--exit-code", "0"]):
            r = self.reward("ci", *args)
            self.assertEqual(r.rc, EXIT_USAGE, r)
            self.assertIn("exactly one of --junit FILE and --exit-code N", r.err)
        self.assertEqual(self.raw_lines(), [])

    def test_bad_reports_are_refused_naming_the_file(self):
        bad = self.write("bad.xml", "<testsuites>\n<testcase name='a'>\n")
        r = self.reward("ci", "--junit", bad)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"{bad}:", r.err)
        self.assertIn("not well-formed XML", r.err)
        empty = self.write("empty.xml", "<testsuites/>")
        r = self.reward("ci", "--junit", empty)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("no test case ran", r.err)
        r = self.reward("ci", "--junit", self.path("missing.xml"))
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("missing.xml", r.err)
        self.assertEqual(self.raw_lines(), [])


class Coverage(RewardTest):

    def test_lcov_to_cobertura_delta_is_normalized(self):
        before = self.write("before.info", LCOV_HALF)
        after = self.write("after.xml", COBERTURA_80)
        r = self.reward("coverage", before, after, "--task", "T-1", "--agent", "codex", "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        out = strict_loads(r.out_bytes)
        self.assertAlmostEqual(out["raw_value"], 30.0)
        self.assertAlmostEqual(out["signal_value"], 0.65)
        [e] = self.rewards()
        self.assertEqual((e["signal_type"], e["source"], e["task_id"]),
                         ("coverage_delta", "automatic", "T-1"))
        self.assertAlmostEqual(e["raw_value"], 30.0)
        self.assertAlmostEqual(e["signal_value"], 0.65)
        self.assertEqual(e["signal_id"], "coverage:cobertura:before.info..after.xml")
        ctx = e["context"]
        self.assertEqual((ctx["via"], ctx["agent"], ctx["before"], ctx["after"]),
                         ("kaizen reward coverage", "codex", before, after))
        self.assertEqual((ctx["before_format"], ctx["after_format"]), ("lcov", "cobertura"))
        self.assertAlmostEqual(ctx["before_rate"], 0.5)
        self.assertAlmostEqual(ctx["after_rate"], 0.8)

    def test_coverage_drop_and_no_change(self):
        half = self.write("half.info", LCOV_HALF)
        eighty = self.write("eighty.xml", COBERTURA_80)
        self.assertEqual(self.reward("coverage", eighty, half).rc, EXIT_OK)
        self.assertEqual(self.reward("coverage", half, half).rc, EXIT_OK)
        drop, same = self.rewards()
        self.assertAlmostEqual(drop["signal_value"], 0.35)
        self.assertEqual(same["signal_value"], 0.5)

    def test_unreadable_reports_are_refused(self):
        half = self.write("half.info", LCOV_HALF)
        junk = self.write("junk.info", "SF:a.c\nDA:one,1\n")
        r = self.reward("coverage", half, junk)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"{junk}:2: DA:one,1 must be DA:<line>,<execution count>", r.err)
        bad_rate = self.write("bad.xml", '<coverage line-rate="2"/>')
        r = self.reward("coverage", half, bad_rate)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn('line-rate="2" must be a number in 0..1', r.err)
        self.assertEqual(self.raw_lines(), [])


if __name__ == "__main__":
    unittest.main()
