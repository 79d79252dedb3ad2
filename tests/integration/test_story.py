"""The whole story of issue 4, through the binary, on one home and a fixed clock.

Reviews that keep rejecting missing retry logic produce a rule; the rule appears in the hints file
and the pre-review checklist; `kaizen check` flags an artifact without retries; the fixed artifact
passes; the later approval of that artifact improves the calibration.
"""

import unittest

from kzlib import EXIT_OK, EXIT_REJECTED, NOW, KaizenTest, feedback_event, jsonl, strict_loads
# The retry history and the two clients of test_check (imported as a module, so that its test
# case is not collected here a second time).
import test_check as fixtures

TASK, COMPLAINT = fixtures.TASK, fixtures.COMPLAINT

HUMAN_PART = "# Project notes\n\nWritten by people; kaizen must keep this byte for byte.\r\n\n"


class RetryStoryTest(KaizenTest):
    def kz_ok(self, *args, input=None):
        r = self.kz(*args, "--home", self.home, input=input)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def ece(self):
        doc = strict_loads(self.kz_ok("analyze", "--json", "--now", NOW).out_bytes)
        return doc["calibration"]["ece"]

    def test_rejections_become_a_rule_the_agent_reads_checks_and_then_passes(self):
        # 1. Ten rejections over ten days about the same missing retries.
        history = [fixtures.rejection(day) for day in range(1, 11)]
        self.kz_ok("import", "-", "--now", NOW, input=jsonl(*history))

        # 2. They are an active rule, with the reviewer's words as evidence.
        rules = strict_loads(self.kz_ok("rules", "--json", "--now", NOW).out_bytes)["rules"]
        retries = [r for r in rules if r["id"] == "rule-retries"]
        self.assertEqual(len(retries), 1, rules)
        self.assertEqual(retries[0]["status"], "active")
        self.assertIn(COMPLAINT, retries[0]["examples"])

        # 3. The hints file carries the rule and the checklist, below the marker; the part
        #    people wrote above it is kept byte for byte.
        hints = self.path("AGENTS.md")
        with open(hints, "wb") as f:
            f.write(HUMAN_PART.encode())
        self.kz_ok("hints", hints, "--now", NOW)
        text = open(hints, "rb").read().decode()
        self.assertTrue(text.startswith(HUMAN_PART))
        generated = text[text.index("DO NOT EDIT BELOW THIS LINE"):]
        self.assertIn(retries[0]["prompt_instruction"], generated)
        self.assertIn("All external API calls have retry logic with exponential backoff",
                      generated)
        first = open(hints, "rb").read()
        self.kz_ok("hints", hints, "--now", NOW)
        self.assertEqual(open(hints, "rb").read(), first)  # same log, same now: same bytes

        # 4. `kaizen render` writes the prompt artifacts with the rule and the checklist.
        self.kz_ok("render", "--now", NOW)
        # Every rejection came from api-client work: the rule is that server type's.
        with open(self.hpath("prompts", "server-types", TASK + ".md")) as f:
            self.assertIn(retries[0]["prompt_instruction"], f.read())
        with open(self.hpath("prompts", "pre-review-checklist.md")) as f:
            self.assertIn("retry logic with exponential backoff", f.read())

        # 5. The self-check flags an artifact without retries ...
        client = self.write("client.ts", fixtures.UNSAFE_CLIENT)
        bad = self.kz("check", client, "--task-type", TASK, "--json", "--home", self.home,
                      "--now", NOW)
        self.assertEqual(bad.rc, EXIT_REJECTED, bad)
        self.assertIn("rule-retries", [v["rule"] for v in strict_loads(bad.out_bytes)["violations"]])

        # 6. ... and passes the fixed one, recording its prediction as a `work` event.
        client = self.write("client.ts", fixtures.FIXED_CLIENT)
        good = self.kz("check", client, "--task-type", TASK, "--json", "--home", self.home,
                       "--now", NOW)
        self.assertEqual(good.rc, EXIT_OK, good)
        good = strict_loads(good.out_bytes)
        self.assertEqual(good["violations"], [])

        # 7. The reviewer approves it: the prediction meets its outcome and the expected
        #    calibration error falls (the history's 0.5 predictions were all rejected).
        before = self.ece()
        review = feedback_event(timestamp="2026-01-01T00:30:00Z", mcpServerType=TASK,
                                workProduct={"id": good["artifactId"]},
                                decision={"decision": "approved", "reason": "retries are right"},
                                scores=[{"dimension": "error-handling", "score": 8}])
        self.kz_ok("import", "-", "--now", NOW, input=jsonl(review))
        self.assertLess(self.ece(), before)


if __name__ == "__main__":
    unittest.main()
