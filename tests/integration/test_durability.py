"""Concurrent writers, kill -9 mid-import, torn tails and mid-file corruption."""

import json
import os
import signal
import subprocess
import threading
import time
import unittest
import uuid

import kzlib
from kzlib import (EXIT_OK, EXIT_REJECTED, EXIT_SYSTEM, NOW, KaizenTest, dumps, feedback_event,
                   jsonl, kaizen, outcome_event, valid_event)

# Every kind; the feedback made here carries its work product inline, so no event depends on
# another and any split of them, imported in any order, is valid.
INDEPENDENT = ("outcome", "error", "reward", "correction", "loop", "admin", "work", "feedback")


def distinct_events(n, tag, days=("2025-07-10", "2025-07-11", "2025-07-12")):
    """n valid events, every one with a fresh id, artifact and modal, spread over a few days."""
    out = []
    for i in range(n):
        kind = INDEPENDENT[i % len(INDEPENDENT)]
        day = days[i % len(days)]
        ts = f"{day}T{(i // 60) % 24:02}:{i % 60:02}:{(i * 7) % 60:02}.{i % 1000:03}Z"
        ev = valid_event(kind, id=str(uuid.uuid4()), timestamp=ts)
        if kind == "work":
            ev["workProduct"]["id"] = f"art-{tag}-{i}"
        out.append(ev)
    return out


