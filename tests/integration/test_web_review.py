"""The review queue and the review modal of `kaizen serve`, used as a reviewer would in Debian's
headless Chromium (tests/js/web_review.mjs, playwright-core), then checked in the log.

The home holds work items whose `workProduct.path` points into a real git repository with
uncommitted changes (so the modal has a diff to annotate) and some reviewed history. Without
node, playwright-core or chromium the test fails, it does not skip.
"""

import os
import shutil
import subprocess
import time
import unittest

from kzlib import EXIT_OK, REPO, KaizenTest, feedback_event, jsonl, strict_loads, work_event
from test_serve import Server

JS_DIR = os.path.join(REPO, "tests", "js")
DRIVER = os.path.join(JS_DIR, "web_review.mjs")
PLAYWRIGHT = os.path.join(JS_DIR, "node_modules", "playwright-core", "package.json")
CHROMIUM = "/usr/bin/chromium"
SHOTS = os.path.join(REPO, "build", "screenshots", "review")
TOKEN = "web-review-token-0123456789"

RETRY_V1 = "".join(f"// retry helper, line {n}\n" for n in range(1, 6)) + """\
export async function withRetry(fn) {
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      await sleep(100);
    }
  }
}
"""
RETRY_V2 = RETRY_V1.replace("      await sleep(100);\n",
                            "      // back off before the next attempt\n"
                            "      await sleep(backoff(attempt++));\n")
WEBHOOK = "export function handle(req) {\n  return verify(req) && route(req);\n}\n"
GUIDE = "# Guide\n\nHow to call the client.\n"
SCHEMA = "export const schema = {type: 'object'};\n"
CONFIG = "retries: 3\n"


def git(repo, *args):
    subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                   env=dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
                            GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com"))


RETRY_V2_SUMMARY = ("## What changed\nRetry wrapper with backoff\n"
                    "## Test Coverage\n" + "".join(f"- case {n}: retried and capped\n"
                                                   for n in range(1, 9)) +
                    "## Architecture Decisions\nOne module, no new dependency\n")


def work(art_id, version, path, summary, priority="normal", wtype="code-module", **extra):
    e = work_event(art_id, version, prediction=7, priority=priority,
                   timestamp=f"2025-12-31T0{len(art_id) % 9}:00:00Z", mcpServerType="api-client",
                   **extra)
    e["workProduct"].update(path=path, summary=summary, type=wtype, bubaConfidence=0.7)
    return e


