#!/usr/bin/env python3
"""The file store and the PostgreSQL store side by side (issue 30), in one run on one machine:

1. Durable ingest through `kaizen serve`: POST /v1/events of distinct generated events
   (`kaizen gen`), BATCH events per request from CLIENTS concurrent keep-alive connections, into a
   file home and into a home on a PostgreSQL store. Counted: the events the answers say were
   stored, over the time from the first request sent to the last answer read; then checked
   after the server stopped against the log (`kaizen stats --json` of the file home; `select
   count(*) from kaizen_events`). Beside it, the CPU each party used in that time (the server and
   its busiest thread, PostgreSQL's processes, this load generator, everything else on the
   machine): a server at 1.0 core in one thread is bound by that thread, a load generator that
   drives the file store faster than PostgreSQL is not what limits the PostgreSQL figure.
   Target: 20,000 events/s into PostgreSQL.
2. A fold of N events: N generated events imported (untimed) into a file home and into the store
   (then VACUUM ANALYZE and CHECKPOINT: the store settled, as autovacuum leaves it after a load),
   then, after one untimed run of each, `kaizen analyze --json --now end` timed on the file home,
   on a fresh empty home of the store (cold: copies the store into the home, the fold reading
   each piece as it is written), and again on that home (warm: nothing to copy). Each of these is
   a full fold: the learned-state checkpoint a previous call left (feedback/indexes/learned.ckpt,
   written by a detached process after a fold) is removed first, and that writer is waited for,
   so it neither shortens a fold nor competes with the next one; each timed run starts after a
   sync. A last row times a repeated call as a user gets it, from that checkpoint. Every analysis
   must be byte-identical. Target: the PostgreSQL read under 5 s at 1,000,000 events.
3. How soon a second server sees an event: two `kaizen serve` on two homes of the same store;
   one event POSTed to A (POST /v1/<its kind>), B's GET /healthz `events` polled until it
   grows; REPEATS times, after one untimed warm-up event.

    python3 bench/pg_store.py [--bin build/kaizen] [--events 1000000] [--quick]
                              [--ingest-events 200000] [--batch 500] [--clients 8]
                              [--repeats 20] [--runs 5] [--only ingest,fold,propagation]

--quick: 20,000 events for 1 and 2, 5 repeats for 3, one run of each fold: a sanity check in a
minute, not a measurement. Progress goes to stderr, the markdown table to stdout; the exit code is
1 when a check failed (events lost or refused, analyses that differ, an event never seen).

PostgreSQL is a throwaway cluster from Debian's packages (tests/pg_cluster.py: fsync and
synchronous_commit on, shared_buffers 64MB, on 127.0.0.1 over TCP, as an unprivileged user when
run as root), on this machine: its CPU and disk are shared with kaizen. The binary is copied first,
so a rebuild during the run changes nothing. Everything lives under $TMPDIR (a full run takes
about 5 GB: the history, the homes and the database) and is removed at the end, the servers and
the cluster stopped, also on failure or interrupt.
"""

import argparse
import collections
import datetime
import hashlib
import http.client
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REPO, "tests"))
import pg_cluster  # noqa: E402

NOW = "2025-10-02T00:00:00Z"  # two days after `kaizen gen`'s history ends (bench/hook_latency.py)
LISTENING = re.compile(rb"kaizen serve: listening on http://([0-9.]+):([0-9]+) ")
BULK_HEAD = re.compile(rb'\{"stored":(\d+),"skipped":(\d+),"refused":(\d+)')
CHECKPOINT = os.path.join("feedback", "indexes", "learned.ckpt")
MAX_BODY = 64 << 20  # bytes; a batch of long generated lines can pass serve's default 1 MiB
CLK = os.sysconf("SC_CLK_TCK")
# A developer's own KAIZEN_* settings must not reach the binary: every home and store is named.
ENV = {k: v for k, v in os.environ.items()
       if k not in ("KAIZEN_HOME", "KAIZEN_STORE", "KAIZEN_TOKEN")}


class BenchError(RuntimeError):
    """A step failed; the message says which and shows kaizen's own words."""


