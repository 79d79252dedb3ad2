"""The throwaway PostgreSQL cluster of the tests (tests/pg_cluster.py) itself: that it starts,
keeps committed rows across a crash, never runs the server as root, and leaves nothing behind.

Each test starts its own cluster (not $KAIZEN_TEST_PG): it kills and restarts it.
"""

import os
import subprocess
import sys
import unittest

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, TESTS)
import pg_cluster  # noqa: E402

SCRIPT = os.path.join(TESTS, "pg_cluster.py")


def proc_uid(pid):
    """The real uid of a process, from /proc/PID/status."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("Uid:"):
                return int(line.split()[1])
    raise AssertionError(f"no Uid line for pid {pid}")


class PgClusterTest(unittest.TestCase):
    def cluster(self):
        """A started cluster, stopped (and removed) when the test ends."""
        pg = pg_cluster.PgCluster()
        self.addCleanup(pg.stop)
        return pg.start()

    def test_starts_and_answers(self):
        pg = self.cluster()
        self.assertEqual(pg.psql("select 1"), "1\n")
        self.assertEqual(pg.psql("select current_user, current_database()"), "kaizen|kaizen\n")
        self.assertTrue(pg.uri.startswith(f"postgresql://kaizen@127.0.0.1:{pg.port}/"), pg.uri)
        self.assertTrue(os.path.isfile(os.path.join(pg.datadir, "PG_VERSION")))
        self.assertEqual(pg.psql("show fsync"), "on\n")  # what a kill() cannot tell apart
        self.assertEqual(pg.psql("show synchronous_commit"), "on\n")
        self.assertEqual(pg.psql("show listen_addresses"), "127.0.0.1\n")

    def test_committed_row_survives_kill(self):
        pg = self.cluster()
        pg.psql("create table t (v text); insert into t values ('before the crash')")
        port, pid = pg.port, pg.pid
        pg.kill()
        self.assertFalse(pg_cluster.is_alive(pid), "the postmaster outlived kill()")
        pg.restart()
        self.assertEqual(pg.port, port)
        self.assertNotEqual(pg.pid, pid)
        self.assertEqual(pg.psql("select v from t"), "before the crash\n")
        self.assertIn("not properly shut down", pg.log_tail(lines=1000),
                      "the restart after kill() should have run crash recovery")

    def test_kill_leaves_no_server_process(self):
        pg = self.cluster()
        # Every server process (checkpointer, walwriter, ... and this session's backend).
        pids = [int(p) for p in pg.psql("select pid from pg_stat_activity").split()]
        pids.append(pg.pid)
        self.assertGreater(len(pids), 3)
        pg.kill()
        self.assertEqual([p for p in pids if pg_cluster.is_alive(p)], [])

    def test_server_does_not_run_as_root(self):
        pg = self.cluster()
        uid = proc_uid(pg.pid)
        self.assertNotEqual(uid, 0)
        if os.geteuid() == 0:
            self.assertEqual(uid, pg.user.pw_uid)
        else:
            self.assertEqual(uid, os.geteuid())

    def test_stop_removes_everything(self):
        pg = self.cluster()
        tmpdir, pid = pg.tmpdir, pg.pid
        pg.stop()
        self.assertFalse(os.path.exists(tmpdir))
        self.assertFalse(pg_cluster.is_alive(pid))

    def test_run_passes_uri_and_exit_code(self):
        env = {k: v for k, v in os.environ.items() if k != "KAIZEN_TEST_PG"}
        psql = os.path.join(pg_cluster.find_bindir(), "psql")
        # The command reaches the cluster through $KAIZEN_TEST_PG; its exit code is ours.
        check = ("import os, subprocess, sys; uri = os.environ['KAIZEN_TEST_PG'];"
                 "out = subprocess.run([sys.argv[1], '-XAtc', 'select 41+1', uri],"
                 " capture_output=True, text=True).stdout; sys.exit(7 if out == '42\\n' else 1)")
        proc = subprocess.run([sys.executable, SCRIPT, "run", "--", sys.executable, "-c", check,
                               psql], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 7, proc.stderr)

    def test_run_uses_a_given_server(self):
        env = dict(os.environ, KAIZEN_TEST_PG="postgresql://someone@example.invalid/db")
        proc = subprocess.run([sys.executable, SCRIPT, "run", "--", "sh", "-c",
                               'echo "$KAIZEN_TEST_PG"; exit 3'],
                              env=env, capture_output=True, text=True, timeout=60)
        self.assertEqual((proc.returncode, proc.stdout),
                         (3, "postgresql://someone@example.invalid/db\n"))


if __name__ == "__main__":
    unittest.main()
