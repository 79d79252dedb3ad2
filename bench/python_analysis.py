#!/usr/bin/env python3
"""The Python baseline for `kaizen analyze`: three of its sections from the same log.

Reads every <home>/feedback/raw/YYYY-MM-DD.jsonl in name order (the log order) with the standard
library only, and prints, as one JSON object, what `kaizen analyze --json --now NOW` prints under
the same keys:

  approval     approved / rejected / needs-work / deferred counts and rate = approved / decided,
               overall and by server type, pipeline stage and reviewer (seed 000 §3.1);
  gates        per score dimension, over the 30 UTC days ending with NOW's day: once a dimension
               has 20+ scores, the largest t in 2..10 whose scores below t have a weighted
               non-approval share >= 0.95 (hard) or >= 0.80 (soft, only above the hard one), with
               5+ scores below t (seed 000 §3.1, §9.3); weights from the review's confidence,
               fatigue and override (src/learn/signal_weight.h);
  calibration  ten 0.1-wide buckets of bubaConfidence against the approval of the reviewed work,
               the expected calibration error, and the score-prediction error (seed 000 §6.2);
               a recorded work product whose agent commit was reverted or 10%+ rewritten (a
               `reward`, once per commit) adds a not-approved pair (seed 001, docs/analysis.md
               `signals`).

The rules mirror src/learn/reviews/approval.cc, gates.cc, calibration.cc and signals.cc (the failed
outcomes and the link from a reward to its work, learner.cc) with their default config.

    python3 bench/python_analysis.py HOME --now 2025-10-02T00:00:00Z
    kaizen analyze --json --home H --now T | python3 bench/python_analysis.py H --now T --check -

--check FILE compares with a `kaizen analyze --json` output (a file, or - for standard input):
every count must be equal and every rate within 1e-6; exit status 1 on any difference.
"""

import argparse
import json
import math
import os
import re
import sys
from datetime import datetime, timezone

MS_PER_DAY = 86_400_000
KINDS = {"feedback", "work", "outcome", "error", "reward", "correction", "loop", "admin"}
RAW_FILE = re.compile(r"\d{4}-\d{2}-\d{2}\.jsonl")

# src/learn/signal_weight.h and gates.h defaults.
CONFIDENCE_WEIGHT = {"very-sure": 1.0, "fairly-sure": 0.8, "somewhat-unsure": 0.6,
                     "very-unsure": 0.4}
FATIGUE_AFTER, FATIGUE_WEIGHT = 5, 0.7
OVERRIDE_WEIGHT = {"strong": 2.0, "weak": 0.5}
GATE_WINDOW_DAYS, GATE_MIN_SCORES, GATE_MIN_BELOW = 30, 20, 5
GATE_HARD, GATE_SOFT = 0.95, 0.80
EPSILON = 1e-9  # a weighted rate a hair under the threshold still gates (gates.cc)
REWRITE_FAILURE_SHARE = 0.1  # signals.rewrite_failure_share
COMMIT = re.compile(r"[0-9a-fA-F]{7,40}")

DECISIONS = ("approved", "rejected", "needs-work", "deferred")
DECIDED = {"approved", "rejected", "needs-work"}


def parse_ms(text):
    """ISO 8601 timestamp -> Unix milliseconds."""
    t = datetime.fromisoformat(text)
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    return round(t.timestamp() * 1000)


def s(value):
    """A string field; anything else reads as absent, as in src/learn/event_reader.cc."""
    return value if isinstance(value, str) else ""


def number(value):
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def round6(x):
    return None if x is None else round(x, 6) + 0.0  # + 0.0: no -0.0


class Counts:
    def __init__(self):
        self.by = dict.fromkeys(DECISIONS, 0)
        self.total = 0

    def add(self, decision):
        self.total += 1
        if decision in self.by:
            self.by[decision] += 1

    def json(self):
        decided = self.by["approved"] + self.by["rejected"] + self.by["needs-work"]
        return {"approved": self.by["approved"], "rejected": self.by["rejected"],
                "needsWork": self.by["needs-work"], "deferred": self.by["deferred"],
                "total": self.total,
                "rate": round6(self.by["approved"] / decided) if decided else None}


