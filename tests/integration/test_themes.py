"""`kaizen themes` and <home>/config/themes.json through the binary: the shipped taxonomy, a user
file that extends it (a new theme, keywords added to a shipped one), one that replaces it, and the
errors of a bad file. Ingest uses the same taxonomy: a stored review gets the user's theme.
"""

import json
import os
import unittest

from kzlib import (EXIT_OK, EXIT_USAGE, KaizenTest, feedback_event, jsonl, strict_loads)

SHIPPED = ["error-handling", "input-validation", "naming", "tests-and-edge-cases",
           "documentation", "rate-limiting", "retries", "security", "performance", "types",
           "architecture", "readability", "logging", "concurrency", "null-handling",
           "response-checks", "magic-numbers", "dead-code", "dependencies"]


class ThemesTest(KaizenTest):
    def write_themes(self, doc):
        os.makedirs(self.hpath("config"), exist_ok=True)
        with open(self.hpath("config", "themes.json"), "w", encoding="utf-8") as f:
            f.write(doc if isinstance(doc, str) else json.dumps(doc))

    def themes(self, *flags):
        return self.kz("themes", "--home", self.home, *flags)

    def themes_json(self):
        r = self.themes("--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        return strict_loads(r.out)

    def test_default_listing_is_the_shipped_taxonomy(self):
        doc = self.themes_json()
        self.assertEqual([t["name"] for t in doc["themes"]], SHIPPED)
        self.assertTrue(all(t["origin"] == "shipped" for t in doc["themes"]))
        self.assertIn("shipped default", doc["source"])
        types = next(t for t in doc["themes"] if t["name"] == "types")
        for keyword in ("`any", "as unknown as", "ts-ignore", "type: ignore"):
            self.assertIn(keyword, types["keywords"])
        checks = next(t for t in doc["themes"] if t["name"] == "response-checks")
        self.assertIn("res.ok", checks["keywords"])

        text = self.themes()
        self.assertEqual(text.rc, EXIT_OK, text)
        self.assertIn(f"({len(SHIPPED)} themes): the shipped default", text.out)
        self.assertIn("\nresponse-checks (shipped, ", text.out)

    def test_a_user_theme_is_added_and_the_shipped_ones_stay(self):
        self.write_themes({"themes": [
            {"name": "i18n", "keywords": ["translation", "gettext"]},
            {"name": "logging", "keywords": ["LOG.debug("]},
        ]})
        doc = self.themes_json()
        names = [t["name"] for t in doc["themes"]]
        self.assertEqual(names, SHIPPED + ["i18n"])
        by_name = {t["name"]: t for t in doc["themes"]}
        self.assertEqual(by_name["i18n"]["origin"], "user")
        self.assertEqual(by_name["logging"]["origin"], "extended")
        self.assertEqual(by_name["logging"]["addedKeywords"], ["log.debug("])
        self.assertEqual(by_name["types"]["origin"], "shipped")
        self.assertIn("extended by", doc["source"])
        self.assertIn("\nlogging (extended, ", self.themes().out)

        # Ingest uses the same taxonomy.
        e = feedback_event(freeText={"disliked": "uses any again; missing translation"})
        r = self.record("feedback", jsonl(e))
        self.assertEqual(r.rc, EXIT_OK, r)
        stored = self.stored_events()[0]
        self.assertEqual(stored["freeText"]["_extractedThemes"], ["types", "i18n"])

    def test_replace_true_makes_the_file_the_whole_taxonomy(self):
        self.write_themes({"replace": True,
                           "themes": [{"name": "retries", "keywords": ["retry"]}]})
        doc = self.themes_json()
        self.assertEqual([(t["name"], t["origin"]) for t in doc["themes"]],
                         [("retries", "user")])
        self.assertIn("replace", doc["source"])

    def test_a_bad_file_names_field_value_and_rule_and_exits_non_zero(self):
        self.write_themes({"themes": [{"name": "i18n", "keywords": ["translation"]},
                                      {"name": "Bad Name", "keywords": ["x"]}]})
        r = self.themes()
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertEqual(r.out, "")
        self.assertIn("config/themes.json: themes[1].name: \"Bad Name\" must be a lowercase slug",
                      r.err)

        self.write_themes({"replace": "yes", "themes": [{"name": "a", "keywords": ["x"]}]})
        r = self.themes("--json")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("replace: \"yes\" must be true", r.err)

        self.write_themes("{not json")
        r = self.themes()
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("not valid JSON", r.err)

    def test_a_bad_file_stops_ingest_too(self):
        self.write_themes({"themes": [{"name": "x", "keywords": [""]}]})
        r = self.record("feedback", jsonl(feedback_event()))
        self.assertNotEqual(r.rc, EXIT_OK, r)
        self.assertIn("themes[0].keywords[0]: \"\" must be a non-empty string", r.err)


if __name__ == "__main__":
    unittest.main()
