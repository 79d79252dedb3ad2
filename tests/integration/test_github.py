"""GitHub pull-request reviews as kaizen events: `POST /v1/webhooks/github` on a real `kaizen
serve`, and `kaizen github ingest` of the same payloads.

The payloads are GitHub's own examples (fixtures/github/SOURCE.md): pull request #2 of
Codertocat/Hello-World. Codertocat is a person, so the tests make the pull request an agent's the
way Copilot's are recognized, by its branch: `copilot/changes`.
"""

import copy
import hashlib
import hmac
import json
import os
import time

from kzlib import EXIT_OK, EXIT_REJECTED, KaizenTest, strict_loads
from test_serve import TOKEN, Server

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "github")
SECRET = "It's a Secret to Everybody"
SHA = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
WORK_ID = "github:Codertocat/Hello-World#2"


def fixture(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
        return json.load(f)


def agent(payload):
    p = copy.deepcopy(payload)
    p["pull_request"]["head"]["ref"] = "copilot/changes"
    return p


def scenario():
    """(event, delivery id, body bytes) of an agent's pull request from opening to merge."""
    opened = agent(fixture("pull_request_opened.json"))
    review = agent(fixture("pull_request_review_submitted.json"))
    review["review"]["state"] = "approved"
    review["review"]["body"] = "Looks good. Next time handle the error when the file is missing."
    comment = agent(fixture("pull_request_review_comment_created.json"))
    merged = agent(fixture("pull_request_closed.json"))
    merged["pull_request"]["merged"] = True
    merged["pull_request"]["merged_at"] = merged["pull_request"]["closed_at"]
    return [("pull_request", "d-open", opened), ("pull_request_review", "d-review", review),
            ("pull_request_review_comment", "d-comment", comment),
            ("pull_request", "d-merge", merged)]


def body_of(payload):
    return json.dumps(payload, indent=2).encode("utf-8")


def sign(body, secret=SECRET):
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


class GithubTest(KaizenTest):
    def serve(self, secret=SECRET, *flags):
        env_secret = os.environ.pop("KAIZEN_GITHUB_SECRET", None)
        if secret is not None:
            os.environ["KAIZEN_GITHUB_SECRET"] = secret
        try:
            s = Server(self.home, *flags)
        finally:
            os.environ.pop("KAIZEN_GITHUB_SECRET", None)
            if env_secret is not None:
                os.environ["KAIZEN_GITHUB_SECRET"] = env_secret
        self.addCleanup(s.kill)
        return s

    def deliver(self, s, event, delivery, body, signature="sign"):
        headers = {"X-GitHub-Event": event, "X-GitHub-Delivery": delivery,
                   "Content-Type": "application/json"}
        if signature == "sign":
            signature = sign(body)
        if signature is not None:
            headers["X-Hub-Signature-256"] = signature
        # GitHub sends no bearer token: the signature alone must do.
        return s.request("POST", "/v1/webhooks/github", body=body, token=None, headers=headers)

    def exported(self):
        r = self.export()
        self.assertEqual(r.rc, 0, r)
        return [strict_loads(l) for l in r.lines]

    def test_github_webhook_without_a_secret_is_503_saying_how_to_configure_one(self):
        s = self.serve(secret=None)
        # The line follows the "listening" one the server is waited for: give the reader a moment.
        deadline = time.monotonic() + 10
        while "GitHub webhook at" not in s.stderr and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertIn("GitHub webhook at", s.stderr)
        status, _, body = self.deliver(s, *scenario()[0][:2], body_of(scenario()[0][2]))
        self.assertEqual(status, 503, body)
        self.assertEqual(body["error"]["code"], "github_not_configured")
        self.assertIn("KAIZEN_GITHUB_SECRET", body["error"]["message"])
        self.assertIn("config/github-secret", body["error"]["message"])
        self.assertEqual(self.exported(), [])

    def test_github_webhook_wrong_or_missing_signature_is_401_and_stores_nothing(self):
        s = self.serve()
        event, delivery, payload = scenario()[0]
        body = body_of(payload)
        for signature in (None, sign(body, "another secret"), "sha256=" + "0" * 64, "sha1=abc",
                          sign(body)[:-2]):
            status, _, answer = self.deliver(s, event, delivery, body, signature)
            self.assertEqual(status, 401, (signature, answer))
            self.assertEqual(answer["error"]["code"], "bad_signature")
        # A signature of another body: the body was changed on the way.
        status, _, _ = self.deliver(s, event, delivery, body + b" ", sign(body))
        self.assertEqual(status, 401)
        self.assertEqual(self.exported(), [])
        s.stop()
        self.assertEqual(self.exported(), [])

    def test_github_webhook_replayed_delivery_is_stored_once(self):
        s = self.serve()
        event, delivery, payload = scenario()[0]
        body = body_of(payload)
        status, _, first = self.deliver(s, event, delivery, body)
        self.assertEqual(status, 201, first)
        self.assertEqual(first["stored"], 1)
        status, _, again = self.deliver(s, event, delivery, body)
        self.assertEqual(status, 200, again)
        self.assertTrue(again["duplicate"], again)
        self.assertEqual(again["events"][0]["id"], first["events"][0]["id"])
        self.assertEqual(again["events"][0]["status"], "duplicate")
        events = self.exported()
        self.assertEqual(len(events), 1, events)
        self.assertEqual(events[0]["workProduct"]["id"], WORK_ID)

    def test_github_webhook_agent_pr_review_comment_and_merge_are_learned(self):
        s = self.serve()
        for event, delivery, payload in scenario():
            status, _, answer = self.deliver(s, event, delivery, body_of(payload))
            self.assertEqual(status, 201, answer)
        # The real review example is a `commented` review with no text: nothing to learn.
        plain = agent(fixture("pull_request_review_submitted.json"))
        status, _, answer = self.deliver(s, "pull_request_review", "d-plain", body_of(plain))
        self.assertEqual(status, 202, answer)
        self.assertIn("without text", answer["ignored"][0])

        events = self.exported()
        self.assertEqual([e["kind"] for e in events], ["work", "feedback", "feedback", "reward"])
        work, review, comment, reward = events
        self.assertEqual((work["workProduct"]["id"], work["workProduct"]["version"]),
                         (WORK_ID, SHA))
        # The change under review, for the review page's diff: the branch from where it left
        # the base (the payload's base.sha), never a later commit.
        self.assertEqual(work["workProduct"]["commit"],
                         "f95f852bd8fca8fcc58a9a2d6c842781e32a215e..." + SHA)
        for e in (review, comment):
            self.assertEqual((e["workProduct"]["id"], e["workProduct"]["version"]), (WORK_ID, SHA))
            self.assertEqual(e["reviewerId"], "Codertocat")
            self.assertEqual(e["repository"], "Codertocat/Hello-World")
        self.assertEqual(review["decision"]["decision"], "approved")
        self.assertIn("error-handling", review["freeText"]["_extractedThemes"])
        note = comment["annotations"][0]
        self.assertEqual(note["target"]["file"], "README.md")
        self.assertEqual((note["target"]["lineStart"], note["target"]["lineEnd"]), (265, 265))
        self.assertEqual(note["text"], "Maybe you should use more emoji on this line.")
        self.assertEqual((reward["signal_type"], reward["raw_value"], reward["signal_value"]),
                         ("merge_outcome", "merged", 1.0))
        self.assertEqual(reward["context"]["repo"], "Codertocat/Hello-World")

        status, _, analysis = s.request("GET", "/v1/analysis")
        self.assertEqual(status, 200)
        approval = analysis["approval"]
        self.assertEqual(approval["overall"]["approved"], 1, approval)
        self.assertEqual(approval["byReviewer"]["Codertocat"]["approved"], 1, approval)
        s.stop()
        r = self.kz("analyze", "--json", "--home", self.home, "--now", "2026-01-01T00:00:00Z")
        self.assertEqual(r.rc, 0, r)
        self.assertEqual(strict_loads(r.out)["approval"]["overall"]["approved"], 1)

    def test_github_webhook_ping_persons_pr_and_unmapped_events_store_nothing_and_say_why(self):
        s = self.serve()
        ping = b'{"zen": "Design for failure.", "hook_id": 1}'
        status, _, answer = self.deliver(s, "ping", "d-ping", ping)
        self.assertEqual((status, answer["stored"]), (200, 0), answer)
        person = body_of(fixture("pull_request_opened.json"))
        status, _, answer = self.deliver(s, "pull_request", "d-person", person)
        self.assertEqual(status, 202, answer)
        self.assertIn("Codertocat's, not an agent's", answer["ignored"][0])
        status, _, answer = self.deliver(s, "issues", "d-issue", b'{"action": "opened"}')
        self.assertEqual(status, 202, answer)
        self.assertIn("not mapped", answer["ignored"][0])
        status, _, answer = self.deliver(s, "pull_request", "d-bad", b'{"action": "opened"}')
        self.assertEqual(status, 422, answer)
        self.assertEqual(answer["error"]["errors"][0]["path"], "pull_request")
        self.assertEqual(self.exported(), [])

    def test_github_ingest_of_saved_payloads_gives_the_same_events_as_the_webhook(self):
        s = self.serve()
        for event, delivery, payload in scenario():
            self.assertEqual(self.deliver(s, event, delivery, body_of(payload))[0], 201)
        s.stop()
        via_webhook = self.export()

        offline = self.path("offline")
        for i, (event, _, payload) in enumerate(scenario()):
            f = self.write(f"{i}.json", body_of(payload))
            r = self.kz("github", "ingest", "--event", event, f, "--home", offline, "--now",
                        "2026-01-01T00:00:00Z")
            self.assertEqual(r.rc, EXIT_OK, r)
            self.assertIn("1 new", r.out)
        via_cli = self.kz("export", "--home", offline)
        self.assertEqual(via_cli.lines, via_webhook.lines)
        self.assertEqual(len(via_cli.lines), 4)

        # Ingested again, or ingested where the webhook already stored it: nothing twice.
        f = self.write("again.json", body_of(scenario()[1][2]))
        for home in (offline, self.home):
            r = self.kz("github", "ingest", "--event", "pull_request_review", f, "--home", home)
            self.assertEqual(r.rc, EXIT_OK, r)
            self.assertIn("0 new, 1 already recorded", r.out)

    def test_github_ingest_bad_file_names_it_and_stores_nothing_of_any_file(self):
        good = self.write("open.json", body_of(scenario()[0][2]))
        bad = agent(fixture("pull_request_opened.json"))
        del bad["pull_request"]["head"]["sha"]
        bad_file = self.write("bad.json", body_of(bad))
        r = self.kz("github", "ingest", "--event", "pull_request", good, bad_file, "--home",
                    self.home)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("bad.json: pull_request.head.sha: missing (required string)", r.err)
        self.assertIn("nothing was stored", r.err)
        self.assertEqual(self.raw_lines(), [])
        not_json = self.write("notjson.json", "<html>")
        r = self.kz("github", "ingest", "--event", "pull_request", not_json, "--home", self.home)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("notjson.json: (payload): is not JSON", r.err)

    def test_github_ingest_gh_api_reviews_name_the_recorded_work(self):
        # `gh api repos/Codertocat/Hello-World/pulls/2/reviews`: an array without the envelope.
        review = copy.deepcopy(fixture("pull_request_review_submitted.json")["review"])
        review["state"] = "CHANGES_REQUESTED"
        review["body"] = "Add tests for the new section."
        reviews = self.write("reviews.json", json.dumps([review]))
        args = ["github", "ingest", "--event", "pull_request_review", reviews, "--home", self.home,
                "--json"]
        # Before the work is recorded, the review names nothing kaizen knows: refused.
        r = self.kz(*args)
        self.assertEqual(r.rc, EXIT_REJECTED, r)
        self.assertIn("names no recorded work event", r.err)
        opened = self.write("open.json", body_of(scenario()[0][2]))
        self.assertEqual(self.kz("github", "ingest", "--event", "pull_request", opened, "--home",
                                 self.home).rc, EXIT_OK)
        r = self.kz(*args)
        self.assertEqual(r.rc, EXIT_OK, r)
        out = strict_loads(r.out)
        self.assertEqual(out["new"], 1, out)
        event = out["events"][0]["event"]
        self.assertEqual(event["workProduct"], {"id": WORK_ID, "version": SHA})
        self.assertEqual(event["decision"]["decision"], "needs-work")