class ConcurrentWriters(KaizenTest):

    def start_import(self, *files, stdout=subprocess.PIPE):
        return subprocess.Popen([kzlib.BIN, "import", *files, "--json", "--home", self.home,
                                 "--now", NOW], stdout=stdout, stderr=subprocess.PIPE)

    def finish(self, procs):
        results = []
        for p in procs:
            out, err = p.communicate(timeout=300)
            results.append((p.returncode, out.decode(), err.decode()))
        return results

    def check_four_writers(self, files_per_writer):
        writers, n = 4, 2000
        procs, all_events = [], []
        for w in range(writers):
            events = distinct_events(n, f"w{w}")
            all_events.extend(events)
            per = n // files_per_writer
            files = [self.write(f"w{w}-{k}.jsonl", jsonl(*events[k * per:(k + 1) * per]))
                     for k in range(files_per_writer)]
            procs.append(files)
        procs = [self.start_import(*files) for files in procs]
        acked = []
        for rc, out, err in self.finish(procs):
            self.assertEqual(rc, EXIT_OK, err)
            objs = [json.loads(l) for l in out.splitlines()]
            self.assertEqual(objs[-1]["summary"]["stored"], n)
            self.assertEqual(objs[-1]["summary"]["rejected"], 0)
            acked.extend(o["id"] for o in objs[:-1] if o.get("stored"))
        self.assertEqual(len(self.raw_lines()), writers * n)
        ids = self.assert_raw_log_sound()
        self.assertEqual(len(ids), writers * n)
        self.assertEqual(set(acked), ids)
        self.assertEqual(ids, {e["id"] for e in all_events})
        v = self.verify()
        self.assertEqual(v.rc, EXIT_OK, v)

    def test_four_concurrent_importers_store_every_line_exactly_once(self):
        self.check_four_writers(files_per_writer=1)

    def test_four_concurrent_importers_of_many_small_files_interleave_safely(self):
        # Each file is its own locked batch, so the writers take turns many times.
        self.check_four_writers(files_per_writer=20)

    def test_same_events_imported_by_four_processes_at_once_are_stored_once(self):
        events = distinct_events(400, "same")
        p = self.write("same.jsonl", jsonl(*events))
        procs = [self.start_import(p) for _ in range(4)]
        stored = rejected = 0
        for rc, out, err in self.finish(procs):
            self.assertIn(rc, (EXIT_OK, EXIT_REJECTED), err)
            s = json.loads(out.splitlines()[-1])["summary"]
            stored += s["stored"]
            rejected += s["rejected"]
        self.assertEqual(stored, 400)
        self.assertEqual(rejected, 3 * 400)
        self.assertEqual(len(self.raw_lines()), 400)
        self.assertEqual(len(self.assert_raw_log_sound()), 400)

    def test_concurrent_reviews_in_one_session_get_distinct_fatigue_counts(self):
        per_thread, threads = 10, 4
        errors = []

        def worker(t):
            for i in range(per_thread):
                r = kaizen("record", "feedback", "--home", self.home, "--now", NOW,
                           input=jsonl(feedback_event(session="S-shared", modal=f"m-{t}-{i}")))
                if r.rc != EXIT_OK:
                    errors.append(r)

        ts = [threading.Thread(target=worker, args=(t,)) for t in range(threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(errors, [])
        fatigue = sorted(e["meta"]["sessionFatigue"] for e in self.stored_events())
        self.assertEqual(fatigue, list(range(1, per_thread * threads + 1)))

    def test_concurrent_duplicate_submissions_store_exactly_one(self):
        results = []

        def worker():
            results.append(kaizen("record", "feedback", "--home", self.home, "--now", NOW,
                                  input=jsonl(feedback_event(session="S-dup", modal="M-dup"))))

        ts = [threading.Thread(target=worker) for _ in range(6)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        self.assertEqual(sorted(r.rc for r in results), [EXIT_OK] + [EXIT_REJECTED] * 5)
        self.assertEqual(len(self.raw_lines()), 1)

    def test_readers_during_writes_never_see_a_partial_line(self):
        events = distinct_events(3000, "rw")
        p = self.write("big.jsonl", jsonl(*events))
        # The writer's output goes to a file: a full pipe nobody reads would stall it.
        with open(self.path("writer.out"), "wb") as out:
            writer = self.start_import(p, stdout=out)
        bad = []
        reads = 0
        while writer.poll() is None and reads < 500:
            reads += 1
            r = kaizen("export", "--home", self.home)
            if r.rc not in (EXIT_OK,) or r.err:
                bad.append(r)
                continue
            for line in r.out_bytes.split(b"\n")[:-1]:
                try:
                    kzlib.strict_loads(line)
                except ValueError:
                    bad.append(line[:200])
        _, err = writer.communicate(timeout=300)
        self.assertEqual(writer.returncode, EXIT_OK, err)
        self.assertEqual(bad, [])
        self.assertEqual(len(self.raw_lines()), 3000)


class CacheRebuiltUnderARunningImporter(KaizenTest):
    """An importer keeps its ingest state between files. If `verify` rewrites the ingest cache
    while the importer waits, the importer must still see every event stored by others."""

    def run_scenario(self, rebuild_cache):
        first = [outcome_event(id=str(uuid.uuid4()), timestamp="2025-07-20T10:00:00Z")
                 for _ in range(10)]
        # The last line is refused: its error on stderr (unbuffered, printed after the batch is
        # committed and the lock released) says the importer has finished the first file.
        f1 = self.write("f1.jsonl", jsonl(*first) + "not json\n")
        a = subprocess.Popen([kzlib.BIN, "import", f1, "-", "--home", self.home, "--now", NOW],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        try:
            self.assertIn(b"f1.jsonl:11:", a.stderr.readline())
            # Meanwhile another process stores an event of an earlier day...
            other = outcome_event(id=str(uuid.uuid4()), timestamp="2025-07-01T10:00:00Z")
            self.record_ok("outcome", other)
            # ...and verify rebuilds the ingest cache from the raw log (in day order).
            if rebuild_cache:
                v = self.verify()
                self.assertEqual(v.rc, EXIT_OK, v)
            # The importer's second input repeats that event's id: it must be refused.
            out, err = a.communicate(jsonl(other).encode(), timeout=120)
        finally:
            if a.poll() is None:
                a.kill()
                a.wait()
        self.assertEqual(a.returncode, EXIT_REJECTED, err)
        self.assertIn(f'-:1: id: "{other["id"]}" is already recorded'.encode(), err)
        self.assertEqual(len(self.raw_lines()), 11)
        self.assert_raw_log_sound()
        v = self.verify()
        self.assertEqual(v.rc, EXIT_OK, v)

    def test_importer_sees_events_stored_by_others_between_its_files(self):
        self.run_scenario(rebuild_cache=False)

    def test_importer_sees_events_stored_by_others_after_verify_rebuilt_the_cache(self):
        self.run_scenario(rebuild_cache=True)

    def test_concurrent_verify_never_lets_a_duplicate_in(self):
        # Four importers of overlapping files while verify rebuilds the cache again and again.
        events = distinct_events(1200, "ov")
        files = []
        for k in range(12):
            files.append(self.write(f"part-{k}.jsonl", jsonl(*events[k * 100:(k + 1) * 100])))
        procs = []
        for w in range(4):
            order = files[w * 3:] + files[:w * 3]  # every importer sees every file
            procs.append(subprocess.Popen(
                [kzlib.BIN, "import", *order, "--home", self.home, "--now", NOW],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        verifies = 0
        while any(p.poll() is None for p in procs) and verifies < 200:
            verifies += 1
            self.verify()
        for p in procs:
            p.wait(timeout=300)
            self.assertIn(p.returncode, (EXIT_OK, EXIT_REJECTED))
        ids = self.assert_raw_log_sound()
        self.assertEqual(ids, {e["id"] for e in events})
        self.assertEqual(len(self.raw_lines()), 1200)


class KillDuringImport(KaizenTest):

    def test_kill_9_during_large_import_loses_no_acknowledged_event(self):
        big = self.path("big.jsonl")
        g = kaizen("gen", "--events", 200000, "--seed", 11, "--out", big)
        self.assertEqual(g.rc, EXIT_OK, g)
        with open(big, "rb") as f:
            total = sum(1 for _ in f)
        self.assertEqual(total, 200000)

        # A reader thread drains the acknowledgements as they arrive (a full pipe would stall
        # the import). Once 1000 are in, the import is left to run as long again as it took to
        # get there (so the kill lands in its second group commit on fast and slow machines
        # alike), then killed. The assertions below hold wherever the kill lands; the delay
        # (KZ_KILL_DELAY seconds, if set) only moves the point.
        delay = float(os.environ["KZ_KILL_DELAY"]) if os.environ.get("KZ_KILL_DELAY") else None
        acked, enough = [], threading.Event()
        err_path = self.path("import.err")
        with open(err_path, "wb") as err:
            p = subprocess.Popen([kzlib.BIN, "import", big, "--json", "--home", self.home,
                                  "--now", NOW], stdout=subprocess.PIPE, stderr=err)

            def drain():
                # Only complete lines count: a last line cut by the kill was never seen whole.
                for line in p.stdout:
                    if line.endswith(b"\n"):
                        obj = json.loads(line)
                        if obj.get("stored"):
                            acked.append(obj["id"])
                    if len(acked) >= 1000:
                        enough.set()
                enough.set()

            started = time.monotonic()
            reader = threading.Thread(target=drain)
            reader.start()
            try:
                enough.wait(timeout=300)
                if delay is None:
                    delay = time.monotonic() - started
                time.sleep(delay)
                p.send_signal(signal.SIGKILL)
            finally:
                if p.poll() is None:
                    p.kill()
                p.wait()
                reader.join(timeout=300)
        self.assertEqual(p.returncode, -signal.SIGKILL,
                         f"the import finished before the kill ({len(acked)} acknowledged)")
        self.assertGreaterEqual(len(acked), 1000)

        v = self.verify("--json")
        self.assertEqual(v.rc, EXIT_OK, v)
        report = json.loads(v.out)
        self.assertTrue(report["ok"], report)
        for repair in report["repairs"]:
            if "torn" in repair:
                self.assertIn("cut a torn last line", repair)

        ids = self.assert_raw_log_sound()  # no torn line, every line strict JSON, no duplicates
        missing = [i for i in acked if i not in ids]
        self.assertEqual(missing, [], "acknowledged events were lost")
        stored_before = len(ids)
        if os.environ.get("KZ_DEBUG"):
            print(f"\ndelay {delay} acked {len(acked)} stored {stored_before} "
                  f"repairs {report['repairs']}")
        self.assertLess(stored_before, total)

        r = self.import_(big, "--json")
        self.assertEqual(r.rc, EXIT_REJECTED, r.err[:2000])
        objs = [json.loads(l) for l in r.lines]
        summary = objs[-1]["summary"]
        self.assertEqual(summary["stored"], total - stored_before)
        self.assertEqual(summary["rejected"], stored_before)
        for o in objs[:-1]:
            if not o["stored"]:
                self.assertTrue(any(e["path"] == "id" and "already recorded" in e["message"]
                                    for e in o["errors"]), o)
        lines = self.raw_lines()
        self.assertEqual(len(lines), total)
        # every id once (a cheap check: the id is the second field of every stored line)
        self.assertEqual(len({l.split(b'"id":"', 1)[1][:36] for l in lines}), total)
        self.assertTrue(all(l.endswith(b"}") for l in lines))


class TornTail(KaizenTest):
    HALF = b'{"kind":"outcome","id":"0197f359-3800-74f8-855a-ca45e255fc7f","timestamp":"2025-07'

    def setUp(self):
        super().setUp()
        self.first = self.record_ok("outcome", outcome_event(timestamp="2025-07-10T10:00:00Z"))
        self.day_file = self.hpath("feedback", "raw", "2025-07-10.jsonl")
        self.good = open(self.day_file, "rb").read()
        with open(self.day_file, "ab") as f:
            f.write(self.HALF)

    def assert_cut_and_saved(self):
        data = open(self.day_file, "rb").read()
        self.assertEqual(data[:len(self.good)], self.good)
        self.assertTrue(data.endswith(b"\n"))
        self.assertNotIn(self.HALF, data)
        saved = os.path.join(self.home, "feedback", "recovered",
                             f"2025-07-10.jsonl.{len(self.good)}.torn")
        self.assertTrue(os.path.exists(saved), os.listdir(os.path.dirname(saved)))
        self.assertEqual(open(saved, "rb").read(), self.HALF)
        self.assert_raw_log_sound()

    def test_torn_tail_is_never_exported(self):
        r = self.export()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.out_bytes, self.good)

    def test_torn_tail_is_cut_and_reported_by_the_next_record(self):
        r = self.record("outcome", jsonl(outcome_event(timestamp="2025-07-10T11:00:00Z")))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn(f"kaizen: recovered feedback/raw/2025-07-10.jsonl: cut a torn last line of "
                      f"{len(self.HALF)} bytes at byte {len(self.good)}", r.err)
        self.assert_cut_and_saved()
        # the new event is a line of its own, after the good one
        lines = self.raw_lines()
        self.assertEqual(len(lines), 2)
        self.assertEqual(json.loads(lines[1])["id"], r.lines[0])

    def test_torn_tail_in_another_day_is_cut_by_the_next_record(self):
        r = self.record("outcome", jsonl(outcome_event(timestamp="2025-07-20T11:00:00Z")))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("cut a torn last line", r.err)
        self.assert_cut_and_saved()

    def test_torn_tail_is_cut_and_reported_by_verify(self):
        r = self.verify()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn(f"repaired: feedback/raw/2025-07-10.jsonl: cut a torn last line of "
                      f"{len(self.HALF)} bytes at byte {len(self.good)}", r.out)
        self.assertIn("saved to feedback/recovered/2025-07-10.jsonl.", r.out)
        self.assert_cut_and_saved()
        again = self.verify()
        self.assertEqual(again.rc, EXIT_OK, again)
        self.assertNotIn("torn", again.out)

    def test_torn_tail_is_not_exported_after_repair(self):
        self.verify()
        r = self.export()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.out_bytes, self.good)

    def test_torn_only_line_of_a_file_is_cut_to_empty(self):
        lone = self.hpath("feedback", "raw", "2025-07-15.jsonl")
        with open(lone, "wb") as f:
            f.write(b'{"kind":"loop","id":')
        r = self.verify()
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("feedback/raw/2025-07-15.jsonl: cut a torn last line of 20 bytes at byte 0",
                      r.out)
        self.assertEqual(open(lone, "rb").read(), b"")
        self.assertTrue(os.path.exists(
            self.hpath("feedback", "recovered", "2025-07-15.jsonl.0.torn")))


class MidFileCorruption(KaizenTest):

    def setUp(self):
        super().setUp()
        events = [outcome_event(id=str(uuid.uuid4()), timestamp=f"2025-07-10T1{i}:00:00Z")
                  for i in range(3)]
        r = self.record("outcome", jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.ids = [e["id"] for e in events]
        self.day_file = self.hpath("feedback", "raw", "2025-07-10.jsonl")
        self.lines = open(self.day_file, "rb").read().split(b"\n")[:-1]

    def corrupt_line_2(self, replacement):
        lines = list(self.lines)
        lines[1] = replacement
        with open(self.day_file, "wb") as f:
            f.write(b"\n".join(lines) + b"\n")

    def test_garbage_line_is_reported_with_file_and_line_and_verify_exits_3(self):
        self.corrupt_line_2(b"#" * len(self.lines[1]))
        r = self.verify()
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        self.assertIn("problem: feedback/raw/2025-07-10.jsonl:2: not JSON", r.out)
        self.assertEqual(len([l for l in r.lines if l.startswith("problem:")]), 1, r)
        # verify leaves the line in place for a person to look at
        self.assertIn(b"#" * len(self.lines[1]), open(self.day_file, "rb").read())

    def test_verify_json_lists_the_problem(self):
        self.corrupt_line_2(b"garbage")
        r = self.verify("--json")
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        report = json.loads(r.out)
        self.assertFalse(report["ok"])
        self.assertEqual(len(report["problems"]), 1)
        self.assertTrue(report["problems"][0].startswith("feedback/raw/2025-07-10.jsonl:2: "),
                        report)

    def test_export_skips_the_corrupt_line_with_a_warning(self):
        self.corrupt_line_2(b"#" * len(self.lines[1]))
        r = self.export()
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        self.assertEqual(r.out_bytes, self.lines[0] + b"\n" + self.lines[2] + b"\n")
        self.assertIn("kaizen export: skipped feedback/raw/2025-07-10.jsonl:2:", r.err)

    def test_valid_json_that_is_not_a_valid_event_is_a_problem(self):
        self.corrupt_line_2(b'{"kind":"outcome","id":"%s","timestamp":"2025-07-10T11:00:00.000Z"}'
                            % self.ids[1].encode())
        r = self.verify()
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        self.assertIn("problem: feedback/raw/2025-07-10.jsonl:2: bead_id: missing", r.out)

    def test_verify_json_stays_valid_when_a_problem_quotes_odd_text(self):
        bad = dict(json.loads(self.lines[1]), duration_ms='q"uo\\te\ttab')
        self.corrupt_line_2(dumps(bad).encode())
        r = self.verify("--json")
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        report = json.loads(r.out)
        self.assertEqual(len(report["problems"]), 1, report)
        self.assertIn('duration_ms: "q\"uo\\te tab" is not a number', report["problems"][0])

    def test_duplicate_id_in_the_log_is_a_problem(self):
        with open(self.day_file, "ab") as f:
            f.write(self.lines[0] + b"\n")
        r = self.verify()
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        self.assertIn(f"problem: feedback/raw/2025-07-10.jsonl:4: id {self.ids[0]} appears more "
                      f"than once", r.out)

    def test_event_in_the_wrong_day_file_is_a_problem(self):
        wrong = self.hpath("feedback", "raw", "2025-07-11.jsonl")
        with open(wrong, "wb") as f:
            f.write(jsonl(dict(json.loads(self.lines[0]), id=str(uuid.uuid4()))).encode())
        r = self.verify()
        self.assertEqual(r.rc, EXIT_SYSTEM, r)
        self.assertIn("problem: feedback/raw/2025-07-11.jsonl:1: timestamp "
                      "2025-07-10T10:00:00.000Z belongs in feedback/raw/2025-07-10", r.out)

    def test_writes_continue_after_corruption_and_duplicates_are_still_refused(self):
        self.corrupt_line_2(b"garbage")  # shorter: the ingest cache must rebuild from raw
        r = self.record("outcome", jsonl(outcome_event(id=self.ids[0])))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("is already recorded", r.err)
        r = self.record("outcome", jsonl(outcome_event(id=self.ids[2])))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        ok = self.record("outcome", jsonl(outcome_event()))
        self.assertEqual(ok.rc, EXIT_OK, ok)
        self.assertEqual(len(self.raw_lines()), 4)


if __name__ == "__main__":
    unittest.main()
