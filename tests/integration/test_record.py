"""`kaizen record KIND`: storing valid events of every kind, and the enrichment added on the way."""

import json
import os
import re
import subprocess
import unittest
import uuid

from kzlib import (BIN, EXIT_OK, EXIT_REJECTED, KINDS, NOW, NOW_STORED, KaizenTest,
                   correction_event, feedback_event, is_uuid, jsonl, outcome_event, reward_event,
                   work_event, valid_event)

UTC_MS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


class RecordEachKind(KaizenTest):

    def test_valid_event_of_every_kind_is_stored_with_a_printed_uuid(self):
        for kind in KINDS:
            with self.subTest(kind=kind):
                event = valid_event(kind)
                r = self.record(kind, jsonl(event))
                self.assertEqual(r.rc, EXIT_OK, r)
                self.assertEqual(len(r.lines), 1, r)
                self.assertTrue(is_uuid(r.lines[0]), f"not a UUID: {r.lines[0]!r}")
                stored = self.stored_by_id()
                self.assertIn(r.lines[0], stored)
                self.assertEqual(stored[r.lines[0]]["kind"], kind)
        self.assertEqual(len(self.raw_lines()), len(KINDS))
        self.assert_raw_log_sound()

    def test_stored_line_starts_with_kind_id_timestamp_in_utc(self):
        for kind in KINDS:
            with self.subTest(kind=kind):
                event = valid_event(kind)
                event.pop("kind")  # the verb gives the kind
                eid = self.record_ok(kind, event)
                line = [l for l in self.raw_lines() if eid.encode() in l][0]
                e = self.stored_by_id()[eid]
                self.assertEqual(list(e)[:3], ["kind", "id", "timestamp"], line)
                self.assertEqual(e["kind"], kind)
                self.assertRegex(e["timestamp"], UTC_MS)
                # the stored line is one compact line of JSON
                self.assertNotIn(b"\r", line)

    def test_given_id_is_kept(self):
        given = str(uuid.uuid4())
        printed = self.record_ok("outcome", valid_event("outcome", id=given))
        self.assertEqual(printed, given)
        self.assertEqual(self.stored_events()[0]["id"], given)

    def test_uppercase_given_id_is_stored_as_the_same_uuid(self):
        given = str(uuid.uuid4())
        printed = self.record_ok("loop", valid_event("loop", id=given.upper()))
        self.assertEqual(printed.lower(), given)

    def test_absent_id_and_timestamp_are_generated_from_the_clock(self):
        event = valid_event("admin")
        del event["timestamp"]
        eid = self.record_ok("admin", event)
        stored = self.stored_by_id()[eid]
        self.assertEqual(stored["timestamp"], NOW_STORED)
        self.assertEqual(uuid.UUID(eid).version, 7)
        self.assertTrue(os.path.exists(self.hpath("feedback", "raw", "2026-01-01.jsonl")))

    def test_event_is_filed_under_its_utc_day(self):
        # 01:30 at +05:00 is 20:30 UTC the day before
        eid = self.record_ok("outcome", valid_event("outcome", timestamp="2025-07-11T01:30:00+05:00"))
        files = [os.path.basename(p) for p in self.raw_files()]
        self.assertEqual(files, ["2025-07-10.jsonl"])
        self.assertEqual(self.stored_by_id()[eid]["timestamp"], "2025-07-10T20:30:00.000Z")

    def test_record_reads_a_file_argument_as_well_as_stdin(self):
        p = self.write("one.json", jsonl(valid_event("error")))
        r = self.record("error", None, file=p)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_a_file_holding_one_pretty_printed_object_is_that_event(self):
        event = valid_event("feedback")
        p = self.write("review.json", json.dumps(event, indent=2) + "\n")
        r = self.record("feedback", None, file=p)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(self.raw_lines()), 1)
        stored = self.stored_by_id()[r.lines[0]]
        self.assertEqual(stored["decision"], event["decision"])
        self.assertEqual(stored["scores"], event["scores"])
        # The same file on standard input (a redirect is a file too).
        again = dict(event, modalId="modal-again", sessionId="session-again")
        p2 = self.write("again.json", json.dumps(again, indent=4))
        with open(p2, "rb") as f:
            proc = subprocess.run([BIN, "record", "feedback", "--home", self.home, "--now", NOW],
                                  stdin=f, capture_output=True, timeout=60)
        self.assertEqual(proc.returncode, EXIT_OK, proc.stderr.decode())
        self.assertEqual(len(self.raw_lines()), 2)

    def test_a_pretty_printed_object_with_a_bad_field_names_the_field(self):
        bad = dict(valid_event("outcome"), duration_ms="soon")
        p = self.write("bad.json", json.dumps(bad, indent=2))
        r = self.record("outcome", None, file=p)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("duration_ms", r.err)
        self.assert_nothing_stored()

    def test_a_pretty_printed_object_on_a_pipe_is_read_as_jsonl(self):
        # A pipe cannot be read twice: each line is an event, and these lines are broken ones.
        r = self.record("outcome", json.dumps(valid_event("outcome"), indent=2))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assert_nothing_stored()

    def test_a_file_of_jsonl_stays_jsonl(self):
        p = self.write("two.jsonl", jsonl(valid_event("outcome"), valid_event("outcome")))
        r = self.record("outcome", None, file=p)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(self.raw_lines()), 2)

    def test_jsonl_batch_prints_one_id_per_stored_line_in_order(self):
        events = [valid_event("outcome", id=str(uuid.uuid4())) for _ in range(5)]
        r = self.record("outcome", jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.lines, [e["id"] for e in events])

    def test_record_json_reports_each_line(self):
        r = self.record("outcome", jsonl(valid_event("outcome"), {"bead_id": "x"}), "--json")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        first, second = [json.loads(l) for l in r.lines]
        self.assertEqual(first["line"], 1)
        self.assertTrue(first["stored"])
        self.assertTrue(is_uuid(first["id"]))
        self.assertEqual(second["line"], 2)
        self.assertFalse(second["stored"])
        paths = {e["path"] for e in second["errors"]}
        self.assertIn("duration_ms", paths)
        self.assertEqual(r.err, "")


