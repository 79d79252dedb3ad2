#!/usr/bin/env python3
"""What each kaizen hook costs inside a real Claude Code session, as the agent waits for it.

A project set up by `kaizen init --agent claude-code` on a home of N events (default 1,000,000,
`kaizen gen --seed 7`), and the real Claude Code (tests/js, pinned) driven headless against the
scripted model of tests/integration/agent_claude_code.py: S sessions, each a prompt, W file writes
and B shell commands (one failing). Every hook command is wrapped in a bash script that takes the
wall time around `kaizen hook` with bash's own clock ($EPOCHREALTIME: no process of its own), so
the figure includes the process start, the home's lookup and, once started, the round trip to
the home's `kaizen serve` (auto-started as kaizen does: KAIZEN_AUTOSERVE is left alone). The same
wrapper around `kaizen --version` is the baseline: a bare process start.

    python3 bench/agent_session_latency.py --bin build/kaizen [--events 1000000] [--sessions 10]

Prints one row per hook event (calls, p50, p99, max in ms) and the baseline; never asserts.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "integration"))
from agent_claude_code import AnthropicScriptedModel, claude_available, run_claude  # noqa: E402

WRAPPER = """#!/bin/bash
# Times one hook call as the agent waits for it (bench/agent_session_latency.py).
input=$(cat)
start=$EPOCHREALTIME
printf '%s' "$input" | {kaizen} hook --agent claude-code
end=$EPOCHREALTIME
re='"hook_event_name" *: *"([A-Za-z]+)"'
[[ $input =~ $re ]] && event=${{BASH_REMATCH[1]}} || event=unknown
echo "$event $start $end" >> {log}
"""

BASELINE = """#!/bin/bash
start=$EPOCHREALTIME
{kaizen} --version > /dev/null
end=$EPOCHREALTIME
echo "baseline $start $end" >> {log}
"""


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", required=True, help="the kaizen binary")
    ap.add_argument("--events", type=int, default=1_000_000)
    ap.add_argument("--sessions", type=int, default=10)
    ap.add_argument("--writes", type=int, default=4)
    ap.add_argument("--shell", type=int, default=3)
    opts = ap.parse_args()
    kaizen = os.path.realpath(opts.bin)
    ok, why = claude_available()
    if not ok:
        sys.exit(f"Claude Code is not runnable: {why} (make js-deps)")

    work = tempfile.mkdtemp(prefix="kz-agent-bench-")
    try:
        project = os.path.join(work, "project")
        os.makedirs(project)
        subprocess.run(["git", "init", "-q", project], check=True)
        history = os.path.join(work, "history.jsonl")
        t = time.monotonic()
        subprocess.run([kaizen, "gen", "--events", str(opts.events), "--seed", "7", "--out",
                        history], check=True, stdout=subprocess.DEVNULL)
        subprocess.run([kaizen, "init", "--agent", "claude-code", "--project", project],
                       check=True, stdout=subprocess.DEVNULL)
        home = os.path.join(project, ".kaizen")
        subprocess.run([kaizen, "import", "--home", home, history], check=True,
                       stdout=subprocess.DEVNULL)
        os.remove(history)
        print(f"home of {opts.events:,} events ready in {time.monotonic() - t:.0f} s",
              file=sys.stderr)

        log = os.path.join(work, "calls.log")
        wrapper = os.path.join(work, "hook.sh")
        with open(wrapper, "w") as f:
            f.write(WRAPPER.format(kaizen=kaizen, log=log))
        os.chmod(wrapper, 0o755)
        settings_path = os.path.join(project, ".claude", "settings.json")
        settings = json.load(open(settings_path))
        for groups in settings["hooks"].values():
            for group in groups:
                for handler in group["hooks"]:
                    handler["command"] = wrapper
        json.dump(settings, open(settings_path, "w"), indent=2)

        for s in range(opts.sessions):
            steps = []
            for w in range(opts.writes):
                path = os.path.join(project, f"notes_{s}_{w}.md")
                steps.append(("tool", "Write", {"file_path": path,
                                                "content": f"Led step {w} of session {s}\n"}))
            for b in range(opts.shell):
                steps.append(("tool", "Bash", {"command": "exit 3" if b == 0 else "true"}))
            steps.append(("text", "done"))
            model = AnthropicScriptedModel(steps)
            try:
                # The server starts as it does for a user (a test run switches that off).
                run = run_claude(project, f"session {s}: write the notes", model,
                                 env_extra={"KAIZEN_AUTOSERVE": "1"})
            finally:
                model.close()
            if run.returncode != 0:
                sys.exit(f"session {s} failed: {run!r}")

        baseline = os.path.join(work, "baseline.sh")
        with open(baseline, "w") as f:
            f.write(BASELINE.format(kaizen=kaizen, log=log))
        os.chmod(baseline, 0o755)
        for _ in range(50):
            subprocess.run([baseline], check=True)

        by_event = {}
        for line in open(log):
            event, start, end = line.split()
            by_event.setdefault(event, []).append((float(end) - float(start)) * 1000)
        print(f"kaizen hook in real Claude Code sessions, home of {opts.events:,} events "
              f"({opts.sessions} sessions; wall time around the hook, process start included)")
        print(f"| {'call':<20} | calls | p50 ms | p99 ms | max ms |")
        print(f"|{'-' * 22}|------:|-------:|-------:|-------:|")
        for event in sorted(by_event, key=lambda e: (e == "baseline", e)):
            ms = by_event[event]
            name = "bare process start" if event == "baseline" else event
            print(f"| {name:<20} | {len(ms):5d} | {statistics.median(ms):6.1f} | "
                  f"{percentile(ms, 99):6.1f} | {max(ms):6.1f} |")
        served = os.path.exists(os.path.join(home, "run", "serve.json"))
        print(f"kaizen serve {'was' if served else 'was not'} running for the home at the end")
        subprocess.run([kaizen, "doctor", "--agent", "claude-code", "--project", project],
                       stdout=sys.stderr)
    finally:
        # The home's auto-started server leaves with its home.
        pid_file = os.path.join(work, "project", ".kaizen", "run", "serve.json")
        if os.path.exists(pid_file):
            try:
                os.kill(json.load(open(pid_file))["pid"], 15)
            except (OSError, ValueError, KeyError):
                pass
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