class Interrupted(BaseException):
    """SIGTERM or SIGHUP: unwind, cleaning up, then exit 128+signal."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def tail(path, lines=15):
    try:
        with open(path, "rb") as f:
            return b"".join(f.read().splitlines(True)[-lines:]).decode("utf-8", "replace")
    except OSError:
        return "(none)"


# -- the machine and its processes ------------------------------------------------------------

def machine():
    model = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo") as f:
        kb = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1))
    return {"nproc": len(os.sched_getaffinity(0)), "cpu": model, "ram_gib": kb / 1048576}


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def _ticks(stat_path):
    """utime + stime of /proc/PID/stat or /proc/PID/task/TID/stat, in clock ticks (0 if gone)."""
    try:
        with open(stat_path) as f:
            text = f.read()
    except OSError:
        return 0
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[11]) + int(fields[12])


def machine_busy():
    """(busy, total) clock ticks of every CPU since boot (/proc/stat)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:9]]
    idle = v[3] + v[4]
    return sum(v) - idle, sum(v)


def process_ticks(pid):
    return _ticks(f"/proc/{pid}/stat")


def thread_ticks(pid):
    """{tid: (name, ticks)} of a process's threads."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                name = f.read().strip()
        except OSError:
            continue
        out[tid] = (name, _ticks(f"/proc/{pid}/task/{tid}/stat"))
    return out


def pg_ticks(pg):
    """{pid: ticks} of the PostgreSQL server's processes (the postmaster and its children)."""
    pm = pg.pid
    pids = [pm] + pg_cluster.proc_children(pm)
    return {p: _ticks(f"/proc/{p}/stat") for p in pids}


def self_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def processes_naming(needle):
    """Pids (not ours) whose command line holds `needle`: kaizen processes working on our homes,
    e.g. the detached checkpoint writer an analyze leaves behind (it keeps the analyze's argv)."""
    found = []
    me = os.getpid()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == me:
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if needle in f.read():
                    if pg_cluster.is_alive(int(entry)):
                        found.append(int(entry))
        except OSError:
            pass
    return found


def percentile(values, p):
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


# -- kaizen -------------------------------------------------------------------------------------

