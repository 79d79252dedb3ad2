#!/usr/bin/env python3
"""A throwaway PostgreSQL cluster for tests, from Debian's packages (Python 3 standard library).

Tests of the PostgreSQL store need a real server. This starts one in a fresh temporary directory,
on a free port of 127.0.0.1, and removes it afterwards:

    with PgCluster() as pg:
        print(pg.uri)                   # postgresql://kaizen@127.0.0.1:PORT/kaizen
        pg.psql("select 1")
        pg.kill(); pg.restart()         # a crash (SIGKILL), then crash recovery
        pg.shutdown(); pg.restart()     # a clean stop that keeps the data (stop() removes it)

    python3 tests/pg_cluster.py run -- CMD ARGS...

`run` starts a cluster, runs CMD with KAIZEN_TEST_PG=<uri> in its environment, stops the cluster
(also when CMD fails or we are interrupted) and exits with CMD's exit code. When KAIZEN_TEST_PG is
already set (a developer's own server), `run` just runs CMD.

PostgreSQL refuses to run as root, and CI runs `make test` as root: then the server (and initdb)
run as the `postgres` system user the Debian package creates, or `nobody` without it. fsync stays
on: durability tests kill the server with SIGKILL and must find every committed row afterwards.
"""

import glob
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

DB_USER = "kaizen"
DB_NAME = "kaizen"
START_TIMEOUT = 30.0  # seconds until the server must accept connections (crash recovery included)
STOP_TIMEOUT = 60.0   # seconds a fast shutdown may take before the server is killed instead
PG_LIB = "/usr/lib/postgresql"
NEEDED_PROGRAMS = ("initdb", "postgres", "pg_isready", "psql")


class PgClusterError(RuntimeError):
    """The cluster could not be set up, started or queried; the message says why."""


def find_bindir():
    """The bin directory of the newest PostgreSQL under /usr/lib/postgresql (Debian's layout,
    where several major versions can sit side by side), holding every program we run."""
    candidates = glob.glob(os.path.join(PG_LIB, "*", "bin", "initdb"))
    if not candidates:
        raise PgClusterError(f"no PostgreSQL server found: nothing matches {PG_LIB}/*/bin/initdb; "
                             "install Debian's `postgresql` package (`make deps` does)")

    def version(initdb):
        name = os.path.basename(os.path.dirname(os.path.dirname(initdb)))
        return tuple(int(part) for part in re.findall(r"\d+", name))

    bindir = os.path.dirname(max(candidates, key=version))
    missing = [p for p in NEEDED_PROGRAMS if not os.access(os.path.join(bindir, p), os.X_OK)]
    if missing:
        raise PgClusterError(f"{bindir} lacks {', '.join(missing)}: install Debian's `postgresql` "
                             "package (`make deps` does)")
    return bindir


def free_port():
    """A TCP port of 127.0.0.1 nobody listens on now: the kernel's pick for port 0. Another
    process could take it before the server binds it, which is unlikely enough for tests."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_user():
    """The unprivileged account to run the server as when we are root (None: run as ourselves).
    The Debian package creates `postgres`; `nobody` exists everywhere else."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            pass
    raise PgClusterError("running as root, and neither a `postgres` nor a `nobody` user exists "
                         "to run the server as (PostgreSQL refuses to run as root)")


def as_user(user, argv):
    """argv run as `user` (a pwd entry; None: unchanged). setpriv execs the program in its place,
    so the postmaster is our own child and we reap it ourselves (a container's PID 1 may never
    reap it, and a zombie postmaster would keep its pid "running" and block the restart).
    runuser, which stays in between as a parent, is the fallback."""
    if user is None:
        return argv
    if shutil.which("setpriv"):
        return ["setpriv", f"--reuid={user.pw_name}", f"--regid={user.pw_gid}", "--init-groups",
                "--"] + argv
    if shutil.which("runuser"):
        return ["runuser", "-u", user.pw_name, "--"] + argv
    raise PgClusterError("running as root without setpriv or runuser (util-linux) to run the "
                         "server as an unprivileged user")


