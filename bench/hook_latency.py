#!/usr/bin/env python3
"""Latency of the calls an agent's hooks make (issue 28, "calls that don't grow with the history"):
`kaizen hook` for each hook point, `kaizen record` of one event, `kaizen context` and `kaizen hints`,
each run many times on homes of N events (`kaizen gen --seed 7` + `kaizen import`), beside a bare
process start as the floor (`kaizen hook` in a directory with no kaizen home: the same binary, the
payload read and parsed, nothing else). Prints p50 and p99 in milliseconds per call and size, and
each call's p50 at the largest size over its p50 at the smallest. Target (issue 28): p50 < 20 ms and
p99 < 50 ms at 1,000,000 events, within 1.5x of the same call at 10,000. Timed after a warm-up: one
learning call (timed alone, on the first row) and its detached checkpoint writer done. Every call
is measured twice: with no server, then with the home's `kaizen serve` running (rows marked
[serve]), which answers hooks, `context` and `hints` from its live learner (home/serve_client.h).

    python3 bench/hook_latency.py --bin build/kaizen [--sizes 10000,1000000] [--runs 30]

Every call runs from the project directory the home belongs to, as an agent runs it. Calls that
write (prompt, post-tool, stop, record) write real events: each run gets its own session, so runs
do not change one another's work. Temporary homes live under $TMPDIR and are removed at the end.
"""

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import time

NOW = "2025-10-02T00:00:00Z"  # two days after `kaizen gen`'s history ends


def payloads(project, i):
    session = f"bench-{i}"
    base = {"session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": project}
    write = os.path.join(project, f"src/bench_{i}.ts")
    return {
        "hook session-start": dict(base, hook_event_name="SessionStart", source="startup"),
        "hook prompt (correction)": dict(base, hook_event_name="UserPromptSubmit",
                                         prompt="no, use pnpm, not npm"),
        "hook pre-tool (write)": dict(base, hook_event_name="PreToolUse", tool_name="Write",
                                      tool_input={"file_path": write,
                                                  "content": "export const x: number = 1;\n"}),
        "hook post-tool (failed)": dict(base, hook_event_name="PostToolUse", tool_name="Bash",
                                        tool_input={"command": "npm test"},
                                        tool_response={"stderr": "timed out", "exit_code": 1}),
        "hook stop": dict(base, hook_event_name="Stop", stop_hook_active=False,
                          last_assistant_message="Done."),
    }


def timed(cmd, cwd, stdin):
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True)
    elapsed = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[:500]}")
    return elapsed


def percentile(values, p):
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def make_home(kaizen, tmp, events):
    project = os.path.join(tmp, f"project-{events}")
    os.makedirs(os.path.join(project, "src"))
    history = os.path.join(tmp, f"history-{events}.jsonl")
    with open(history, "wb") as f:
        subprocess.run([kaizen, "gen", "--events", str(events), "--seed", "7"], stdout=f,
                       check=True)
    home = os.path.join(project, ".kaizen")
    subprocess.run([kaizen, "import", history, "--home", home], check=True,
                   stdout=subprocess.DEVNULL)
    os.remove(history)
    return project, home


def warm_up(kaizen, project, home):
    """One call that learns, then wait until its detached writer has left a usable checkpoint of
    the learned state and the ingest index is current: the steady state every later call sees.
    Returns the first call's time (a full fold) in ms."""
    first = timed([kaizen, "context", "--home", home, "--now", NOW], project, b"")
    deadline = time.time() + 600
    while time.time() < deadline:
        stats = subprocess.run([kaizen, "stats", "--json", "--home", home], capture_output=True)
        if json.loads(stats.stdout)["checkpoint"]["usable"]:
            return first
        time.sleep(0.5)
    raise SystemExit("no usable checkpoint after 10 minutes")


