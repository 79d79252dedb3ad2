"""`kaizen check`: the pre-review self-check gate (seed 000 §6.1, §6.2; issue 4 item 5).

Reviews that keep rejecting missing retries make `rule-retries` an active rule; `kaizen check`
then flags a file that calls fetch without retries (exit 1), passes the fixed file (exit 0),
records each prediction as a `work` event, and the review of that work closes the calibration
loop. Also: config errors, external commands (failure, timeout, missing program), the file walk.
"""

import os
import time
import unittest

from kzlib import (EXIT_OK, EXIT_REJECTED, EXIT_USAGE, NOW, KaizenTest, feedback_event, jsonl,
                   strict_loads)

TASK = "api-client"
COMPLAINT = "no retries on the fetch calls, add exponential backoff"

UNSAFE_CLIENT = """/** Loads a user. */
export async function getUser(id: string): Promise<User> {
  const res = await fetch(`/users/${id}`);
  return res.json();
}
"""
FIXED_CLIENT = """import { retry } from "./retry";

/** Loads a user, retrying transient failures with exponential backoff. */
export async function getUser(id: string): Promise<User> {
  const res = await retry(() => fetch(`/users/${id}`), { attempts: 3, backoff: "exponential" });
  return res.json();
}
"""


def rejection(day):
    """A rejected review of api-client work on 2025-12-<day> about missing retries."""
    return feedback_event(
        timestamp=f"2025-12-{day:02d}T10:00:00Z", mcpServerType=TASK,
        decision={"decision": "rejected", "reason": COMPLAINT, "severity": "major"},
        freeText={"disliked": COMPLAINT},
        scores=[{"dimension": "error-handling", "score": 3}])


