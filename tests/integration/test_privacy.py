"""Privacy and retention through the binary (seed 000 §9.1, seed 004 "Privacy & Data Governance").

The consent gate, PII redaction at ingest with the encrypted map, `kaizen compact` and
`kaizen forget`. Every claim that something is gone is checked by reading every file under the
home, as `grep -r` would.
"""

import json
import os
import stat
import unittest

from kzlib import (EXIT_OK, EXIT_REJECTED, EXIT_USAGE, NOW, KaizenTest, correction_event,
                   feedback_event, jsonl, strict_loads, unique, work_event)


class PrivacyTest(KaizenTest):
    def grep_home(self, needle):
        """Files under the home whose bytes contain `needle` (like grep -rl), relative paths."""
        hits = []
        needle = needle.encode("utf-8")
        for root, _, files in os.walk(self.home):
            for name in files:
                p = os.path.join(root, name)
                with open(p, "rb") as f:
                    if needle in f.read():
                        hits.append(os.path.relpath(p, self.home))
        return sorted(hits)

    def all_lines(self):
        """Every stored line, hot and cold."""
        out = []
        for d in ("raw", "cold"):
            base = self.hpath("feedback", d)
            if not os.path.isdir(base):
                continue
            for name in sorted(os.listdir(base)):
                with open(os.path.join(base, name), "rb") as f:
                    out.extend(strict_loads(l) for l in f.read().split(b"\n")[:-1])
        return out

    def config(self, obj):
        os.makedirs(self.hpath("config"), exist_ok=True)
        with open(self.hpath("config", "privacy.json"), "w") as f:
            f.write(obj if isinstance(obj, str) else json.dumps(obj))

    def consent(self, user, on, at):
        return {"kind": "admin", "timestamp": at, "action": "consent", "user_id": user,
                "learning_mode": on}


class Consent(PrivacyTest):
    def test_learning_mode_off_means_nothing_of_the_user_is_logged(self):
        user = unique("jordan")
        self.record_ok("admin", self.consent(user, False, "2025-07-10T09:00:00Z"))
        # `record`: not stored, not an error.
        r = self.record("correction", jsonl(correction_event(user_id=user,
                                                             original="private words")))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.lines, [], r)
        self.assertIn("1 events skipped", r.err)
        self.assertIn("learning mode is off", r.err)
        # `import --json`, mixed users: the summary counts what was skipped, and why per line.
        other = unique("casey")
        mine = feedback_event(reviewerId=user)
        theirs = feedback_event(reviewerId=other)
        r = self.import_("-", "--json", input=jsonl(mine, theirs,
                                                    correction_event(user_id=user)))
        self.assertEqual(r.rc, EXIT_OK, r)
        objs = [json.loads(l) for l in r.lines]
        self.assertEqual(objs[-1]["summary"]["stored"], 1)
        self.assertEqual(objs[-1]["summary"]["skipped"], 2)
        self.assertEqual(objs[-1]["summary"]["rejected"], 0)
        self.assertTrue(objs[0]["skipped"])
        self.assertIn("learning mode is off", objs[0]["reason"])
        # The text summary says it too.
        r = self.import_("-", input=jsonl(correction_event(user_id=user)))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("skipped 1 (learning mode off for their user)", r.out)
        # grep: nothing of the user anywhere, not even the consent event (a pseudonym).
        self.assertEqual(self.grep_home(user), [])
        self.assertEqual(self.grep_home("private words"), [])
        self.assertEqual(self.verify().rc, EXIT_OK)

    def test_the_state_survives_a_restart_and_a_lost_cache_and_switches_back_on(self):
        user = unique("jordan")
        self.record_ok("admin", self.consent(user, False, "2025-07-10T09:00:00Z"))
        for cache in ("ingest.cache", "ingest.watermark"):
            os.remove(self.hpath("feedback", "indexes", cache))
        r = self.record("correction", jsonl(correction_event(user_id=user)))
        self.assertEqual((r.rc, r.lines), (EXIT_OK, []), r)
        self.record_ok("admin", self.consent(user, True, "2025-07-10T10:00:00Z"))
        self.record_ok("correction", correction_event(user_id=user, original="back on"))
        self.assertEqual(self.grep_home("back on"), ["feedback/raw/2025-07-10.jsonl"])