def traversable_by(path, user):
    """Whether `user` (a pwd entry) can reach `path`: search permission on every directory above."""
    parent = os.path.dirname(os.path.abspath(path))
    while True:
        st = os.stat(parent)
        if st.st_uid == user.pw_uid:
            bit = 0o100
        elif st.st_gid == user.pw_gid:
            bit = 0o010
        else:
            bit = 0o001
        if not st.st_mode & bit:
            return False
        if parent == "/":
            return True
        parent = os.path.dirname(parent)


def make_tempdir(user):
    """A fresh directory for the data, the socket and the log, owned by the server's user. Under
    $TMPDIR unless that is out of the user's reach (a root's private TMPDIR), then under /tmp."""
    base = tempfile.gettempdir()
    if user is not None and not traversable_by(os.path.join(base, "x"), user):
        base = "/tmp"
    path = tempfile.mkdtemp(prefix="kaizen-pg-", dir=base)
    if user is not None:
        os.chown(path, user.pw_uid, user.pw_gid)
    return path


def proc_children(pid):
    """Pids of the processes whose parent is `pid`, from /proc."""
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _proc_stat(int(entry))
            if stat and stat[1] == str(pid):
                children.append(int(entry))
    return children


def _proc_stat(pid):
    """(state, ppid) of a process from /proc/PID/stat, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the command name may hold spaces and parens
    return fields[0], fields[1]


def is_alive(pid):
    """Whether `pid` still runs; a zombie (dead, its parent has not reaped it yet) does not."""
    stat = _proc_stat(pid)
    return stat is not None and stat[0] not in ("Z", "X")


def _signal_quietly(send, target, sig):
    """send(target, sig), ignoring a process that is already gone."""
    try:
        send(target, sig)
    except (ProcessLookupError, PermissionError):
        pass


class PgCluster:
    """One throwaway PostgreSQL cluster: initdb on the first start(), gone after stop()."""

    def __init__(self):
        self.bindir = find_bindir()
        self.user = server_user()
        self.tmpdir = None
        self.datadir = None
        self.logfile = None
        self.port = None
        self._proc = None   # the server process (or runuser above it), our child

    # -- lifecycle --------------------------------------------------------------------------

    def start(self):
        """Creates the cluster (first call) and starts the server; returns once it accepts
        connections."""
        if self._proc is not None:
            raise PgClusterError("the server is already running")
        first = self.datadir is None
        if first:
            self._init()
        self._launch()
        try:
            self._wait_ready()
            if first:
                self.psql(f'CREATE DATABASE "{DB_NAME}" OWNER "{DB_USER}"', dbname="postgres")
        except BaseException:
            self.kill()
            raise
        return self

    def shutdown(self):
        """A fast shutdown (SIGINT: sessions are ended, then a checkpoint), keeping the data for
        restart(). Kills the server if it does not stop within STOP_TIMEOUT."""
        if self._proc is None:
            return
        _signal_quietly(os.kill, self._postmaster_pid(), signal.SIGINT)
        try:
            self._proc.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
        self._proc = None

    def stop(self):
        """Fast shutdown, then removes the temporary directory (data, socket, log)."""
        try:
            self.shutdown()
        finally:
            if self.tmpdir is not None:
                shutil.rmtree(self.tmpdir, ignore_errors=True)
            self.tmpdir = self.datadir = self.logfile = None

    def kill(self):
        """A crash: SIGKILL the postmaster, then every process it started (each backend is the
        leader of its own process group, so they are killed one group at a time). The
        postmaster is stopped first so it cannot start another child while we look.

        The postmaster must be reaped before restart(): until then its pid still exists, and a
        new postmaster refuses to start over its postmaster.pid. So a runuser above it is left
        alive to reap it, and we wait for runuser (or for the postmaster itself, our child)."""
        if self._proc is None:
            return
        pm = self._postmaster_pid()
        _signal_quietly(os.kill, pm, signal.SIGSTOP)
        children = proc_children(pm)
        _signal_quietly(os.kill, pm, signal.SIGKILL)
        for child in children:
            _signal_quietly(os.killpg, child, signal.SIGKILL)
            _signal_quietly(os.kill, child, signal.SIGKILL)
        self._reap()
        self._wait_gone([pm] + children)

    def _reap(self):
        """Waits for our child to end. runuser stops itself (SIGSTOP) when it sees its child
        stopped, as a shell's job would, so it is continued until it has seen the SIGKILL too."""
        while True:
            _signal_quietly(os.kill, self._proc.pid, signal.SIGCONT)
            try:
                self._proc.wait(timeout=0.1)
                break
            except subprocess.TimeoutExpired:
                pass
        self._proc = None

    def restart(self):
        """Starts the server again on the same data directory and port: after kill() the
        server runs crash recovery first. A running server is shut down (fast) before."""
        if self.datadir is None:
            raise PgClusterError("restart() needs a cluster that was started and not stop()ped")
        self.shutdown()
        return self.start()

    def __enter__(self):
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc):
        self.stop()

    # -- use --------------------------------------------------------------------------------

    @property
    def uri(self):
        """The libpq connection URI of database `kaizen` as user `kaizen` (trust: no password)."""
        return self._uri(DB_NAME)

    @property
    def pid(self):
        """The postmaster's pid (None when the server is not running)."""
        return self._postmaster_pid() if self._proc is not None else None

    def psql(self, sql, dbname=DB_NAME, timeout=60):
        """Runs `sql` with psql (stops at the first error) and returns its output: unaligned,
        tuples only, so `select 1` gives "1\\n"."""
        argv = [os.path.join(self.bindir, "psql"), "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1",
                "-d", self._uri(dbname), "-c", sql]
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise PgClusterError(f"psql failed (exit {proc.returncode}) on {sql!r}:\n{proc.stderr}")
        return proc.stdout

    def log_tail(self, lines=40):
        """The last lines of the server log, to show when something failed."""
        try:
            with open(self.logfile, errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except (OSError, TypeError):
            return "(no server log)"

    def log_complaints(self, lines=20):
        """The server log's last warnings, errors and crashes: what may explain a failed test
        once the log itself is gone with stop()."""
        levels = ("WARNING:", "ERROR:", "FATAL:", "PANIC:", "terminated by signal")
        tail = [l for l in self.log_tail(lines=100000).splitlines(True)
                if any(w in l for w in levels)]
        return "".join(tail[-lines:]) or "(none)\n"

    # -- details ----------------------------------------------------------------------------

    def _uri(self, dbname):
        return f"postgresql://{DB_USER}@127.0.0.1:{self.port}/{dbname}"

    def _run_as_server_user(self, argv):
        """Runs a PostgreSQL program to completion, its output into the log."""
        with open(self.logfile, "ab") as log:
            proc = subprocess.run(as_user(self.user, argv), stdout=log, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, cwd=self.tmpdir)
        if proc.returncode != 0:
            raise PgClusterError(f"{os.path.basename(argv[0])} failed (exit {proc.returncode}):\n"
                                 f"{self.log_tail()}")

    def _init(self):
        """initdb into a fresh temporary directory, then our server settings."""
        self.tmpdir = make_tempdir(self.user)
        self.datadir = os.path.join(self.tmpdir, "data")
        self.logfile = os.path.join(self.tmpdir, "server.log")
        self.port = free_port()
        self._run_as_server_user([os.path.join(self.bindir, "initdb"), "-D", self.datadir,
                                  "-A", "trust", "-U", DB_USER, "--no-sync", "-E", "UTF8",
                                  "--locale=C"])
        self._write_settings()

    def _write_settings(self):
        """Appended to postgresql.conf (so `postgres -D DATADIR` alone starts the same server
        when debugging). No fsync=off nor synchronous_commit=off: tests kill the server and
        count on what was committed."""
        settings = {
            "listen_addresses": "'127.0.0.1'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.tmpdir}'",
            "max_connections": "100",
            "shared_buffers": "'64MB'",
            "fsync": "on",
            "synchronous_commit": "on",
            "logging_collector": "off",   # the server's stderr is already our log file
            "log_destination": "'stderr'",
        }
        with open(os.path.join(self.datadir, "postgresql.conf"), "a") as conf:
            conf.write("\n# kaizen test cluster (tests/pg_cluster.py)\n")
            conf.writelines(f"{key} = {value}\n" for key, value in settings.items())

    def _launch(self):
        """Starts the postmaster in a session of its own (a Ctrl-C meant for the tests does not
        reach it; we stop it ourselves), its output appended to the log."""
        argv = as_user(self.user, [os.path.join(self.bindir, "postgres"), "-D", self.datadir])
        with open(self.logfile, "ab") as log:
            self._proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL, cwd=self.tmpdir,
                                          start_new_session=True)

    def _wait_ready(self):
        """Polls pg_isready until the server accepts connections (after any crash recovery)."""
        deadline = time.monotonic() + START_TIMEOUT
        argv = [os.path.join(self.bindir, "pg_isready"), "-q", "-h", "127.0.0.1",
                "-p", str(self.port), "-U", DB_USER, "-d", "postgres", "-t", "1"]
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise PgClusterError(f"the server exited (code {self._proc.returncode}) while "
                                     f"starting; end of {self.logfile}:\n{self.log_tail()}")
            if subprocess.run(argv, stdin=subprocess.DEVNULL).returncode == 0:
                return
            time.sleep(0.1)
        raise PgClusterError(f"the server did not accept connections within {START_TIMEOUT:.0f} s;"
                             f" end of {self.logfile}:\n{self.log_tail()}")

    def _postmaster_pid(self):
        """The postmaster's pid: our child itself when started directly or by setpriv, its
        child when runuser stands in between (postmaster.pid would name it too, but may be
        stale after a kill or not yet written while starting)."""
        if os.path.basename(self._proc.args[0]) == "runuser":
            children = proc_children(self._proc.pid)
            if children:
                return children[0]
        return self._proc.pid

    @staticmethod
    def _wait_gone(pids, timeout=10.0):
        """Waits until none of `pids` runs any more (SIGKILL is not instant)."""
        deadline = time.monotonic() + timeout
        while any(is_alive(p) for p in pids):
            if time.monotonic() > deadline:
                raise PgClusterError(f"server processes outlived SIGKILL: "
                                     f"{[p for p in pids if is_alive(p)]}")
            time.sleep(0.02)


