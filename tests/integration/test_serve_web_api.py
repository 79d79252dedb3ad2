"""`kaizen serve`'s routes behind the web app: the pages and assets (with their security
headers), the review queue and its order, a work product's file and git diff (never outside
--root), the weekly KPIs, the reviewers and the correction patterns.

The browser tests (test_web_review.py, test_web_dashboard.py) drive the same routes through the
pages; this file pins the API contract those pages rely on.
"""

import json
import os
import subprocess
import unittest

from kzlib import KaizenTest, feedback_event, work_event
from test_serve import TOKEN, Server


def git(repo, *args):
    subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                   env={**os.environ, "GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@x",
                        "GIT_COMMITTER_NAME": "Ada", "GIT_COMMITTER_EMAIL": "ada@x"})


class WebApiTest(KaizenTest):

    def serve(self, *flags):
        s = Server(self.home, *flags, token=TOKEN)
        self.addCleanup(s.kill)
        return s

    def assert_error_body(self, body, code):
        self.assertEqual(set(body["error"]), {"code", "message", "errors"}, body)
        self.assertEqual(body["error"]["code"], code, body)

    def work(self, art, version="v1", **extra):
        e = work_event(art, version, **extra)
        self.record_ok("work", e)
        return e

    def test_the_pages_and_assets_are_served_from_the_binary_with_security_headers(self):
        s = self.serve()
        status, headers, body = s.request("GET", "/", token=None)
        self.assertEqual(status, 200)
        self.assertTrue(headers["content-type"].startswith("text/html"), headers)
        self.assertIn('<script type="module" src="/assets/app.js">', body)
        self.assertIn("default-src 'self'", headers["content-security-policy"])
        self.assertEqual(headers["x-content-type-options"], "nosniff")
        status, headers, body = s.request("GET", "/assets/app.js", token=None)
        self.assertEqual(status, 200)
        self.assertTrue(headers["content-type"].startswith("text/javascript"), headers)
        self.assertIn("import", body)
        status, _, body = s.request("GET", "/assets/nope.js", token=None)
        self.assertEqual(status, 404)
        self.assert_error_body(body, "not_found")
        status, headers, _ = s.request("POST", "/", body={}, token=None)
        self.assertEqual(status, 405)
        self.assertEqual(headers["allow"], "GET")

    def test_the_queue_holds_undecided_work_urgent_first_and_drops_decided_work(self):
        self.work("art-normal", priority="normal")
        self.work("art-urgent", priority="urgent")
        self.work("art-done")
        self.work("art-later", priority="low")
        self.work("art-deferred")
        self.record_ok("feedback", feedback_event({"id": "art-done", "version": "v1"}))
        self.record_ok("feedback", feedback_event(
            {"id": "art-deferred", "version": "v1"}, decision={"decision": "deferred"}))
        s = self.serve()
        status, _, q = s.request("GET", "/v1/queue?reviewer=jake", token=None)
        self.assertEqual(status, 200, q)
        ids = [i["workProduct"]["id"] for i in q["items"]]
        self.assertEqual(ids, ["art-urgent", "art-normal", "art-deferred", "art-later"])
        self.assertEqual(q["total"], 4)
        deferred = q["items"][2]
        self.assertEqual(deferred["deferrals"], 1)
        self.assertIn("deferred 1x", deferred["why"])
        first = q["items"][0]
        self.assertEqual(first["priority"], "urgent")
        self.assertEqual(first["autonomy"], {"level": 0, "reviewRate": 1.0, "class": "escalate"})
        self.assertEqual(first["versions"], ["v1"])
        self.assertEqual(first["workProduct"]["path"], "src/client.ts")
        self.assertIn(q["timeOfDay"], ["morning", "afternoon", "evening", "night"])
        self.assertEqual(q["breakAfter"], 5)
        self.assertIn("5 items", q["breakSuggestion"])

        # A review through the API takes the item out at once (read your writes).
        status, _, body = s.request("POST", "/v1/feedback", body=feedback_event(
            {"id": "art-urgent", "version": "v1"}))
        self.assertEqual(status, 201, body)
        _, _, q = s.request("GET", "/v1/queue", token=None)
        self.assertNotIn("art-urgent", [i["workProduct"]["id"] for i in q["items"]])

    def test_the_queue_refuses_unknown_parameters(self):
        s = self.serve()
        status, _, body = s.request("GET", "/v1/queue?reviwer=jake", token=None)
        self.assertEqual(status, 400)
        self.assertEqual(body["error"]["errors"][0]["path"], "query.reviwer")

    def test_work_that_recorded_no_change_never_shows_a_commit_it_did_not_make(self):
        repo = self.path("repo")
        os.makedirs(os.path.join(repo, "src"))
        with open(os.path.join(repo, "src", "client.ts"), "w") as f:
            f.write("export const a = 1;\nexport const b = 2;\n")
        git(repo, "init", "-q")
        git(repo, "add", ".")
        git(repo, "commit", "-q", "-m", "first client")
        self.work("art-1")
        s = self.serve("--root", repo)
        # Clean tree, and the work recorded neither a commit nor a diff: no diff at all (the last
        # commit that touched the file may be anyone's), and the page says why.
        _, _, w = s.request("GET", "/v1/work/art-1?version=v1", token=None)
        self.assertEqual(w["file"]["text"], "export const a = 1;\nexport const b = 2;\n")
        self.assertFalse(w["file"]["truncated"])
        self.assertIsNone(w["diff"])
        self.assertIn("this version recorded no change", w["unavailable"])
        self.assertIn("no uncommitted change", w["unavailable"])
        # An uncommitted edit, and this is the artifact's newest version: the working tree, said
        # to be today's rather than the version's.
        with open(os.path.join(repo, "src", "client.ts"), "w") as f:
            f.write("export const a = 1;\nexport const b = 3;\n")
        _, _, w = s.request("GET", "/v1/work/art-1", token=None)
        self.assertEqual(w["diff"]["source"], "working tree now (this version recorded no change)")
        self.assertIn("-export const b = 2;\n+export const b = 3;", w["diff"]["text"])
        self.assertEqual(w["workProduct"]["summary"], "a client module")

    def test_a_work_product_path_outside_the_root_is_not_read(self):
        root = self.path("root")
        os.makedirs(root)
        secret = self.write("secret.txt", "do not show\n")
        wp_event = work_event("art-escape")
        wp_event["workProduct"]["path"] = "../secret.txt"
        self.record_ok("work", wp_event)
        abs_event = work_event("art-abs")
        abs_event["workProduct"]["path"] = secret
        self.record_ok("work", abs_event)
        s = self.serve("--root", root)
        for art in ["art-escape", "art-abs"]:
            status, _, w = s.request("GET", f"/v1/work/{art}", token=None)
            self.assertEqual(status, 200, w)
            self.assertIsNone(w["file"])
            self.assertIsNone(w["diff"])
            self.assertIn("outside the serve root", w["unavailable"])

    def test_an_unknown_work_product_is_404(self):
        s = self.serve()
        status, _, body = s.request("GET", "/v1/work/nope?version=v9", token=None)
        self.assertEqual(status, 404)
        self.assertIn("no recorded work product nope version v9", body["error"]["message"])

    def test_weekly_kpis_give_thirteen_windows_by_default_and_check_their_parameters(self):
        self.work("art-k")
        self.record_ok("feedback", feedback_event({"id": "art-k", "version": "v1"}))
        s = self.serve("--now", "2025-07-12T00:00:00Z")
        _, _, k = s.request("GET", "/v1/kpis", token=None)
        self.assertEqual(k["windowDays"], 7)
        self.assertEqual(len(k["kpis"]["windows"]), 13)
        self.assertEqual(k["kpis"]["windows"][-1], {"from": "2025-07-06", "to": "2025-07-12"})
        self.assertEqual(k["kpis"]["approvalRate"]["values"][-1], 1.0)
        self.assertIsNone(k["kpis"]["approvalRate"]["values"][0])  # no data: null, not 0
        _, _, k = s.request("GET", "/v1/kpis?windowDays=30&windows=3", token=None)
        self.assertEqual(len(k["kpis"]["windows"]), 3)
        status, _, body = s.request("GET", "/v1/kpis?windowDays=0", token=None)
        self.assertEqual(status, 400)
        self.assertEqual(body["error"]["errors"][0]["path"], "query.windowDays")
        self.assertIn('"0" is not a whole number in 1..366', body["error"]["errors"][0]["message"])

    def test_reviewers_and_corrections_answer_what_the_cli_says(self):
        self.work("art-r")
        self.record_ok("feedback", feedback_event({"id": "art-r", "version": "v1"},
                                                  reviewerId="maria"))
        s = self.serve()
        _, _, r = s.request("GET", "/v1/reviewers", token=None)
        self.assertEqual([p["reviewerId"] for p in r["reviewers"]], ["maria"])
        self.assertEqual(r["reviewers"][0]["reviews"], 1)
        self.assertEqual(r["reviewers"][0]["approvalRate"], 1.0)
        _, _, c = s.request("GET", "/v1/corrections", token=None)
        cli = self.kz("corrections", "--json", "--home", self.home, "--now", "2026-01-01T00:00:00Z")
        self.assertEqual(c, json.loads(cli.out))


if __name__ == "__main__":
    unittest.main()
