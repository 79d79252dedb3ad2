"""`kaizen git scan`: seed 001 tier 1 reward signals read from real repositories.

Each test builds a repository with the `git` CLI, every commit's author, committer and dates set
through the environment so the history (and its shas) is the same on every run, scans it, and
checks the `reward` events stored in the log (`kaizen export --kind reward`), not only the text.
"""

import os
import subprocess
import unittest

from kzlib import EXIT_OK, EXIT_REJECTED, EXIT_USAGE, NOW, KaizenTest, strict_loads

ALICE = ("Alice Example", "alice@example.com")
CLAUDE = ("Claude", "noreply@anthropic.com")
ROBO = ("Robo Dev", "robo@example.com")

BASE = "one\ntwo\nthree\n"
AGENT = BASE + "agent 1\nagent 2\nagent 3\nagent 4\n"


class Repo:
    """A git repository in `path`, written commit by commit with fixed identities and dates."""

    def __init__(self, path):
        self.path = path
        os.makedirs(path)
        self.git("init", "-q", "-b", "main")

    def env(self, who, at):
        name, email = who
        e = dict(os.environ)
        e.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=email, GIT_AUTHOR_DATE=at,
                 GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=email, GIT_COMMITTER_DATE=at,
                 GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, HOME=self.path)
        return e

    def git(self, *args, who=ALICE, at="2025-03-01T09:00:00Z"):
        p = subprocess.run(["git", "-C", self.path] + list(args), env=self.env(who, at),
                           capture_output=True, text=True)
        assert p.returncode == 0, f"git {args}: {p.stderr}"
        return p.stdout.strip()

    def commit(self, files, who, at, message):
        for name, text in files.items():
            with open(os.path.join(self.path, name), "w") as f:
                f.write(text)
        self.git("add", "-A", who=who, at=at)
        self.git("commit", "-q", "-m", message, who=who, at=at)
        return self.git("rev-parse", "HEAD")


