"""`kaizen review` and the honest queue (issue 29), through the binary.

Reviews from the terminal (decision flags, and the one-key prompt on a pseudo-terminal), the queue
(superseded versions, dismissals, `kaizen check` without and with --submit), and the diff a review
shows: the agent's change for that version, from a real git repository, never a later commit.
"""

import json
import os
import subprocess
import unittest

from kzlib import (BIN, EXIT_OK, EXIT_REJECTED, EXIT_USAGE, NOW, KaizenTest, jsonl, kaizen,
                   on_terminal, strict_loads, work_event)
from test_serve import Server


def git(repo, *args):
    r = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True,
                       env={**os.environ, "GIT_AUTHOR_DATE": "2025-07-10T08:00:00Z",
                            "GIT_COMMITTER_DATE": "2025-07-10T08:00:00Z"})
    assert r.returncode == 0, r.stderr
    return r.stdout.strip()


class ReviewTest(KaizenTest):

    def kzh(self, *args, input=None):
        return self.kz(*args, "--home", self.home, "--now", NOW, input=input)

    def queue(self):
        r = self.kzh("review", "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        return strict_loads(r.out)

    def queued(self):
        return [(i["workProduct"]["id"], i["workProduct"]["version"]) for i in self.queue()["items"]]

    def events(self, kind):
        r = self.export("--kind", kind)
        self.assertEqual(r.rc, EXIT_OK, r)
        return [strict_loads(l) for l in r.lines]

    def approval(self):
        r = self.kzh("analyze", "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        return strict_loads(r.out)

    def work(self, art, version, **extra):
        self.record_ok("work", work_event(art, version, **extra))

    def repo(self):
        """A git repository with the agent's commit of src/client.ts and the person's later fix."""
        repo = self.path("repo")
        os.makedirs(os.path.join(repo, "src"))
        git(repo, "init", "-q", "-b", "main")
        git(repo, "config", "user.email", "dev@example.com")
        git(repo, "config", "user.name", "Dev")
        client = os.path.join(repo, "src", "client.ts")
        with open(client, "w") as f:
            f.write("export function get(url) {\n  return fetch(url);\n}\n")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "start")
        with open(client, "w") as f:
            f.write("export function get(url) {\n  return fetch(url).then(r => r.json());\n}\n")
        git(repo, "commit", "-q", "-am", "agent: parse the JSON answer")
        agent = git(repo, "rev-parse", "HEAD")
        with open(client, "w") as f:
            f.write("export async function get(url: string) {\n  const r = await fetch(url);\n"
                    "  if (!r.ok) throw new Error(String(r.status));\n  return r.json();\n}\n")
        git(repo, "commit", "-q", "-am", "human: check the status")
        return repo, agent


class TerminalReviews(ReviewTest):

    def test_the_queue_lists_each_item_with_its_age_and_why(self):
        self.work("art-a", "v1", priority="high", timestamp="2025-12-30T21:00:00Z")
        self.work("art-b", "v1", timestamp="2025-12-28T21:00:00Z")
        q = self.queue()
        self.assertEqual([i["workProduct"]["id"] for i in q["items"]], ["art-a", "art-b"])
        by_id = {i["workProduct"]["id"]: i for i in q["items"]}
        # NOW is 2026-01-01T00:00:00Z (kzlib): 27 h and 75 h.
        self.assertEqual(by_id["art-a"]["ageSeconds"], 27 * 3600)
        self.assertEqual(by_id["art-b"]["ageSeconds"], 75 * 3600)
        self.assertIn("high priority", by_id["art-a"]["why"])
        r = self.kzh("review")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("2 items waiting", r.out)
        self.assertIn("art-b  version v1  code-module  3d old", r.out)
        self.assertIn("why here: high priority", r.out)

    def test_decision_flags_record_a_complete_valid_review_of_the_current_version(self):
        self.work("art-a", "v1", timestamp="2025-07-14T09:00:00Z")
        self.work("art-a", "v2", timestamp="2025-07-14T10:00:00Z", mcpServerType="api-client")
        r = self.kzh("review", "art-a", "--reject", "--reason", "no status check",
                     "--score", "error-handling=4", "--score", "naming=7.5",
                     "--blocker", "handle HTTP errors", "--suggest", "check r.ok",
                     "--severity", "major", "--liked", "small diff", "--disliked", "no tests",
                     "--note", "see the fetch call", "--confidence", "fairly-sure",
                     "--needs-expert", "--reviewer", "ana")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("rejected art-a version v2 as ana", r.out)
        (e,) = self.events("feedback")
        self.assertEqual(e["workProduct"], {"id": "art-a", "version": "v2"})
        self.assertEqual(e["reviewerId"], "ana")
        self.assertEqual(e["pipelineStage"], "implement")  # the work's own stage
        self.assertEqual(e["mcpServerType"], "api-client")
        self.assertTrue(e["sessionId"].startswith("terminal-"))
        self.assertTrue(e["modalId"])
        self.assertEqual(e["decision"], {"decision": "rejected", "reason": "no status check",
                                         "severity": "major", "blockers": ["handle HTTP errors"],
                                         "suggestions": ["check r.ok"]})
        self.assertEqual(e["scores"], [{"dimension": "error-handling", "score": 4},
                                       {"dimension": "naming", "score": 7.5}])
        self.assertEqual(e["freeText"]["liked"], "small diff")
        self.assertEqual(e["freeText"]["disliked"], "no tests")
        self.assertEqual(e["freeText"]["generalNotes"], "see the fetch call")
        self.assertEqual(e["confidence"], {"level": "fairly-sure", "wouldDelegateToAI": False,
                                           "needsExpertReview": True})
        # Nobody timed a decision typed as flags: absent, and said so; never a made-up 0.
        self.assertNotIn("timeToDecisionMs", e["meta"])
        self.assertEqual(e["meta"]["unmeasured"], ["timeToDecisionMs"])
        self.assertNotIn("presentationFormat", e["meta"])
        self.assertEqual(self.queued(), [])
        analysis = self.approval()
        self.assertEqual(analysis["kpis"]["timeToDecisionSeconds"]["values"][-1], None)

    def test_the_time_of_day_of_a_review_is_the_reviewers(self):
        self.work("art-a", "v1")
        self.work("art-b", "v1")
        # NOW is midnight UTC: night in London, 13:00 in Auckland (POSIX TZ: UTC-13 is UTC+13).
        for art, tz in (("art-a", "UTC0"), ("art-b", "UTC-13")):
            r = kaizen("review", art, "--approve", "--home", self.home, "--now", NOW,
                       env={"TZ": tz})
            self.assertEqual(r.rc, EXIT_OK, r)
        by_art = {e["workProduct"]["id"]: e for e in self.events("feedback")}
        self.assertEqual(by_art["art-a"]["meta"]["timeOfDay"], "night")
        self.assertEqual(by_art["art-b"]["meta"]["timeOfDay"], "afternoon")
        self.assertEqual(by_art["art-b"]["timestamp"], "2026-01-01T00:00:00.000Z")

    def test_a_review_needs_a_known_work_and_valid_scores(self):
        self.work("art-a", "v1")
        r = self.kzh("review", "nope", "--approve")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn('no recorded work product "nope"', r.err)
        r = self.kzh("review", "art-a", "--approve", "--score", "code-quality=11")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn('--score "code-quality=11": the score must be a number from 1 to 10', r.err)
        r = self.kzh("review", "art-a", "--approve", "--score", "vibes=5")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn('--score "vibes=5": must be DIMENSION=N with DIMENSION one of', r.err)
        r = self.kzh("review", "art-a", "--approve", "--reject")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        r = self.kzh("review", "--approve")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("needs the WORK_ID", r.err)
        self.assertEqual(self.events("feedback"), [])

    def test_without_a_terminal_and_a_decision_it_shows_the_work_and_records_nothing(self):
        self.work("art-a", "v1")
        r = self.kzh("review", "art-a", input="")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("art-a version v1", r.out)
        self.assertIn("a client module", r.out)
        self.assertIn("not a terminal, so nothing asked", r.err)
        self.assertEqual(self.events("feedback"), [])

    def test_a_feedback_event_without_time_to_decision_must_say_it_was_unmeasured(self):
        self.work("art-a", "v1")
        e = {"kind": "feedback", "sessionId": "s", "modalId": "m",
             "workProduct": {"id": "art-a", "version": "v1"}, "pipelineStage": "review",
             "decision": {"decision": "approved"}, "meta": {"deviceType": "desktop"}}
        r = self.record("feedback", jsonl(e))
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("meta.timeToDecisionMs", r.err)
        self.assertIn("required unless meta.unmeasured lists it", r.err)


class HonestQueue(ReviewTest):

    def test_a_newer_version_leaves_the_older_one_out_of_the_queue_undecided(self):
        self.work("art-a", "v1", timestamp="2025-07-14T09:00:00Z")
        self.work("art-b", "v1", timestamp="2025-07-14T09:30:00Z")
        self.work("art-a", "v2", timestamp="2025-07-14T10:00:00Z")
        q = self.queue()
        self.assertEqual(sorted((i["workProduct"]["id"], i["workProduct"]["version"])
                                for i in q["items"]), [("art-a", "v2"), ("art-b", "v1")])
        a = next(i for i in q["items"] if i["workProduct"]["id"] == "art-a")
        self.assertEqual(a["supersededVersions"], 1)
        self.assertIn("replaces 1 older version", a["why"])
        self.assertEqual(self.events("feedback"), [])  # no decision was made up
        kpis = self.approval()["kpis"]
        self.assertEqual(kpis["regressionRate"]["values"][-1], None)

    def test_a_dismissal_leaves_the_queue_and_moves_no_approval_figure(self):
        self.work("art-a", "v1")
        self.work("art-b", "v1")
        self.assertEqual(self.kzh("review", "art-a", "--approve", "--reviewer", "ana").rc, EXIT_OK)
        before = self.approval()
        r = self.kzh("review", "art-b", "--dismiss", "--note", "stale: the branch was dropped",
                     "--reviewer", "ana")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("dismissed art-b version v1", r.out)
        (admin,) = self.events("admin")
        self.assertEqual({k: admin[k] for k in ("action", "work_id", "work_version", "reviewerId",
                                                "note")},
                         {"action": "dismiss", "work_id": "art-b", "work_version": "v1",
                          "reviewerId": "ana", "note": "stale: the branch was dropped"})
        self.assertEqual(len(self.events("feedback")), 1)
        self.assertEqual(self.queued(), [])
        after = self.approval()
        for key in ("approvalRate", "regressionRate", "feedbackPerWeek"):
            self.assertEqual(after["kpis"][key], before["kpis"][key], key)
        self.assertEqual(after["autonomy"], before["autonomy"])
        # Nothing left to dismiss: refused, nothing recorded.
        r = self.kzh("review", "art-b", "--dismiss")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("is not in the review queue: nothing to dismiss", r.err)
        self.assertEqual(len(self.events("admin")), 1)

    def test_check_records_its_prediction_without_a_queue_item_unless_submitted(self):
        repo, _ = self.repo()
        client = os.path.join(repo, "src", "client.ts")
        with open(client, "a") as f:
            f.write("// agent: retry once\n")
        r = self.kzh("check", client, "--task-type", "api-client")
        self.assertIn(r.rc, (0, 1), r)
        self.assertIn("not in the review queue: --submit puts it there", r.out)
        self.assertEqual(self.queued(), [])
        (w,) = self.events("work")
        self.assertIs(w["forReview"], False)
        self.assertIn("+// agent: retry once", w["workProduct"]["diff"])
        # The same bytes, now submitted: the version recorded by the first check joins the queue
        # as it was recorded (its diff with it), through an admin submit.
        r = self.kzh("check", client, "--task-type", "api-client", "--submit")
        self.assertIn(r.rc, (0, 1), r)
        self.assertIn("recorded before; submitted for review now", r.out)
        (item,) = self.queue()["items"]
        self.assertEqual(item["workProduct"]["version"], w["workProduct"]["version"])
        self.assertTrue(item["diffRecorded"])
        (admin,) = self.events("admin")
        self.assertEqual((admin["action"], admin["work_version"]),
                         ("submit", w["workProduct"]["version"]))
        # Submitted again: it is in the queue already; once reviewed, it is not queued again.
        r = self.kzh("check", client, "--task-type", "api-client", "--submit")
        self.assertIn("recorded before; already in the review queue", r.out)
        self.assertEqual(len(self.events("admin")), 1)
        self.assertEqual(self.kzh("review", item["workProduct"]["id"], "--approve").rc, EXIT_OK)
        r = self.kzh("check", client, "--task-type", "api-client", "--submit")
        self.assertIn("no longer in the review queue (reviewed, dismissed or superseded)", r.out)
        self.assertEqual((self.queued(), len(self.events("admin"))), ([], 1))
        # Changed and submitted at once: a new version, which replaces the queued one.
        with open(client, "a") as f:
            f.write("// agent: and log it\n")
        r = self.kzh("check", client, "--task-type", "api-client", "--submit")
        self.assertIn("submitted for review", r.out)
        (item,) = self.queue()["items"]
        self.assertEqual(item["supersededVersions"], 0)  # the older one had been reviewed
        self.assertNotIn("forReview", self.events("work")[1])
        r = self.kzh("check", client, "--task-type", "api-client", "--submit", "--no-record")
        self.assertEqual(r.rc, EXIT_USAGE, r)


class ReviewPageDiff(ReviewTest):

    def served_work(self, art, root):
        server = Server(self.home, "--now", NOW, "--root", root)
        self.addCleanup(server.kill)
        status, _, body = server.request("GET", f"/v1/work/{art}", token=None)
        self.assertEqual(status, 200, body)
        self.assertEqual(server.stop(), 0, server.stderr)
        return body

    def test_committed_work_shows_the_agents_commit_not_the_later_fix(self):
        repo, agent = self.repo()
        wp = work_event("art-a", agent)["workProduct"]
        self.record_ok("work", work_event("art-a", agent, workProduct={**wp, "path": "src/client.ts"}))
        body = self.served_work("art-a", repo)
        self.assertTrue(body["diff"]["source"].startswith(f"commit {agent[:7]}: agent: parse"),
                        body["diff"])
        self.assertIn("+  return fetch(url).then(r => r.json());", body["diff"]["text"])
        self.assertNotIn("r.ok", body["diff"]["text"])  # the human's later fix is not shown

    def test_a_recorded_commit_range_and_a_recorded_diff_are_what_is_shown(self):
        repo, agent = self.repo()
        base = git(repo, "rev-parse", "HEAD~2")
        wp = work_event("art-r", "v1")["workProduct"]
        self.record_ok("work", work_event("art-r", "v1", workProduct={
            **wp, "path": "src/client.ts", "commit": f"{base}..{agent}"}))
        body = self.served_work("art-r", repo)
        self.assertEqual(body["diff"]["source"], f"commits {base[:7]}..{agent[:7]}")
        self.assertIn("then(r => r.json())", body["diff"]["text"])
        self.assertNotIn("r.ok", body["diff"]["text"])

    def test_a_three_dot_range_shows_the_branch_change_without_the_bases_later_commits(self):
        repo, _ = self.repo()
        git(repo, "checkout", "-q", "-b", "feature", "HEAD~2")
        with open(os.path.join(repo, "src", "retry.ts"), "w") as f:
            f.write("export const retries = 3;\n")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "agent: add retries")
        git(repo, "checkout", "-q", "main")
        wp = work_event("art-pr", "v1")["workProduct"]
        self.record_ok("work", work_event("art-pr", "v1", workProduct={
            **wp, "path": "", "commit": "main...feature"}))
        body = self.served_work("art-pr", repo)
        self.assertIn("+export const retries = 3;", body["diff"]["text"])
        self.assertNotIn("client.ts", body["diff"]["text"])  # main's own later commits

    def test_an_older_version_never_shows_todays_working_tree(self):
        repo, _ = self.repo()
        with open(os.path.join(repo, "src", "client.ts"), "a") as f:
            f.write("// uncommitted\n")
        wp = work_event("art-w", "v1")["workProduct"]
        recorded = "--- a/src/client.ts\n+++ b/src/client.ts\n@@ -1 +1 @@\n-old\n+new\n"
        self.record_ok("work", work_event("art-w", "v1", workProduct={
            **wp, "path": "src/client.ts", "diff": recorded}))
        body = self.served_work("art-w", repo)
        self.assertEqual(body["diff"], {"text": recorded, "source": "recorded with this version"})