class Server:
    """One `kaizen serve --port 0`, its stderr in a file; the token is the home's config/token,
    which the first start creates."""

    def __init__(self, bench, name, home, store=None):
        self.name, self.home = name, home
        self.errpath = os.path.join(bench.tmp, f"serve-{name}.err")
        argv = [bench.bin, "serve", "--home", home, "--port", "0", "--max-body", str(MAX_BODY)]
        if store:
            argv += ["--store", store]
        with open(self.errpath, "wb") as err:
            # A session of its own: a Ctrl-C meant for the bench does not reach it; we stop it.
            self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                         stdout=subprocess.DEVNULL, stderr=err, env=ENV,
                                         start_new_session=True)
        bench.servers.append(self)
        deadline = time.monotonic() + 120
        self.port = None
        while self.port is None:
            with open(self.errpath, "rb") as f:
                m = LISTENING.search(f.read())
            if m:
                self.port = int(m.group(2))
            elif self.proc.poll() is not None:
                raise BenchError(f"kaizen serve ({name}) exited {self.proc.returncode} while "
                                 f"starting:\n{tail(self.errpath)}")
            elif time.monotonic() > deadline:
                raise BenchError(f"kaizen serve ({name}) did not start:\n{tail(self.errpath)}")
            else:
                time.sleep(0.02)
        with open(os.path.join(home, "config", "token")) as f:
            self.token = f.read().strip()

    def conn(self, timeout=300):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def post(self, conn, path, body):
        conn.request("POST", path, body=body,
                     headers={"Authorization": f"Bearer {self.token}",
                              "Content-Type": "application/x-ndjson"})
        r = conn.getresponse()
        return r.status, r.read()

    def events(self, conn):
        conn.request("GET", "/healthz")
        r = conn.getresponse()
        data = r.read()
        if r.status != 200:
            raise BenchError(f"GET /healthz of {self.name}: {r.status} {data[:300]!r}")
        return json.loads(data)["events"]

    def stop(self):
        """SIGTERM, which drains the writes in flight; exit 0 expected."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(120)
            except subprocess.TimeoutExpired:
                self.kill()
                raise BenchError(f"kaizen serve ({self.name}) did not stop within 120 s of "
                                 f"SIGTERM:\n{tail(self.errpath)}")
        if self.proc.returncode != 0:
            raise BenchError(f"kaizen serve ({self.name}) exited {self.proc.returncode}:\n"
                             f"{tail(self.errpath)}")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class Bench:
    def __init__(self, tmp, pg, kaizen):
        self.tmp, self.pg, self.bin = tmp, pg, kaizen
        self.servers = []
        self.failures = []  # checks that failed: the exit code is 1

    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def kz(self, *args, out=None):
        """Runs kaizen to completion: (seconds, stdout bytes). Fails with its stderr."""
        argv = [self.bin, *map(str, args)]
        start = time.perf_counter()
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, env=ENV,
                              stdout=out if out is not None else subprocess.PIPE,
                              stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        if proc.returncode != 0:
            raise BenchError(f"kaizen {' '.join(map(str, args))} exited {proc.returncode}:\n"
                             f"{proc.stderr.decode('utf-8', 'replace')[-3000:]}")
        return elapsed, proc.stdout

    def gen(self, events, seed, name):
        path = self.path(name)
        self.kz("gen", "--events", events, "--seed", seed, "--out", path)
        return path

    def database(self, name):
        """A fresh database of the cluster: its URI."""
        self.pg.psql(f'CREATE DATABASE "{name}" OWNER "{pg_cluster.DB_USER}"', dbname="postgres")
        return self.pg.uri.rsplit("/", 1)[0] + "/" + name

    def rows(self, db):
        """(rows, distinct ids) of kaizen_events in database `db`."""
        rows, ids = self.pg.psql("select count(*), count(distinct id) from kaizen_events",
                                 dbname=db, timeout=600).strip().split("|")
        return int(rows), int(ids)

    def wait_quiet(self, needle=None, timeout=180):
        """Waits until no process works on our files (a detached checkpoint writer; it gives up
        after 120 s by itself)."""
        needle = (needle or self.tmp + os.sep).encode()
        deadline = time.monotonic() + timeout
        while processes_naming(needle):
            if time.monotonic() > deadline:
                log(f"warning: processes still working in {needle.decode()}: "
                    f"{processes_naming(needle)}")
                return
            time.sleep(0.05)

    def fail(self, msg):
        log(f"CHECK FAILED: {msg}")
        self.failures.append(msg)


# -- 1. ingest ------------------------------------------------------------------------------------

def batches_of(path, size):
    """The file's lines as request bodies of `size` lines, in two phases: [[(bytes, lines)], ...].
    The work and error events first (but the errors that resolve one), all of them stored before
    the rest is sent: a feedback event names a recorded work event, a resolution a recorded error,
    and one sent by another
    client at the same moment may not be recorded yet (refused, rightly) when the history is
    replayed by concurrent clients in one phase.

    Each event is stamped anew, a millisecond apart from ten minutes ago on, in the history's
    order: a server ingests events as they happen. Replayed with their generated days, a batch of
    an earlier day arriving after a later one makes the server fold its whole log again (log order
    is day order; serve/live_state.cc), which is history import's cost, not live ingest's."""
    base = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=10)
    first, rest = [], []
    with open(path, "rb") as f:
        for i, line in enumerate(f):
            event = json.loads(line)
            at = base + datetime.timedelta(milliseconds=i)
            event["timestamp"] = at.strftime("%Y-%m-%dT%H:%M:%S.") + f"{at.microsecond // 1000:03d}Z"
            out = (json.dumps(event, separators=(",", ":"), ensure_ascii=False) + "\n").encode()
            early = event["kind"] == "work" or (event["kind"] == "error" and
                                                 "resolves" not in event)
            (first if early else rest).append(out)
    return [[(b"".join(part[i:i + size]), len(part[i:i + size]))
             for i in range(0, len(part), size)] for part in (first, rest)]


def drive_phases(server, phases, clients):
    """drive() for each phase in turn, the answers added up."""
    total = None
    for batches in phases:
        r = drive(server, batches, clients)
        if total is None:
            total = r
            continue
        for key in ("acked", "refused", "skipped", "wall"):
            total[key] += r[key]
        total["statuses"] = dict(collections.Counter(total["statuses"]) +
                                 collections.Counter(r["statuses"]))
        total["latencies"] = total["latencies"] + r["latencies"]
        total["errors"] = total["errors"] + r["errors"]
        total["reasons"] = total["reasons"] + r["reasons"]
    return total


def refusal_reasons(data):
    """{reason: lines} of the refused lines of a /v1/events answer, quoted values elided."""
    reasons = collections.Counter()
    try:
        lines = json.loads(data).get("lines", [])
    except ValueError:
        return reasons
    for line in lines:
        if line.get("status") == "refused":
            for err in line.get("errors", [])[:1]:
                reasons[re.sub(r'"[^"]*"', '"…"', err.get("message", "?"))[:120]] += 1
    return reasons


def drive(server, batches, clients):
    """POSTs every batch once, from `clients` threads on keep-alive connections, each taking the
    next batch as soon as its previous answer is read. Stops at the first answer that is not a
    /v1/events answer (200, 207, 422) or at a broken connection."""
    lock = threading.Lock()
    state = {"next": 0, "acked": 0, "refused": 0, "skipped": 0}
    statuses = collections.Counter()
    reasons = collections.Counter()
    latencies, errors = [], []
    ready = threading.Barrier(clients + 1)

    def worker():
        conn = server.conn()
        try:
            conn.connect()
            ready.wait()
            while True:
                with lock:
                    if errors or state["next"] >= len(batches):
                        return
                    body, _ = batches[state["next"]]
                    state["next"] += 1
                start = time.perf_counter()
                status, data = server.post(conn, "/v1/events", body)
                elapsed = time.perf_counter() - start
                m = BULK_HEAD.match(data)
                why = refusal_reasons(data) if m and int(m.group(3)) else None
                with lock:
                    statuses[status] += 1
                    latencies.append(elapsed)
                    if status in (200, 207, 422) and m:
                        state["acked"] += int(m.group(1))
                        state["skipped"] += int(m.group(2))
                        state["refused"] += int(m.group(3))
                        reasons.update(why or {})
                    else:
                        errors.append(f"HTTP {status}: {data[:400].decode('utf-8', 'replace')}")
        except threading.BrokenBarrierError:
            pass
        except Exception as e:  # noqa: BLE001 - reported by the caller
            with lock:
                errors.append(repr(e))
            if not ready.broken:
                ready.abort()
        finally:
            conn.close()

    threads = [threading.Thread(target=worker, daemon=True) for _ in range(clients)]
    for t in threads:
        t.start()
    try:
        ready.wait()
    except threading.BrokenBarrierError:
        pass
    start = time.perf_counter()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    return dict(state, wall=wall, statuses=dict(statuses), latencies=latencies, errors=errors,
                reasons=reasons)


def ingest(bench, label, phases, clients, store_db=None):
    total = sum(n for batches in phases for _, n in batches)
    home = bench.path(f"ingest-{label}")
    uri = bench.database(store_db) if store_db else None
    server = Server(bench, f"ingest-{label}", home, uri)
    log(f"1. ingest, {label}: {total:,} events in {sum(len(b) for b in phases)} POSTs from "
        f"{clients} clients "
        f"(port {server.port})")
    pg_before = pg_ticks(bench.pg) if uri else {}
    thr_before = thread_ticks(server.proc.pid)
    srv_before = process_ticks(server.proc.pid)
    busy_before = machine_busy()[0]
    me_before = self_cpu()
    r = drive_phases(server, phases, clients)
    me_after = self_cpu()
    busy_after = machine_busy()[0]
    srv_after = process_ticks(server.proc.pid)
    thr_after = thread_ticks(server.proc.pid)
    pg_after = pg_ticks(bench.pg) if uri else {}
    server.stop()
    wall = r["wall"]
    cores = lambda ticks: ticks / CLK / wall  # noqa: E731
    busiest = max(((thr_after[t][1] - thr_before.get(t, ("", 0))[1], thr_after[t][0])
                   for t in thr_after), default=(0, "?"))
    r.update(
        label=label, total=total, rate=r["acked"] / wall,
        server_cores=cores(srv_after - srv_before),
        busiest_cores=cores(busiest[0]), busiest_name=busiest[1],
        threads=len(thr_after),
        pg_cores=cores(sum(t - pg_before.get(p, 0) for p, t in pg_after.items())) if uri else None,
        client_cores=(me_after - me_before) / wall,
        machine_cores=cores(busy_after - busy_before))
    r["other_cores"] = max(0.0, r["machine_cores"] - r["server_cores"] - (r["pg_cores"] or 0)
                           - r["client_cores"])
    if uri:
        r["stored"], r["distinct"] = bench.rows(store_db)
    else:
        _, out = bench.kz("stats", "--home", home, "--json")
        r["stored"] = r["distinct"] = json.loads(out)["events"]
    log(f"   {r['acked']:,} acknowledged in {wall:.2f} s = {r['rate']:,.0f} events/s; "
        f"{r['stored']:,} in the log; answers {r['statuses']}; server {r['server_cores']:.2f} "
        f"cores (busiest thread {r['busiest_cores']:.2f}, {r['busiest_name']}), PostgreSQL "
        f"{r['pg_cores'] if r['pg_cores'] is None else round(r['pg_cores'], 2)}, client "
        f"{r['client_cores']:.2f}, machine {r['machine_cores']:.2f}")
    if r["errors"]:
        bench.fail(f"ingest into {label}: {r['errors'][0]} (server stderr: "
                   f"{tail(server.errpath, 5)})")
    if r["acked"] != total or r["refused"] or r["skipped"]:
        why = "; ".join(f"{n:,} × {reason}" for reason, n in r["reasons"].most_common(4))
        bench.fail(f"ingest into {label}: {r['acked']:,} of {total:,} events acknowledged "
                   f"({r['refused']:,} refused, {r['skipped']:,} skipped; answers "
                   f"{r['statuses']}){': ' + why if why else ''}")
    if r["stored"] != r["acked"] or r["distinct"] != r["stored"]:
        bench.fail(f"ingest into {label}: {r['acked']:,} acknowledged but {r['stored']:,} rows "
                   f"({r['distinct']:,} distinct ids) in the log")
    shutil.rmtree(home, ignore_errors=True)
    return r


# -- 2. fold --------------------------------------------------------------------------------------

def fold(bench, events, runs):
    """{row: [seconds...]} and the analyses' digests."""
    log(f"2. fold: kaizen gen --events {events:,}, imported into a file home and the store "
        "(untimed)")
    history = bench.gen(events, 7, "fold-history.jsonl")
    file_home, loader = bench.path("fold-file"), bench.path("fold-loader")
    uri = bench.database("fold")
    setup = {}
    setup["file"], _ = bench.kz("import", history, "--home", file_home, "--now", NOW)
    setup["pg"], _ = bench.kz("import", history, "--home", loader, "--store", uri, "--now", NOW)
    os.remove(history)
    bench.wait_quiet()
    shutil.rmtree(loader)  # its copy of the store is not needed: the homes below are fresh
    rows, _ = bench.rows("fold")
    if rows != events:
        bench.fail(f"fold: the store holds {rows:,} rows after importing {events:,} events")
    # A store that has settled, as a team's has: autovacuum does the same minutes after a bulk
    # load. Right after the load, the first reads set every row's hint bits (writing the table
    # again), and autovacuum's own pass over a million new rows competes with the timed folds.
    bench.pg.psql("VACUUM (ANALYZE) kaizen_events", dbname="fold", timeout=600)
    bench.pg.psql("CHECKPOINT", dbname="fold", timeout=600)
    log(f"   imported: file home {setup['file']:.1f} s, PostgreSQL {setup['pg']:.1f} s")

    times = collections.defaultdict(list)
    digests = collections.Counter()

    def analyze(row, home, *store, checkpoint=False):
        ckpt = os.path.join(home, CHECKPOINT)
        if not checkpoint and os.path.exists(ckpt):
            os.remove(ckpt)
        if checkpoint and not os.path.exists(ckpt):
            bench.fail(f"fold: no checkpoint in {home} to time `{row}` from")
        # The disk idle, as a person's command finds it: not still writing back the home the
        # previous run wrote (or the one just removed).
        os.sync()
        seconds, out = bench.kz("analyze", "--json", "--now", "end", "--home", home, *store)
        bench.wait_quiet()  # the checkpoint writer it detached, before anything else is timed
        folded = json.loads(out)["events"]["total"]
        if folded != events:
            bench.fail(f"fold: `{row}` folded {folded:,} events, not {events:,}")
        digests[hashlib.sha256(out).hexdigest()] += 1
        times[row].append(seconds)
        log(f"   {row}: {seconds:.2f} s")

    # One untimed run of each first: the first reads of a freshly loaded table, and the page
    # cache settling after gigabytes were just written, are the bulk load's cost, not a fold's.
    # Each timed cold run still starts from a new, empty home.
    store = ("--store", uri)
    bench.kz("analyze", "--json", "--now", "end", "--home", file_home)
    bench.kz("analyze", "--json", "--now", "end", "--home", bench.path("fold-pg-warmup"), *store)
    bench.wait_quiet()
    shutil.rmtree(bench.path("fold-pg-warmup"))
    for _ in range(runs):
        analyze("file", file_home)
    analyze("file, checkpoint", file_home, checkpoint=True)
    for i in range(runs):
        home = bench.path(f"fold-pg-{i}")
        if i:
            shutil.rmtree(bench.path(f"fold-pg-{i - 1}"))
        analyze("pg cold", home, *store)
    for _ in range(runs):
        analyze("pg warm", home, *store)
    analyze("pg warm, checkpoint", home, *store, checkpoint=True)
    if len(digests) != 1:
        bench.fail(f"fold: the analyses differ: {len(digests)} distinct outputs "
                   f"{dict(digests)}")
    return {"times": times, "digests": digests, "setup": setup}