class Enrichment(KaizenTest):

    def test_timestamp_with_offset_is_stored_in_utc_and_time_of_day_uses_local_hour(self):
        # 23:30 at +02:00: local night, 21:30 UTC (evening). A Thursday locally and in UTC.
        fb = feedback_event(timestamp="2025-07-10T23:30:00+02:00")
        eid = self.record_ok("feedback", fb)
        e = self.stored_by_id()[eid]
        self.assertEqual(e["timestamp"], "2025-07-10T21:30:00.000Z")
        self.assertEqual(e["meta"]["timeOfDay"], "night")
        self.assertEqual(e["meta"]["dayOfWeek"], "thursday")

    def test_day_of_week_uses_the_local_day(self):
        # 01:00 Saturday at +03:00 is 22:00 Friday UTC.
        eid = self.record_ok("feedback", feedback_event(timestamp="2025-07-12T01:00:00+03:00"))
        e = self.stored_by_id()[eid]
        self.assertEqual(e["timestamp"], "2025-07-11T22:00:00.000Z")
        self.assertEqual(e["meta"]["dayOfWeek"], "saturday")
        self.assertEqual(e["meta"]["timeOfDay"], "night")
        self.assertEqual(os.path.basename(self.raw_files()[0]), "2025-07-11.jsonl")

    def test_time_of_day_buckets(self):
        for hour, bucket in [("05", "morning"), ("11", "morning"), ("12", "afternoon"),
                             ("16", "afternoon"), ("17", "evening"), ("20", "evening"),
                             ("21", "night"), ("04", "night")]:
            with self.subTest(hour=hour):
                eid = self.record_ok("feedback",
                                     feedback_event(timestamp=f"2025-07-09T{hour}:15:00-07:00"))
                self.assertEqual(self.stored_by_id()[eid]["meta"]["timeOfDay"], bucket)

    def test_session_fatigue_counts_reviews_in_the_session(self):
        ids = [self.record_ok("feedback", feedback_event(session="S-fatigue")) for _ in range(3)]
        other = self.record_ok("feedback", feedback_event(session="S-other"))
        stored = self.stored_by_id()
        self.assertEqual([stored[i]["meta"]["sessionFatigue"] for i in ids], [1, 2, 3])
        self.assertEqual(stored[other]["meta"]["sessionFatigue"], 1)

    def test_session_fatigue_counts_within_one_batch(self):
        r = self.record("feedback", jsonl(*[feedback_event(session="S-batch") for _ in range(3)]))
        self.assertEqual(r.rc, EXIT_OK, r)
        stored = self.stored_by_id()
        self.assertEqual([stored[i]["meta"]["sessionFatigue"] for i in r.lines], [1, 2, 3])

    def test_client_supplied_enrichment_fields_are_recomputed(self):
        fb = feedback_event(session="S-spoof")
        fb["meta"].update({"timeOfDay": "morning", "dayOfWeek": "sunday", "sessionFatigue": 99})
        fb["timestamp"] = "2025-07-10T22:00:00Z"  # a Thursday night
        fb["freeText"] = {"liked": "fine", "_sentiment": 1, "_extractedThemes": ["fake"]}
        eid = self.record_ok("feedback", fb)
        e = self.stored_by_id()[eid]
        self.assertEqual(e["meta"]["timeOfDay"], "night")
        self.assertEqual(e["meta"]["dayOfWeek"], "thursday")
        self.assertEqual(e["meta"]["sessionFatigue"], 1)
        self.assertNotIn("fake", e["freeText"]["_extractedThemes"])

    def test_prediction_delta_is_mean_score_minus_prediction_of_referenced_work(self):
        self.record_ok("work", work_event(art_id="art-pd", prediction=6.5))
        fb = feedback_event(work_ref={"id": "art-pd"},
                            scores=[{"dimension": "naming", "score": 8},
                                    {"dimension": "dx", "score": 9},
                                    {"dimension": "security", "score": 4}])
        eid = self.record_ok("feedback", fb)
        self.assertAlmostEqual(self.stored_by_id()[eid]["_predictionDelta"], 7.0 - 6.5, places=6)

    def test_prediction_delta_uses_the_referenced_version(self):
        self.record_ok("work", work_event(art_id="art-v", version="v1", prediction=3))
        self.record_ok("work", work_event(art_id="art-v", version="v2", prediction=9))
        fb1 = feedback_event(work_ref={"id": "art-v", "version": "v1"},
                             scores=[{"dimension": "dx", "score": 5}])
        fb2 = feedback_event(work_ref={"id": "art-v"}, scores=[{"dimension": "dx", "score": 5}])
        e1 = self.record_ok("feedback", fb1)
        e2 = self.record_ok("feedback", fb2)
        stored = self.stored_by_id()
        self.assertAlmostEqual(stored[e1]["_predictionDelta"], 2.0)
        # without a version the reference names the latest version
        self.assertAlmostEqual(stored[e2]["_predictionDelta"], -4.0)

    def test_prediction_delta_from_inline_work_product(self):
        fb = feedback_event(scores=[{"dimension": "dx", "score": 4}])
        fb["workProduct"]["bubaScorePrediction"] = 7.25
        eid = self.record_ok("feedback", fb)
        self.assertAlmostEqual(self.stored_by_id()[eid]["_predictionDelta"], -3.25)

    def test_no_prediction_delta_without_scores_or_prediction(self):
        fb = feedback_event()
        del fb["scores"]
        e1 = self.record_ok("feedback", fb)
        fb2 = feedback_event()
        del fb2["workProduct"]["bubaScorePrediction"]
        e2 = self.record_ok("feedback", fb2)
        stored = self.stored_by_id()
        self.assertNotIn("_predictionDelta", stored[e1])
        self.assertNotIn("_predictionDelta", stored[e2])

    def test_reward_raw_values_are_normalized(self):
        cases = [
            ({"signal_type": "ci_result", "raw_value": "pass"}, 1.0),
            ({"signal_type": "ci_result", "raw_value": "fail"}, 0.0),
            ({"signal_type": "ci_result", "raw_value": True}, 1.0),
            ({"signal_type": "satisfaction", "raw_value": 4}, 0.75),
            ({"signal_type": "satisfaction", "raw_value": 1}, 0.0),
            ({"signal_type": "coverage_delta", "raw_value": 10}, 0.55),
            ({"signal_type": "coverage_delta", "raw_value": -100}, 0.0),
            ({"signal_type": "merge_outcome", "raw_value": "closed"}, 0.5),
            ({"signal_type": "iteration_count", "raw_value": 4}, 0.25),
            ({"signal_type": "time_efficiency", "raw_value": 3600, "baseline_seconds": 1800}, 0.5),
            ({"signal_type": "approach_correctness", "raw_value": "yes"}, 1.0),
        ]
        for fields, expected in cases:
            with self.subTest(**{k: str(v) for k, v in fields.items()}):
                ev = reward_event()
                del ev["signal_value"]
                ev.update(fields)
                eid = self.record_ok("reward", ev)
                stored = self.stored_by_id()[eid]
                self.assertAlmostEqual(stored["signal_value"], expected, places=6)
                self.assertEqual(stored["raw_value"], fields["raw_value"])

    def test_reward_with_unknown_raw_value_is_refused(self):
        ev = reward_event(signal_type="ci_result", raw_value="maybe")
        del ev["signal_value"]
        r = self.record("reward", jsonl(ev))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("line 1: raw_value: \"maybe\" must be pass or fail", r.err)
        self.assert_nothing_stored()

    def test_correction_gets_its_taxonomy_category(self):
        for ctype, category in [("factual_error", "content"), ("tone_mismatch", "style"),
                                ("formatting", "style"), ("section_order", "structural")]:
            with self.subTest(correction_type=ctype):
                eid = self.record_ok("correction", correction_event(correction_type=ctype))
                self.assertEqual(self.stored_by_id()[eid]["_category"], category)

    def test_free_text_gets_themes_sentiment_and_actionable_items(self):
        fb = feedback_event(freeText={"liked": "Clean code",
                                      "disliked": "You should add retry logic. Missing tests."})
        eid = self.record_ok("feedback", fb)
        ft = self.stored_by_id()[eid]["freeText"]
        self.assertEqual(ft["liked"], "Clean code")
        self.assertIsInstance(ft["_extractedThemes"], list)
        self.assertIn("retries", ft["_extractedThemes"])
        self.assertTrue(-1 <= ft["_sentiment"] <= 1)
        self.assertIn("You should add retry logic", ft["_actionableItems"])

    def test_free_text_sentiment_follows_the_words(self):
        good = self.record_ok("feedback", feedback_event(freeText={
            "liked": "Great work, clean and excellent code. Love the tests."}))
        bad = self.record_ok("feedback", feedback_event(freeText={
            "disliked": "Terrible, broken and confusing. The error handling is awful."}))
        stored = self.stored_by_id()
        self.assertGreater(stored[good]["freeText"]["_sentiment"], 0)
        self.assertLess(stored[bad]["freeText"]["_sentiment"], 0)
        self.assertIn("error-handling", stored[bad]["freeText"]["_extractedThemes"])

    def test_unicode_text_is_stored_unchanged(self):
        text = "naïve café — 日本語 🚀 \"quoted\" back\\slash\ttab"
        eid = self.record_ok("correction", correction_event(original=text, corrected=text + "!"))
        e = self.stored_by_id()[eid]
        self.assertEqual(e["original"], text)
        self.assertEqual(e["corrected"], text + "!")