def krippendorff_alpha(units, interval):
    """Krippendorff's alpha from its coincidence matrix, written apart from the C++ (which sums
    pairs in closed form): units are lists of values, one per reviewer."""
    units = [u for u in units if len(u) >= 2]
    coincidences = {}
    for u in units:
        for i, a in enumerate(u):
            for j, b in enumerate(u):
                if i != j:
                    coincidences[(a, b)] = coincidences.get((a, b), 0) + 1 / (len(u) - 1)
    values = sorted({a for a, _ in coincidences})
    n_c = {c: sum(coincidences.get((c, k), 0) for k in values) for c in values}
    n = sum(n_c.values())
    delta = (lambda a, b: (a - b) ** 2) if interval else (lambda a, b: 0 if a == b else 1)
    observed = sum(o * delta(a, b) for (a, b), o in coincidences.items()) / n
    expected = sum(n_c[a] * n_c[b] * delta(a, b) for a in values for b in values) / (n * (n - 1))
    return 1 - observed / expected


class SeveralReviewers(ReviewTest):

    def test_work_asking_for_two_reviews_waits_in_the_other_reviewers_queue(self):
        self.work("art-2", "v1", requiredReviews=2)
        self.work("art-1", "v1")
        mine = lambda who: [i["workProduct"]["id"] for i in strict_loads(
            self.kzh("review", "--json", "--reviewer", who).out)["items"]]
        self.assertEqual(self.kzh("review", "art-2", "--approve", "--reviewer", "ana").rc, EXIT_OK)
        self.assertEqual(mine("ana"), ["art-1"])
        self.assertEqual(sorted(mine("bo")), ["art-1", "art-2"])
        (item,) = [i for i in self.queue()["items"] if i["workProduct"]["id"] == "art-2"]
        self.assertEqual((item["requiredReviews"], item["reviewedBy"]), (2, ["ana"]))
        self.assertIn("review 2 of 2", item["why"])
        self.assertEqual(self.kzh("review", "art-2", "--reject", "--reviewer", "bo").rc, EXIT_OK)
        self.assertEqual(mine("bo"), ["art-1"])
        self.assertEqual(mine("cy"), ["art-1"])

    def test_a_reserved_item_leaves_the_other_reviewers_queue_until_released_or_expired(self):
        self.work("art-1", "v1")
        self.work("art-2", "v1")

        def mine(who, now=NOW):
            r = self.kz("review", "--json", "--reviewer", who, "--home", self.home, "--now", now)
            self.assertEqual(r.rc, EXIT_OK, r)
            return [i["workProduct"]["id"] for i in strict_loads(r.out)["items"]]

        r = self.kzh("review", "art-2", "--reserve", "--minutes", "10", "--reviewer", "ana")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("reserved art-2 version v1 for ana for 10 minutes", r.out)
        self.assertEqual(mine("bo"), ["art-1"])
        self.assertEqual(mine("ana")[0], "art-2")  # hers first: it is open on her screen
        hers = strict_loads(self.kzh("review", "--json", "--reviewer", "ana").out)["items"]
        self.assertEqual([h["reviewer"] for h in hers[0]["reservedBy"]], ["ana"])
        self.assertEqual(hers[0]["reservedBy"][0]["until"], "2026-01-01T00:10:00.000Z")
        self.assertTrue(hers[0]["why"].startswith("reserved for you"), hers[0]["why"])
        # Ten minutes later it is anyone's again; a minute before, still hers.
        self.assertEqual(mine("bo", "2026-01-01T00:09:00Z"), ["art-1"])
        self.assertEqual(sorted(mine("bo", "2026-01-01T00:10:01Z")), ["art-1", "art-2"])
        self.assertEqual(self.kzh("review", "art-2", "--release", "--reviewer", "ana").rc, EXIT_OK)
        self.assertEqual(sorted(mine("bo")), ["art-1", "art-2"])
        # A decision ends it too; a reservation with a decision is a usage error.
        self.assertEqual(self.kzh("review", "art-1", "--reserve", "--reviewer", "bo").rc, EXIT_OK)
        self.assertEqual(mine("ana"), ["art-2"])
        self.assertEqual(self.kzh("review", "art-1", "--reserve", "--approve").rc, EXIT_USAGE)
        self.assertEqual(self.kzh("review", "art-1", "--approve", "--reviewer", "bo").rc, EXIT_OK)
        self.assertEqual(mine("ana"), ["art-2"])
        admin = [(e["action"], e["reviewerId"]) for e in self.events("admin")]
        self.assertEqual(admin, [("reserve", "ana"), ("release", "ana"), ("reserve", "bo")])

    def test_agreement_of_reviewers_who_judged_the_same_items_from_the_terminal(self):
        decisions = {"ana": "AARARAAAAR" "A", "bo": "AARRRAAAAR" "A", "cy": "AAR-RAARA-" "-"}
        quality = {"ana": [8, 7, 3, 9, 4, 8, 8, 7, 9, 2, 8], "bo": [7, 7, 4, 5, 3, 8, 9, 6, 9, 3, 8],
                   "cy": [8, 6, 2, None, 4, 9, 7, 3, 8, None, None]}
        flag = {"A": "--approve", "R": "--reject"}
        for i in range(11):
            self.work(f"item-{i}", "v1")
        for who, ds in decisions.items():
            for i, d in enumerate(ds):
                if d == "-":
                    continue
                args = ["review", f"item-{i}", flag[d], "--reviewer", who]
                if quality[who][i] is not None:
                    args += ["--score", f"code-quality={quality[who][i]}"]
                self.assertEqual(self.kzh(*args).rc, EXIT_OK)
        a = self.approval()["agreement"]
        units_d = [[{"A": 0, "R": 1}[decisions[w][i]] for w in decisions if decisions[w][i] != "-"]
                   for i in range(11)]
        units_q = [[quality[w][i] for w in quality if quality[w][i] is not None] for i in range(11)]
        self.assertEqual((a["decisions"]["items"], a["decisions"]["reviewers"],
                          a["decisions"]["values"]), (11, 3, 30))
        self.assertAlmostEqual(a["decisions"]["alpha"], krippendorff_alpha(units_d, False), 6)
        self.assertAlmostEqual(a["dimensions"]["code-quality"]["alpha"],
                               krippendorff_alpha(units_q, True), 6)
        # Approved by one, rejected by another: questions for the next review, newest first
        # (every review here was taken at the same --now: then by id).
        self.assertEqual([c["workProduct"]["id"] for c in a["clarifications"]],
                         ["item-3", "item-7"])
        self.assertEqual(a["clarifications"][0]["decisions"],
                         {"ana": "approved", "bo": "rejected"})
        # ana: agrees with bo on 10 of 11, with cy on 7 of 8 shared items.
        self.assertAlmostEqual(a["reviewers"]["ana"]["decisionAgreement"], 17 / 19, 6)


