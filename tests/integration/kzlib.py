"""Shared helpers for the kaizen integration tests: run the real binary in a throw-away home.

Python 3.11 standard library only. The binary is $KAIZEN_BIN (default: build/kaizen at the repo
root). Every test case gets its own temporary home, removed when the test ends.
"""

import glob
import itertools
import json
import os
import pty
import select
import shutil
import subprocess
import tempfile
import termios
import time
import unittest
import uuid

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("KAIZEN_BIN") or os.path.join(REPO, "build", "kaizen")

# A fixed clock for every verb that takes --now, so nothing depends on the machine's date.
# A slow learning call starts the home's `kaizen serve` (home/serve_client.h): never from a test
# that does not ask for it (test_serve_answers.py does), so no server outlives its test.
os.environ["KAIZEN_AUTOSERVE"] = "0"

NOW = "2026-01-01T00:00:00Z"
NOW_STORED = "2026-01-01T00:00:00.000Z"

EXIT_OK, EXIT_REJECTED, EXIT_USAGE, EXIT_SYSTEM = 0, 1, 2, 3

KINDS = ("feedback", "work", "outcome", "error", "reward", "correction", "loop", "admin", "prompt")
# What `kaizen gen` writes: every kind but `prompt`, which only an agent's hook records.
GEN_KINDS = KINDS[:-1]

_counter = itertools.count(1)


def unique(prefix):
    """A name no other event in this test run uses."""
    return f"{prefix}-{os.getpid()}-{next(_counter)}"


class Run:
    """What one invocation of the binary did."""

    def __init__(self, args, proc):
        self.args = args
        self.rc = proc.returncode
        self.out_bytes = proc.stdout or b""
        self.err_bytes = proc.stderr or b""
        self.out = self.out_bytes.decode("utf-8", "replace")
        self.err = self.err_bytes.decode("utf-8", "replace")

    @property
    def lines(self):
        return [l for l in self.out.split("\n") if l]

    @property
    def err_lines(self):
        return [l for l in self.err.split("\n") if l]

    def __repr__(self):
        return (f"kaizen {' '.join(self.args)} -> rc={self.rc}\n"
                f"--- stdout ---\n{self.out[:3000]}\n--- stderr ---\n{self.err[:3000]}")


def kaizen(*args, input=None, timeout=300, cwd=None, env=None):
    """Runs the binary; `input` is bytes or str for standard input (None: empty stdin); `env`
    adds to (or overrides) this process's environment."""
    if isinstance(input, str):
        input = input.encode("utf-8")
    args = [str(a) for a in args]
    proc = subprocess.run([BIN] + args, input=input if input is not None else b"",
                          capture_output=True, timeout=timeout, cwd=cwd,
                          env=dict(os.environ, **env) if env else None)
    return Run(args, proc)


def _no_constants(name):
    raise ValueError(f"{name} is not JSON")


def _no_duplicate_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError(f"duplicate keys in {keys}")
    return dict(pairs)