if __name__ == "__main__":
    unittest.main()


class AgainstTheIngestIndex(KaizenTest):
    """A home whose history is past the ingest index's threshold (4,096 journal records): `record`
    checks a new event against the index file instead of loading every stored id, and must refuse
    and enrich exactly as before."""

    def setUp(self):
        super().setUp()
        history = []
        self.works = [work_event(art_id=f"art-{i}", prediction=5.0) for i in range(40)]
        history.extend(self.works)
        history.extend(feedback_event(work_ref={"id": f"art-{i % 40}"}, session="sess-long",
                                      modal=f"modal-{i}") for i in range(30))
        history.extend(outcome_event() for _ in range(17000))
        r = self.import_(self.write("history.jsonl", jsonl(*history)))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.index = self.hpath("feedback", "indexes", "ingest.index")
        self.assertTrue(os.path.exists(self.index), "the import did not write the ingest index")
        self.stored = self.stored_events()

    def test_a_stored_id_modal_and_version_are_refused_from_the_index(self):
        old = self.stored[-1]
        again = dict(outcome_event(), id=old["id"])
        r = self.record("outcome", jsonl(again))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("already recorded (duplicate event)", r.err)
        r = self.record("feedback", jsonl(feedback_event(
            work_ref={"id": "art-1"}, session="sess-long", modal="modal-3")))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("duplicate submission", r.err)
        r = self.record("work", jsonl(work_event(art_id="art-2")))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("already recorded (submit a new version)", r.err)
        r = self.record("feedback", jsonl(feedback_event(work_ref={"id": "art-never"})))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("names no recorded work event", r.err)

    def test_enrichment_reads_sessions_and_predictions_from_the_index(self):
        eid = self.record_ok("feedback", feedback_event(
            work_ref={"id": "art-7"}, session="sess-long", modal="modal-new",
            scores=[{"dimension": "naming", "score": 8}]))
        e = self.stored_by_id()[eid]
        self.assertEqual(e["meta"]["sessionFatigue"], 31)  # 30 reviews of the session before it
        self.assertEqual(e["_predictionDelta"], 3)  # 8 - the indexed work's prediction, 5

    def test_a_damaged_or_deleted_index_is_rebuilt_and_still_refuses_duplicates(self):
        old = self.stored[100]["id"]
        for damage in ("truncate", "delete"):
            if damage == "truncate":
                with open(self.index, "r+b") as f:
                    f.truncate(1000)
            else:
                os.remove(self.index)
            r = self.record("outcome", jsonl(dict(outcome_event(), id=old)))
            self.assertEqual(r.rc, EXIT_REJECTED, (damage, r))
            self.assertIn("duplicate event", r.err)
            # The next record after the rebuild reads a whole index again.
            self.record_ok("outcome", outcome_event())
            self.assertGreater(os.path.getsize(self.index), 17000 * 32, damage)