# -- command line ---------------------------------------------------------------------------

class _Terminated(Exception):
    """SIGTERM or SIGHUP arrived: unwind (stopping the cluster) and exit 128+signal."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def _raise_terminated(signum, _frame):
    raise _Terminated(signum)


def _exit_code(returncode):
    """A shell's exit code for a child's returncode (killed by signal N: 128+N)."""
    return 128 - returncode if returncode < 0 else returncode


def _run_child(cmd, env):
    """Runs cmd to its end; when we are interrupted, ends it first (SIGTERM, then SIGKILL)."""
    try:
        child = subprocess.Popen(cmd, env=env)
    except OSError as e:
        print(f"pg_cluster.py: cannot run {cmd[0]}: {e}", file=sys.stderr)
        return 127
    try:
        return _exit_code(child.wait())
    except BaseException:
        if child.poll() is None:
            child.terminate()
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        raise


def run(cmd):
    """`run -- CMD...`: CMD with KAIZEN_TEST_PG set to a fresh cluster, which is removed after."""
    if os.environ.get("KAIZEN_TEST_PG"):
        return _run_child(cmd, None)  # the developer's own server
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _raise_terminated)
    try:
        with PgCluster() as pg:
            print(f"pg_cluster.py: PostgreSQL test cluster at {pg.uri} (log {pg.logfile})",
                  file=sys.stderr)
            rc = _run_child(cmd, dict(os.environ, KAIZEN_TEST_PG=pg.uri))
            if rc != 0:
                print(f"pg_cluster.py: the server's complaints, if any:\n{pg.log_complaints()}",
                      file=sys.stderr)
            return rc
    except PgClusterError as e:
        print(f"pg_cluster.py: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 128 + signal.SIGINT
    except _Terminated as e:
        return 128 + e.signum



class ClusterPerClass:
    """A unittest mixin: one PgCluster for the whole test class, as `cls.pg` (put it before the
    TestCase base: `class T(ClusterPerClass, unittest.TestCase)`)."""

    pg = None

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        cls.pg = PgCluster()
        try:
            cls.pg.start()
        except BaseException:
            cls.pg.stop()
            raise

    @classmethod
    def tearDownClass(cls):
        try:
            cls.pg.stop()
        finally:
            super().tearDownClass()

def main(argv):
    usage = "usage: python3 tests/pg_cluster.py run -- CMD [ARGS...]"
    if len(argv) >= 2 and argv[0] == "run":
        cmd = argv[2:] if argv[1] == "--" else argv[1:]
        if cmd:
            return run(cmd)
    print(usage, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
