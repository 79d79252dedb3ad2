"""Reviews from the terminal seen on the dashboard, and a dismissal that moves no figure (issue 29),
in Debian's Chromium through playwright-core (tests/js/web_terminal_review.mjs).

Fails (does not skip) when node, playwright-core or Chromium is missing.
"""

import json
import os
import shutil
import subprocess
import unittest

from kzlib import EXIT_OK, NOW, REPO, KaizenTest, strict_loads, work_event
from test_serve import TOKEN, Server

JS_DIR = os.path.join(REPO, "tests", "js")
DRIVER = os.path.join(JS_DIR, "web_terminal_review.mjs")
PLAYWRIGHT = os.path.join(JS_DIR, "node_modules", "playwright-core", "package.json")
CHROMIUM = "/usr/bin/chromium"
SHOTS = os.path.join(REPO, "build", "screenshots", "terminal-review")


class TerminalReviewInTheBrowser(KaizenTest):

    def kzh(self, *args):
        r = self.kz(*args, "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def test_terminal_reviews_show_on_the_dashboard_and_a_dismissal_moves_no_figure(self):
        node = shutil.which("node")
        self.assertIsNotNone(node, "node is not installed: `make js-deps` installs it")
        self.assertTrue(os.path.exists(PLAYWRIGHT), "run `make js-deps`")
        self.assertTrue(os.access(CHROMIUM, os.X_OK), f"no Chromium at {CHROMIUM}")
        for art in ("client", "webhook", "stale"):
            self.record_ok("work", work_event(art, "v1", prediction=6.616733,
                                              timestamp="2025-12-31T09:00:00Z"))
        self.kzh("review", "client", "--approve", "--score", "code-quality=8", "--reviewer", "ana")
        self.kzh("review", "webhook", "--reject", "--reason", "no signature check",
                 "--reviewer", "ana")
        analysis = strict_loads(self.kzh("analyze", "--json").out)
        self.assertEqual(analysis["kpis"]["approvalRate"]["values"][-1], 0.5)

        plan = self.write("plan.json", json.dumps({
            "reviewer": "ana", "dismiss": {"id": "stale", "version": "v1"},
            "note": "superseded by the webhook rewrite"}))
        server = Server(self.home, "--now", NOW)
        self.addCleanup(server.kill)
        url = f"http://127.0.0.1:{server.port}"
        proc = subprocess.run([node, DRIVER, url, TOKEN, SHOTS, plan], capture_output=True,
                              timeout=120, cwd=JS_DIR)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        facts = json.loads(proc.stdout.decode().strip().split("\n")[-1])
        self.assertNotIn("failure", facts, proc.stderr.decode())
        self.assertEqual(facts["pageErrors"], [])
        self.assertEqual(facts["consoleErrors"], [])
        self.assertEqual(server.stop(), 0, server.stderr)

        # The two terminal reviews are on the dashboard: one approval in two decisions.
        self.assertEqual(facts["before"]["approvalRate"], "50.0%")
        # The queue showed the one undecided item with how long it waited, then let it go.
        self.assertEqual(facts["queueBefore"], ["stale@v1"])
        self.assertIn("Waiting", facts["waitingShown"])
        self.assertIn("6.6", facts["waitingShown"])  # a predicted score, one decimal
        self.assertNotIn("6.616733", facts["waitingShown"])
        self.assertEqual(facts["queueAfter"], [])
        # The dismissal is an admin event, not a decision: no dashboard figure moved.
        self.assertEqual(facts["after"], facts["before"])
        (admin,) = [strict_loads(l) for l in self.export("--kind", "admin").lines]
        self.assertEqual((admin["action"], admin["work_id"], admin["work_version"],
                          admin["reviewerId"], admin["note"]),
                         ("dismiss", "stale", "v1", "ana", "superseded by the webhook rewrite"))
        self.assertEqual(len(self.export("--kind", "feedback").lines), 2)
        for shot in ("dashboard-after-terminal-reviews.png", "queue-dismiss.png"):
            self.assertGreater(os.path.getsize(os.path.join(SHOTS, shot)), 10000)


if __name__ == "__main__":
    unittest.main()
