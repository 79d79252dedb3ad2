"""The shared PostgreSQL store (--store URI, $KAIZEN_STORE), driven through the real binary.

The database is the log; a home is its working copy, whose feedback/raw day files mirror the
database byte for byte. These tests check that the bytes in the database are the bytes in the
files, that any home on the store gets the same files, that `kaizen migrate` copies either way
exactly and resumably, that a home with events of its own is not silently mixed into a store,
that an id is stored once across homes, that a second `kaizen serve` sees a first one's events,
what happens when the database dies under an import or a server, and that `kaizen forget` on the
store reaches every other home.

Each class starts its own throwaway cluster (tests/pg_cluster.py; the fault tests kill it), and
each test gets a fresh database in it, so tests do not see each other's events.
"""

import glob
import itertools
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import time
import unittest
import uuid

from kzlib import (BIN, EXIT_OK, EXIT_REJECTED, EXIT_USAGE, NOW, KaizenTest, admin_event,
                   correction_event, error_event, feedback_event, generated_history, jsonl,
                   kaizen, loop_event, outcome_event, reward_event, strict_loads, work_event)
from test_serve import Server

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pg_cluster  # noqa: E402

_databases = itertools.count(1)


def raw_dir(home):
    """{day file name: bytes} of a home's feedback/raw."""
    out = {}
    for p in sorted(glob.glob(os.path.join(home, "feedback", "raw", "*.jsonl"))):
        with open(p, "rb") as f:
            out[os.path.basename(p)] = f.read()
    return out


def raw_lines(home):
    return [l for data in raw_dir(home).values() for l in data.split(b"\n")[:-1]]


def mirror_state(home):
    with open(os.path.join(home, "feedback", "store.json"), "rb") as f:
        return strict_loads(f.read())