class GitScanTest(KaizenTest):

    def repo(self, name="shop"):
        return Repo(self.path(name))

    def scan(self, repo, *flags):
        return self.kz("git", "scan", repo.path if isinstance(repo, Repo) else repo, *flags,
                       "--home", self.home, "--now", NOW)

    def scan_ok(self, repo, *flags):
        r = self.scan(repo, *flags)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def rewards(self):
        r = self.export("--kind", "reward")
        self.assertEqual(r.rc, EXIT_OK, r)
        return [strict_loads(l) for l in r.lines]

    def of_type(self, signal_type):
        return [e for e in self.rewards() if e["signal_type"] == signal_type]

    # --- revert detection ---------------------------------------------------------------------

    def test_agent_commit_reverted_by_git_revert_is_merge_outcome_reverted(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        agent = repo.commit({"a.txt": AGENT}, CLAUDE, "2025-03-01T10:00:00Z", "add lines")
        repo.git("revert", "--no-edit", agent, at="2025-03-03T10:00:00Z")
        revert = repo.git("rev-parse", "HEAD")
        r = self.scan_ok(repo)
        self.assertIn("1 new, 0 already recorded", r.out, r)
        events = self.rewards()
        self.assertEqual(len(events), 1, events)
        e = events[0]
        self.assertEqual(e["signal_type"], "merge_outcome")
        self.assertEqual(e["raw_value"], "reverted")
        self.assertEqual(e["signal_value"], 0.0)  # seed 001: reverted -> 0.0
        self.assertEqual(e["commit_hash"], agent)
        self.assertEqual(e["source"], "automatic")
        self.assertEqual(e["confidence"], 1)
        self.assertEqual(e["delay_days"], 2)
        self.assertEqual(e["timestamp"], "2025-03-03T10:00:00.000Z")
        self.assertEqual(e["signal_id"], f"git:revert:{agent[:12]}:{revert[:12]}")
        self.assertEqual(e["context"], {"source": "git", "repo": "shop", "detector": "revert",
                                        "commits": [agent, revert], "agent": "Claude",
                                        "agent_email": "noreply@anthropic.com"})

    def test_inverse_diff_without_revert_message_is_a_revert(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE, "b.txt": "b\n"}, ALICE, "2025-03-01T09:00:00Z", "base")
        agent = repo.commit({"a.txt": AGENT}, CLAUDE, "2025-03-01T10:00:00Z", "add lines")
        repo.commit({"b.txt": "b\nc\n"}, ALICE, "2025-03-01T11:00:00Z", "unrelated")
        undo = repo.commit({"a.txt": BASE}, ALICE, "2025-03-05T11:00:00Z", "tidy up")
        self.scan_ok(repo)
        events = self.rewards()
        self.assertEqual(len(events), 1, "a revert, not also a human edit")
        e = events[0]
        self.assertEqual((e["signal_type"], e["raw_value"], e["signal_value"]),
                         ("merge_outcome", "reverted", 0.0))
        self.assertEqual(e["commit_hash"], agent)
        self.assertEqual(e["confidence"], 0.9)
        self.assertEqual(e["signal_id"], f"git:inverse_diff:{agent[:12]}:{undo[:12]}")
        self.assertEqual((e["context"]["detector"], e["context"]["commits"]),
                         ("inverse_diff", [agent, undo]))

    def test_inverse_diff_after_revert_days_is_not_a_revert(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        repo.commit({"a.txt": AGENT}, CLAUDE, "2025-03-01T10:00:00Z", "add lines")
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-10T11:00:00Z", "tidy up")
        self.scan_ok(repo, "--revert-days", "7")
        self.assertEqual(self.of_type("merge_outcome"), [])
        self.scan_ok(repo, "--revert-days", "10")
        self.assertEqual(len(self.of_type("merge_outcome")), 1)

    # --- human edit after agent edit ----------------------------------------------------------

    def test_human_rewriting_agent_lines_two_commits_later(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE, "b.txt": "b\n"}, ALICE, "2025-03-01T09:00:00Z", "base")
        agent = repo.commit({"a.txt": AGENT}, CLAUDE, "2025-03-01T10:00:00Z", "add lines")
        repo.commit({"b.txt": "b\nc\n"}, ALICE, "2025-03-01T11:00:00Z", "unrelated")
        edit = repo.commit({"a.txt": BASE + "agent 1\nAGENT 2\nagent 3\nAGENT 4\n"}, ALICE,
                           "2025-03-01T12:00:00Z", "fix the agent's lines")
        self.scan_ok(repo)
        events = self.of_type("human_edit_after_agent")
        self.assertEqual(len(events), 1, self.rewards())
        e = events[0]
        self.assertEqual(e["raw_value"], 0.5)      # 2 of the agent's 4 lines rewritten
        self.assertEqual(e["signal_value"], 0.5)   # 1 - share: 1.0 means nothing rewritten
        self.assertEqual(e["commit_hash"], agent)
        self.assertEqual(e["timestamp"], "2025-03-01T12:00:00.000Z")
        self.assertEqual(e["signal_id"], f"git:human_edit:{agent[:12]}:{edit[:12]}")
        self.assertEqual((e["context"]["repo"], e["context"]["commits"], e["context"]["agent"]),
                         ("shop", [agent, edit], "Claude"))
        # Each replaced run of the agent's lines is also a correction (seed 004).
        r = self.export("--kind", "correction")
        corrections = [strict_loads(l) for l in r.lines]
        self.assertEqual([(c["original"], c["corrected"], c["context"]["line_start"])
                          for c in corrections], [("agent 2", "AGENT 2", 5), ("agent 4", "AGENT 4", 7)])

    def test_rewrite_past_rewrite_commits_is_not_counted(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE, "b.txt": "b\n"}, ALICE, "2025-03-01T09:00:00Z", "base")
        repo.commit({"a.txt": AGENT}, CLAUDE, "2025-03-01T10:00:00Z", "add lines")
        repo.commit({"b.txt": "b\nc\n"}, ALICE, "2025-03-01T11:00:00Z", "unrelated")
        repo.commit({"a.txt": BASE + "x\n"}, ALICE, "2025-03-20T12:00:00Z", "rewrite")
        self.scan_ok(repo, "--rewrite-commits", "1")
        # No rewrite: the window closed after one commit with the agent's lines untouched, which
        # is itself a measurement (share 0).
        events = self.of_type("human_edit_after_agent")
        self.assertEqual([(e["raw_value"], e["signal_value"], len(e["context"]["commits"]))
                          for e in events], [(0, 1.0, 1)])

    # --- merges: outcome, iteration count, time to completion ----------------------------------

    def merged_repo(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        repo.git("checkout", "-q", "-b", "feature-1")
        repo.commit({"f1.txt": "x\n"}, CLAUDE, "2025-03-01T10:00:00Z", "f1 first try")
        tip1 = repo.commit({"f1.txt": "x\ny\n"}, CLAUDE, "2025-03-01T11:00:00Z", "f1 again")
        repo.git("checkout", "-q", "main")
        repo.git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature-1'", "feature-1",
                 at="2025-03-01T12:00:00Z")
        m1 = repo.git("rev-parse", "HEAD")
        repo.git("checkout", "-q", "-b", "feature-2")
        repo.commit({"f2.txt": "z\n"}, CLAUDE, "2025-03-02T10:00:00Z", "f2")
        repo.git("checkout", "-q", "main")
        repo.git("merge", "-q", "--no-ff", "-m", "Merge branch 'feature-2'", "feature-2",
                 at="2025-03-02T14:00:00Z")
        m2 = repo.git("rev-parse", "HEAD")
        return repo, tip1, m1, m2

    def test_merge_of_an_agent_branch(self):
        repo, tip1, m1, m2 = self.merged_repo()
        self.scan_ok(repo)
        merges = sorted(self.of_type("merge_outcome"), key=lambda e: e["timestamp"])
        self.assertEqual([(e["raw_value"], e["signal_value"]) for e in merges],
                         [("merged", 1.0), ("merged", 1.0)])
        self.assertEqual(merges[0]["commit_hash"], tip1)
        self.assertEqual(merges[0]["task_id"], f"git:shop:merge:{m1[:12]}")
        self.assertEqual(merges[0]["context"]["commits"], [m1])
        self.assertEqual(merges[0]["context"]["agent"], "Claude")
        iterations = sorted(self.of_type("iteration_count"), key=lambda e: e["timestamp"])
        self.assertEqual([(e["raw_value"], e["signal_value"]) for e in iterations],
                         [(2, 0.5), (1, 1.0)])  # seed 001: 1 / N
        # Time to completion against the median of the earlier merges: 4 h against 2 h.
        times = self.of_type("time_efficiency")
        self.assertEqual(len(times), 1)
        self.assertEqual((times[0]["raw_value"], times[0]["baseline_seconds"]), (14400, 7200))
        self.assertEqual(times[0]["signal_value"], 0.5)
        self.assertEqual(times[0]["task_id"], f"git:shop:merge:{m2[:12]}")

    # --- idempotence, --since, --agent, --dry-run ---------------------------------------------

    def test_second_scan_stores_nothing(self):
        repo, _, _, _ = self.merged_repo()
        first = self.scan_ok(repo, "--json")
        total = strict_loads(first.out)["total"]
        self.assertEqual(total["found"], 5)
        self.assertEqual(total["new"], 5)
        lines_before = self.raw_lines()
        second = self.scan_ok(repo)
        self.assertIn("0 new, 5 already recorded", second.out, second)
        self.assertEqual(second.err, "")
        self.assertEqual(self.raw_lines(), lines_before)
        # The signal_id is made of the signal's identity only: the same on every scan.
        ids = sorted(e["signal_id"] for e in self.rewards())
        self.assertEqual(len(set(ids)), 5, ids)
        again = strict_loads(self.scan_ok(repo, "--json").out)
        self.assertEqual(again["total"], {"found": 5, "new": 0, "already_recorded": 5,
                                          "rejected": 0})
        self.assert_raw_log_sound()

    def test_new_history_adds_only_the_new_signals(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        agent = repo.commit({"a.txt": AGENT}, CLAUDE, "2025-03-01T10:00:00Z", "add lines")
        repo.commit({"a.txt": AGENT.replace("agent 1", "AGENT 1")}, ALICE,
                    "2025-03-01T11:00:00Z", "fix one")
        self.scan_ok(repo)
        self.assertEqual(len(self.rewards()), 1)
        repo.commit({"a.txt": AGENT.replace("agent 2", "AGENT 2").replace("agent 1", "AGENT 1")},
                    ALICE, "2025-03-01T12:00:00Z", "fix another")
        r = self.scan_ok(repo, "--json")
        # The new rewrite and its correction; the first rewrite and its correction are known.
        self.assertEqual(strict_loads(r.out)["total"]["new"], 2)
        self.assertEqual(strict_loads(r.out)["total"]["already_recorded"], 2)
        self.assertEqual(len(self.rewards()), 2)

    def test_since_skips_signals_observed_before(self):
        repo, _, _, m2 = self.merged_repo()
        self.scan_ok(repo, "--since", "2025-03-02")
        events = self.rewards()
        self.assertEqual(sorted(e["signal_type"] for e in events),
                         ["iteration_count", "merge_outcome", "time_efficiency"])
        self.assertTrue(all(e["timestamp"] >= "2025-03-02" for e in events), events)
        self.scan_ok(repo, "--since", "2025-03-02T15:00:00Z")
        self.assertEqual(len(self.rewards()), 3)

    def test_agent_pattern_chooses_whose_commits_are_judged(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        robo = repo.commit({"a.txt": AGENT}, ROBO, "2025-03-01T10:00:00Z", "add lines")
        repo.git("revert", "--no-edit", robo, at="2025-03-01T12:00:00Z")
        self.scan_ok(repo)
        self.assertEqual(self.rewards(), [], "Robo Dev is no agent by default")
        r = self.scan_ok(repo, "--agent", "^robo dev <")
        self.assertIn("1 new", r.out)
        self.assertEqual([e["commit_hash"] for e in self.rewards()], [robo])

    def test_co_authored_by_trailer_marks_an_agent_commit(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        paired = repo.commit({"a.txt": AGENT}, ALICE, "2025-03-01T10:00:00Z",
                             "add lines\n\nCo-authored-by: Claude <noreply@anthropic.com>")
        repo.git("revert", "--no-edit", paired, at="2025-03-01T12:00:00Z")
        self.scan_ok(repo)
        self.assertEqual([e["commit_hash"] for e in self.rewards()], [paired])

    def test_dry_run_prints_and_stores_nothing(self):
        repo, _, _, _ = self.merged_repo()
        r = self.scan_ok(repo, "--dry-run")
        self.assertIn("dry run, nothing stored", r.out)
        self.assertIn("merge_outcome", r.out)
        self.assertFalse(os.path.exists(self.home), "a dry run does not even create the home")
        j = strict_loads(self.scan_ok(repo, "--dry-run", "--json").out)
        self.assertEqual(j["total"]["would_record"], 5)
        self.assertTrue(all(e["status"] == "would_record" for e in j["events"]))

    # --- unusual repositories -------------------------------------------------------------------

    def test_empty_repository_scans_no_commits(self):
        repo = self.repo()
        r = self.scan_ok(repo, "--json")
        j = strict_loads(r.out)
        self.assertEqual((j["commits"], j["total"]["found"]), (0, 0))
        self.assert_nothing_stored()

    def test_unborn_head_beside_other_branches_is_refused_naming_the_branch(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        repo.git("checkout", "-q", "--orphan", "fresh")
        r = self.scan(repo)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn('--branch "HEAD" (the default) is "refs/heads/fresh", a branch with no '
                      'commits yet', r.err)
        self.assertEqual(self.scan_ok(repo, "--branch", "main").rc, EXIT_OK)

    def test_shallow_clone_is_refused_naming_the_rule(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        repo.commit({"a.txt": AGENT}, CLAUDE, "2025-03-01T10:00:00Z", "add lines")
        shallow = self.path("shallow")
        repo.git("clone", "-q", "--depth", "1", "file://" + repo.path, shallow)
        r = self.scan(shallow)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn(f'REPO "{shallow}" is a shallow clone', r.err)
        self.assertIn("git fetch --unshallow", r.err)
        self.assert_nothing_stored()

    def test_human_renaming_an_agent_file_rewrites_none_of_its_lines(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE, "x.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        repo.commit({"a.txt": AGENT}, CLAUDE, "2025-03-01T10:00:00Z", "add lines")
        repo.git("mv", "a.txt", "b.txt")
        repo.git("commit", "-q", "-m", "rename", at="2025-03-01T11:00:00Z")
        # Renamed and one of the 4 lines the agent added changed.
        agent = repo.commit({"x.txt": AGENT}, CLAUDE, "2025-03-01T12:00:00Z", "add more lines")
        repo.git("mv", "x.txt", "y.txt")
        repo.commit({"y.txt": AGENT.replace("agent 4", "human 4")}, ALICE,
                    "2025-03-01T13:00:00Z", "rename and edit")
        self.scan_ok(repo)
        edits = self.of_type("human_edit_after_agent")
        self.assertEqual([(e["commit_hash"], e["raw_value"]) for e in edits], [(agent, 0.25)])

    def test_human_bumping_an_agent_submodule_does_not_stop_the_scan(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")

        def commit(sub_sha, text, who, at, message):
            # A gitlink (mode 160000) as `git submodule add` writes it, without cloning anything.
            repo.git("update-index", "--add", "--cacheinfo", f"160000,{sub_sha * 40},sub")
            with open(os.path.join(repo.path, "a.txt"), "w") as f:
                f.write(text)
            repo.git("add", "a.txt")
            repo.git("commit", "-q", "-m", message, who=who, at=at)

        commit("1", AGENT, CLAUDE, "2025-03-01T10:00:00Z", "add submodule and lines")
        commit("2", AGENT.replace("agent 1", "human 1"), ALICE, "2025-03-01T11:00:00Z",
               "bump submodule, fix a line")
        self.scan_ok(repo)
        edits = self.of_type("human_edit_after_agent")
        # 1 of the agent's 4 text lines; the submodule's "Subproject commit" line is no text.
        self.assertEqual([e["raw_value"] for e in edits], [0.25], edits)

    def test_json_output_is_utf8_for_a_repository_path_that_is_not(self):
        path = os.fsdecode(os.path.join(os.fsencode(self.tmp), b"caf\xe9"))
        repo = Repo(path)
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        r = self.scan_ok(repo, "--json")
        j = strict_loads(r.out_bytes.decode("utf-8"))  # strict: raises on a Latin-1 byte
        self.assertEqual(j["repo"], os.path.join(self.tmp, "caf?"))

    def test_rejected_signal_names_its_commits(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2030-03-01T09:00:00Z", "base")
        agent = repo.commit({"a.txt": AGENT}, CLAUDE, "2030-03-01T10:00:00Z", "add lines")
        repo.git("revert", "--no-edit", "HEAD", at="2030-03-01T11:00:00Z")
        revert = repo.git("rev-parse", "HEAD")
        r = self.scan(repo)  # dated after --now: refused by the pipeline
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn(f"(git:revert:{agent[:12]}:{revert[:12]}) not stored: timestamp", r.err)

    def test_long_history_of_one_busy_file_is_scanned_in_seconds(self):
        # Every commit edits one 1000-line file, a third of them by an agent. Blame used to walk
        # the file's whole history at every human commit: these 6000 commits took 215 s (4 s now).
        repo = self.repo()
        stream, lines = [], [f"l{j}\n" for j in range(1000)]
        for i in range(6000):
            who = "Claude <noreply@anthropic.com>" if i % 3 == 0 else "Alice <alice@example.com>"
            lines[(i * 7) % 1000] = f"l{(i * 7) % 1000} v{i}\n"
            data, t = "".join(lines), 1740000000 + i * 60
            stream.append(f"commit refs/heads/main\nmark :{i + 1}\nauthor {who} {t} +0000\n"
                          f"committer {who} {t} +0000\ndata {len(str(i)) + 2}\nc{i}\n"
                          + (f"from :{i}\n" if i else "")
                          + f"M 100644 inline hot.txt\ndata {len(data)}\n{data}\n")
        p = subprocess.run(["git", "-C", repo.path, "fast-import", "--quiet"],
                           input="".join(stream), text=True, capture_output=True)
        self.assertEqual(p.returncode, 0, p.stderr)
        r = self.kz("git", "scan", repo.path, "--dry-run", "--json", "--home", self.home,
                    "--now", NOW, timeout=60)
        self.assertEqual(r.rc, EXIT_OK, r)
        j = strict_loads(r.out)
        self.assertEqual((j["commits"], j["agent_commits"]), (6000, 2000))
        # The human commits that rewrote a line an agent wrote within the last 10 commits, each
        # one correction; every other agent commit whose window closed is measured unedited.
        edits = [e["event"] for e in j["events"] if e["signal"] == "human_edit"]
        rewrites = [e for e in edits if len(e["context"]["commits"]) == 2]
        self.assertEqual(len(rewrites), 7)
        self.assertEqual(j["corrections"]["found"], 7)
        # All 7 rewrote lines of the agent's root commit (it wrote the whole file); the last 3
        # agent commits' windows are still open.
        self.assertEqual(len({e["context"]["commits"][0] for e in rewrites}), 1)
        self.assertEqual(len(edits) - len(rewrites), 2000 - 1 - 3)

    # --- bad input ------------------------------------------------------------------------------

    def test_not_a_repository_is_a_usage_error(self):
        os.makedirs(self.path("plain"))
        r = self.scan(self.path("plain"))
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn(f'REPO "{self.path("plain")}" is not a git repository', r.err)
        r = self.scan(self.path("missing"))
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assert_nothing_stored()

    def test_bad_flags_are_usage_errors_naming_the_flag(self):
        repo = self.repo()
        repo.commit({"a.txt": BASE}, ALICE, "2025-03-01T09:00:00Z", "base")
        cases = [
            (["--since", "last tuesday"], '--since "last tuesday" must be ISO 8601'),
            (["--agent", "(claude"], '--agent "(claude" is not a valid RE2 regular expression'),
            (["--branch", "nope"], '--branch "nope" names no commit'),
            (["--revert-days", "-1"], "--revert-days"),
            (["--rewrite-commits", "0"], "--rewrite-commits"),
        ]
        for flags, message in cases:
            with self.subTest(flags=flags):
                r = self.scan(repo, *flags)
                self.assertEqual(r.rc, EXIT_USAGE, r)
                self.assertIn(message, r.err)
        self.assert_nothing_stored()


if __name__ == "__main__":
    unittest.main()
