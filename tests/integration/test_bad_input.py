"""Every kind of bad input is refused with exit 1, a `line N: path: message` error, and nothing
stored for it; the good lines of a mixed batch are still stored."""

import json
import unittest
import uuid

from kzlib import (EXIT_OK, EXIT_REJECTED, EXIT_USAGE, KaizenTest, dumps, feedback_event, jsonl,
                   outcome_event, valid_event, work_event)

OUTCOME = ('{"bead_id":"bd-1","duration_ms":5,"error_count":0,"retry_count":0,"success":true%s}')


class Refused(KaizenTest):
    """One bad line each: refused, the exact message, nothing stored."""

    def assert_refused(self, kind, data, fragment, rc=EXIT_REJECTED):
        r = self.record(kind, data)
        self.assertEqual(r.rc, rc, r)
        self.assertEqual(r.out, "", f"nothing may be acknowledged: {r!r}")
        self.assertIn(fragment, r.err, r)
        self.assert_nothing_stored()
        return r

    def test_not_json_is_refused(self):
        self.assert_refused("outcome", "this is not json\n", "line 1: (event): is not JSON")

    def test_truncated_object_is_refused(self):
        self.assert_refused("outcome", OUTCOME[:30] + "\n", "line 1: (event): is not JSON")

    def test_json_array_is_not_an_object(self):
        self.assert_refused("outcome", "[1,2,3]\n",
                            "line 1: (event): an array is not a JSON object")

    def test_json_number_is_not_an_object(self):
        self.assert_refused("outcome", "42\n", "line 1: (event): 42 is not a JSON object")

    def test_json_string_is_not_an_object(self):
        self.assert_refused("outcome", '"hello"\n',
                            'line 1: (event): "hello" is not a JSON object')

    def test_json_null_is_not_an_object(self):
        self.assert_refused("outcome", "null\n", "line 1: (event): null is not a JSON object")

    def test_unknown_kind_in_the_event_is_refused(self):
        self.assert_refused("outcome", '{"kind":"bogus","bead_id":"b"}\n',
                            'line 1: kind: "bogus" is not one of feedback, work, outcome')

    def test_kind_that_differs_from_the_verb_is_refused(self):
        self.assert_refused("outcome", jsonl(valid_event("work")),
                            'line 1: kind: "work" does not match the kind being recorded (outcome)')

    def test_kind_that_is_not_a_string_is_refused(self):
        self.assert_refused("outcome", OUTCOME.replace("{", '{"kind":7,', 1) % "" + "\n",
                            "line 1: kind: 7 is not a string")

    def test_unknown_kind_verb_is_a_usage_error(self):
        r = self.assert_refused("bogus", jsonl(valid_event("outcome")),
                                'KIND "bogus" is not one of', rc=EXIT_USAGE)
        self.assertEqual(r.out, "")

    def test_missing_required_field_names_its_path(self):
        fb = feedback_event()
        fb["meta"] = {"deviceType": "desktop"}
        self.assert_refused("feedback", jsonl(fb),
                            "line 1: meta.timeToDecisionMs: missing (required unless meta.unmeasured "
                            "lists it")

    def test_missing_top_level_field_is_refused(self):
        ev = outcome_event()
        del ev["bead_id"]
        self.assert_refused("outcome", jsonl(ev),
                            "line 1: bead_id: missing (required non-empty string)")

    def test_every_missing_field_is_reported(self):
        r = self.assert_refused("feedback", "{}\n", "line 1: sessionId: missing")
        for path in ("modalId", "workProduct", "pipelineStage", "meta"):
            self.assertIn(f"line 1: {path}: missing", r.err)

    def test_null_for_a_required_field_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(success=None)),
                            "line 1: success: is null (required boolean)")

    def test_mistyped_field_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(duration_ms="5")),
                            'line 1: duration_ms: "5" is not a number')

    def test_mistyped_boolean_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(success="yes")),
                            'line 1: success: "yes" is not a boolean')

    def test_fractional_integer_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(retry_count=1.5)),
                            "line 1: retry_count: 1.5 is not an integer")

    def test_enum_violation_is_refused(self):
        self.assert_refused("error", jsonl(valid_event("error", error_type="nope")),
                            'line 1: error_type: "nope" is not one of validation, timeout, '
                            'conflict, tool_failure, unknown')

    def test_nested_enum_violation_names_the_nested_path(self):
        fb = feedback_event()
        fb["decision"]["decision"] = "maybe"
        self.assert_refused("feedback", jsonl(fb),
                            'line 1: decision.decision: "maybe" is not one of approved')

    def test_score_out_of_range_names_the_array_index(self):
        fb = feedback_event(scores=[{"dimension": "naming", "score": 8},
                                    {"dimension": "dx", "score": 9},
                                    {"dimension": "security", "score": 11}])
        self.assert_refused("feedback", jsonl(fb),
                            "line 1: scores[2].score: 11 is out of range 1..10")

    def test_score_below_range_is_refused(self):
        fb = feedback_event(scores=[{"dimension": "naming", "score": 0}])
        self.assert_refused("feedback", jsonl(fb),
                            "line 1: scores[0].score: 0 is out of range 1..10")

    def test_same_dimension_scored_twice_is_refused(self):
        fb = feedback_event(scores=[{"dimension": "dx", "score": 8},
                                    {"dimension": "dx", "score": 3}])
        self.assert_refused("feedback", jsonl(fb), 'line 1: scores[1].dimension: "dx" is scored twice')

    def test_nan_literal_is_refused(self):
        self.assert_refused("outcome", OUTCOME.replace('"duration_ms":5', '"duration_ms":NaN') % ""
                            + "\n", "line 1: (event): is not JSON")

    def test_infinity_literal_is_refused(self):
        self.assert_refused("outcome",
                            OUTCOME.replace('"duration_ms":5', '"duration_ms":Infinity') % "" + "\n",
                            "line 1: (event): is not JSON")

    def test_negative_infinity_literal_is_refused(self):
        self.assert_refused("outcome",
                            OUTCOME.replace('"duration_ms":5', '"duration_ms":-Infinity') % "" + "\n",
                            "line 1: (event): is not JSON")

    def test_number_too_large_for_a_double_is_refused(self):
        self.assert_refused("outcome",
                            OUTCOME.replace('"duration_ms":5', '"duration_ms":1e999') % "" + "\n",
                            "line 1: (event): is not JSON")

    def test_invalid_utf8_is_refused(self):
        data = (OUTCOME % ',"description":"bad \xff\xfe bytes"').encode("latin-1") + b"\n"
        self.assert_refused("outcome", data, "line 1: (event): is not valid UTF-8")

    def test_overlong_utf8_encoding_is_refused(self):
        data = (OUTCOME % ',"description":"slash \xc0\xaf"').encode("latin-1") + b"\n"
        self.assert_refused("outcome", data, "line 1: (event): is not valid UTF-8")

    def test_utf8_encoded_surrogate_is_refused(self):
        data = (OUTCOME % ',"description":"half \xed\xa0\x80"').encode("latin-1") + b"\n"
        self.assert_refused("outcome", data, "line 1: (event): is not valid UTF-8")

    def test_string_over_64_kib_is_refused_naming_the_cap(self):
        self.assert_refused("outcome", jsonl(outcome_event(description="a" * (70 * 1024))),
                            "line 1: description: a string of 71680 bytes is longer than the "
                            "limit of 65536 bytes")

    def test_string_of_exactly_64_kib_is_accepted(self):
        r = self.record("outcome", jsonl(outcome_event(description="a" * (64 * 1024))))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(self.stored_events()[0]["description"]), 64 * 1024)

    def test_identifier_over_256_bytes_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(bead_id="b" * 257)),
                            "line 1: bead_id: a string of 257 bytes is longer than the limit of 256")

    def test_line_over_1_mib_is_refused_naming_the_cap(self):
        ev = outcome_event(description="a" * (2 * 1024 * 1024))
        line = jsonl(ev)
        self.assert_refused("outcome", line,
                            f"line 1: (event): is {len(line) - 1} bytes, larger than the limit of "
                            f"1048576 bytes")

    def test_nesting_100_levels_deep_is_refused(self):
        deep = "[" * 100 + "]" * 100
        self.assert_refused("outcome", OUTCOME % (',"patterns":' + deep) + "\n",
                            "line 1: (event): is nested deeper than the limit of 16 levels")

    def test_nesting_10000_levels_deep_does_not_crash(self):
        deep = "[" * 10000 + "]" * 10000
        self.assert_refused("outcome", OUTCOME % (',"patterns":' + deep) + "\n",
                            "line 1: (event): is nested deeper than the limit of 16 levels")

    def test_nesting_100000_objects_deep_does_not_crash(self):
        deep = '{"a":' * 100000 + "1" + "}" * 100000
        self.assert_refused("correction", deep + "\n",
                            "line 1: (event): is nested deeper than the limit of 16 levels")

    def test_unclosed_deep_nesting_does_not_crash(self):
        self.assert_refused("outcome", "[" * 200000 + "\n", "line 1: (event):")

    def test_free_form_context_nested_too_deep_is_refused(self):
        ctx = 1
        for _ in range(20):
            ctx = {"k": ctx}
        self.assert_refused("correction", jsonl(valid_event("correction", context=ctx)),
                            "is nested deeper than the limit of 16 levels")

    def test_duplicate_keys_are_refused(self):
        line = OUTCOME.replace('"bead_id":"bd-1"', '"bead_id":"bd-1","bead_id":"bd-2"') % ""
        self.assert_refused("outcome", line + "\n",
                            "line 1: bead_id: duplicate key (each field may appear once)")

    def test_nested_duplicate_keys_are_refused(self):
        fb = dumps(feedback_event()).replace('"timeToDecisionMs":42000',
                                             '"timeToDecisionMs":42000,"timeToDecisionMs":1')
        self.assert_refused("feedback", fb + "\n", "line 1: meta.timeToDecisionMs: duplicate key")

    def test_thousands_of_errors_under_a_long_key_make_a_short_report(self):
        # 20,000 duplicate keys under a key of 500,000 bytes: once 20,000 messages each naming
        # the whole key (10 GB). Now the first 100 are listed, the key cut, the rest counted.
        members = ",".join('"x%d":1,"x%d":2' % (i, i) for i in range(20000))
        line = ('{"kind":"correction","session_id":"s","correction_type":"style","original":"a",'
                '"corrected":"b","context":{"%s":{%s}}}' % ("k" * 500000, members))
        r = self.assert_refused("correction", line + "\n",
                                "line 1: (event): and 19900 more errors not listed")
        listed = [l for l in r.err.splitlines() if "duplicate key" in l]
        self.assertEqual(len(listed), 100, r.err[:2000])
        self.assertIn("line 1: context." + "k" * 60 + "[...].x0: duplicate key", r.err)
        self.assertLess(len(r.err), 20000)

    def test_duplicate_keys_spelled_with_escapes_are_refused(self):
        line = OUTCOME.replace('"bead_id":"bd-1"', '"bead_id":"bd-1","bead\\u005fid":"bd-2"') % ""
        self.assertIn("\\u005f", line)
        self.assert_refused("outcome", line + "\n", "line 1: bead_id: duplicate key")

    def test_array_over_10000_elements_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(patterns=["p"] * 10001)),
                            "line 1: patterns: an array of 10001 elements is longer than the "
                            "limit of 10000")

    def test_trailing_garbage_after_the_object_is_refused(self):
        self.assert_refused("outcome", OUTCOME % "" + " x\n", "line 1: (event): is not JSON")

    def test_two_objects_on_one_line_are_refused(self):
        self.assert_refused("outcome", OUTCOME % "" + OUTCOME % "" + "\n",
                            "line 1: (event): is not JSON")

    def test_unknown_field_is_refused(self):
        self.assert_refused("outcome", OUTCOME % ',"zzz":1' + "\n",
                            "line 1: zzz: unknown field (not part of outcome)")

    def test_unknown_nested_field_is_refused(self):
        fb = feedback_event()
        fb["meta"]["mood"] = "happy"
        self.assert_refused("feedback", jsonl(fb),
                            "line 1: meta.mood: unknown field (not part of FeedbackMeta)")

    def test_timestamp_in_2099_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(timestamp="2099-01-01T00:00:00Z")),
                            'line 1: timestamp: "2099-01-01T00:00:00Z" is more than 24 hours in '
                            'the future (now is 2026-01-01T00:00:00.000Z)')

    def test_timestamp_in_1990_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(timestamp="1990-01-01T00:00:00Z")),
                            'line 1: timestamp: "1990-01-01T00:00:00Z" is before 2000-01-01')

    def test_timestamp_up_to_24_hours_ahead_is_accepted_and_beyond_is_refused(self):
        r = self.record("outcome", jsonl(outcome_event(timestamp="2026-01-01T23:59:00Z")))
        self.assertEqual(r.rc, EXIT_OK, r)
        r = self.record("outcome", jsonl(outcome_event(timestamp="2026-01-02T00:00:01Z")))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("is more than 24 hours in the future", r.err)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_timestamp_with_nanoseconds_is_stored_to_the_millisecond(self):
        eid = self.record_ok("outcome", outcome_event(timestamp="2025-07-10T10:00:00.123456789Z"))
        self.assertEqual(self.stored_by_id()[eid]["timestamp"], "2025-07-10T10:00:00.123Z")

    def test_timestamp_without_a_zone_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(timestamp="2025-07-10T10:00:00")),
                            'line 1: timestamp: "2025-07-10T10:00:00" must be ISO 8601 with a zone')

    def test_impossible_calendar_date_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(timestamp="2025-02-29T10:00:00Z")),
                            "is not a real calendar date and time")

    def test_id_that_is_not_a_uuid_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(id="abc")),
                            'line 1: id: "abc" is not a UUID')

    def test_control_character_in_an_identifier_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(bead_id="bd\u0001x")),
                            "line 1: bead_id: ")

    def test_empty_identifier_is_refused(self):
        self.assert_refused("outcome", jsonl(outcome_event(bead_id="")),
                            'line 1: bead_id: "" must be a non-empty string')

    def test_empty_input_is_refused(self):
        r = self.record("outcome", "")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("no event in the input", r.err)
        self.assert_nothing_stored()

    def test_blank_input_is_refused(self):
        r = self.record("outcome", "\n  \n\t\r\n")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("no event in the input", r.err)
        self.assert_nothing_stored()

    def test_correction_that_changes_nothing_is_refused(self):
        self.assert_refused("correction",
                            jsonl(valid_event("correction", original="same", corrected="same")),
                            "line 1: corrected: is identical to original")

    def test_admin_action_missing_its_fields_is_refused(self):
        self.assert_refused("admin", jsonl({"action": "rule_audit"}),
                            "line 1: rule_id: missing (required for action rule_audit)")

    def test_loop_with_empty_metrics_is_refused(self):
        self.assert_refused("loop", jsonl(valid_event("loop", metrics={})),
                            "line 1: metrics: is empty")

    def test_work_event_with_bare_reference_is_refused(self):
        self.assert_refused("work", jsonl({"workProduct": {"id": "art-x", "version": "v1"}}),
                            "a work event must carry the full WorkProductRef")