def start_server(kaizen, home):
    """`kaizen serve` of the home, once it says where it listens (<home>/run/serve.json)."""
    record = os.path.join(home, "run", "serve.json")
    if os.path.exists(record):
        os.remove(record)
    proc = subprocess.Popen([kaizen, "serve", "--home", home, "--port", "0"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.time() + 600
    while not os.path.exists(record):
        if proc.poll() is not None or time.time() > deadline:
            raise SystemExit("kaizen serve did not start")
        time.sleep(0.1)
    return proc


def stop_server(proc):
    proc.send_signal(signal.SIGTERM)
    if proc.wait(120) != 0:
        raise SystemExit(f"kaizen serve exited {proc.returncode}")


def measure(kaizen, project, home, runs):
    out = {"first learning call (context, no checkpoint)": [warm_up(kaizen, project, home)]}
    calls(kaizen, project, home, runs, "", out)
    server = start_server(kaizen, home)
    try:
        calls(kaizen, project, home, runs, " [serve]", out)
    finally:
        stop_server(server)
    return out


def calls(kaizen, project, home, runs, label, out):
    """Each call `runs` times; `label` marks the rows measured with the home's server running
    (every call but the floor and `record` is then answered by it)."""
    empty = os.path.join(os.path.dirname(project), "no-home")
    os.makedirs(empty, exist_ok=True)
    for i in range(runs):
        for name, p in payloads(project, f"{i}{label.strip()}").items():
            if name == "hook pre-tool (write)":
                with open(p["tool_input"]["file_path"], "w") as f:
                    f.write(p["tool_input"]["content"])
            data = json.dumps(p).encode()
            out.setdefault(name + label, []).append(
                timed([kaizen, "hook", "--now", NOW], project, data))
        floor = dict(payloads(empty, i)["hook stop"], cwd=empty)
        out.setdefault("floor: hook with no home" + label, []).append(
            timed([kaizen, "hook"], empty, json.dumps(floor).encode()))
        event = json.dumps({"kind": "outcome", "bead_id": f"bench-{i}{label.strip()}",
                            "duration_ms": 5, "error_count": 0, "retry_count": 0,
                            "success": True}).encode()
        out.setdefault("record (one event)" + label, []).append(
            timed([kaizen, "record", "outcome", "--home", home, "--now", NOW], project, event))
        out.setdefault("context" + label, []).append(
            timed([kaizen, "context", "--home", home, "--now", NOW], project, b""))
        out.setdefault("hints" + label, []).append(
            timed([kaizen, "hints", os.path.join(project, "CLAUDE.md"), "--home", home, "--now",
                   NOW], project, b""))


def main():
    # The rows without a server are measured without one: a slow learning call would otherwise
    # start the home's server for the next (home/serve_client.h).
    os.environ["KAIZEN_AUTOSERVE"] = "0"
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default="build/kaizen")
    ap.add_argument("--sizes", default="10000,1000000")
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    kaizen = os.path.abspath(args.bin)
    sizes = [int(s) for s in args.sizes.split(",")]
    tmp = tempfile.mkdtemp(prefix="kaizen-hook-bench.")
    results = {}
    try:
        for n in sizes:
            project, home = make_home(kaizen, tmp, n)
            results[n] = measure(kaizen, project, home, args.runs)
            shutil.rmtree(project)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    calls = list(results[sizes[0]])
    head = "| call | " + " | ".join(f"{n:,} events p50 / p99 (ms)" for n in sizes)
    head += f" | p50 {sizes[-1]:,} / {sizes[0]:,} |"
    print(f"kaizen hook latency, {args.runs} runs per call and size, {os.uname().nodename}, "
          f"{os.cpu_count()} cores\n")
    print(head)
    print("|" + "---|" * (len(sizes) + 2))
    for call in calls:
        cells = []
        for n in sizes:
            v = results[n][call]
            cells.append(f"{statistics.median(v):.1f} / {percentile(v, 99):.1f}")
        ratio = statistics.median(results[sizes[-1]][call]) / statistics.median(
            results[sizes[0]][call])
        print(f"| {call} | " + " | ".join(cells) + f" | {ratio:.2f}x |")


if __name__ == "__main__":
    main()
