"""`kaizen rebuild` and `kaizen verify`: derived files are a pure function of the raw log, and the
ingest cache is only a cache."""

import json
import os
import shutil
import unittest
import uuid

from kzlib import (EXIT_OK, EXIT_REJECTED, EXIT_USAGE, KaizenTest, feedback_event,
                   generated_history, jsonl, kaizen, outcome_event, work_event)

class Rebuild(KaizenTest):

    def setUp(self):
        super().setUp()
        r = self.import_(generated_history(self.tmp, 3000, 5))
        self.assertEqual(r.rc, EXIT_OK, r)

    def derived(self, with_cache=False):
        """{relative path: bytes} of every derived file (the ingest cache only if asked)."""
        out = {}
        for sub in ("indexes", "aggregates"):
            root = self.hpath("feedback", sub)
            for dirpath, _, names in os.walk(root):
                for n in names:
                    p = os.path.join(dirpath, n)
                    rel = os.path.relpath(p, self.hpath("feedback"))
                    if not with_cache and (n in ("ingest.cache", "ingest.watermark", "ingest.index")
                                           or n.startswith("learned.ckpt")):
                        continue
                    with open(p, "rb") as f:
                        out[rel] = f.read()
        return out

    def rebuild(self):
        r = self.kz("rebuild", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def test_rebuild_writes_indexes_and_aggregates_as_valid_json(self):
        r = self.rebuild()
        files = self.derived()
        for name in ("by-decision.json", "by-dimension.json", "by-server-type.json",
                     "by-stage.json"):
            self.assertIn(os.path.join("indexes", name), files)
        self.assertIn(os.path.join("aggregates", "rolling-30d.json"), files)
        self.assertTrue(any(k.startswith(os.path.join("aggregates", "weekly", "")) for k in files))
        self.assertTrue(any(k.startswith(os.path.join("aggregates", "monthly", "")) for k in files))
        for rel, data in files.items():
            with self.subTest(file=rel):
                json.loads(data)
        self.assertIn(f"rebuilt {len(files)} derived files from 3000 events", r.out)

    def test_rebuild_json_counts_events_and_files(self):
        r = self.kz("rebuild", "--json", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(json.loads(r.out), {"events": 3000, "files": len(self.derived())})

    def test_rebuild_twice_gives_identical_bytes(self):
        self.rebuild()
        first = self.derived()
        self.rebuild()
        self.assertEqual(self.derived(), first)

    def test_rebuild_after_deleting_every_derived_file_gives_identical_bytes(self):
        self.rebuild()
        before = self.derived()
        shutil.rmtree(self.hpath("feedback", "indexes"))
        shutil.rmtree(self.hpath("feedback", "aggregates"))
        self.rebuild()
        self.assertEqual(self.derived(), before)

    def test_verify_rebuilds_the_same_derived_files_as_rebuild(self):
        self.rebuild()
        before = self.derived()
        shutil.rmtree(self.hpath("feedback", "aggregates"))
        r = self.verify()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(self.derived(), before)

    def test_rebuild_removes_aggregates_of_periods_without_events(self):
        self.rebuild()
        stray = self.hpath("feedback", "aggregates", "weekly", "1999-W01.json")
        with open(stray, "w") as f:
            f.write("{}")
        self.rebuild()
        self.assertFalse(os.path.exists(stray))

    def test_record_marks_derived_files_stale_and_rebuild_clears_it(self):
        self.rebuild()
        stale = self.hpath("feedback", "indexes", "STALE")
        self.assertFalse(os.path.exists(stale))
        before = self.derived()
        self.record_ok("feedback", feedback_event(timestamp="2025-09-30T10:00:00Z"))
        self.assertTrue(os.path.exists(stale))
        self.rebuild()
        self.assertFalse(os.path.exists(stale))
        after = self.derived()
        self.assertNotEqual(after, before)
        # the new review is counted
        dec_before = json.loads(before[os.path.join("indexes", "by-decision.json")])
        dec_after = json.loads(after[os.path.join("indexes", "by-decision.json")])
        self.assertNotEqual(dec_before, dec_after)

    def test_verify_reports_a_clean_log(self):
        r = self.verify()
        self.assertEqual(r.rc, EXIT_OK, r)
        n_files = len(self.raw_files())
        self.assertIn(f"checked 3000 events in {n_files} raw files", r.out)
        self.assertIn("rebuilt: the ingest cache (3000 events)", r.out)
        self.assertIn("ok: every stored line is a valid event", r.out)
        self.assertNotIn("problem:", r.out)

    def test_verify_json_is_a_single_valid_object(self):
        r = self.verify("--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        report = json.loads(r.out)
        self.assertEqual(report["events"], 3000)
        self.assertEqual(report["files"], len(self.raw_files()))
        self.assertTrue(report["ok"])
        self.assertEqual(report["problems"], [])

    def test_verify_does_not_change_the_raw_log(self):
        before = self.raw_bytes()
        self.assertEqual(self.verify().rc, EXIT_OK)
        self.assertEqual(self.raw_bytes(), before)


class IngestCacheIsOnlyACache(KaizenTest):

    def setUp(self):
        super().setUp()
        self.eid = str(uuid.uuid4())
        self.record_ok("outcome", outcome_event(id=self.eid))
        self.record_ok("work", work_event(art_id="art-c"))
        self.record_ok("feedback", feedback_event(session="S", modal="M"))
        self.cache = self.hpath("feedback", "indexes", "ingest.cache")
        self.watermark = self.hpath("feedback", "indexes", "ingest.watermark")
        self.assertTrue(os.path.exists(self.cache))
        self.assertTrue(os.path.exists(self.watermark))

    def assert_log_checks_still_hold(self):
        r = self.record("outcome", jsonl(outcome_event(id=self.eid)))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("is already recorded (duplicate event)", r.err)
        r = self.record("feedback", jsonl(feedback_event(session="S", modal="M")))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("duplicate submission", r.err)
        r = self.record("work", jsonl(work_event(art_id="art-c")))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        # a reference to the recorded work still resolves, with the same session count
        eid = self.record_ok("feedback", feedback_event(work_ref={"id": "art-c"}, session="S"))
        self.assertEqual(self.stored_by_id()[eid]["meta"]["sessionFatigue"], 2)
        self.assertEqual(len(self.raw_lines()), 4)

    def test_deleted_cache_and_watermark_are_rebuilt_from_raw(self):
        os.remove(self.cache)
        os.remove(self.watermark)
        self.assert_log_checks_still_hold()

    def test_deleted_cache_alone_is_rebuilt_from_raw(self):
        os.remove(self.cache)
        self.assert_log_checks_still_hold()

    def test_deleted_watermark_alone_is_rebuilt_from_raw(self):
        os.remove(self.watermark)
        self.assert_log_checks_still_hold()

    def test_deleted_indexes_directory_is_rebuilt_from_raw(self):
        shutil.rmtree(self.hpath("feedback", "indexes"))
        self.assert_log_checks_still_hold()

    def test_garbage_cache_is_rebuilt_from_raw(self):
        with open(self.cache, "r+b") as f:
            data = bytearray(f.read())
            for i in range(0, len(data), 7):
                data[i] ^= 0x5A
            f.seek(0)
            f.write(data)
        self.assert_log_checks_still_hold()

    def test_truncated_cache_is_rebuilt_from_raw(self):
        with open(self.cache, "r+b") as f:
            f.truncate(5)
        self.assert_log_checks_still_hold()

    def test_garbage_watermark_is_rebuilt_from_raw(self):
        with open(self.watermark, "wb") as f:
            f.write(b"kaizen-ingest-watermark 1\njournal 999999\n2025-07-10.jsonl 1\n")
        self.assert_log_checks_still_hold()

    def test_verify_rebuilds_the_cache(self):
        os.remove(self.cache)
        r = self.verify()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("rebuilt: the ingest cache (3 events)", r.out)
        self.assertTrue(os.path.exists(self.cache))
        self.assert_log_checks_still_hold()


class EmptyHome(KaizenTest):

    def setUp(self):
        super().setUp()
        os.mkdir(self.home)  # there, with nothing in it yet

    def test_verify_of_an_empty_home_is_ok(self):
        r = self.verify()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("checked 0 events in 0 raw files", r.out)

    def test_rebuild_of_an_empty_home_is_ok(self):
        r = self.kz("rebuild", "--json", "--home", self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(json.loads(r.out)["events"], 0)


class MissingHome(KaizenTest):
    """verify and rebuild repair a log: a home that is not there is a mistyped --home, which they
    must refuse by name and not create (they used to create it and report an empty log as ok)."""

    def test_verify_and_rebuild_refuse_a_home_that_does_not_exist_and_create_nothing(self):
        for verb in ("verify", "rebuild"):
            r = self.kz(verb, "--home", self.home)
            self.assertEqual(r.rc, EXIT_USAGE, r)
            self.assertIn(f"kaizen {verb}: no kaizen home at {self.home}", r.err)
            self.assertEqual(r.out, "", r)
            self.assertFalse(os.path.exists(self.home), f"{verb} created the home")

    def test_the_home_from_the_environment_is_refused_the_same_way(self):
        r = kaizen("verify", env={"KAIZEN_HOME": self.home})
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn(f"no kaizen home at {self.home}", r.err)
        self.assertFalse(os.path.exists(self.home))


if __name__ == "__main__":
    unittest.main()