# -- 3. a second server ---------------------------------------------------------------------------

def propagation(bench, repeats):
    log(f"3. two servers on one store: {repeats} events POSTed to A, polled on B")
    uri = bench.database("propagation")
    a = Server(bench, "prop-a", bench.path("prop-a"), uri)
    b = Server(bench, "prop-b", bench.path("prop-b"), uri)
    history = bench.gen(repeats + 1, 13, "prop-history.jsonl")
    with open(history, "rb") as f:
        lines = f.read().splitlines(True)
    ca, cb = a.conn(timeout=30), b.conn(timeout=30)
    poll = []
    for _ in range(20):
        start = time.perf_counter()
        b.events(cb)
        poll.append(time.perf_counter() - start)
    from_ack, from_send, post = [], [], []
    for i, line in enumerate(lines):  # the first is a warm-up, not counted
        route = "/v1/" + json.loads(line)["kind"]  # one event: the route of its kind
        base = b.events(cb)
        start = time.perf_counter()
        status, data = a.post(ca, route, line)
        acked = time.perf_counter()
        if status != 201:
            raise BenchError(f"POST to A: {status} {data[:400]!r}\n{tail(a.errpath)}")
        while b.events(cb) <= base:
            if time.perf_counter() - acked > 30:
                bench.fail(f"propagation: B did not see event {i + 1} within 30 s")
                break
            time.sleep(0.0005)
        else:
            seen = time.perf_counter()
            if i:
                from_ack.append(seen - acked)
                from_send.append(seen - start)
                post.append(acked - start)
        time.sleep(0.05)
    ca.close()
    cb.close()
    a.stop()
    b.stop()
    rows, _ = bench.rows("propagation")
    if rows != len(lines):
        bench.fail(f"propagation: {rows} rows in the store after {len(lines)} events")
    os.remove(history)
    log(f"   seen after A's answer: median {statistics.median(from_ack or [0]) * 1000:.1f} ms")
    return {"from_ack": from_ack, "from_send": from_send, "post": post,
            "poll": statistics.median(poll), "n": len(lines) - 1}