class RefusedAgainstTheLog(KaizenTest):
    """Refusals that depend on what is already stored."""

    def test_duplicate_id_is_refused(self):
        eid = str(uuid.uuid4())
        self.record_ok("outcome", outcome_event(id=eid))
        r = self.record("outcome", jsonl(outcome_event(id=eid)))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f'line 1: id: "{eid}" is already recorded (duplicate event)', r.err)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_duplicate_id_across_kinds_is_refused(self):
        eid = str(uuid.uuid4())
        self.record_ok("outcome", outcome_event(id=eid))
        r = self.record("error", jsonl(valid_event("error", id=eid)))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("is already recorded (duplicate event)", r.err)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_same_id_in_another_letter_case_is_a_duplicate(self):
        eid = str(uuid.uuid4())
        self.record_ok("outcome", outcome_event(id=eid.upper()))
        r = self.record("outcome", jsonl(outcome_event(id=eid)))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("is already recorded (duplicate event)", r.err)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_duplicate_id_within_one_batch_is_refused(self):
        eid = str(uuid.uuid4())
        r = self.record("outcome", jsonl(outcome_event(id=eid), outcome_event(id=eid)))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertEqual(r.lines, [eid])
        self.assertIn(f'line 2: id: "{eid}" is already recorded', r.err)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_duplicate_modal_and_session_is_refused(self):
        self.record_ok("feedback", feedback_event(session="S1", modal="M1"))
        r = self.record("feedback", jsonl(feedback_event(session="S1", modal="M1")))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn('line 1: modalId: "M1" was already answered in session "S1" '
                      '(duplicate submission)', r.err)
        self.assertEqual(len(self.raw_lines()), 1)
        # the same modal in another session is a different submission
        self.record_ok("feedback", feedback_event(session="S2", modal="M1"))

    def test_feedback_naming_no_work_event_is_refused(self):
        r = self.record("feedback", jsonl(feedback_event(work_ref={"id": "nope"})))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn('line 1: workProduct.id: "nope" names no recorded work event', r.err)
        self.assert_nothing_stored()

    def test_feedback_naming_an_unrecorded_version_is_refused(self):
        self.record_ok("work", work_event(art_id="art-1", version="v1"))
        r = self.record("feedback", jsonl(feedback_event(work_ref={"id": "art-1", "version": "v2"})))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn('workProduct.id: "art-1" version "v2" names no recorded work event', r.err)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_feedback_naming_work_recorded_earlier_in_the_batch_is_accepted(self):
        r = self.import_("-", input=jsonl(work_event(art_id="art-b"),
                                          feedback_event(work_ref={"id": "art-b"})))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(self.raw_lines()), 2)

    def test_same_work_version_twice_is_refused(self):
        self.record_ok("work", work_event(art_id="art-1", version="v1"))
        r = self.record("work", jsonl(work_event(art_id="art-1", version="v1")))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn('workProduct.version: "v1" of artifact "art-1" is already recorded', r.err)
        self.record_ok("work", work_event(art_id="art-1", version="v2"))

    def test_error_resolving_an_unknown_error_is_refused(self):
        ev = {"bead_id": "bd-1", "resolves": str(uuid.uuid4())}
        r = self.record("error", jsonl(ev))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("names no recorded error event", r.err)
        self.assert_nothing_stored()


