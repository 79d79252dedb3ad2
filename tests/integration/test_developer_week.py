"""One developer's week (tests/integration/fixtures/developer_week.jsonl): 26 reviews of a coding
agent's TypeScript work in the developer's own words, 10 corrections, 9 outcomes, 20 CI results
and 5 session ratings over 7 days. What kaizen learns from it must be what a person would conclude:
every complaint repeated on 4+ days is a candidate the agent is told (context, hints, memory),
marked as a candidate with its evidence, and no correction pattern contradicts its own examples.
"""

import os
import unittest

from kzlib import EXIT_OK, KaizenTest, strict_loads

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures",
                       "developer_week.jsonl")
NOW = "2025-12-15T09:00:00Z"  # the Monday after the week

# What the developer complained about, by the reviews (modal ids) that said it. A person reading
# the week would say: stop using `any`, check the response before using it, write the tests.
COMPLAINTS = {
    "types": ["pr-0", "pr-5", "pr-12", "pr-17"],  # `any` and casts: Mon, Tue, Thu, Fri
    "response-checks": ["pr-1", "pr-9", "pr-13", "pr-20"],  # res.ok: Mon, Wed, Thu, Sat
    "tests-and-edge-cases": ["pr-4", "pr-8", "pr-16", "pr-23"],  # Tue, Wed, Fri, Sun
}


class DeveloperWeekTest(KaizenTest):

    def setUp(self):
        super().setUp()
        r = self.kz("import", FIXTURE, "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)

    def kz_ok(self, *args):
        r = self.kz(*args, "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def rules(self):
        return {r["theme"]: r for r in strict_loads(self.kz_ok("rules", "--json").out)["rules"]}

    def test_every_complaint_repeated_on_four_days_is_a_candidate_with_its_evidence(self):
        rules = self.rules()
        for theme, reviews in COMPLAINTS.items():
            self.assertIn(theme, rules, f"{theme}: not learned; rules: {sorted(rules)}")
            r = rules[theme]
            # Not a rule yet: the seed's guards (5 points, 3 days, confidence 0.8) stay.
            self.assertIn(r["status"], ("emerging", "candidate"), r)
            self.assertEqual(r["occurrences"], len(reviews), r)
            self.assertEqual(r["days"], 4, r)
            self.assertTrue(r["toConfirm"], r)
            self.assertTrue(r["examples"], r)

    def test_the_agent_is_told_the_candidates_as_candidates(self):
        context = strict_loads(self.kz_ok("context", "--json").out)
        told = {p["id"]: p for p in context["patterns"]}
        hints_path = self.path("CLAUDE.md")
        self.kz_ok("hints", hints_path)
        with open(hints_path) as f:
            hints = f.read()
        self.kz_ok("render")
        with open(self.hpath("memory", "feedback-patterns.md")) as f:
            memory = f.read()
        candidates_section = hints.split("## Candidates", 1)[1].split("\n## ", 1)[0]
        memory_section = memory.split("## Candidate Rules", 1)[1].split("\n## ", 1)[0]
        for theme in COMPLAINTS:
            p = told.get(f"rule-{theme}")
            self.assertIsNotNone(p, f"{theme} not in the context: {sorted(told)}")
            self.assertIn(p["status"], ("emerging", "candidate"), p)
            self.assertTrue(p["instruction"].startswith("Candidate, not a rule yet: "), p)
            rule = self.rules()[theme]["rule"].replace("`", "")  # files get it sanitized
            self.assertIn(rule, candidates_section, f"{theme} not in the hints' candidates")
            self.assertIn(rule, memory_section, f"{theme} not in the memory's candidates")
        # A candidate is never written as a rule to follow.
        standards = hints.split("## Code Standards", 1)
        if len(standards) == 2:
            for theme in COMPLAINTS:
                self.assertNotIn(self.rules()[theme]["prompt_instruction"],
                                 standards[1].split("\n## ", 1)[0])

    def test_no_correction_pattern_contradicts_its_own_examples(self):
        patterns = strict_loads(self.kz_ok("corrections", "--json").out)["patterns"]
        self.assertTrue(patterns, "a week of corrections formed no pattern")
        for p in patterns:
            for example in p["examples"]:
                path = self.write("corrected.txt", example["corrected"] + "\n")
                r = self.kz("validate", path, "--json", "--home", self.home, "--now", NOW)
                flagged = {v["pattern_id"] for v in strict_loads(r.out)["violations"]}
                self.assertNotIn(p["pattern_id"], flagged,
                                 f"{p['pattern_id']} flags its own corrected example: {example}")


if __name__ == "__main__":
    unittest.main()