# -- report ---------------------------------------------------------------------------------------

def ms3(values):
    if not values:
        return "-"
    return " / ".join(f"{percentile(values, p) * 1000:.1f}" for p in (50, 95, 100))


def secs(values):
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.2f} s"
    return f"{statistics.median(values):.2f} s (min {min(values):.2f}, {len(values)} runs)"


def report(args, info, ing, fo, prop, failures):
    m = info["machine"]
    out = []
    w = out.append
    w("## kaizen stores: file home vs PostgreSQL (bench/pg_store.py)")
    w("")
    w(f"- machine: {m['nproc']} CPUs ({m['cpu']}), {m['ram_gib']:.1f} GiB RAM; load average "
      f"{info['load_start']} at the start, {info['load_end']} at the end")
    w(f"- {info['postgres']} from tests/pg_cluster.py on the same machine (fsync on, "
      "synchronous_commit on, shared_buffers 64MB), over TCP on 127.0.0.1")
    w(f"- kaizen: {args.bin} ({info['bin_time']}), repo HEAD {info['head']}")
    sizes = []
    if ing:
        sizes.append(f"ingest {args.ingest_events:,} events, {args.batch} per POST, "
                     f"{args.clients} clients")
    if fo:
        sizes.append(f"fold {args.events:,} events, {args.runs} run(s) of each")
    if prop:
        sizes.append(f"{args.repeats} events through two servers")
    w(f"- {info['date']}, {'--quick' if args.quick else 'sizes'}: {'; '.join(sizes)}")
    w("")
    w("| measure | file home | PostgreSQL | target |")
    w("|---|---:|---:|---|")
    f, p = ing.get("file"), ing.get("pg")

    def both(fn):
        return f"{fn(f) if f else '-'} | {fn(p) if p else '-'}"

    if f or p:
        target = "-"
        if p:
            target = f"PostgreSQL ≥ 20,000/s: {'met' if p['rate'] >= 20000 else 'missed'}"
        w(f"| 1. durable ingest through serve, events/s acknowledged | "
          f"{both(lambda r: '**{:,.0f}**'.format(r['rate']))} | {target} |")
        w(f"| events acknowledged / in the log after stop / refused | "
          f"{both(lambda r: '{:,} / {:,} / {:,}'.format(r['acked'], r['stored'], r['refused']))} "
          f"| all / all / 0 |")
        w(f"| POST of {args.batch} events: p50 / p99 / max (ms) | "
          f"{both(lambda r: ' / '.join('{:.0f}'.format(percentile(r['latencies'], q) * 1000) for q in (50, 99, 100)) if r['latencies'] else '-')} | |")
        w(f"| CPU in cores: kaizen serve (busiest of its threads) | "
          f"{both(lambda r: '{:.2f} ({:.2f})'.format(r['server_cores'], r['busiest_cores']))} | |")
        w(f"| CPU in cores: PostgreSQL / this load generator / everything else | "
          f"{both(lambda r: '{} / {:.2f} / {:.2f}'.format('-' if r['pg_cores'] is None else '{:.2f}'.format(r['pg_cores']), r['client_cores'], r['other_cores']))} | |")
    if fo:
        t = fo["times"]
        cold = t.get("pg cold", [])
        target = f"PostgreSQL < 5 s: {'met' if cold and statistics.median(cold) < 5 else 'missed'}"
        w(f"| 2. analyze of {args.events:,} events, fresh home: copy the store, folded as it streams "
          f"(cold) | - | **{secs(cold)}** | {target} |")
        warm = t.get("pg warm", [])
        w(f"| 2. analyze, full fold of an up-to-date home (warm for PostgreSQL) | "
          f"{secs(t.get('file', []))} | {secs(warm)} | PostgreSQL < 5 s: "
          f"{'met' if warm and statistics.median(warm) < 5 else 'missed'} |")
        w(f"| 2. analyze again, from the learned checkpoint | {secs(t.get('file, checkpoint', []))} "
          f"| {secs(t.get('pg warm, checkpoint', []))} | |")
        d = fo["digests"]
        same = (f"yes: all {sum(d.values())} analyses identical (sha256 {next(iter(d))[:12]})"
                if len(d) == 1 else f"**NO**: {len(d)} different outputs")
        w(f"| 2. analyses byte-identical (file, cold, warm, checkpoint) | {same} | | identical |")
        w(f"| (setup, untimed above) kaizen import of {args.events:,} events | "
          f"{fo['setup']['file']:.1f} s | {fo['setup']['pg']:.1f} s | |")
    if prop:
        w(f"| 3. second server sees an event, after A's answer: p50 / p95 / max (ms), "
          f"{prop['n']} events | - | {ms3(prop['from_ack'])} | |")
        w(f"| 3. the same from the POST sent (A's commit included) | - | "
          f"{ms3(prop['from_send'])} | |")
    w("")
    if f and p:
        w(f"The load generator (Python threads, {args.clients} keep-alive connections) drove the "
          f"file home at {f['rate']:,.0f} events/s, {f['rate'] / max(p['rate'], 1):.1f}x the "
          f"PostgreSQL rate, using {p['client_cores']:.2f} cores during the PostgreSQL run: "
          + ("it is not what limits the PostgreSQL figure."
             if f["rate"] > 1.2 * p["rate"] else
             "the two are close, so the client may be the limit of both; try more --clients."))
        w(f"A server thread at ~1.0 core is the bottleneck of its run (busiest thread: file "
          f"{f['busiest_cores']:.2f} `{f['busiest_name']}`, PostgreSQL {p['busiest_cores']:.2f} "
          f"`{p['busiest_name']}`). \"Everything else\" is what other processes used meanwhile "
          f"(CI, builds): figures taken beside it are not representative.")
    if prop:
        w(f"Polling B's /healthz takes {prop['poll'] * 1000:.1f} ms (median), the resolution of "
          "row 3.")
    if failures:
        w("")
        w("**Checks failed:**")
        for msg in failures:
            w(f"- {msg}")
    return "\n".join(out)


