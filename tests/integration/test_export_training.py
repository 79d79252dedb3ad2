"""`kaizen export --format sft|dpo` (issue 31 item 4): training rows through the binary, from a
developer's week in their own words (tests/integration/fixtures/developer_week.jsonl) and from an
A/B comparison; PII stays redacted."""

import json
import os
import unittest

from kzlib import (EXIT_OK, EXIT_USAGE, KaizenTest, correction_event, feedback_event, jsonl,
                   strict_loads, work_event, work_product)

WEEK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "developer_week.jsonl")


class ExportTrainingTest(KaizenTest):
    def rows(self, fmt, *flags):
        r = self.kz("export", "--format", fmt, "--home", self.home, *flags)
        self.assertEqual(r.rc, EXIT_OK, r)
        return [strict_loads(line) for line in r.lines]

    def import_ok(self, *events, path=None):
        r = self.import_(path) if path else self.import_("-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)

    def test_a_weeks_corrections_become_preference_pairs_in_log_order(self):
        self.import_ok(path=WEEK)
        with open(WEEK) as f:
            corrections = [e for e in map(json.loads, f) if e["kind"] == "correction"]
        rows = self.rows("dpo")
        self.assertEqual(len(rows), len(corrections))
        for row, c in zip(rows, corrections):
            self.assertEqual((row["chosen"], row["rejected"], row["author"], row["session"]),
                             (c["corrected"], c["original"], c["user_id"], c["session_id"]))
            self.assertEqual(row["source"], "correction")
            self.assertEqual(row["time"][:16], c["timestamp"][:16])
        code = next(r for r in rows if r["correctionType"] == "type_safety")
        self.assertTrue(code["prompt"].startswith("Write the code (type_safety)"), code)

    def test_approved_work_becomes_supervised_rows_and_rejected_work_does_not(self):
        approved = work_event("art-ok")
        approved["workProduct"]["diff"] = "+ return retry(fetch, 3)\n"
        rejected = work_event("art-bad")
        self.import_ok(approved, rejected,
                       feedback_event({"id": "art-ok", "version": "v1"}, reviewerId="ana",
                                      decision={"decision": "approved", "reason": "good"}),
                       feedback_event({"id": "art-bad", "version": "v1"},
                                      decision={"decision": "rejected", "reason": "no",
                                                "severity": "major"}))
        [row] = self.rows("sft")
        self.assertEqual(row["completion"], "+ return retry(fetch, 3)\n")
        self.assertEqual(row["prompt"],
                         "code-module src/client.ts (stage implement): a client module")
        self.assertEqual((row["source"], row["author"]), ("approved-work", "ana"))

    def test_an_ab_comparison_becomes_a_pair_of_the_preferred_option(self):
        a, b = work_product("opt-a"), work_product("opt-b")
        a["summary"], b["summary"] = "retries with backoff", "no retries"
        self.import_ok(feedback_event(a, comparison={
            "optionA": a, "optionB": b, "preferred": "A", "preferenceStrength": "moderate",
            "dimensions": [{"dimension": "error-handling", "winner": "A"}]}))
        [row] = self.rows("dpo")
        self.assertEqual((row["chosen"], row["rejected"], row["strength"], row["winners"]),
                         ("retries with backoff", "no retries", "moderate",
                          {"error-handling": "chosen"}))

    def test_personal_data_stays_redacted(self):
        self.import_ok(correction_event(original="Mail jane.doe@example.com today",
                                        corrected="Mail jane.doe@example.com by Friday"))
        [row] = self.rows("dpo")
        self.assertNotIn("jane.doe@example.com", json.dumps(row))
        self.assertIn("[EMAIL_1]", row["chosen"])

    def test_kind_does_not_combine_with_a_training_format(self):
        r = self.kz("export", "--format", "dpo", "--kind", "correction", "--home", self.home)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("--kind", r.err)
        r = self.kz("export", "--format", "parquet", "--home", self.home)
        self.assertEqual(r.rc, EXIT_USAGE, r)


if __name__ == "__main__":
    unittest.main()