class LineHandling(KaizenTest):

    def test_crlf_line_endings_are_accepted(self):
        data = "".join(dumps(outcome_event()) + "\r\n" for _ in range(3))
        r = self.record("outcome", data)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(r.lines), 3)
        raw = self.raw_bytes()
        self.assertNotIn(b"\r", raw)
        self.assertEqual(raw.count(b"\n"), 3)

    def test_empty_lines_are_skipped_and_not_counted_as_events(self):
        data = "\n\n" + dumps(outcome_event()) + "\n\n   \n" + dumps(outcome_event()) + "\n\n"
        r = self.record("outcome", data, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        results = [json.loads(l) for l in r.lines]
        self.assertEqual([x["line"] for x in results], [3, 6])
        self.assertTrue(all(x["stored"] for x in results))
        self.assertEqual(len(self.raw_lines()), 2)

    def test_input_without_a_final_newline_is_accepted(self):
        r = self.record("outcome", dumps(outcome_event()) + "\n" + dumps(outcome_event()))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(r.lines), 2)
        self.assertEqual(len(self.raw_lines()), 2)
        self.assertTrue(self.raw_bytes().endswith(b"\n"))

    def test_leading_and_trailing_whitespace_around_the_object_is_accepted(self):
        r = self.record("outcome", "  \t" + dumps(outcome_event()) + " \t\n")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_mixed_batch_stores_the_valid_lines_and_reports_every_invalid_one(self):
        good = [outcome_event(id=str(uuid.uuid4())) for _ in range(4)]
        bad = [
            "not json",
            dumps(outcome_event(duration_ms=-1)),
            "[1]",
            dumps(outcome_event(zzz=1)),
        ]
        lines = [dumps(good[0]), bad[0], dumps(good[1]), "", bad[1], bad[2], dumps(good[2]),
                 bad[3], dumps(good[3])]
        reject = self.path("rejects.jsonl")
        r = self.record("outcome", "\n".join(lines) + "\n", "--reject", reject)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertEqual(r.lines, [g["id"] for g in good])
        self.assertEqual(sorted(self.stored_by_id()), sorted(g["id"] for g in good))
        self.assertIn("line 2: (event): is not JSON", r.err)
        self.assertIn("line 5: duration_ms: -1 is ", r.err)  # below 0
        self.assertIn("line 6: (event): an array is not a JSON object", r.err)
        self.assertIn("line 8: zzz: unknown field", r.err)
        self.assertEqual(len(r.err_lines), 4, r)
        with open(reject, "rb") as f:
            self.assertEqual(f.read(), ("\n".join(bad) + "\n").encode())

    def test_reject_file_keeps_invalid_bytes_verbatim(self):
        bad = b'{"bead_id":"\xff\xfe"}'
        reject = self.path("rejects.jsonl")
        r = self.record("outcome", jsonl(outcome_event()).encode() + bad + b"\n", "--reject", reject)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        with open(reject, "rb") as f:
            self.assertEqual(f.read(), bad + b"\n")

    def test_reject_file_is_empty_when_nothing_is_refused(self):
        reject = self.write("rejects.jsonl", "stale content\n")
        r = self.record("outcome", jsonl(outcome_event()), "--reject", reject)
        self.assertEqual(r.rc, EXIT_OK, r)
        with open(reject, "rb") as f:
            self.assertEqual(f.read(), b"")

    def test_a_refused_line_does_not_stop_later_lines(self):
        lines = [dumps(outcome_event())] + ["{bad"] * 50 + [dumps(outcome_event())]
        r = self.record("outcome", "\n".join(lines))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertEqual(len(r.lines), 2)
        self.assertEqual(len(self.raw_lines()), 2)
        self.assertEqual(len(r.err_lines), 50, r)
        self.assertIn("line 2: (event):", r.err)
        self.assertIn("line 51: (event):", r.err)
        self.assertNotIn("line 52:", r.err)


