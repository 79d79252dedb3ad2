"""`kaizen rules`: the rule lifecycle of seed 000 §3.2/§8.1 through the binary.

Rejections that name the same problem on enough days become a candidate (5+ points over 3+ days),
then an active rule (confidence above 0.8); `admin` rule_audit events retire or confirm it.
"""

import json
import unittest

from kzlib import EXIT_OK, EXIT_USAGE, KaizenTest, admin_event, feedback_event, jsonl, strict_loads

NOW = "2025-07-20T00:00:00Z"


def rejection(day, server="shopify", blocker="No retries or backoff on the API calls"):
    e = feedback_event(timestamp=f"2025-07-{day:02d}T10:00:00Z", mcpServerType=server,
                       decision={"decision": "rejected", "severity": "major",
                                 "reason": "not ready", "blockers": [blocker]})
    return e


class RulesTest(KaizenTest):
    def rules(self, *flags, now=NOW):
        r = self.kz("rules", "--home", self.home, "--now", now, *flags)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def rules_json(self, now=NOW):
        return strict_loads(self.rules("--json", now=now).out)

    def record_all(self, kind, events):
        r = self.record(kind, jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)

    def test_empty_home_has_no_rules(self):
        doc = self.rules_json()
        self.assertEqual(doc, {"rules": [], "rejectionPatterns": []})
        self.assertIn("none yet", self.rules().out)

    def test_five_rejections_on_five_days_make_a_candidate_not_a_rule(self):
        self.record_all("feedback", [rejection(d) for d in range(1, 6)])
        doc = self.rules_json()
        self.assertEqual(len(doc["rules"]), 1)
        rule = doc["rules"][0]
        self.assertEqual(rule["id"], "rule-retries")
        self.assertEqual(rule["status"], "candidate")
        self.assertEqual(rule["occurrences"], 5)
        self.assertLess(rule["confidence"], 0.8)
        self.assertIsNone(rule["promotedAt"])

    def test_seven_consistent_rejections_make_an_active_rule_with_its_evidence(self):
        self.record_all("feedback", [rejection(d) for d in range(1, 9)])
        rule = self.rules_json()["rules"][0]
        self.assertEqual(rule["status"], "active")
        self.assertGreater(rule["confidence"], 0.8)
        self.assertEqual(rule["promotedAt"], "2025-07-07T10:00:00.000Z")  # the 7th
        self.assertEqual(rule["source"], "rejection-analysis")
        self.assertEqual(rule["domain"], "error-handling")
        self.assertEqual(rule["applies_to"], ["shopify"])
        self.assertEqual(rule["first_seen"], "2025-07-01T10:00:00.000Z")
        self.assertEqual(rule["last_seen"], "2025-07-08T10:00:00.000Z")
        self.assertEqual(rule["examples"], ["No retries or backoff on the API calls"] * 3)
        self.assertIn("retry logic with exponential backoff", rule["prompt_instruction"])
        text = self.rules().out
        self.assertIn("rule-retries [active]", text)
        self.assertIn("reviewer: \u201cNo retries or backoff on the API calls\u201d", text)
        self.assertIn("1. Missing retry logic on external calls (8x", text)

    def test_rejection_registry_lists_the_top_reasons_first(self):
        events = [rejection(d) for d in range(1, 4)]
        events.append(rejection(4, server="stripe", blocker="variable names are cryptic"))
        self.record_all("feedback", events)
        registry = self.rules_json()["rejectionPatterns"]
        self.assertEqual([p["theme"] for p in registry], ["retries", "naming"])
        self.assertEqual(registry[0]["occurrences"], 3)
        self.assertEqual(registry[0]["checklistItem"],
                         "All external API calls have retry logic with exponential backoff")
        self.assertEqual(registry[1]["serverTypes"], ["stripe"])

    def test_audit_retires_then_confirms_a_rule(self):
        self.record_all("feedback", [rejection(d) for d in range(1, 9)])
        self.record_all("admin", [admin_event(timestamp="2025-07-10T09:00:00Z",
                                              action="rule_audit", rule_id="rule-retries",
                                              verdict="retire", note="we retry in the gateway")])
        rule = self.rules_json()["rules"][0]
        self.assertEqual(rule["status"], "retired")
        self.assertEqual(rule["audits"][0]["verdict"], "retire")
        self.record_all("admin", [admin_event(timestamp="2025-07-11T09:00:00Z",
                                              action="rule_audit", rule_id="rule-retries",
                                              verdict="confirm")])
        rule = self.rules_json()["rules"][0]
        self.assertEqual(rule["status"], "active")
        self.assertTrue(rule["confirmed"])

    def test_an_active_rule_is_due_for_audit_after_thirty_days(self):
        self.record_all("feedback", [rejection(d) for d in range(1, 9)])
        self.assertFalse(self.rules_json(now="2025-08-06T10:00:00Z")["rules"][0]["auditDue"])
        self.assertTrue(self.rules_json(now="2025-08-06T10:00:01Z")["rules"][0]["auditDue"])
        self.assertIn("audit due", self.rules(now="2025-08-08T00:00:00Z").out)

    def test_same_log_same_now_same_bytes(self):
        self.record_all("feedback", [rejection(d) for d in range(1, 9)])
        self.assertEqual(self.rules("--json").out_bytes, self.rules("--json").out_bytes)

    def test_bad_now_is_a_usage_error(self):
        r = self.kz("rules", "--home", self.home, "--now", "yesterday")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("yesterday", r.err)


if __name__ == "__main__":
    unittest.main()