class Redaction(PrivacyTest):
    SECRET = "AKIAIOSFODNN7EXAMPLE"

    def test_a_listed_name_is_redacted_beside_a_longer_listed_name_that_does_not_fit(self):
        # "Ann Lee" matches the start of "Ann Leeds" but is not a whole word there; "Ann" is.
        # And a company that starts with a listed name is redacted whole, not cut at the name.
        self.config({"names": ["Ann", "Ann Lee"], "companies": ["Ann Lee Holdings"]})
        self.record_ok("feedback", feedback_event(freeText={
            "disliked": "Ann Leeds called; Ann Lee Holdings wrote; Ann Lee agreed"}))
        self.assertEqual(self.all_lines()[0]["freeText"]["disliked"],
                         "[NAME_1] Leeds called; [COMPANY_1] wrote; [NAME_2] agreed")
        self.assertEqual([f for f in self.grep_home("Ann") if f != "config/privacy.json"], [])

    def test_pii_becomes_stable_tokens_before_anything_is_written(self):
        self.config({"names": ["John Smith"], "companies": ["Globex"]})
        fb = feedback_event(freeText={
            "disliked": f"ask John Smith (john.smith@globex.com, 555-123-4567) about {self.SECRET}",
            "liked": "Globex will love it; password=hunter22"})
        self.record_ok("feedback", fb)
        self.record_ok("correction", correction_event(
            original="per john smith", corrected="per JOHN SMITH of globex"))
        for secret in ("John Smith", "john smith", "JOHN SMITH", "john.smith@globex.com",
                       "555-123-4567", self.SECRET, "hunter22", "Globex will", "globex.com"):
            # The config lists the names to redact: the only file that may hold them.
            self.assertEqual([f for f in self.grep_home(secret) if f != "config/privacy.json"],
                             [], secret)
        events = self.all_lines()
        disliked = events[0]["freeText"]["disliked"]
        self.assertEqual(disliked, "ask [NAME_1] ([EMAIL_1], [PHONE_1]) about [SECRET_1]")
        self.assertEqual(events[0]["freeText"]["liked"],
                         "[COMPANY_1] will love it; password=[SECRET_2]")
        self.assertEqual(events[1]["original"], "per [NAME_1]")  # the same person, the same token
        self.assertEqual(events[1]["corrected"], "per [NAME_1] of [COMPANY_1]")
        # The map: encrypted, readable only through `kaizen pii show`.
        key = self.hpath("keys", "pii.key")
        self.assertEqual(stat.S_IMODE(os.stat(key).st_mode), 0o600)
        self.assertEqual(os.path.getsize(key), 32)
        r = self.kz("pii", "show", "[NAME_1]", "--home", self.home, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        shown = json.loads(r.out)
        self.assertEqual((shown["category"], shown["value"]), ("NAME", "John Smith"))
        self.assertEqual(self.verify().rc, EXIT_OK)
        # Deleting the key makes the map unreadable for good.
        os.remove(key)
        r = self.kz("pii", "show", "[NAME_1]", "--home", self.home)
        self.assertEqual(r.rc, EXIT_REJECTED, r)

    def test_a_bad_privacy_config_names_the_path_value_and_rule_and_stores_nothing(self):
        self.config({"names": ["Ann", 42]})
        r = self.record("correction", jsonl(correction_event()))
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("config/privacy.json: names[1]: 42 is not a string", r.err)
        self.assert_nothing_stored()


OLD = "2025-06-01"       # 214 days before NOW: compacted and moved to the cold archive
MONTH_OLD = "2025-11-20"  # 42 days before NOW: behavioral meta averaged, free text kept
RECENT = "2025-12-20"    # 12 days before NOW: untouched


class Compact(PrivacyTest):
    def review(self, day, liked, ttd, scroll):
        return feedback_event(
            timestamp=f"{day}T10:00:00Z",
            freeText={"liked": liked, "disliked": "no retry logic"},
            annotations=[{"type": "criticism", "target": {"file": "src/secret_path.ts",
                                                          "lineStart": 3}, "text": "retry"}],
            meta={"timeToDecisionMs": ttd, "scrollDepth": scroll, "deviceType": "mobile",
                  "revisits": 2})

    def build(self):
        events = [self.review(OLD, "old verbatim words", 30000, 0.5),
                  self.review(MONTH_OLD, "month words", 10000, 0.2),
                  self.review(MONTH_OLD, "month words two", 20001, 0.4),
                  self.review(RECENT, "recent words", 5000, 0.9),
                  correction_event(timestamp=f"{OLD}T12:00:00Z", original="old original text",
                                   corrected="old corrected text")]
        r = self.import_("-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        return events

    def snapshot(self):
        out = {}
        for root, _, files in os.walk(self.home):
            for name in files:
                p = os.path.join(root, name)
                rel = os.path.relpath(p, self.home)
                if rel.startswith(("feedback/raw", "feedback/cold", "feedback/retained")):
                    with open(p, "rb") as f:
                        out[rel] = f.read()
        return out

    def test_compact_applies_the_retention_table_and_a_second_run_changes_nothing(self):
        self.build()
        ids_before = sorted(e["id"] for e in self.all_lines())
        r = self.kz("compact", "--home", self.home, "--now", NOW, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        report = json.loads(r.out)
        self.assertEqual(report["movedToCold"], 1)
        self.assertEqual(report["events"], {"freeText": 1, "corrections": 1, "annotations": 1,
                                            "behavior": 3})
        # Free text older than 90 days: only its themes; the correction's texts gone.
        for gone in ("old verbatim words", "old original text", "old corrected text",
                     "src/secret_path.ts\",\"lineStart\":3}},{\"kind"):
            self.assertEqual(self.grep_home(gone), [], gone)
        self.assertEqual(len(self.grep_home("month words")), 1)  # within 90 days: verbatim
        self.assertEqual(self.grep_home("recent words"), ["feedback/raw/2025-12-20.jsonl"])
        # The cold archive, still read by every reader of the log.
        self.assertTrue(os.path.exists(self.hpath("feedback", "cold", f"{OLD}.jsonl")))
        self.assertFalse(os.path.exists(self.hpath("feedback", "raw", f"{OLD}.jsonl")))
        self.assertEqual(sorted(e["id"] for e in self.all_lines()), ids_before)
        exported = [json.loads(l) for l in self.export().lines]
        self.assertEqual(sorted(e["id"] for e in exported), ids_before)
        by_day = {e["timestamp"][:10] + e["kind"]: e for e in exported}
        old = by_day[OLD + "feedback"]
        self.assertEqual(sorted(old["freeText"]), ["_extractedThemes", "_sentiment"])
        self.assertEqual(old["annotations"][0]["target"], {})
        self.assertEqual(old["timestamp"], f"{OLD}T10:00:00.000Z")
        old_fix = by_day[OLD + "correction"]
        self.assertEqual(old_fix["correction_type"], "factual_error")
        self.assertEqual(old_fix["_category"], "content")
        # Behavioral meta older than 30 days: averaged per day, written before being stripped.
        month = [e for e in exported if e["timestamp"].startswith(MONTH_OLD)]
        for e in month:
            self.assertEqual(e["meta"]["timeToDecisionMs"], 15001)  # round((10000 + 20001) / 2)
            for field in ("scrollDepth", "deviceType", "revisits"):
                self.assertNotIn(field, e["meta"])
            self.assertIn("liked", e["freeText"])
        recent = by_day[RECENT + "feedback"]
        self.assertEqual(recent["meta"]["scrollDepth"], 0.9)
        with open(self.hpath("feedback", "retained", "behavior.json")) as f:
            day = json.load(f)["days"][MONTH_OLD]
        self.assertEqual(day["reviews"], 2)
        self.assertEqual(day["scrollDepth"]["n"], 2)
        self.assertAlmostEqual(day["scrollDepth"]["mean"], 0.3)
        self.assertEqual(day["deviceType"], {"mobile": 2})
        self.assertEqual(self.verify().rc, EXIT_OK)
        # Idempotent: a second compact changes no byte.
        before = self.snapshot()
        r = self.kz("compact", "--home", self.home, "--now", NOW, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(json.loads(r.out)["events"], {"freeText": 0, "corrections": 0,
                                                       "annotations": 0, "behavior": 0})
        self.assertEqual(self.snapshot(), before)
        # An old event imported later lands in the hot file, and the next compact merges it.
        late = self.review(OLD, "late old words", 1000, 0.1)
        self.assertEqual(self.import_("-", input=jsonl(late)).rc, EXIT_OK)
        self.assertEqual(self.kz("compact", "--home", self.home, "--now", NOW).rc, EXIT_OK)
        self.assertFalse(os.path.exists(self.hpath("feedback", "raw", f"{OLD}.jsonl")))
        self.assertEqual(self.grep_home("late old words"), [])
        ids_after = [e["id"] for e in self.all_lines()]
        self.assertEqual(len(ids_after), len(ids_before) + 1)
        self.assertLessEqual(set(ids_before), set(ids_after))
        self.assertEqual(self.verify().rc, EXIT_OK)


class Forget(PrivacyTest):
    def build(self, user, other, session):
        self.config({"names": ["Priya Patel"]})
        work = work_event()
        events = [work,
                  feedback_event(work_ref={"id": work["workProduct"]["id"]}, reviewerId=user,
                                 sessionId=session,
                                 freeText={"disliked": f"mail {user}@corp.io about Priya Patel"}),
                  feedback_event(reviewerId=user, timestamp="2025-03-01T10:00:00Z"),
                  correction_event(user_id=user, original="Priya Patel wrote it"),
                  feedback_event(reviewerId=other, freeText={"liked": "fine by Priya Patel"}),
                  correction_event(user_id=other, session_id=unique("cs"))]
        r = self.import_("-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        # Rendered files and a cold file exist before the forget, so both must be cleaned.
        self.assertEqual(self.kz("compact", "--home", self.home, "--now", NOW).rc, EXIT_OK)
        self.assertEqual(self.kz("render", "--home", self.home, "--now", NOW).rc, EXIT_OK)

    def test_forget_user_removes_every_trace(self):
        user, other, session = unique("uforget"), unique("ukeep"), unique("sforget")
        self.build(user, other, session)
        self.assertNotEqual(self.grep_home(user), [])
        r = self.kz("forget", "--user", user, "--home", self.home, "--now", NOW, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        report = json.loads(r.out)
        self.assertEqual(report["removedEvents"], 3)
        self.assertEqual(report["remainingMentions"], [])
        self.assertGreaterEqual(report["piiEntriesRemoved"], 1)  # the user's email
        self.assertEqual(self.grep_home(user), [])
        # The other reviewer's events stay, and Priya Patel's token they share stays resolvable.
        self.assertNotEqual(self.grep_home(other), [])
        r = self.kz("pii", "show", "[NAME_1]", "--home", self.home, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual([s["user"] for s in json.loads(r.out)["sources"]], [other])
        r = self.kz("pii", "show", "[EMAIL_1]", "--home", self.home)
        self.assertEqual(r.rc, EXIT_REJECTED, r)  # the forgotten user's email is gone
        # The audit trail: a deletion_request with the pseudonym.
        audit = [e for e in self.all_lines() if e.get("action") == "deletion_request"]
        self.assertEqual(len(audit), 1)
        self.assertEqual(audit[0]["user_id"], report["auditId"])
        self.assertTrue(audit[0]["user_id"].startswith("blake2b:"))
        self.assertEqual(self.verify().rc, EXIT_OK)
        # Forgetting twice is harmless.
        r = self.kz("forget", "--user", user, "--home", self.home, "--now", NOW, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(json.loads(r.out)["removedEvents"], 0)

    def test_forget_session_removes_its_events(self):
        user, other, session = unique("uforget"), unique("ukeep"), unique("sforget")
        self.build(user, other, session)
        r = self.kz("forget", "--session", session, "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("removed 1 events", r.out)
        self.assertEqual(self.grep_home(session), [])
        self.assertNotEqual(self.grep_home(user), [])  # the user's other sessions stay
        self.assertEqual(self.verify().rc, EXIT_OK)

    def test_forget_needs_exactly_one_of_user_or_session(self):
        self.assertEqual(self.kz("forget", "--home", self.home).rc, EXIT_USAGE)
        self.assertEqual(self.kz("forget", "--user", "a", "--session", "b", "--home",
                                 self.home).rc, EXIT_USAGE)


if __name__ == "__main__":
    unittest.main()