class BadArguments(KaizenTest):
    """Usage errors exit 2 (commands.h), whatever the argument parser's own codes are."""

    def test_help_exits_0(self):
        r = self.kz("--help")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("record", r.out)

    def test_bad_now_flag_is_a_usage_error(self):
        r = self.kz("record", "outcome", "--home", self.home, "--now", "yesterday",
                    input=jsonl(outcome_event()))
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn('--now: "yesterday" must be ISO 8601', r.err)
        self.assert_nothing_stored()

    def test_unknown_verb_exits_2(self):
        r = self.kz("frobnicate")
        self.assertEqual(r.rc, EXIT_USAGE, r)

    def test_no_verb_exits_2(self):
        r = self.kz()
        self.assertEqual(r.rc, EXIT_USAGE, r)

    def test_record_without_kind_exits_2(self):
        r = self.kz("record", "--home", self.home)
        self.assertEqual(r.rc, EXIT_USAGE, r)

    def test_unknown_flag_exits_2(self):
        r = self.kz("record", "outcome", "--home", self.home, "--bogus", input=jsonl(outcome_event()))
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assert_nothing_stored()

    def test_non_numeric_gen_events_exits_2(self):
        r = self.kz("gen", "--events", "abc")
        self.assertEqual(r.rc, EXIT_USAGE, r)

    def test_unwritable_reject_file_fails_before_storing_anything(self):
        r = self.kz("record", "outcome", "--home", self.home, "--reject",
                    self.path("no", "such", "dir", "rej.jsonl"), input=jsonl(outcome_event()))
        self.assertEqual(r.rc, 3, r)
        self.assertIn("cannot write the reject file", r.err)
        self.assertEqual(r.out, "")
        self.assert_nothing_stored()

    def test_unreadable_input_file_is_a_system_failure(self):
        r = self.kz("record", "outcome", self.path("missing.jsonl"), "--home", self.home)
        self.assertEqual(r.rc, 3, r)
        self.assertIn("cannot read", r.err)


if __name__ == "__main__":
    unittest.main()
