"""`kaizen import FILE...`: mixed kinds, FILE:LINE errors, the summary, --json and --reject."""

import json
import os
import re
import subprocess
import sys
import unittest
import uuid

from kzlib import (BIN, EXIT_OK, EXIT_REJECTED, EXIT_SYSTEM, KINDS, NOW, KaizenTest, dumps,
                   feedback_event, is_uuid, jsonl, outcome_event, valid_event, work_event)

SUMMARY = re.compile(r"^imported (\d+) events, rejected (\d+)(?: \(kept in (.+)\))? "
                     r"\((\d+) blank lines skipped\) in [0-9.]+ s$")


class Import(KaizenTest):

    def test_mixed_kinds_in_one_file_are_all_stored(self):
        events = [valid_event(k, id=str(uuid.uuid4())) for k in KINDS]
        p = self.write("mixed.jsonl", jsonl(*events))
        r = self.import_(p)
        self.assertEqual(r.rc, EXIT_OK, r)
        m = SUMMARY.match(r.lines[-1])
        self.assertIsNotNone(m, r)
        self.assertEqual((m.group(1), m.group(2)), (str(len(KINDS)), "0"))
        stored = self.stored_by_id()
        self.assertEqual(sorted(stored), sorted(e["id"] for e in events))
        for e in events:
            self.assertEqual(stored[e["id"]]["kind"], e["kind"])

    def test_line_without_kind_is_refused_in_import(self):
        ev = outcome_event()
        del ev["kind"]
        p = self.write("nokind.jsonl", jsonl(ev))
        r = self.import_(p)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"{p}:1: kind: missing (required: one of feedback, work", r.err)
        self.assert_nothing_stored()

    def test_errors_are_reported_as_file_line_path_message(self):
        p = self.write("bad.jsonl", jsonl(outcome_event()) + "\n" + "{oops\n" +
                       dumps(valid_event("error", error_type="nope")) + "\n")
        r = self.import_(p)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"{p}:3: (event): is not JSON", r.err)
        self.assertIn(f'{p}:4: error_type: "nope" is not one of', r.err)
        m = SUMMARY.match(r.lines[-1])
        self.assertIsNotNone(m, r)
        self.assertEqual((m.group(1), m.group(2), m.group(4)), ("1", "2", "1"))

    def test_summary_names_the_reject_file(self):
        p = self.write("in.jsonl", jsonl(outcome_event()) + "{oops\n")
        reject = self.path("rej.jsonl")
        r = self.import_(p, "--reject", reject)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        m = SUMMARY.match(r.lines[-1])
        self.assertEqual(m.group(3), reject, r)
        self.assertEqual(open(reject, "rb").read(), b"{oops\n")

    def test_a_reject_file_that_cannot_be_opened_is_named_with_the_system_error(self):
        p = self.write("in.jsonl", jsonl(outcome_event()) + "{oops\n")
        r = self.import_(p, "--reject", self.tmp)
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        self.assertIn(f"kaizen import: cannot write the reject file {self.tmp}: Is a directory",
                      r.err)

    def test_a_reject_file_on_a_full_disk_is_an_error_and_not_said_to_keep_anything(self):
        p = self.write("in.jsonl", jsonl(outcome_event()) + "{oops\n")
        r = self.import_(p, "--reject", "/dev/full")  # every write: ENOSPC
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        self.assertIn("kaizen import: cannot write the reject file /dev/full: No space left on "
                      "device", r.err)
        m = SUMMARY.match(r.lines[-1])
        self.assertIsNotNone(m, r)
        self.assertEqual((m.group(1), m.group(2), m.group(3)), ("1", "1", None))

    def test_several_files_are_imported_in_order_with_their_own_line_numbers(self):
        a = self.write("a.jsonl", jsonl(work_event(art_id="art-x"), outcome_event()) + "{bad\n")
        b = self.write("b.jsonl", "[]\n" + jsonl(feedback_event(work_ref={"id": "art-x"})))
        reject = self.path("rej.jsonl")
        r = self.import_(a, b, "--reject", reject)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"{a}:3: (event): is not JSON", r.err)
        self.assertIn(f"{b}:1: (event): an array is not a JSON object", r.err)
        # the feedback in b names the work stored from a
        self.assertEqual(len(self.raw_lines()), 3)
        self.assertEqual(open(reject, "rb").read(), b"{bad\n[]\n")

    def test_import_from_stdin(self):
        r = self.import_("-", input=jsonl(outcome_event(), valid_event("loop")))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(self.raw_lines()), 2)

    def test_json_output_has_one_object_per_line_then_the_summary(self):
        good = outcome_event(id=str(uuid.uuid4()))
        p = self.write("in.jsonl", jsonl(good) + "\n" + jsonl(outcome_event(duration_ms="x")))
        r = self.import_(p, "--json")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        objs = [json.loads(l) for l in r.lines]
        self.assertEqual(len(objs), 3, r)
        self.assertEqual(objs[0], {"file": p, "line": 1, "stored": True, "id": good["id"]})
        self.assertEqual(objs[1]["file"], p)
        self.assertEqual(objs[1]["line"], 3)
        self.assertFalse(objs[1]["stored"])
        self.assertNotIn("id", objs[1])
        self.assertEqual(objs[1]["errors"],
                         [{"path": "duration_ms", "message": '"x" is not a number'}])
        summary = objs[2]["summary"]
        self.assertEqual((summary["stored"], summary["rejected"], summary["blank"]), (1, 1, 1))
        self.assertEqual(r.err, "")

    def test_json_output_escapes_error_text(self):
        # the refused value is echoed in the message: quotes, backslashes and control characters
        p = self.write("in.jsonl", jsonl(outcome_event(strategy='a"b\\c\u0001')))
        r = self.import_(p, "--json")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        obj = json.loads(r.lines[0])
        self.assertFalse(obj["stored"])
        self.assertEqual(obj["errors"][0]["path"], "strategy")
        self.assertIn('a"b\\c', obj["errors"][0]["message"])
        self.assertIn("control character", obj["errors"][0]["message"])

    def test_json_output_for_a_file_name_with_quotes_is_valid_json(self):
        p = self.write('we"ird\\name.jsonl', jsonl(outcome_event()))
        r = self.import_(p, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        obj = json.loads(r.lines[0])
        self.assertEqual(obj["file"], p)

    def test_every_printed_id_is_stored(self):
        events = [valid_event(k) for k in KINDS for _ in range(3)]
        r = self.import_("-", "--json", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        ids = [json.loads(l)["id"] for l in r.lines[:-1]]
        self.assertEqual(len(ids), len(events))
        self.assertTrue(all(is_uuid(i) for i in ids))
        self.assertEqual(sorted(ids), sorted(self.stored_by_id()))

    def test_missing_input_file_is_a_system_failure_but_other_files_are_imported(self):
        good = self.write("good.jsonl", jsonl(outcome_event()))
        r = self.import_(self.path("missing.jsonl"), good)
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        self.assertIn("cannot read", r.err)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_a_line_of_128_mib_is_refused_without_being_held_in_memory(self):
        huge = 128 << 20
        p = self.path("huge.jsonl")
        with open(p, "wb") as f:
            f.write(jsonl(outcome_event()).encode())
            head = b'{"kind":"outcome","description":"'
            f.write(head)
            for _ in range(huge >> 20):
                f.write(b"a" * (1 << 20))
            f.seek(-len(head) - 2, os.SEEK_CUR)
            f.write(b'"}\n')
            f.write(jsonl(outcome_event()).encode())
        reject = self.path("rej.jsonl")
        # The import's own peak memory, read by a small parent: this process's would count too in
        # the child it starts (Linux carries the peak across exec).
        peak = ("import resource, subprocess, sys; rc = subprocess.call(sys.argv[1:]); "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(rc)")
        r = subprocess.run([sys.executable, "-c", peak, BIN, "import", p, "--home", self.home,
                            "--now", NOW, "--reject", reject], capture_output=True, text=True)
        self.assertEqual(r.returncode, EXIT_REJECTED, r)
        self.assertEqual(r.stderr,
                         f"{p}:2: (event): is {huge} bytes, larger than the limit of 1048576 bytes "
                         f"(only its first 1048576 bytes were kept)\n")
        self.assertEqual(len(self.raw_lines()), 2)
        # The reject file keeps the line's start: all a user needs to find it in the input.
        kept = open(reject, "rb").read()
        self.assertEqual(len(kept), (1 << 20) + 1)
        self.assertTrue(kept.startswith(head + b"aaa"))
        # Held whole, the line alone would take 128 MiB (before the line limit: a peak of 168 MB).
        peak_kib = int(r.stdout.split()[-1])
        self.assertLess(peak_kib, 96 << 10, "peak resident KiB")

    def test_reimporting_the_same_file_refuses_every_line_as_duplicate(self):
        events = [valid_event(k, id=str(uuid.uuid4())) for k in KINDS]
        p = self.write("in.jsonl", jsonl(*events))
        self.assertEqual(self.import_(p).rc, EXIT_OK)
        before = self.raw_bytes()
        r = self.import_(p, "--json")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        objs = [json.loads(l) for l in r.lines]
        self.assertEqual(objs[-1]["summary"]["stored"], 0)
        self.assertEqual(objs[-1]["summary"]["rejected"], len(KINDS))
        for o in objs[:-1]:
            self.assertIn("id", [e["path"] for e in o["errors"]], o)
        self.assertEqual(self.raw_bytes(), before)


if __name__ == "__main__":
    unittest.main()
