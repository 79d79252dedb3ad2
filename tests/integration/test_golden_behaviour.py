"""Behaviour pinned byte for byte: what the binary printed and wrote, recorded once from the build
before the source tree was reorganized (issue 41), must stay the same after every move.

Two histories go through the verbs that tell people and agents what kaizen learned:
- the developer week (fixtures/developer_week.jsonl, a developer's reviews in their own words):
  each output is kept whole under golden/behaviour/week/, so a difference reads as a diff;
- `kaizen gen --events 200000 --seed 7`: each output kept as its SHA-256 and length
  (golden/behaviour/gen200k.txt), too large to check in whole.
Each: `analyze --json`, `rules --json`, `context --json`, `hints FILE`, `render` (every file it
writes), `dashboard --color never`, `export --format dpo`. Then `kaizen hook` is run on every
fixture payload of every agent (fixtures/hooks), in order, in a project holding the week: what it
printed and its exit status, and the events it stored. Ids that import and the hooks give
events carry random bits: those outputs read `<id>` in their place.

After an intended change of output, regenerate with KAIZEN_UPDATE_GOLDEN=1 and read the diff
before committing it. Output that names this run's temporary directory has it replaced by
`<tmp>`.
"""

import glob
import hashlib
import json
import os
import re
import shutil
import unittest

from kzlib import EXIT_OK, KaizenTest, kaizen

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden", "behaviour")
WEEK = os.path.join(HERE, "fixtures", "developer_week.jsonl")
HOOKS = os.path.join(HERE, "fixtures", "hooks")
WEEK_NOW = "2025-12-15T09:00:00Z"  # the Monday after the week
UPDATE = os.environ.get("KAIZEN_UPDATE_GOLDEN") == "1"
UUID7 = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}")


def files_under(root):
    """{relative path: bytes} of every file under root."""
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


class GoldenBehaviourTest(KaizenTest):

    def learned_outputs(self, home, now, mask_ids=False):
        """{name: bytes}: what each verb printed or wrote for `home` at `now`. With `mask_ids`,
        every version 7 UUID reads `<id>`: ids that import gave events carry random bits."""
        out = {}
        # Run from a directory of a fixed name outside any repository: `context` and `hints`
        # name the current directory's project.
        cwd = self.path("work")
        os.makedirs(cwd, exist_ok=True)

        def run(name, *args):
            r = kaizen(*args, "--home", home, "--now", now, cwd=cwd)
            self.assertEqual(r.rc, EXIT_OK, r)
            out[name] = r.out_bytes

        run("analyze.json", "analyze", "--json")
        run("rules.json", "rules", "--json")
        run("context.json", "context", "--json")
        run("dashboard.txt", "dashboard", "--color", "never")
        hints = self.path("hints", "AGENTS.md")
        os.makedirs(os.path.dirname(hints), exist_ok=True)
        with open(hints, "w") as f:
            f.write("# Project notes\n\nWritten by a person.\n")
        run("hints.stdout", "hints", hints)
        with open(hints, "rb") as f:
            out["hints.AGENTS.md"] = f.read()
        run("render.stdout", "render")
        for top in ("memory", "prompts", "patterns"):
            for rel, data in sorted(files_under(os.path.join(home, top)).items()):
                out[f"render.{top}.{rel.replace(os.sep, '.')}"] = data
        r = kaizen("export", "--format", "dpo", "--home", home, cwd=cwd)
        self.assertEqual(r.rc, EXIT_OK, r)
        out["export.dpo.jsonl"] = r.out_bytes
        out = {k: v.replace(self.tmp.encode(), b"<tmp>") for k, v in out.items()}
        if mask_ids:
            out = {k: UUID7.sub(b"<id>", v) for k, v in out.items()}
        return out

    def hook_outputs(self):
        """Every fixture payload through `kaizen hook`, agent by agent, in a project whose home
        holds the week: {name: what it printed and its exit status}, and the events stored."""
        project = self.path("project")
        home = os.path.join(project, ".kaizen")
        os.makedirs(home)
        r = kaizen("import", WEEK, "--home", home, "--now", WEEK_NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        before = set(self.stored_lines(home))
        out = {}
        for agent in sorted(os.listdir(HOOKS)):
            for path in sorted(glob.glob(os.path.join(HOOKS, agent, "*.json"))):
                if agent.endswith("schemas"):
                    continue
                with open(path) as f:
                    payload = json.load(f)
                payload["cwd"] = project
                flags = [] if agent == "claude-code" else ["--agent", agent]
                r = kaizen("hook", "--now", WEEK_NOW, *flags, input=json.dumps(payload),
                           cwd=project)
                name = f"hook.{agent}.{os.path.basename(path)[:-5]}"
                out[name] = f"exit {r.rc}\n".encode() + r.out_bytes
        stored = [l for l in self.stored_lines(home) if l not in before]
        out["hook.stored.jsonl"] = b"".join(UUID7.sub(b"<id>", l) + b"\n" for l in stored)
        return {k: v.replace(self.tmp.encode(), b"<tmp>") for k, v in out.items()}

    def stored_lines(self, home):
        lines = []
        for p in sorted(glob.glob(os.path.join(home, "feedback", "raw", "*.jsonl"))):
            with open(p, "rb") as f:
                lines.extend(f.read().split(b"\n")[:-1])
        return lines

    def assert_same_files(self, got, folder):
        """Each output equals golden/behaviour/<folder>/<name>, and no name is missing or new."""
        expected_dir = os.path.join(GOLDEN, folder)
        if UPDATE:
            shutil.rmtree(expected_dir, ignore_errors=True)
            os.makedirs(expected_dir)
            for name, data in got.items():
                with open(os.path.join(expected_dir, name), "wb") as f:
                    f.write(data)
        expected = files_under(expected_dir)
        self.assertEqual(sorted(got), sorted(expected))
        for name in sorted(expected):
            self.assertEqual(got[name].decode(), expected[name].decode(), name)

    def test_the_developer_week_tells_the_same_bytes(self):
        r = self.kz("import", WEEK, "--home", self.home, "--now", WEEK_NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assert_same_files(self.learned_outputs(self.home, WEEK_NOW, mask_ids=True), "week")

    def test_every_hook_payload_answers_and_stores_the_same_bytes(self):
        self.assert_same_files(self.hook_outputs(), "hooks")

    def test_a_generated_history_of_200000_events_tells_the_same_bytes(self):
        r = kaizen("gen", "--events", "200000", "--seed", "7")
        self.assertEqual(r.rc, EXIT_OK, r)
        history = self.write("history.jsonl", r.out_bytes)
        got = {"gen.jsonl": r.out_bytes}
        r = self.kz("import", history, "--home", self.home, "--now", "2026-01-01T00:00:00Z")
        self.assertEqual(r.rc, EXIT_OK, r)
        got.update(self.learned_outputs(self.home, "end"))
        r = kaizen("simulate", "--seed", "7", "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        got["simulate.json"] = r.out_bytes
        lines = sorted(f"{name} {hashlib.sha256(data).hexdigest()} {len(data)}\n"
                       for name, data in got.items())
        path = os.path.join(GOLDEN, "gen200k.txt")
        if UPDATE:
            os.makedirs(GOLDEN, exist_ok=True)
            with open(path, "w") as f:
                f.writelines(lines)
        with open(path) as f:
            self.assertEqual("".join(lines), f.read())


if __name__ == "__main__":
    unittest.main()