class Analysis:
    def __init__(self, now_ms):
        self.now_ms = now_ms
        self.last_day = now_ms // MS_PER_DAY
        self.first_day = self.last_day - GATE_WINDOW_DAYS + 1
        self.works = {}   # (artifact id, version) -> work product
        self.latest = {}  # artifact id -> the work product registered last
        self.overall = Counts()
        self.tables = {"byServerType": {}, "byStage": {}, "byReviewer": {}}
        # dimension -> [score bucket 0..9][approved 0/1] -> [count, weight]
        self.dimensions = {}
        self.calibration = [[0, 0, 0.0] for _ in range(10)]  # [n, approved, sum of confidence]
        self.predictions, self.delta_sum, self.abs_delta_sum = 0, 0.0, 0.0
        self.commit_works = {}    # first 7 hex digits of a version, lowercase -> [(version, work)]
        self.failed = set()       # the work (commit or task) of each failed outcome seen
        self.unreadable = 0

    def read_home(self, home):
        raw = os.path.join(home, "feedback", "raw")
        for name in sorted(n for n in os.listdir(raw) if RAW_FILE.fullmatch(n)):
            with open(os.path.join(raw, name), encoding="utf-8") as f:
                for line in f:
                    if not line.endswith("\n"):
                        break  # a torn last line is not an event
                    if line.strip():
                        self.add_line(line)

    def add_line(self, line):
        try:
            ev = json.loads(line)
            if (not isinstance(ev, dict) or next(iter(ev), None) != "kind"
                    or ev["kind"] not in KINDS):
                raise ValueError("not a stored event")
            at_ms = parse_ms(ev["timestamp"])
        except (ValueError, KeyError, TypeError):
            self.unreadable += 1
            return
        if ev["kind"] == "work":
            self.add_work(ev)
        elif ev["kind"] == "feedback":
            self.add_review(ev, at_ms)
        elif ev["kind"] == "reward":
            self.add_reward(ev)

    def add_work(self, ev):
        wp = ev.get("workProduct") or {}
        work = {"type": s(wp.get("type")), "confidence": number(wp.get("bubaConfidence")) or 0.0,
                "serverType": s(ev.get("mcpServerType"))}
        self.works[(s(wp.get("id")), s(wp.get("version")))] = work
        self.latest[s(wp.get("id"))] = work
        version = s(wp.get("version"))
        if COMMIT.fullmatch(version):
            same = self.commit_works.setdefault(version[:7].lower(), [])
            same[:] = [(v, w) for v, w in same if v != version] + [(version, work)]

    def add_reward(self, ev):
        """A failed outcome (a revert, a rewrite of 10%+ of the agent's lines) of recorded work is
        a not-approved calibration pair of that work, once per commit (or task)."""
        context = ev.get("context") if isinstance(ev.get("context"), dict) else {}
        commits = context.get("commits") if isinstance(context.get("commits"), list) else []
        agent_commit = s(commits[0]) if commits else ""
        commit = agent_commit or s(ev.get("commit_hash"))
        key = commit or s(ev.get("task_id"))
        value = number(ev.get("signal_value"))
        kind = s(ev.get("signal_type"))
        failed = (kind == "merge_outcome" and value is not None and value <= EPSILON) or (
            kind == "human_edit_after_agent" and value is not None
            and 1 - value > EPSILON and 1 - value >= REWRITE_FAILURE_SHARE - EPSILON)
        if not failed or (key and key in self.failed):
            return
        if key:
            self.failed.add(key)
        work = None
        if COMMIT.fullmatch(commit):
            for version, w in reversed(self.commit_works.get(commit[:7].lower(), [])):
                n = min(len(version), len(commit))
                if version[:n].lower() == commit[:n].lower():
                    work = w
                    break
        if work is None and s(ev.get("task_id")):
            work = self.latest.get(s(ev.get("task_id")))
        if work is not None and math.isfinite(work["confidence"]):
            self.add_pair(work["confidence"], False)

    def resolve(self, ref):
        """The reviewed work product: inline (it has a type), or registered before; else None."""
        if s(ref.get("type")):
            return {"type": ref["type"], "confidence": number(ref.get("bubaConfidence")) or 0.0,
                    "serverType": ""}
        artifact, version = s(ref.get("id")), s(ref.get("version"))
        return self.works.get((artifact, version)) if version else self.latest.get(artifact)

    def add_review(self, ev, at_ms):
        work = self.resolve(ev.get("workProduct") or {})
        decision = s((ev.get("decision") or {}).get("decision"))
        server_type = s(ev.get("mcpServerType")) or (work["serverType"] if work else "")

        # approval
        self.overall.add(decision)
        for table, key in (("byServerType", server_type), ("byStage", s(ev.get("pipelineStage"))),
                           ("byReviewer", s(ev.get("reviewerId")))):
            self.tables[table].setdefault(key or "unspecified", Counts()).add(decision)

        # gates: decided reviews' scores in the window, weighted
        scores = [sc for sc in ev.get("scores") or () if s(sc.get("dimension"))
                  and number(sc.get("score")) is not None]
        day = at_ms // MS_PER_DAY
        if decision in DECIDED and scores and self.first_day <= day <= self.last_day:
            weight = CONFIDENCE_WEIGHT.get(s((ev.get("confidence") or {}).get("level")), 1.0)
            if ((ev.get("meta") or {}).get("sessionFatigue") or 0) >= FATIGUE_AFTER:
                weight *= FATIGUE_WEIGHT
            weight *= OVERRIDE_WEIGHT.get(s(ev.get("override")), 1.0)
            approved = 1 if decision == "approved" else 0
            for sc in scores:
                score = float(sc["score"])
                if not math.isfinite(score):
                    continue
                bucket = min(max(math.floor(score + 0.5), 1), 10) - 1  # nearest, halves up
                cells = self.dimensions.setdefault(
                    sc["dimension"], [[[0, 0.0], [0, 0.0]] for _ in range(10)])
                cell = cells[bucket][approved]
                cell[0] += 1
                cell[1] += weight

        # calibration
        delta = number(ev.get("_predictionDelta"))
        if delta is not None and math.isfinite(delta):
            self.predictions += 1
            self.delta_sum += delta
            self.abs_delta_sum += abs(delta)
        if work is not None and decision in DECIDED and math.isfinite(work["confidence"]):
            self.add_pair(work["confidence"], decision == "approved")

    def add_pair(self, conf, approved):
        b = min(math.floor(conf * 10 + 1e-9), 9) if conf > 0 else 0
        self.calibration[b][0] += 1
        self.calibration[b][1] += approved
        self.calibration[b][2] += conf

    def approval_json(self):
        out = {"overall": self.overall.json()}
        for name, table in self.tables.items():
            out[name] = {key: table[key].json() for key in sorted(table)}
        return out

    def gates_json(self):
        gates = []
        for dimension in sorted(self.dimensions):
            cells = self.dimensions[dimension]
            total = sum(c[0] for bucket in cells for c in bucket)
            if total < GATE_MIN_SCORES:
                continue
            below, rejected, weight = 0, 0.0, 0.0
            hard = soft = None  # (t, rate, below)
            for t in range(2, 11):
                no, yes = cells[t - 2]  # the scores equal to t - 1
                below += no[0] + yes[0]
                rejected += no[1]
                weight += no[1] + yes[1]
                if weight <= 0 or below < GATE_MIN_BELOW:
                    continue
                rate = rejected / weight
                if rate >= GATE_HARD - EPSILON:
                    hard = (t, rate, below)
                if rate >= GATE_SOFT - EPSILON:
                    soft = (t, rate, below)
            if soft is not None and hard is not None and soft[0] <= hard[0]:
                soft = None  # a soft gate only warns above the hard one
            for kind, gate in (("hard", hard), ("soft", soft)):
                if gate:
                    gates.append({"dimension": dimension, "threshold": gate[0],
                                  "rejectionRate": round6(gate[1]), "n": gate[2], "kind": kind,
                                  "scores": total})
        return gates

    def calibration_json(self):
        pairs = sum(b[0] for b in self.calibration)
        buckets, ece = [], 0.0
        for i, (n, approved, conf_sum) in enumerate(self.calibration):
            bucket = {"lower": i / 10, "upper": (i + 1) / 10, "avgPredicted": None,
                      "actualRate": None, "error": None, "n": n}
            if n:
                avg, rate = conf_sum / n, approved / n
                bucket.update(avgPredicted=round6(avg), actualRate=round6(rate),
                              error=round6(avg - rate))
                ece += n / pairs * abs(avg - rate)
            buckets.append(bucket)
        p = self.predictions
        return {"buckets": buckets, "ece": round6(ece) if pairs else None, "n": pairs,
                "scorePrediction": {"n": p,
                                    "meanAbsError": round6(self.abs_delta_sum / p) if p else None,
                                    "meanDelta": round6(self.delta_sum / p) if p else None}}

    def result(self):
        return {"approval": self.approval_json(), "gates": self.gates_json(),
                "calibration": self.calibration_json()}