class WebReviewTest(KaizenTest):

    def make_repo(self):
        repo = self.path("repo")
        os.makedirs(os.path.join(repo, "src"))
        os.makedirs(os.path.join(repo, "docs"))
        files = {"src/retry.ts": RETRY_V1, "src/webhook.ts": WEBHOOK, "docs/guide.md": GUIDE,
                 "src/schema.ts": SCHEMA, "config.yaml": CONFIG}
        for name, text in files.items():
            with open(os.path.join(repo, name), "w") as f:
                f.write(text)
        git(repo, "init", "-q")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "first version")
        # The agent's new work, not committed yet: the modal shows it as a working-tree diff.
        with open(os.path.join(repo, "src/retry.ts"), "w") as f:
            f.write(RETRY_V2)
        with open(os.path.join(repo, "src/webhook.ts"), "a") as f:
            f.write("// verify signatures before routing\n")
        return repo

    def record_home(self):
        events = [
            work("webhook", "v1", "src/webhook.ts", "Webhook handler verifies signatures",
                 priority="urgent"),
            work("retry", "v1", "src/retry.ts", "Retry wrapper, first cut"),
            # Made as the alternative to v1 (seed 000 §6.4): reviewed as an A/B comparison.
            # Its summary in sections (seed 000 §3.5 detail level): the page shows them one by
            # one, the long one cut with "Show more".
            work("retry", "v2", "src/retry.ts", RETRY_V2_SUMMARY, priority="high",
                 compareWith="v1"),
            work("cache", "v1", "src/retry.ts", "Cache the retried answers"),
            work("schema", "v1", "src/schema.ts", "Input schema", experimental=True),
            work("guide", "v1", "docs/guide.md", "Client guide", priority="low",
                 wtype="documentation"),
            work("config", "v1", "config.yaml", "Retry config", priority="low",
                 wtype="pipeline-config"),
        ]
        # History: reviewed work, which must not be in the queue.
        for i in range(3):
            old = work(f"old-{i}", "v1", "src/retry.ts", f"Older module {i}")
            events.append(old)
            events.append(feedback_event({"id": f"old-{i}", "version": "v1"},
                                         timestamp=f"2025-12-31T1{i}:00:00Z"))
        r = self.import_("-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)

    def run_driver(self, url):
        node = shutil.which("node")
        self.assertIsNotNone(node, "node is not installed")
        self.assertTrue(os.path.exists(PLAYWRIGHT),
                        "tests/js/node_modules lacks playwright-core: run `make js-deps`")
        self.assertTrue(os.access(CHROMIUM, os.X_OK), f"no chromium at {CHROMIUM}")
        started = time.monotonic()
        proc = subprocess.run([node, DRIVER, url, TOKEN, SHOTS], capture_output=True,
                              timeout=120, cwd=JS_DIR)
        wall_ms = (time.monotonic() - started) * 1000
        self.assertEqual(proc.returncode, 0, proc.stderr.decode()[-4000:])
        return strict_loads(proc.stdout.decode().strip().split("\n")[-1]), wall_ms

    def web_feedback(self):
        r = self.export("--kind", "feedback")
        self.assertEqual(r.rc, EXIT_OK, r)
        events = [strict_loads(l) for l in r.lines]
        web = [e for e in events if e["sessionId"].startswith("web-")]
        return {f'{e["workProduct"]["id"]}@{e["workProduct"]["version"]}': e for e in web}, web

    def test_a_reviewer_works_through_the_queue_with_keyboard_and_mouse(self):
        repo = self.make_repo()
        self.record_home()
        server = Server(self.home, "--root", repo, token=TOKEN)
        self.addCleanup(server.kill)
        status, _, queue = server.request("GET", "/v1/queue?reviewer=jake", token=None)
        self.assertEqual(status, 200, queue)
        served = [f'{i["workProduct"]["id"]}@{i["workProduct"]["version"]}' for i in queue["items"]]

        s, wall_ms = self.run_driver(f"http://127.0.0.1:{server.port}")

        # The queue as the server ordered it, the urgent item first, history left out.
        self.assertEqual(s["pageErrors"], [])
        self.assertEqual(s["listTag"], "OL")
        self.assertEqual(s["queueBefore"], served)
        self.assertEqual(served[0], "webhook@v1")
        # retry@v2 superseded retry@v1: the older version left the queue, undecided.
        self.assertEqual(sorted(served), sorted(["webhook@v1", "cache@v1", "retry@v2", "schema@v1",
                                                 "guide@v1", "config@v1"]))
        self.assertNotIn("retry@v1", s["queueBefore"])
        self.assertEqual(s["firstItem"]["priority"], "urgent")
        self.assertIn("Webhook handler verifies signatures", s["firstItem"]["text"])
        self.assertIn("api-client", s["firstItem"]["text"])
        self.assertEqual(s["experimentalMarked"], ["schema"])
        self.assertRegex(s["windowsLine"], r"^Your best review windows: .*; now: (morning|"
                                           r"afternoon|evening|night)")
        self.assertEqual(s["keyboardFocused"], "webhook")
        self.assertEqual(s["keyboardDefaultTab"], "diff-summary")
        self.assertTrue(s["helpShown"])
        self.assertIn("Ctrl+Enter", s["helpText"])
        self.assertIn("decision=approved", s["keyboardChecked"])

        # The errors: next to their fields, and a refused token asked for again in the modal.
        self.assertIn("Choose a decision", s["noDecisionError"])
        self.assertEqual(s["serverFieldError"], "11 is out of range 1..10")
        self.assertIn("scores[0].score", s["serverErrorStatus"])
        self.assertIn("401", s["unauthorizedText"])
        self.assertTrue(s["modalKeptAfter401"])

        # Deferred stays (its count shown); Esc on a filled-in review asks first.
        self.assertEqual(s["deferredBadge"], "deferred 1×")
        self.assertTrue(s["confirmShown"])
        self.assertTrue(s["confirmHidden"])
        self.assertEqual(s["queueAfter"], ["config@v1", "guide@v1"])
        self.assertIn(queue["breakSuggestion"], s["breakBanner"])
        self.assertTrue(s["pausedListHidden"])
        self.assertEqual(s["positiveTabindex"], 0)
        self.assertNotIn("a11y", s)  # tests/js/a11y.mjs is there
        self.assertEqual(s["a11yQueue"], [])
        # Names, contrast and the Tab order inside the open modal (the page behind it is inert).
        self.assertEqual(s["a11yModal"], [])
        for shot in ("queue.png", "review-modal.png", "review-modal-mobile.png"):
            self.assertGreater(os.path.getsize(os.path.join(SHOTS, shot)), 10000)

        # The log: five reviews from the desktop tab, each with honest meta, and one from a phone.
        by_item, web = self.web_feedback()
        phone = by_item.pop("config@v1")
        self.assertEqual(phone["meta"]["deviceType"], "mobile")
        self.assertEqual(phone["decision"], {"decision": "approved"})
        self.assertNotEqual(phone["sessionId"], by_item["webhook@v1"]["sessionId"])
        web = [e for e in web if e is not phone]
        self.assertEqual(sorted(by_item), ["cache@v1", "guide@v1", "retry@v2", "schema@v1",
                                           "webhook@v1"])
        self.assertEqual(len(web), 5)
        self.assertEqual(len({e["sessionId"] for e in web}), 1)
        self.assertEqual(len({e["modalId"] for e in web}), 5)
        for e in web:
            m = e["meta"]
            self.assertEqual(e["modalVersion"], "web-1")
            self.assertEqual(e["reviewerId"], "jake")
            self.assertEqual(e["mcpServerType"], "api-client")
            self.assertEqual(e["pipelineStage"], "implement")
            self.assertGreater(m["timeToDecisionMs"], 0)
            self.assertLess(m["timeToDecisionMs"], wall_ms)
            self.assertLessEqual(m["timeToFirstInteractionMs"], m["timeToDecisionMs"])
            self.assertGreaterEqual(m["scrollDepth"], 0)
            self.assertLessEqual(m["scrollDepth"], 1)
            self.assertEqual(m["deviceType"], "desktop")
            self.assertIn("sessionFatigue", m)  # computed by the server, never sent

        keyboard = by_item["webhook@v1"]
        self.assertEqual(keyboard["decision"], {"decision": "approved"})
        self.assertEqual(keyboard["scores"], [{"dimension": "code-quality", "score": 8},
                                              {"dimension": "error-handling", "score": 7}])
        self.assertEqual(keyboard["meta"]["fieldsModified"],
                         ["decision", "scores.code-quality", "scores.error-handling"])
        self.assertEqual(keyboard["meta"]["presentationFormat"], "full-file")
        self.assertEqual(keyboard["meta"]["revisits"], 0)

        mouse = by_item["retry@v2"]
        self.assertEqual(mouse["decision"], {"decision": "rejected", "severity": "major",
                                             "blockers": ["no backoff on HTTP 429"]})
        self.assertEqual(mouse["scores"], [{"dimension": "code-quality", "score": 4},
                                           {"dimension": "error-handling", "score": 3}])
        start, end = s["annotationLines"]
        self.assertLess(start, end)
        self.assertEqual(mouse["annotations"], [{
            "type": "criticism", "severity": "major", "text": "retries forever without a cap",
            "target": {"file": "src/retry.ts", "lineStart": start, "lineEnd": end}}])
        self.assertEqual(mouse["confidence"], {"level": "fairly-sure", "wouldDelegateToAI": False,
                                               "needsExpertReview": True})
        self.assertEqual(sorted(mouse["meta"]["fieldsModified"]),
                         sorted(["decision", "decision.severity", "decision.blockers",
                                 "scores.code-quality", "scores.error-handling", "annotations",
                                 "comparison", "confidence"]))
        self.assertEqual(s["optionADefault"], "v1")  # the version v2 is an alternative to
        self.assertTrue(s["comparisonOpen"], "the A/B comparison is not open at once")
        self.assertIn("an alternative to v1", s["comparisonTitle"])
        self.assertEqual(mouse["comparison"]["preferred"], "B")
        self.assertEqual(mouse["comparison"]["preferenceStrength"], "strong")
        self.assertEqual(mouse["comparison"]["dimensions"],
                         [{"dimension": "error-handling", "winner": "B"}])
        self.assertEqual((mouse["comparison"]["optionA"]["id"],
                          mouse["comparison"]["optionA"]["version"]), ("retry", "v1"))
        self.assertEqual((mouse["comparison"]["optionB"]["id"],
                          mouse["comparison"]["optionB"]["version"]), ("retry", "v2"))
        self.assertEqual(mouse["meta"]["presentationFormat"], "diff-summary")
        sections = {x["name"]: x for x in mouse["meta"]["sections"]}
        self.assertEqual(list(sections), ["What changed", "Test Coverage",
                                          "Architecture Decisions"])
        self.assertEqual([x["expanded"] for x in sections.values()], [False, True, False])
        self.assertTrue(all(isinstance(x["visibleMs"], int) and x["visibleMs"] >= 0
                            for x in sections.values()))
        self.assertGreater(sections["What changed"]["visibleMs"], 0)
        self.assertGreater(mouse["meta"]["timeToFirstInteractionMs"], 0)

        deferred = by_item["guide@v1"]
        self.assertEqual(deferred["decision"], {"decision": "deferred"})
        self.assertEqual(deferred["meta"]["revisits"], 1)  # opened, closed, opened again
        self.assertEqual(s["concurrentText"], "1 other review open in another tab.")
        self.assertEqual(deferred["meta"]["concurrentModals"], 1)
        for key, e in by_item.items():
            if key != "guide@v1":
                self.assertEqual(e["meta"]["concurrentModals"], 0, key)
        self.assertEqual(deferred["meta"]["fieldsModified"], ["decision"])

        after_401 = by_item["schema@v1"]
        self.assertEqual(after_401["decision"], {"decision": "needs-work"})
        self.assertEqual(after_401["scores"], [{"dimension": "security", "score": 5}])
        self.assertEqual(after_401["meta"]["fieldsModified"], ["decision", "scores.security"])

        fifth = by_item["cache@v1"]
        self.assertEqual(fifth["meta"]["presentationFormat"], "summary-only")
        self.assertEqual(fifth["meta"]["scrollDepth"], 1)  # the summary fits in the pane

        # The server agrees: the reviewed items left the queue, the deferred one stayed.
        status, _, after = server.request("GET", "/v1/queue", token=None)
        left = {f'{i["workProduct"]["id"]}@{i["workProduct"]["version"]}': i for i in after["items"]}
        self.assertEqual(sorted(left), ["guide@v1"])
        self.assertEqual(left["guide@v1"]["deferrals"], 1)


if __name__ == "__main__":
    unittest.main()
