"""`kaizen reward ci` and `kaizen reward coverage`: seed 001 tier 1 reward signals, through the binary.

Normalization (seed 001): CI result pass/fail -> 1.0/0.0; coverage delta -100..+100 points ->
0.0..1.0 with 0.5 for no change.
"""

import os
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


class ReportEncodings(RewardTest):
    """Reports as Windows tools and shells write them, and file names that are not UTF-8."""

    def test_lcov_with_a_utf8_byte_order_mark_reads_its_first_record(self):
        half = self.write("half.info", LCOV_HALF)
        # The mark before SF: (no TN: line first), Windows line endings.
        after = LCOV_HALF.replace("TN:\n", "").replace("DA:2,0", "DA:2,1")
        bom = self.write("bom.info", b"\xef\xbb\xbf" + after.replace("\n", "\r\n").encode())
        r = self.reward("coverage", half, bom)
        self.assertEqual(r.rc, EXIT_OK, r)
        (e,) = self.rewards()
        self.assertEqual(e["raw_value"], 25)  # 2 of 4 lines -> 3 of 4

    def test_utf16_cobertura_is_read_as_xml(self):
        half = self.write("half.info", LCOV_HALF)
        utf16 = self.write("cov16.xml", COBERTURA_80.replace('"1.0"?>', '"1.0" encoding="UTF-16"?>')
                           .encode("utf-16"))
        r = self.reward("coverage", half, utf16)
        self.assertEqual(r.rc, EXIT_OK, r)
        (e,) = self.rewards()
        self.assertAlmostEqual(e["raw_value"], 30)
        self.assertEqual(e["context"]["after_format"], "cobertura")

    def test_utf16_lcov_is_refused_naming_the_encoding(self):
        half = self.write("half.info", LCOV_HALF)
        utf16 = self.write("cov16.info", LCOV_HALF.encode("utf-16"))
        r = self.reward("coverage", half, utf16)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"{utf16}: UTF-16 text; an lcov tracefile must be ASCII or UTF-8", r.err)
        self.assertEqual(self.raw_lines(), [])

    def test_empty_reports_are_refused_as_empty(self):
        half = self.write("half.info", LCOV_HALF)
        for name, args in [("junit.xml", ["ci", "--junit"]), ("after.info", ["coverage", half]),
                           ("after.xml", ["coverage", half])]:
            with self.subTest(name=name):
                empty = self.write(name, "\n")
                r = self.reward(*args, empty)
                self.assertEqual(r.rc, EXIT_REJECTED, r)
                self.assertIn(f"{empty}: the file is empty (1 bytes)", r.err)
        self.assertEqual(self.raw_lines(), [])

    def test_report_whose_file_name_is_not_utf8_is_still_recorded(self):
        junit = self.write(os.fsdecode(b"r\xe9sultat.xml"), JUNIT_PASS)
        r = self.reward("ci", "--junit", junit)
        self.assertEqual(r.rc, EXIT_OK, r)
        half = self.write("half.info", LCOV_HALF)
        after = self.write(os.fsdecode(b"apr\xe8s.info"), LCOV_HALF)
        r = self.reward("coverage", half, after)
        self.assertEqual(r.rc, EXIT_OK, r)
        ci, cov = self.rewards()
        self.assertEqual(ci["signal_id"], "ci:junit:r?sultat.xml")
        self.assertEqual(ci["context"]["report"], self.path("r?sultat.xml"))
        self.assertEqual(cov["context"]["after"], self.path("apr?s.info"))

    def test_id_option_that_is_not_utf8_is_a_usage_error_naming_it(self):
        for flag in ("--task", "--session", "--commit", "--agent"):
            with self.subTest(flag=flag):
                r = self.reward("ci", "--exit-code", "0", flag, os.fsdecode(b"caf\xe9"))
                self.assertEqual(r.rc, EXIT_USAGE, r)
                self.assertIn(f'kaizen reward ci: {flag} "caf?" is not valid UTF-8', r.err)
        self.assertEqual(self.raw_lines(), [])


if __name__ == "__main__":
    unittest.main()