def differences(ours, theirs, path="", tolerance=1e-6 + 1e-12):
    """Where two JSON values disagree: counts must be equal, other numbers within tolerance."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        out = [f"{path}/{k}: only in python" for k in ours.keys() - theirs.keys()]
        out += [f"{path}/{k}: only in kaizen" for k in theirs.keys() - ours.keys()]
        for k in sorted(ours.keys() & theirs.keys()):
            out += differences(ours[k], theirs[k], f"{path}/{k}", tolerance)
        if not out and list(ours) != list(theirs):
            out.append(f"{path}: keys in another order")
        return out
    if isinstance(ours, list) and isinstance(theirs, list):
        if len(ours) != len(theirs):
            return [f"{path}: python has {len(ours)} entries, kaizen {len(theirs)}"]
        return [d for i, (a, b) in enumerate(zip(ours, theirs))
                for d in differences(a, b, f"{path}[{i}]", tolerance)]
    if isinstance(ours, int) and isinstance(theirs, int) and not isinstance(ours, bool):
        return [] if ours == theirs else [f"{path}: python {ours}, kaizen {theirs}"]
    if isinstance(ours, (int, float)) and isinstance(theirs, (int, float)):
        return ([] if abs(ours - theirs) <= tolerance
                else [f"{path}: python {ours}, kaizen {theirs} (|diff| {abs(ours - theirs):.3g})"])
    return [] if ours == theirs else [f"{path}: python {ours!r}, kaizen {theirs!r}"]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("home", help="the kaizen home whose feedback/raw/*.jsonl to read")
    ap.add_argument("--now", required=True, help="the clock, ISO 8601 (as kaizen analyze --now)")
    ap.add_argument("--check", metavar="FILE",
                    help="compare with this `kaizen analyze --json` output (- for stdin)")
    args = ap.parse_args(argv[1:])

    analysis = Analysis(parse_ms(args.now))
    analysis.read_home(args.home)
    result = analysis.result()
    if analysis.unreadable:
        print(f"python_analysis: skipped {analysis.unreadable} unreadable line(s)", file=sys.stderr)
    if not args.check:
        json.dump(result, sys.stdout, separators=(",", ":"))
        sys.stdout.write("\n")
        return 0

    with (sys.stdin if args.check == "-" else open(args.check, encoding="utf-8")) as f:
        kaizen = json.load(f)
    diffs = differences(result, {key: kaizen.get(key) for key in result})
    checked = (f"approval ({analysis.overall.total} reviews, "
               f"{sum(len(t) for t in analysis.tables.values())} groups), "
               f"gates ({len(result['gates'])}), calibration ({result['calibration']['n']} pairs)")
    if diffs:
        print(f"MISMATCH in {len(diffs)} value(s) of {checked}:", file=sys.stderr)
        for d in diffs[:50]:
            print(f"  {d}", file=sys.stderr)
        return 1
    print(f"python and kaizen agree on {checked}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