def strict_loads(text):
    """json.loads that refuses what JSON refuses: NaN/Infinity, duplicate keys, invalid UTF-8."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")  # raises on invalid UTF-8
    return json.loads(text, parse_constant=_no_constants, object_pairs_hook=_no_duplicate_keys)


def dumps(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def jsonl(*objs):
    return "".join(dumps(o) + "\n" for o in objs)


# ---- valid events of every kind -------------------------------------------------------------

def work_product(art_id=None, version="v1", prediction=6.5):
    wp = {
        "type": "code-module",
        "id": art_id or unique("art"),
        "version": version,
        "path": "src/client.ts",
        "summary": "a client module",
        "bubaConfidence": 0.5,
        "generationContext": {
            "promptHash": "abc123",
            "memorySnapshot": ["memory/quality-standards.md"],
            "modelUsed": "claude-sonnet-4",
            "generationTimeMs": 1200,
            "iterationCount": 1,
        },
    }
    if prediction is not None:
        wp["bubaScorePrediction"] = prediction
    return wp


def work_event(art_id=None, version="v1", prediction=6.5, **extra):
    e = {"kind": "work", "timestamp": "2025-07-10T08:00:00Z",
         "workProduct": work_product(art_id, version, prediction),
         "sessionId": "buba-run-1", "pipelineStage": "implement", "priority": "normal"}
    e.update(extra)
    return e


def feedback_event(work_ref=None, session=None, modal=None, **extra):
    e = {
        "kind": "feedback",
        "timestamp": "2025-07-10T10:00:00Z",
        "sessionId": session or unique("sess"),
        "modalId": modal or unique("modal"),
        "workProduct": work_ref if work_ref is not None else work_product(),
        "pipelineStage": "review",
        "reviewerId": "jake",
        "decision": {"decision": "approved", "reason": "looks right"},
        "scores": [{"dimension": "naming", "score": 8}, {"dimension": "dx", "score": 6}],
        "meta": {"timeToDecisionMs": 42000, "deviceType": "desktop"},
    }
    e.update(extra)
    return e


def outcome_event(**extra):
    e = {"kind": "outcome", "timestamp": "2025-07-10T11:00:00Z", "bead_id": unique("bd"),
         "duration_ms": 120000, "error_count": 1, "retry_count": 0, "success": True,
         "files_touched": ["src/a.ts"], "strategy": "risk-based"}
    e.update(extra)
    return e


def error_event(**extra):
    e = {"kind": "error", "timestamp": "2025-07-10T12:00:00Z", "bead_id": unique("bd"),
         "error_type": "tool_failure", "message": "npm install failed", "tool_name": "npm"}
    e.update(extra)
    return e


def reward_event(**extra):
    e = {"kind": "reward", "timestamp": "2025-07-10T13:00:00Z", "signal_id": unique("sig"),
         "task_id": "task-1", "signal_type": "review_turnaround", "signal_value": 0.4,
         "source": "automatic"}
    e.update(extra)
    return e


def correction_event(**extra):
    e = {"kind": "correction", "timestamp": "2025-07-10T14:00:00Z", "session_id": unique("cs"),
         "correction_type": "factual_error", "original": "Founded in 2012",
         "corrected": "Founded in 2014", "context": {"project": "VIA", "section": "summary"},
         "user_id": "jordan", "correction_method": "manual_edit"}
    e.update(extra)
    return e


def loop_event(**extra):
    e = {"kind": "loop", "timestamp": "2025-07-10T15:00:00Z", "loop_id": unique("loop"),
         "iteration": 1, "metrics": {"test_coverage": 0.7, "tests_passing": True},
         "cost": 0.12, "feedback": "add a null check"}
    e.update(extra)
    return e


def admin_event(**extra):
    e = {"kind": "admin", "timestamp": "2025-07-10T16:00:00Z", "action": "consent",
         "user_id": "jordan", "learning_mode": True, "note": "opted in"}
    e.update(extra)
    return e


def prompt_event(**extra):
    e = {"kind": "prompt", "timestamp": "2025-07-10T17:00:00Z", "session_id": unique("ps"),
         "text": "no, use pnpm, not npm", "agent": "claude-code", "project": "/work/webapp",
         "context": {"cwd": "/work/webapp"}}
    e.update(extra)
    return e


MAKERS = {
    "feedback": feedback_event,
    "work": work_event,
    "outcome": outcome_event,
    "error": error_event,
    "reward": reward_event,
    "correction": correction_event,
    "loop": loop_event,
    "admin": admin_event,
    "prompt": prompt_event,
}


def valid_event(kind, **extra):
    return MAKERS[kind](**extra)


# ---- the test base class --------------------------------------------------------------------

_GENERATED = {}


def generated_history(tmpdir, events, seed):
    """`kaizen gen --events EVENTS --seed SEED` as a file in tmpdir; generated once per run."""
    if (events, seed) not in _GENERATED:
        r = kaizen("gen", "--events", events, "--seed", seed)
        assert r.rc == 0, r
        _GENERATED[(events, seed)] = r.out_bytes
    p = os.path.join(tmpdir, "history.jsonl")
    with open(p, "wb") as f:
        f.write(_GENERATED[(events, seed)])
    return p



def on_terminal(argv, steps, cwd=None, timeout=20):
    """Runs `argv` on a pseudo-terminal, as a person at a terminal would. For each (marker,
    action) step it waits until the terminal showed `marker` (after the previous one), then
    types `action` (bytes) or calls it with the process (to send a signal). Returns (exit status,
    everything the terminal showed, whether its settings were as before). AssertionError when a
    marker never shows."""
    master, slave = pty.openpty()
    before = termios.tcgetattr(slave)
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, close_fds=True, cwd=cwd)
    shown = b""
    seen = 0  # where the next marker is looked for
    try:
        for marker, action in steps:
            deadline = time.monotonic() + timeout
            while marker not in shown[seen:] and time.monotonic() < deadline:
                ready, _, _ = select.select([master], [], [], 0.2)
                if ready:
                    shown += os.read(master, 65536)
            if marker not in shown[seen:]:
                raise AssertionError(f"{marker!r} never showed: "
                                     f"{shown.decode('utf-8', 'replace')}")
            seen = shown.index(marker, seen) + len(marker)
            if callable(action):
                action(proc)
            else:
                os.write(master, action)
        proc.wait(timeout=timeout)
        while True:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                break
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            if not data:
                break
            shown += data
        restored = termios.tcgetattr(slave) == before
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
        os.close(slave)
    return proc.returncode, shown.decode("utf-8", "replace"), restored

class KaizenTest(unittest.TestCase):
    maxDiff = 4000

    def setUp(self):
        self.assertTrue(os.access(BIN, os.X_OK), f"no kaizen binary at {BIN} (set KAIZEN_BIN)")
        self.tmp = tempfile.mkdtemp(prefix="kaizen-it-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.home = os.path.join(self.tmp, "home")

    # paths
    def path(self, *parts):
        return os.path.join(self.tmp, *parts)

    def hpath(self, *parts):
        return os.path.join(self.home, *parts)

    def write(self, name, data):
        p = self.path(name)
        with open(p, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
        return p

    # verbs, in this test's home, on the fixed clock
    def kz(self, *args, input=None, timeout=300):
        r = kaizen(*args, input=input, timeout=timeout)
        self.assertGreaterEqual(r.rc, 0, f"killed by signal {-r.rc}: {r!r}")
        return r

    def record(self, kind, data=None, *extra, file=None):
        args = ["record", kind] + ([file] if file else []) + ["--home", self.home, "--now", NOW]
        return self.kz(*args, *extra, input=data)

    def record_ok(self, kind, event):
        r = self.record(kind, jsonl(event) if isinstance(event, dict) else event)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(r.lines), 1, r)
        return r.lines[0]

    def import_(self, *files_and_flags, input=None):
        return self.kz("import", *files_and_flags, "--home", self.home, "--now", NOW, input=input)

    def verify(self, *flags):
        return self.kz("verify", *flags, "--home", self.home, "--now", NOW)

    def export(self, *flags):
        return self.kz("export", *flags, "--home", self.home)

    # the raw log
    def raw_files(self):
        """Raw day files, sorted by name (= by day)."""
        return sorted(glob.glob(self.hpath("feedback", "raw", "*.jsonl")))

    def raw_bytes(self):
        return b"".join(open(p, "rb").read() for p in self.raw_files())

    def raw_lines(self):
        """Every complete stored line (bytes, without '\\n'), in day order."""
        out = []
        for p in self.raw_files():
            data = open(p, "rb").read()
            out.extend(data.split(b"\n")[:-1])
        return out

    def stored_events(self):
        return [strict_loads(l) for l in self.raw_lines()]

    def stored_by_id(self):
        return {e["id"]: e for e in self.stored_events()}

    def assert_nothing_stored(self):
        self.assertEqual(self.raw_lines(), [], "the refused input left lines in the raw log")

    def assert_raw_log_sound(self):
        """Every raw file ends in '\\n'; every line is strict JSON with a unique id."""
        ids = set()
        for p in self.raw_files():
            data = open(p, "rb").read()
            if data:
                self.assertTrue(data.endswith(b"\n"), f"{p} ends in a torn line")
            for n, line in enumerate(data.split(b"\n")[:-1], 1):
                try:
                    e = strict_loads(line)
                except ValueError as ex:
                    self.fail(f"{p}:{n} is not valid JSON ({ex}): {line[:200]!r}")
                self.assertIn(e.get("kind"), KINDS, f"{p}:{n}")
                if e["id"] in ids:
                    self.fail(f"{p}:{n}: duplicate id {e['id']}")
                ids.add(e["id"])
        return ids


def is_uuid(s):
    try:
        return str(uuid.UUID(s)) == s.lower() and len(s) == 36
    except (ValueError, AttributeError, TypeError):
        return False