class PgStoreTest(pg_cluster.ClusterPerClass, KaizenTest):
    """One cluster per class, one fresh database per test (self.uri, self.sql)."""

    def setUp(self):
        super().setUp()
        if self.pg.pid is None:  # a fault test of this class killed it and failed before restart
            self.pg.restart()
        name = re.sub(r"[^a-z0-9_]", "_", self._testMethodName.lower())[:40]
        self.db = f"kz{next(_databases)}_{name}"
        self.pg.psql(f'CREATE DATABASE "{self.db}" OWNER "{pg_cluster.DB_USER}"',
                     dbname="postgres")
        self.uri = self.pg.uri.rsplit("/", 1)[0] + "/" + self.db

    def tearDown(self):
        if self.pg.pid is None:
            self.pg.restart()  # leave the cluster up for the next test of the class
        super().tearDown()

    # ---- the database --------------------------------------------------------------------

    def sql(self, query, timeout=120):
        return self.pg.psql(query, dbname=self.db, timeout=timeout)

    def count(self, where="true"):
        return int(self.sql(f"select count(*) from kaizen_events where {where}"))

    def counts(self):
        """(rows, distinct ids) of kaizen_events."""
        rows, distinct = self.sql("select count(*), count(distinct id) from kaizen_events"
                                  ).strip().split("|")
        return int(rows), int(distinct)

    def db_ids(self):
        return set(self.sql("select id from kaizen_events").split())

    def store_days(self, order="seq"):
        """The database as day files: {YYYY-MM-DD.jsonl: the bodies of that day, each + '\\n'},
        read as exact bytes (hex), in insertion order."""
        out = {}
        text = self.sql("select day::text, encode(convert_to(body, 'UTF8'), 'hex') "
                        f"from kaizen_events order by {order}")
        for row in text.splitlines():
            day, body = row.split("|")
            key = day + ".jsonl"
            out[key] = out.get(key, b"") + bytes.fromhex(body) + b"\n"
        return out

    def epoch(self):
        return int(self.sql("select value from kaizen_meta where key = 'epoch'"))

    # ---- kaizen on the store -------------------------------------------------------------

    def on(self, home, *args, input=None, timeout=300):
        """A verb run on `home` as a working copy of this test's store."""
        return self.kz(*args, "--home", home, "--store", self.uri, input=input, timeout=timeout)

    def import_file_home(self, home, path):
        r = self.kz("import", path, "--home", home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def migrate(self, src, dst):
        r = self.kz("migrate", "--from", src, "--to", dst, "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        return strict_loads(r.out)

    def history(self, events=3000, seed=5):
        return generated_history(self.tmp, events, seed)

    def assert_same_files(self, a, b, msg=""):
        """Byte-identical day files: the same names, the same bytes."""
        da = a if isinstance(a, dict) else raw_dir(a)
        db = b if isinstance(b, dict) else raw_dir(b)
        self.assertEqual(sorted(da), sorted(db), f"day files differ {msg}")
        for name in da:
            self.assertTrue(da[name] == db[name], f"{name} differs {msg}")
        self.assertTrue(da, f"no day files at all {msg}")


def mixed_events():
    """A few valid events of every generated kind over three days, one with non-ASCII text."""
    w = work_event(timestamp="2025-07-09T08:00:00Z")
    return [
        w,
        feedback_event(work_ref=w["workProduct"],
                       decision={"decision": "rejected", "reason": "na\u00efve \u2014 "
                                 "\u201cquotes\u201d, \u00e9t\u00e9 \u2713 \U0001f600"}),
        feedback_event(),
        outcome_event(timestamp="2025-07-10T09:00:00Z"),
        error_event(),
        reward_event(timestamp="2025-07-11T13:00:00Z"),
        correction_event(),
        loop_event(timestamp="2025-07-11T15:00:00Z"),
        admin_event(),
    ]


class StoreMirrorTest(PgStoreTest):
    """Events through one home are in the database byte for byte; other homes copy them."""

    def test_recorded_events_are_the_rows_byte_for_byte_and_every_home_gets_the_same_files(self):
        h1, h2, h3 = self.path("h1"), self.path("h2"), self.path("h3")
        events = mixed_events()
        r = self.on(h1, "import", "-", "--now", NOW, input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        lines = raw_lines(h1)
        self.assertEqual(len(lines), len(events))
        # Every stored line is a row, and each row's body is that line's exact bytes, in the day
        # file it belongs to, in the file's order.
        self.assertEqual(self.counts(), (len(events), len(events)))
        self.assert_same_files(self.store_days(), h1, "between the database and the home written")
        self.assertEqual(self.count("reviewer = 'jake'"), 2)
        self.assertEqual(len(raw_dir(h1)), 3)
        # A second, empty home on the same store: any verb copies the store into its day files.
        r = self.on(h2, "stats")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn(f"events      {len(events)} ", r.out)
        self.assert_same_files(h1, h2, "between the writing home and a copy made by `stats`")
        state = mirror_state(h2)
        self.assertEqual(state["storeId"],
                         self.sql("select value from kaizen_meta where key = 'store_id'").strip())
        self.assertEqual(state["epoch"], 0)
        # $KAIZEN_STORE names the store as --store does.
        r = kaizen("export", "--home", h3, env={"KAIZEN_STORE": self.uri})
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(sorted(strict_loads(l)["id"] for l in r.lines),
                         sorted(e["id"] for e in map(strict_loads, lines)))
        self.assert_same_files(h1, h3, "between the writing home and a copy made by `export`")

    def test_a_copy_gains_what_another_home_records_later(self):
        h1, h2 = self.path("h1"), self.path("h2")
        self.assertEqual(self.on(h1, "import", "-", "--now", NOW,
                                 input=jsonl(*mixed_events())).rc, EXIT_OK)
        self.assertEqual(self.on(h2, "stats").rc, EXIT_OK)
        frontier = mirror_state(h2)["frontier"]
        later = outcome_event(timestamp="2025-07-10T23:00:00Z")
        r = self.on(h1, "record", "outcome", "--now", NOW, input=jsonl(later))
        self.assertEqual(r.rc, EXIT_OK, r)
        new_id = r.lines[0]
        r = self.on(h2, "export")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn(new_id, [strict_loads(l)["id"] for l in r.lines])
        self.assert_same_files(h1, h2, "after an event recorded through the first home")
        self.assertNotEqual(mirror_state(h2)["frontier"], frontier)
        self.assertEqual(self.counts(), (len(mixed_events()) + 1,) * 2)

    def test_analyze_on_a_store_home_equals_analyze_on_a_file_home_of_the_same_history(self):
        history = self.history(3000, 5)
        file_home, store_home, copy_home = self.path("file"), self.path("store"), self.path("copy")
        self.import_file_home(file_home, history)
        r = self.on(store_home, "import", history, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(self.counts(), (3000, 3000))
        on_files = self.kz("analyze", "--json", "--now", "end", "--home", file_home)
        on_store = self.on(store_home, "analyze", "--json", "--now", "end")
        on_copy = self.on(copy_home, "analyze", "--json", "--now", "end")
        for r in (on_files, on_store, on_copy):
            self.assertEqual(r.rc, EXIT_OK, r)
        analysis = strict_loads(on_files.out)
        self.assertGreater(analysis["events"]["feedback"], 0, analysis["events"])
        self.assertEqual(on_store.out, on_files.out)
        # A new home folds its first copy as it streams in (analyze, explain): the same answer,
        # and the same files, recorded as a copy of the store, as a copy made before the fold.
        self.assertEqual(on_copy.out, on_files.out)
        self.assert_same_files(file_home, store_home)
        self.assert_same_files(file_home, copy_home, "the copy a streaming fold made")
        self.assertNotEqual(mirror_state(copy_home)["frontier"], "0")
        again = self.on(copy_home, "analyze", "--json", "--now", "end")
        self.assertEqual(again.out, on_files.out)
        explained = {home: self.on(home, "explain", "--now", "end", "calibration", "all")
                     for home in (store_home, self.path("explain"))}
        for r in explained.values():
            self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(explained[store_home].out, explained[self.path("explain")].out)
        self.assert_same_files(file_home, self.path("explain"))
        ruled = {home: self.on(home, "rules", "--json", "--now", "end")
                 for home in (store_home, self.path("rules"))}
        for r in ruled.values():
            self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(ruled[store_home].out, ruled[self.path("rules")].out)
        self.assert_same_files(file_home, self.path("rules"))
        contexts = {home: self.on(home, "context", "--json", "--now", "end", "--project", "api")
                    for home in (store_home, self.path("context"))}
        for r in contexts.values():
            self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(contexts[store_home].out, contexts[self.path("context")].out)
        hints = {}
        for home in (store_home, self.path("hints")):
            target = self.path(os.path.basename(home) + "-AGENTS.md")
            r = self.on(home, "hints", target, "--now", "end", "--project", "api")
            self.assertEqual(r.rc, EXIT_OK, r)
            with open(target) as f:
                hints[home] = f.read()
        self.assertIn("kaizen", hints[store_home])
        self.assertEqual(hints[store_home], hints[self.path("hints")])
        self.assert_same_files(file_home, self.path("hints"))

    def test_a_home_with_events_of_its_own_is_refused_until_migrated_then_works(self):
        home = self.path("own")
        self.import_file_home(home, self.history(3000, 5))
        before = raw_dir(home)
        for args in (["stats"], ["record", "outcome", "--now", NOW]):
            r = self.on(home, *args, input=jsonl(outcome_event()))
            self.assertNotEqual(r.rc, EXIT_OK, r)
            self.assertIn(f"`kaizen migrate --from {home} --to", r.err, r)
            self.assertIn("3000 event(s)", r.err, r)
        # Refused means untouched: nothing copied either way, no mirror state written.
        self.assertEqual(self.count(), 0)
        self.assertEqual(raw_dir(home), before)
        self.assertFalse(os.path.exists(os.path.join(home, "feedback", "store.json")))
        report = self.migrate(home, self.uri)
        self.assertEqual((report["read"], report["copied"], report["alreadyThere"]),
                         (3000, 3000, 0))
        r = self.on(home, "stats")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("events      3000 ", r.out)
        self.assertEqual(raw_dir(home), before)  # it was already the store's copy: unchanged
        r = self.on(home, "record", "outcome", "--now", NOW, input=jsonl(outcome_event()))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(self.count(f"id = '{r.lines[0]}'"), 1)
        self.assertEqual(self.counts(), (3001, 3001))

    def test_a_store_that_is_not_postgresql_is_a_usage_error(self):
        r = self.kz("stats", "--home", self.home, "--store", self.path("not-a-database"))
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("is not a PostgreSQL database", r.err)

    def test_the_same_id_through_two_homes_is_stored_once_and_the_second_is_refused(self):
        h1, h2 = self.path("h1"), self.path("h2")
        event_id = str(uuid.uuid4())
        event = outcome_event(id=event_id)
        r = self.on(h1, "record", "outcome", "--now", NOW, input=jsonl(event))
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(r.lines, [event_id])
        r = self.on(h2, "record", "outcome", "--now", NOW, input=jsonl(event))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertRegex(r.err, r"already (recorded|in the store)")
        self.assertIn(event_id, r.err)
        self.assertEqual(self.count(f"id = '{event_id}'"), 1)
        self.assertEqual(self.counts(), (1, 1))
        # The second home holds the store's copy of it, once.
        self.assertEqual([strict_loads(l)["id"] for l in raw_lines(h2)], [event_id])
        self.assert_same_files(h1, h2)

    def test_two_homes_importing_the_same_history_at_once_store_each_id_once(self):
        history = self.history(3000, 5)
        homes = [self.path("a"), self.path("b")]
        for h in homes:  # both are copies of the (empty) store before the race
            self.assertEqual(self.on(h, "stats").rc, EXIT_OK)
        procs = [subprocess.Popen([BIN, "import", history, "--home", h, "--store", self.uri,
                                   "--now", NOW], stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for h in homes]
        results = []
        for p in procs:
            out, err = p.communicate(timeout=300)
            results.append((p.returncode, out.decode(), err.decode()))
        rcs = sorted(rc for rc, _, _ in results)
        self.assertTrue(all(rc >= 0 for rc in rcs), results)
        # One stored all of it; the other was refused, whether its checks saw the winner's events
        # (duplicate ids) or the database refused its batch (the ids are unique across the log).
        self.assertEqual(rcs[0], EXIT_OK, results)
        self.assertNotEqual(rcs[1], EXIT_OK, results)
        loser = next(r for r in results if r[0] != EXIT_OK)
        self.assertRegex(loser[2], r"already (recorded|in the store)", results)
        self.assertEqual(self.counts(), (3000, 3000))
        for h in homes:
            self.assertEqual(self.on(h, "stats").rc, EXIT_OK)
        self.assert_same_files(homes[0], homes[1], "after the race")
        self.assert_same_files(self.store_days(), homes[0], "between the database and a home")

    def test_forget_on_a_store_removes_the_user_from_the_database_and_from_every_copy(self):
        writer, copy = self.path("writer"), self.path("copy")
        r = self.on(writer, "import", self.history(3000, 5), "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(self.on(copy, "stats").rc, EXIT_OK)
        jake = "body like '%\"reviewerId\":\"jake\"%'"
        self.assertGreater(self.count(jake), 0)
        self.assertTrue(any(b'"reviewerId":"jake"' in l for l in raw_lines(copy)))
        epoch_before = self.epoch()
        r = self.on(writer, "forget", "--user", "jake", "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(self.count(jake), 0)
        self.assertEqual(self.count("reviewer = 'jake'"), 0)
        rows, distinct = self.counts()
        self.assertEqual(rows, distinct)
        self.assertEqual(int(self.sql("select count(*) from kaizen_event_ids")), rows)
        self.assertGreater(self.epoch(), epoch_before)
        self.assert_same_files(self.store_days(), writer, "between the database and the writer")
        # The other home, on its next verb, copies the rewritten store again.
        r = self.on(copy, "stats")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertFalse([l for l in raw_lines(copy) if b'"reviewerId":"jake"' in l])
        self.assertEqual(mirror_state(copy)["epoch"], self.epoch())
        self.assert_same_files(writer, copy, "between the writer and the copy after forget")


class MigrateTest(PgStoreTest):
    """`kaizen migrate`: home -> store -> home byte for byte; resumable; never a duplicate."""

    def test_home_to_store_to_new_home_is_byte_identical_and_a_second_run_copies_nothing(self):
        src, dst = self.path("src"), self.path("dst")
        self.import_file_home(src, self.history(3000, 5))
        report = self.migrate(src, self.uri)
        self.assertEqual(report, {"from": src, "to": self.uri, "read": 3000, "copied": 3000,
                                  "alreadyThere": 0})
        self.assert_same_files(self.store_days(), src, "between the database and the source")
        report = self.migrate(self.uri, dst)
        self.assertEqual((report["read"], report["copied"], report["alreadyThere"]),
                         (3000, 3000, 0))
        self.assert_same_files(src, dst, "after the round trip")
        self.assertEqual(self.kz("verify", "--home", dst, "--now", NOW).rc, EXIT_OK)
        # Again, both ways: everything is there already.
        for a, b in ((src, self.uri), (self.uri, dst)):
            report = self.migrate(a, b)
            self.assertEqual(report["copied"], 0, report)
            self.assertEqual(report["alreadyThere"], report["read"], report)
            self.assertEqual(report["read"], 3000, report)
        self.assertEqual(self.counts(), (3000, 3000))
        self.assert_same_files(src, dst, "after the second round trip")

    def test_migrate_of_a_subset_then_the_whole_copies_only_the_rest(self):
        history = self.history(3000, 5)
        with open(history, "rb") as f:
            first = b"".join(f.readlines()[:1000])
        part, whole, back = self.path("part"), self.path("whole"), self.path("back")
        self.import_file_home(part, self.write("first.jsonl", first))
        self.import_file_home(whole, history)
        self.assertEqual(self.migrate(part, self.uri)["copied"], 1000)
        report = self.migrate(whole, self.uri)
        self.assertEqual((report["read"], report["copied"], report["alreadyThere"]),
                         (3000, 2000, 1000))
        self.assertEqual(self.counts(), (3000, 3000))
        self.assertEqual(self.migrate(self.uri, back)["copied"], 3000)
        self.assert_same_files(whole, back, "after a migrate finished in two runs")

    def test_migrate_killed_midway_then_run_again_completes_without_duplicates(self):
        src, back = self.path("src"), self.path("back")
        self.import_file_home(src, self.history(20000, 7))
        self.assertEqual(self.on(self.path("schema"), "stats").rc, EXIT_OK)  # makes the tables
        proc = subprocess.Popen([BIN, "migrate", "--from", src, "--to", self.uri, "--json"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while proc.poll() is None and self.count() == 0 and time.monotonic() < deadline:
            pass
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
        copied_before = self.count()
        self.assertEqual(proc.returncode, -signal.SIGKILL,
                         f"the migrate ended before it was killed ({copied_before} rows)")
        self.assertGreater(copied_before, 0)
        self.assertLess(copied_before, 20000)
        report = self.migrate(src, self.uri)
        self.assertEqual(report["read"], 20000)
        self.assertEqual(report["alreadyThere"], copied_before, report)
        self.assertEqual(report["copied"], 20000 - copied_before, report)
        self.assertEqual(self.counts(), (20000, 20000))
        self.assertEqual(self.migrate(self.uri, back)["copied"], 20000)
        self.assert_same_files(src, back, "after a migrate killed and run again")


class TwoServersTest(PgStoreTest):
    """Two `kaizen serve` on two homes of one store see each other's events (LISTEN/NOTIFY)."""

    def serve(self, home):
        s = Server(home, "--store", self.uri)
        self.addCleanup(s.kill)
        return s

    @staticmethod
    def events_seen(server):
        status, _, body = server.request("GET", "/healthz", token=None)
        assert status == 200, (status, body)
        return body["events"]

    def wait_seen(self, server, n, timeout=10.0):
        """Seconds until `server` holds n events; fails after `timeout`."""
        start = time.monotonic()
        while self.events_seen(server) < n:
            if time.monotonic() - start > timeout:
                self.fail(f"the second server did not see event {n} within {timeout} s; "
                          f"its stderr:\n{server.stderr}")
            time.sleep(0.002)
        return time.monotonic() - start

    def test_an_event_posted_to_one_server_is_seen_by_the_other_within_seconds(self):
        a, b = self.serve(self.path("a")), self.serve(self.path("b"))
        latencies = []
        for n in range(1, 11):
            status, _, body = a.request("POST", "/v1/feedback", feedback_event())
            self.assertEqual(status, 201, body)
            latencies.append(self.wait_seen(b, n))
        status, _, body = b.request("POST", "/v1/feedback", feedback_event())
        self.assertEqual(status, 201, body)
        back = self.wait_seen(a, 11)
        print(f"\n  second server saw the first server's events after: median "
              f"{statistics.median(latencies) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms "
              f"over {len(latencies)} events; the other way {back * 1000:.1f} ms", flush=True)
        for s in (a, b):
            status, _, body = s.request("GET", "/v1/analysis", token=None)
            self.assertEqual(status, 200)
            self.assertEqual(body["events"]["feedback"], 11, body["events"])
        self.assertEqual(self.counts(), (11, 11))
        self.assertEqual(a.stop(), 0)
        self.assertEqual(b.stop(), 0)
        self.assert_same_files(self.path("a"), self.path("b"), "between the two servers' homes")
        self.assert_same_files(self.store_days(), self.path("a"), "between the database and a home")


class StoreFaultTest(PgStoreTest):
    """The database killed (SIGKILL) under an import and under a server."""

    def test_database_killed_during_import_fails_cleanly_keeps_what_it_acked_and_resumes(self):
        history = self.history(20000, 7)
        with open(history, "rb") as f:
            all_ids = {strict_loads(l)["id"] for l in f}
        self.assertEqual(len(all_ids), 20000)
        home = self.home
        self.assertEqual(self.on(home, "stats").rc, EXIT_OK)  # the tables exist; the home mirrors
        proc = subprocess.Popen([BIN, "import", history, "--home", home, "--store", self.uri,
                                 "--now", NOW, "--json"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while proc.poll() is None and self.count() == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        ended_early = proc.poll() is not None
        self.pg.kill()
        out, err = proc.communicate(timeout=300)
        err = err.decode("utf-8", "replace")
        self.assertFalse(ended_early, f"the import ended before the kill: {err}")
        # A clear failure, not a crash.
        self.assertGreater(proc.returncode, 0, err)
        self.assertRegex(err, r"the store .* is unreachable", err)
        acked = []
        for line in out.decode().splitlines():
            rec = strict_loads(line)
            if rec.get("stored"):
                acked.append(rec["id"])
        self.assertLess(len(acked), 20000)
        m = re.search(r"\((\d+) events of this file were stored before the failure\)", err)
        self.assertIsNotNone(m, err)
        self.assertEqual(int(m.group(1)), len(acked), err)

        self.pg.restart()
        stored = self.db_ids()
        self.assertEqual(set(acked) - stored, set(), "acknowledged events lost by the crash")
        self.assertTrue(stored <= all_ids)
        rows_after_crash = len(stored)
        self.assertEqual(self.counts(), (rows_after_crash, rows_after_crash))

        # The same import again: what is stored is refused as a duplicate, the rest is stored.
        r = self.on(home, "import", history, "--now", NOW)
        self.assertIn(r.rc, (EXIT_OK, EXIT_REJECTED), r)
        self.assertIn(f"imported {20000 - rows_after_crash} events, "
                      f"rejected {rows_after_crash} ", r.out)
        for line in r.err_lines:
            self.assertIn("already", line, r)
        self.assertEqual(self.counts(), (20000, 20000))
        self.assertEqual(self.db_ids(), all_ids)
        # The home that saw the crash is an exact copy of the store.
        self.assertEqual(self.on(self.path("fresh"), "stats").rc, EXIT_OK)
        self.assert_same_files(home, self.path("fresh"), "between the crashed home and a new copy")

    def test_serve_answers_503_while_the_database_is_down_and_stores_again_after_restart(self):
        s = Server(self.home, "--store", self.uri)
        self.addCleanup(s.kill)
        status, _, body = s.request("POST", "/v1/outcome", outcome_event())
        self.assertEqual(status, 201, body)
        first = body["id"]
        self.pg.kill()
        refused = outcome_event(id=str(uuid.uuid4()))
        started = time.monotonic()
        status, _, body = s.request("POST", "/v1/outcome", refused, conn=s.conn(timeout=60))
        took = time.monotonic() - started
        print(f"\n  POST with the database down: {status} after {took * 1000:.0f} ms", flush=True)
        self.assertGreaterEqual(status, 500, body)
        self.assertLess(status, 600, body)
        self.assertEqual(status, 503, body)  # 503 preferred: the client may retry
        self.assertEqual(body["error"]["code"], "unavailable", body)
        self.assertIn("unreachable", body["error"]["message"], body)
        self.assertLess(took, 30)
        self.assertIsNone(s.proc.poll(), "the server exited with the database down")

        self.pg.restart()
        self.assertEqual(self.db_ids(), {first})  # the refused event was not stored
        # Sent again once the database is back: stored, once.
        status, _, body = s.request("POST", "/v1/outcome", refused)
        self.assertEqual(status, 201, body)
        self.assertEqual(body["id"], refused["id"])
        status, _, body = s.request("POST", "/v1/outcome", outcome_event())
        self.assertEqual(status, 201, body)
        self.assertEqual(self.counts(), (3, 3))
        self.assertEqual(self.db_ids(), {first, refused["id"], body["id"]})
        self.assertEqual(s.stop(), 0)
        self.assert_same_files(self.store_days(), self.home, "between the database and the home")


if __name__ == "__main__":
    unittest.main()


class GitSignalsIntoTheStore(PgStoreTest):
    """`kaizen git scan` (the kaizen-git sibling) stores its signals in the shared store too."""

    def test_a_scan_with_a_store_puts_its_rewards_in_the_database_and_every_copy(self):
        from test_git_scan import AGENT, ALICE, BASE, CLAUDE, Repo
        repo = Repo(self.path("shop"))
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        agent = repo.commit({"a.txt": AGENT}, CLAUDE, "2025-03-01T10:00:00Z", "add lines")
        repo.git("revert", "--no-edit", agent, who=ALICE, at="2025-03-02T09:00:00Z")
        home = self.path("scanner")
        r = self.kz("git", "scan", repo.path, "--home", home, "--store", self.uri, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertGreater(self.count("kind = 'reward'"), 0, "no reward reached the database")
        # Another machine's copy holds them, byte for byte the scanner's lines; stats names it.
        other = self.path("other")
        r = self.on(other, "stats", "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(strict_loads(r.out)["store"], self.uri)
        self.assertEqual(self.store_days(), raw_dir(home))
        self.assertEqual(raw_dir(other), raw_dir(home))

