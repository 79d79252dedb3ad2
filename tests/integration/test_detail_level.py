"""Detail level (issue 31 item 5, seed 000 §3.5): which summary sections reviewers read or open for
more, from the review page's meta.sections, told to the agent as which to drop and which to
expand. The page's side is tested in a real browser (test_web_review.py)."""

import unittest

from kzlib import EXIT_OK, KaizenTest, feedback_event, jsonl, strict_loads

NOW = "2025-07-20T00:00:00Z"


def review(day, expanded):
    meta = {"timeToDecisionMs": 40000, "deviceType": "desktop",
            "sections": [{"name": "Architecture Decisions", "visibleMs": 400, "expanded": False},
                         {"name": "Test Coverage", "visibleMs": 12000, "expanded": expanded}]}
    return feedback_event(timestamp=f"2025-07-{day:02d}T10:00:00Z", meta=meta)


class DetailLevelTest(KaizenTest):
    def test_sections_skipped_and_sections_opened_reach_the_hints(self):
        r = self.import_("-", input=jsonl(*[review(d, d % 3 != 0) for d in range(1, 7)]))
        self.assertEqual(r.rc, EXIT_OK, r)
        r = self.kz("analyze", "--json", "--only", "communication", "--home", self.home, "--now",
                    NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        detail = {s["section"]: s for s in strict_loads(r.out)["communication"]["detailLevel"]}
        self.assertEqual((detail["Architecture Decisions"]["read"],
                          detail["Architecture Decisions"]["advice"]), (0, "drop"))
        self.assertEqual((detail["Test Coverage"]["expanded"],
                          detail["Test Coverage"]["advice"]), (4, "expand"))
        self.assertEqual(detail["Test Coverage"]["meanVisibleSeconds"], 12.0)
        hints = self.path("CLAUDE.md")
        self.assertEqual(self.kz("hints", hints, "--home", self.home, "--now", NOW).rc, EXIT_OK)
        text = open(hints).read()
        self.assertIn("Summary section \u201cArchitecture Decisions\u201d: read in 0 of 6 reviews "
                      "that showed it; compress it or leave it out", text)
        self.assertIn("Summary section \u201cTest Coverage\u201d: reviewers opened it for more in "
                      "4 of 6 reviews; put it first, in full", text)

    def test_a_section_without_its_time_is_refused_naming_the_field(self):
        bad = review(1, False)
        del bad["meta"]["sections"][0]["visibleMs"]
        r = self.record("feedback", jsonl(bad))
        self.assertNotEqual(r.rc, EXIT_OK)
        self.assertIn("meta.sections[0].visibleMs: missing (required number)", r.err)


if __name__ == "__main__":
    unittest.main()