# -- main -----------------------------------------------------------------------------------------

def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(REPO, "build", "kaizen"),
                    help="the kaizen binary (default: build/kaizen of this checkout)")
    ap.add_argument("--events", type=int, help="events of the fold (2; default 1,000,000)")
    ap.add_argument("--ingest-events", type=int, help="events POSTed (1; default 200,000)")
    ap.add_argument("--batch", type=int, default=500, help="events per POST (default 500)")
    ap.add_argument("--clients", type=int, default=8, help="concurrent connections (default 8)")
    ap.add_argument("--repeats", type=int, help="events through two servers (3; default 20)")
    ap.add_argument("--runs", type=int, help="timed runs of each fold (2; default 5: this VM's runs vary by "
                    "+-10%%, a median of five is steadier)")
    ap.add_argument("--quick", action="store_true",
                    help="20,000 events for 1 and 2, 5 repeats, 1 run: a sanity check")
    ap.add_argument("--only", default="ingest,fold,propagation",
                    help="comma-separated parts to run (default all: ingest,fold,propagation)")
    args = ap.parse_args()
    q = args.quick
    args.events = args.events or (20000 if q else 1000000)
    args.ingest_events = args.ingest_events or (20000 if q else 200000)
    args.repeats = args.repeats or (5 if q else 20)
    args.runs = args.runs or (1 if q else 5)
    parts = set(args.only.split(","))
    if parts - {"ingest", "fold", "propagation"} or min(args.events, args.ingest_events,
                                                          args.batch, args.clients, args.repeats,
                                                          args.runs) < 1:
        ap.error("bad --only or a size below 1")
    if not os.access(args.bin, os.X_OK):
        ap.error(f"no kaizen binary at {args.bin}")

    def on_signal(signum, _frame):
        raise Interrupted(signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)

    tmp = tempfile.mkdtemp(prefix="kaizen-pgbench-")
    pg = None
    bench = None
    code = 0
    try:
        kaizen = os.path.join(tmp, "kaizen")
        shutil.copy2(args.bin, kaizen)  # one binary for the whole run, whatever is rebuilt
        subprocess.run([kaizen, "--help"], check=True, stdout=subprocess.DEVNULL, env=ENV)
        info = {
            "machine": machine(), "load_start": loadavg(),
            "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
            "bin_time": time.strftime("built %Y-%m-%d %H:%M",
                                      time.localtime(os.stat(args.bin).st_mtime)),
            "head": subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                                   capture_output=True, text=True).stdout.strip() or "?",
        }
        pg = pg_cluster.PgCluster()
        info["postgres"] = subprocess.run([os.path.join(pg.bindir, "postgres"), "--version"],
                                          capture_output=True, text=True).stdout.strip()
        log(f"starting a PostgreSQL cluster ({info['postgres']}); work directory {tmp}")
        pg.start()
        bench = Bench(tmp, pg, kaizen)
        ing, fo, prop = {}, None, None
        if "ingest" in parts:
            history = bench.gen(args.ingest_events, 11, "ingest-history.jsonl")
            batches = batches_of(history, args.batch)
            os.remove(history)
            ing["file"] = ingest(bench, "file", batches, args.clients)
            ing["pg"] = ingest(bench, "pg", batches, args.clients, store_db="ingest")
            del batches
        if "fold" in parts:
            fo = fold(bench, args.events, args.runs)
        if "propagation" in parts:
            prop = propagation(bench, args.repeats)
        info["load_end"] = loadavg()
        print(report(args, info, ing, fo, prop, bench.failures), flush=True)
        code = 1 if bench.failures else 0
    except BenchError as e:
        log(f"error: {e}")
        if pg is not None and pg.pid is not None:
            log(f"PostgreSQL's complaints:\n{pg.log_complaints()}")
        code = 1
    except pg_cluster.PgClusterError as e:
        log(f"error: PostgreSQL: {e}")
        code = 1
    except KeyboardInterrupt:
        log("interrupted")
        code = 130
    except Interrupted as e:
        log(f"terminated by signal {e.signum}")
        code = 128 + e.signum
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the cleanup is not cut short
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        if bench is not None:
            for s in bench.servers:
                s.kill()
            bench.wait_quiet()
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