class CheckTest(KaizenTest):

    def import_events(self, *events):
        r = self.kz("import", "-", "--home", self.home, "--now", NOW, input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)

    def retry_history(self):
        # 10 rejections over 10 days: 5+ points over 3+ days and a confidence above 0.8, so
        # `retries` is an active rule (seed 000 §8.1, §9.3).
        self.import_events(*[rejection(d) for d in range(1, 11)])

    def check(self, *args):
        return self.kz("check", *args, "--home", self.home, "--now", NOW)

    def check_json(self, *args):
        r = self.check(*args, "--json")
        self.assertIn(r.rc, (EXIT_OK, EXIT_REJECTED), r)
        return r.rc, strict_loads(r.out_bytes)

    def write_checks(self, text):
        os.makedirs(self.hpath("config"), exist_ok=True)
        with open(self.hpath("config", "checks.json"), "w") as f:
            f.write(text)

    def calibration(self):
        r = self.kz("analyze", "--json", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        return strict_loads(r.out_bytes)["calibration"]

    def work_events(self):
        return [e for e in self.stored_events() if e["kind"] == "work"]

    # ---- the whole story -----------------------------------------------------------------------

    def test_flags_missing_retries_passes_the_fix_and_the_review_closes_the_loop(self):
        self.retry_history()
        client = self.write("client.ts", UNSAFE_CLIENT)

        rc, bad = self.check_json(client, "--task-type", TASK)
        self.assertEqual(rc, EXIT_REJECTED, bad)
        self.assertFalse(bad["readyForReview"])
        self.assertEqual([v["rule"] for v in bad["violations"]], ["rule-retries"], bad)
        v = bad["violations"][0]
        self.assertEqual(v["findings"], [{"location": client,
                                          "detail": "makes network calls but has no retry or "
                                                    "backoff"}])
        self.assertIn("backoff", v["suggestion"])
        self.assertIn("rule-retries", bad["rulesChecked"])
        self.assertEqual(bad["addressedReviews"], 0)
        self.assertLess(bad["confidence"], 0.60)
        self.assertEqual(bad["decidedBy"], "violation")

        client = self.write("client.ts", FIXED_CLIENT)
        rc, good = self.check_json(client, "--task-type", TASK)
        self.assertEqual(rc, EXIT_OK, good)
        self.assertTrue(good["passed"] and good["readyForReview"], good)
        self.assertEqual(good["violations"], [])
        self.assertEqual(good["addressedReviews"], 10)
        self.assertGreaterEqual(good["confidence"], 0.60)
        self.assertEqual(good["decidedBy"], "ready")
        self.assertGreaterEqual(good["score"], 6.5)
        self.assertEqual(good["artifactId"], bad["artifactId"])  # same paths: same artifact
        self.assertNotEqual(good["version"], bad["version"])     # new bytes: new version

        work = self.work_events()
        self.assertEqual([w["id"] for w in work], [bad["workEventId"], good["workEventId"]])
        wp = work[1]["workProduct"]
        self.assertEqual((wp["id"], wp["version"], wp["type"]),
                         (good["artifactId"], good["version"], "code-module"))
        self.assertEqual(work[1]["mcpServerType"], TASK)
        self.assertAlmostEqual(wp["bubaConfidence"], good["confidence"], places=6)
        self.assertAlmostEqual(wp["bubaScorePrediction"], good["score"], places=6)

        # The reviewer approves the fixed version: its prediction meets its outcome (§6.2).
        before = self.calibration()
        review = feedback_event(timestamp="2026-01-01T00:30:00Z", mcpServerType=TASK,
                                workProduct={"id": good["artifactId"]},
                                decision={"decision": "approved", "reason": "retries are right"},
                                scores=[{"dimension": "error-handling", "score": 8}])
        self.import_events(review)
        after = self.calibration()
        self.assertEqual(after["n"], before["n"] + 1, after)
        self.assertEqual(after["scorePrediction"]["n"], before["scorePrediction"]["n"] + 1)
        # The check's confidence lands in its own bucket (the history's inline work products
        # all said 0.5), now holding one approved prediction.
        bucket = after["buckets"][min(int(good["confidence"] * 10), 9)]
        self.assertNotEqual(bucket["lower"], 0.5, after)
        self.assertEqual((bucket["n"], bucket["actualRate"]), (1, 1), after)

    def test_text_output_lists_the_violation_its_fix_and_the_artifact(self):
        self.retry_history()
        client = self.write("client.ts", UNSAFE_CLIENT)
        r = self.check(client, "--task-type", TASK, "--artifact-id", "user-client")
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("FAIL rule-retries [major]", r.out)
        self.assertIn(f"{client}: makes network calls but has no retry or backoff", r.out)
        self.assertIn("fix (auto-fixable): Wrap each external call", r.out)
        self.assertIn("self-review needed: a major or critical rule is violated", r.out)
        self.assertIn("artifact user-client version ", r.out)
        self.assertIn("recorded as work event ", r.out)
        self.assertEqual(self.work_events()[0]["workProduct"]["id"], "user-client")

    def test_no_record_leaves_the_log_alone(self):
        self.retry_history()
        before = self.raw_bytes()
        rc, out = self.check_json(self.write("client.ts", UNSAFE_CLIENT), "--task-type", TASK,
                                  "--no-record")
        self.assertEqual(rc, EXIT_REJECTED)
        self.assertIsNone(out["workEventId"])
        self.assertEqual(self.raw_bytes(), before)

    def test_checking_the_same_bytes_again_keeps_the_first_prediction(self):
        self.retry_history()
        client = self.write("client.ts", FIXED_CLIENT)
        rc1, first = self.check_json(client, "--task-type", TASK)
        rc2, second = self.check_json(client, "--task-type", TASK)
        self.assertEqual((rc1, rc2), (EXIT_OK, EXIT_OK))
        self.assertIsNotNone(first["workEventId"])
        self.assertIsNone(second["workEventId"])
        self.assertIn("already recorded", second["recordNote"])
        self.assertEqual(len(self.work_events()), 1)

    def test_empty_home_has_nothing_to_check_and_uses_the_priors(self):
        rc, out = self.check_json(self.write("client.ts", UNSAFE_CLIENT), "--task-type", TASK)
        self.assertEqual(rc, EXIT_OK, out)
        self.assertEqual((out["violations"], out["rulesChecked"]), ([], []))
        self.assertEqual((out["score"], out["confidence"]), (7, 0.7))

    # ---- A/B (seed 000 §6.4) ----------------------------------------------------------------

    def test_two_approaches_ask_for_an_ab_comparison_and_the_queue_presents_the_pair(self):
        first = self.write("client.ts", FIXED_CLIENT)
        rc, out = self.check_json(first, "--task-type", TASK, "--approaches", "2", "--submit")
        self.assertEqual(rc, EXIT_OK, out)
        self.assertTrue(out["compare"]["compare"], out["compare"])
        self.assertEqual(out["compare"]["reasons"], ["2 valid approaches"])
        r = self.check(self.write("other.ts", UNSAFE_CLIENT), "--task-type", TASK,
                       "--approaches", "2", "--no-record")
        self.assertIn("compare: make a second version and present both for review (seed 000 "
                      "§6.4: 2 valid approaches); check it with --compare-with ", r.out)
        # The second version, made as the alternative to the first, names it; the queue item
        # carries it to the review (the web page opens the A/B comparison with it).
        self.write("client.ts", FIXED_CLIENT + "// the other approach\n")
        rc, second = self.check_json(first, "--task-type", TASK, "--submit", "--compare-with",
                                     out["version"])
        self.assertEqual(rc, EXIT_OK, second)
        [work] = [w for w in self.work_events() if w["workProduct"]["version"] == second["version"]]
        self.assertEqual(work["compareWith"], out["version"])
        r = self.kz("review", "--json", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        [item] = strict_loads(r.out)["items"]
        self.assertEqual(item["compareWith"], out["version"])
        self.assertIn(out["version"], item["versions"])

    def test_one_sure_approach_on_an_undivided_task_type_needs_no_comparison(self):
        self.retry_history()  # 10 rejections: one-sided, not mixed
        rc, out = self.check_json(self.write("client.ts", FIXED_CLIENT), "--task-type", TASK)
        self.assertFalse(out["compare"]["triggers"]["mixedPreferences"])
        self.assertFalse(out["compare"]["triggers"]["severalApproaches"])
        self.assertEqual(out["compare"]["taskType"], {"approved": 0, "decided": 10})

    # ---- the file walk -------------------------------------------------------------------------

    def test_directory_walk_skips_dependencies_and_globs_relative_paths(self):
        self.retry_history()
        os.makedirs(self.path("proj", "src"))
        os.makedirs(self.path("proj", "node_modules", "lib"))
        self.write("proj/src/client.ts", UNSAFE_CLIENT)
        self.write("proj/src/ok.ts", FIXED_CLIENT)
        self.write("proj/node_modules/lib/index.ts", UNSAFE_CLIENT)
        self.write("proj/logo.png", b"\x89PNG\r\n\x1a\n\x00\x00")
        self.write_checks('{"checks":[{"rule":"rule-retries","glob":"src/**/*.ts",'
                          '"when":"fetch\\\\(","require":"retry"}]}')
        rc, out = self.check_json(self.path("proj"), "--task-type", TASK)
        self.assertEqual(rc, EXIT_REJECTED, out)
        self.assertEqual(out["files"], [self.path("proj", "src", "client.ts"),
                                        self.path("proj", "src", "ok.ts")])
        self.assertEqual(out["skipped"], [{"path": self.path("proj", "logo.png"),
                                           "why": "binary"}])
        findings = out["violations"][0]["findings"]
        self.assertEqual(findings, [{"location": self.path("proj", "src", "client.ts"),
                                     "detail": "nothing matches /retry/"}])

    def test_a_glob_with_many_stars_on_a_long_file_name_finishes(self):
        # The backtracking glob matcher before RE2 needed hours for this one file (issue 4 item 5:
        # the gate must not hang on a user's checks.json).
        self.retry_history()
        os.makedirs(self.path("proj"))
        name = "a" * 120 + ".ts"
        self.write(f"proj/{name}", UNSAFE_CLIENT)
        self.write_checks('{"checks":[{"rule":"rule-retries","glob":"*a*a*a*a*a*a*a*a*a*a*b.ts",'
                          '"when":"fetch\\\\(","require":"retry"},'
                          '{"rule":"rule-retries","glob":"*a*a*a*a*a*a*a*a*a*a*.ts",'
                          '"when":"fetch\\\\(","require":"retry"}]}')
        rc, out = self.check_json(self.path("proj"), "--task-type", TASK)
        self.assertEqual(rc, EXIT_REJECTED, out)
        self.assertEqual(out["violations"][0]["findings"],
                         [{"location": self.path("proj", name), "detail": "nothing matches /retry/"}])

    def test_missing_path_or_task_type_is_a_usage_error(self):
        r = self.check(self.path("nope.ts"), "--task-type", TASK)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("nope.ts", r.err)
        self.assertIn("no such file or directory", r.err)
        r = self.check(self.write("a.ts", "x"))
        self.assertEqual(r.rc, EXIT_USAGE, r)
        r = self.check(self.write("a.ts", "x"), "--task-type", TASK, "--type", "code")
        self.assertEqual(r.rc, EXIT_USAGE, r)

    # ---- config --------------------------------------------------------------------------------

    def test_invalid_regex_names_the_file_path_value_and_rule(self):
        self.write_checks('{"checks":[{"rule":"rule-retries","forbid":"retry"},'
                          '{"rule":"rule-types","glob":"**/*.ts","forbid":"("}]}')
        r = self.check(self.write("a.ts", "x"), "--task-type", TASK)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn('checks.json: checks[1].forbid: "(" is not a valid regex (rule rule-types): '
                      'missing )', r.err)
        self.assertEqual(self.work_events(), [])

    def test_two_kinds_in_one_spec_is_refused(self):
        self.write_checks('{"checks":[{"rule":"r","require":"a","command":["true"]}]}')
        r = self.check(self.write("a.ts", "x"), "--task-type", TASK)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("checks[0]: has more than one of require, forbid, command", r.err)

    def test_confidence_threshold_comes_from_the_config(self):
        self.write_checks('{"check":{"confidence_threshold":0.9},"checks":[]}')
        rc, out = self.check_json(self.write("a.ts", "x"), "--task-type", TASK)
        self.assertEqual(rc, EXIT_REJECTED, out)
        self.assertEqual(out["decidedBy"], "second_pass_due")
        self.assertEqual(out["reasons"],
                         ["second self-review pass due (calibrated confidence 0.70 < 0.90)"])

    # ---- the second self-review pass (seed 000 §3.1) -------------------------------------------

    def test_clean_code_with_low_confidence_gets_one_second_pass_then_goes_through(self):
        # Three rejections about retries: not yet an active rule, so nothing checks them away,
        # and the clean client's confidence rests on a history of rejections alone.
        self.import_events(*[rejection(d) for d in range(1, 4)])
        client = self.write("client.ts", FIXED_CLIENT)
        rc, first = self.check_json(client, "--task-type", TASK)
        self.assertEqual(rc, EXIT_REJECTED, first)
        self.assertEqual(first["violations"], [])
        self.assertTrue(first["passed"])
        self.assertLess(first["confidence"], 0.60)
        self.assertEqual(first["decidedBy"], "second_pass_due")
        self.assertFalse(first["checkedBefore"])
        self.assertEqual(len(first["reasons"]), 1)
        self.assertTrue(first["reasons"][0].startswith(
            f"second self-review pass due (calibrated confidence {first['confidence']:.2f} < 0.60"),
            first["reasons"])
        self.assertIsNotNone(first["workEventId"])

        # The agent reviewed its work once more and changed nothing: the same bytes go through.
        r = self.check(client, "--task-type", TASK)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("ready for review: second self-review pass done on this version "
                      f"(calibrated confidence {first['confidence']:.2f} < 0.60", r.out)
        rc, again = self.check_json(client, "--task-type", TASK)
        self.assertEqual(rc, EXIT_OK, again)
        self.assertEqual((again["decidedBy"], again["checkedBefore"], again["readyForReview"]),
                         ("second_pass_done", True, True))
        self.assertEqual(again["reasons"], [])
        self.assertEqual(again["triggers"], first["triggers"])
        self.assertIn("already recorded", again["recordNote"])
        # The prediction the review will calibrate is the first check's, recorded once.
        work = self.work_events()
        self.assertEqual([w["id"] for w in work], [first["workEventId"]])
        self.assertAlmostEqual(work[0]["workProduct"]["bubaConfidence"], first["confidence"],
                               places=6)

        # A changed version gets its own first pass.
        changed = self.write("client.ts", FIXED_CLIENT + "\n// reviewed twice\n")
        rc, third = self.check_json(changed, "--task-type", TASK)
        self.assertEqual(rc, EXIT_REJECTED, third)
        self.assertEqual(third["decidedBy"], "second_pass_due")
        self.assertNotEqual(third["version"], first["version"])

    def test_a_violation_decides_even_on_a_version_checked_before(self):
        self.retry_history()
        client = self.write("client.ts", UNSAFE_CLIENT)
        for _ in range(2):
            rc, out = self.check_json(client, "--task-type", TASK)
            self.assertEqual(rc, EXIT_REJECTED, out)
            self.assertEqual(out["decidedBy"], "violation")
        self.assertTrue(out["checkedBefore"])

    def test_a_preview_does_not_count_as_the_first_pass(self):
        self.import_events(*[rejection(d) for d in range(1, 4)])
        client = self.write("client.ts", FIXED_CLIENT)
        rc, preview = self.check_json(client, "--task-type", TASK, "--no-record")
        self.assertEqual((rc, preview["decidedBy"]), (EXIT_REJECTED, "second_pass_due"))
        rc, first = self.check_json(client, "--task-type", TASK)
        self.assertEqual((rc, first["decidedBy"]), (EXIT_REJECTED, "second_pass_due"))

    def test_default_confidence_threshold_is_sixty_percent(self):
        # seed 000 §3.1 "< 60%"; 0.65 (§6.4, the A/B trigger) was the default before.
        self.write_checks('{"check":{"prior_confidence":0.62},"checks":[]}')
        rc, out = self.check_json(self.write("a.ts", "x"), "--task-type", TASK, "--no-record")
        self.assertEqual((rc, out["confidence"], out["decidedBy"]), (EXIT_OK, 0.62, "ready"))
        self.write_checks('{"check":{"prior_confidence":0.58},"checks":[]}')
        rc, out = self.check_json(self.write("a.ts", "x"), "--task-type", TASK, "--no-record")
        self.assertEqual((rc, out["decidedBy"]), (EXIT_REJECTED, "second_pass_due"))
        self.assertEqual(out["triggers"], ["calibrated confidence 0.58 < 0.60"])

    # ---- external commands ---------------------------------------------------------------------

    def test_failing_command_is_a_violation_with_its_output(self):
        self.retry_history()
        self.write_checks('{"checks":[{"rule":"rule-retries",'
                          '"command":["sh","-c","echo \\"$# files\\"; exit 4","sh"]}]}')
        rc, out = self.check_json(self.write("a.ts", "x"), "--task-type", TASK)
        self.assertEqual(rc, EXIT_REJECTED, out)
        detail = out["violations"][0]["findings"][0]["detail"]
        self.assertIn("exited with 4", detail)
        self.assertIn("1 files", detail)  # the checked file was appended to argv

    def test_command_past_its_timeout_is_killed(self):
        self.retry_history()
        self.write_checks('{"check":{"timeout_seconds":0.5},'
                          '"checks":[{"rule":"rule-retries","command":["sh","-c","sleep 30","sh"]}]}')
        start = time.monotonic()
        rc, out = self.check_json(self.write("a.ts", "x"), "--task-type", TASK)
        self.assertLess(time.monotonic() - start, 10)
        self.assertEqual(rc, EXIT_REJECTED, out)
        self.assertIn("did not finish within 0.5 s and was killed",
                      out["violations"][0]["findings"][0]["detail"])

    def test_missing_program_is_reported_not_crashed(self):
        self.retry_history()
        self.write_checks('{"checks":[{"rule":"rule-retries","command":["kaizen-no-such-tool"]}]}')
        rc, out = self.check_json(self.write("a.ts", "x"), "--task-type", TASK)
        self.assertEqual(rc, EXIT_REJECTED, out)
        self.assertIn('could not run: "kaizen-no-such-tool": No such file or directory',
                      out["violations"][0]["findings"][0]["detail"])


if __name__ == "__main__":
    unittest.main()