class OneKeyPrompt(ReviewTest):

    def on_terminal(self, keys_after_prompt, *args):
        """Runs `kaizen review ARGS` on a pseudo-terminal, answering each prompt (a marker it
        waits for) with its keys; returns (exit status, what the terminal showed)."""
        rc, shown, restored = on_terminal(
            [BIN, "review", *args, "--home", self.home, "--now", NOW], keys_after_prompt,
            cwd=self.tmp)
        self.assertTrue(restored, "the terminal was not restored")
        return rc, shown

    def test_one_key_per_answer_records_a_timed_review_of_what_was_shown(self):
        recorded = "--- a/src/client.ts\n+++ b/src/client.ts\n@@ -1 +1 @@\n-old\n+new call\n"
        wp = work_event("art-a", "v1")["workProduct"]
        self.record_ok("work", work_event("art-a", "v1", workProduct={**wp, "diff": recorded}))
        rc, shown = self.on_terminal([(b"q quit: ", b"r"), (b"(Enter skips): ", b"3"),
                                      (b"what is wrong?", b"no error handling\r")],
                                     "art-a", "--reviewer", "ana")
        self.assertEqual(rc, EXIT_OK, shown)
        (e,) = self.events("feedback")
        self.assertEqual(e["decision"], {"decision": "rejected", "reason": "no error handling"})
        self.assertEqual(e["confidence"]["level"], "fairly-sure")
        self.assertEqual(e["meta"]["presentationFormat"], "diff-summary")
        self.assertGreaterEqual(e["meta"]["timeToDecisionMs"], 0)
        self.assertNotIn("unmeasured", e["meta"])
        self.assertEqual(e["meta"]["fieldsModified"], ["decision", "confidence", "reason"])
        self.assertEqual(self.queued(), [])

    def test_the_whole_queue_in_order_and_q_stops_without_recording(self):
        self.work("art-a", "v1", priority="urgent")
        self.work("art-b", "v1")
        rc, shown = self.on_terminal([(b"q quit: ", b"a"), (b"(Enter skips): ", b"\r"),
                                      (b"a note?", b"\r"), (b"q quit: ", b"q")],
                                     "--next", "--reviewer", "ana")
        self.assertEqual(rc, EXIT_OK, shown)
        self.assertIn("1 recorded, 1 left in the queue", shown)
        (e,) = self.events("feedback")
        self.assertEqual(e["workProduct"]["id"], "art-a")  # urgent first
        self.assertEqual(self.queued(), [("art-b", "v1")])


if __name__ == "__main__":
    unittest.main()
