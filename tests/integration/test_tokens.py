"""Named tokens with roles (issue 30, "Identities and roles"), driven through the real binary.

`kaizen token create --name NAME --role reviewer|agent|admin` makes a bearer token of a person's or
an agent's own; `kaizen serve` then decides from it what a POST may write:
  reviewer  their feedback is theirs (reviewerId filled in, another one refused with 403); no
            rule audits or other admin events but submit, dismiss and their own consent
  agent     no feedback at all (by any route), no admin events but submit
  admin     anything, as the home's own single token (config/token or KAIZEN_TOKEN) still does
A revoked token is refused within about a second. The registry is the home's config/tokens.json
(hashes only, mode 0600) or, with --store, the shared database's kaizen_tokens table, so every
server on that store knows every token.

Each test starts its own `kaizen serve --port 0` (test_serve.Server); the last class starts its
own throwaway PostgreSQL cluster (tests/pg_cluster.py).
"""

import hashlib
import itertools
import json
import os
import re
import stat
import sys
import time
import unittest

from kzlib import (EXIT_OK, EXIT_USAGE, KaizenTest, admin_event, feedback_event, jsonl,
                   outcome_event, strict_loads, work_event)
from test_serve import TOKEN, Server

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import pg_cluster  # noqa: E402

TOKEN_TEXT = re.compile(r"^kz_[0-9a-f]{64}$")
ISO_TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")
FLIP_TIMEOUT = 5.0  # seconds a new or revoked token may take to reach a running server

_databases = itertools.count(1)


def own_feedback(**extra):
    """A valid feedback event with no reviewerId: a reviewer token's to fill in."""
    e = feedback_event(**extra)
    if "reviewerId" not in extra:
        del e["reviewerId"]
    return e


def admin(action, **fields):
    """An admin event with only the fields given (admin_event() carries consent's)."""
    e = {"kind": "admin", "timestamp": "2025-07-10T16:00:00Z", "action": action}
    e.update(fields)
    return e


def sha256_hex(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class TokenTest(KaizenTest):
    """Helpers: tokens made with the CLI, servers on this test's homes, what a home stored."""

    def token_cmd(self, *args, home=None):
        return self.kz("token", *args, "--home", home or self.home)

    def make_token(self, name, role, home=None, store=None):
        """A fresh token's text, from `kaizen token create --json`."""
        extra = ["--store", store] if store else []
        r = self.token_cmd("create", "--name", name, "--role", role, "--json", *extra, home=home)
        self.assertEqual(r.rc, EXIT_OK, r)
        made = strict_loads(r.out)
        self.assertEqual(set(made), {"name", "role", "token"}, r)
        self.assertEqual((made["name"], made["role"]), (name, role), r)
        self.assertRegex(made["token"], TOKEN_TEXT)
        return made["token"]

    def serve(self, home=None, *flags, token=TOKEN):
        s = Server(home or self.home, *flags, token=token)
        self.addCleanup(s.kill)
        return s

    def exported(self, home=None, *flags):
        """{id: event} of everything the home stored."""
        r = self.kz("export", "--home", home or self.home, *flags)
        self.assertEqual(r.rc, EXIT_OK, r)
        return {e["id"]: e for e in (strict_loads(l) for l in r.lines)}

    def assert_forbidden(self, reply, *named):
        """A 403 whose message names each of `named`."""
        status, _, body = reply
        self.assertEqual(status, 403, body)
        self.assertEqual(body["error"]["code"], "forbidden", body)
        for n in named:
            self.assertIn(n, body["error"]["message"], body)
        return body["error"]["message"]

    def assert_stored(self, reply, status=201):
        """The id of the one event a 201 (or a tool's 200) stored."""
        got, _, body = reply
        self.assertEqual(got, status, body)
        self.assertIn("id", body, body)
        return body["id"]

    def wait_for_status(self, server, token, want, make_event=outcome_event, path="/v1/outcome"):
        """Posts a fresh event with `token` until the answer is `want` (at most FLIP_TIMEOUT
        seconds). Returns (seconds it took, ids stored on the way)."""
        start = time.monotonic()
        stored = []
        while True:
            status, _, body = server.request("POST", path, make_event(), token=token)
            if status == want:
                return time.monotonic() - start, stored
            if status == 201:
                stored.append(body["id"])
            else:
                self.assertIn(status, (201, 403), body)
            if time.monotonic() - start > FLIP_TIMEOUT:
                self.fail(f"the server still answered {status} (not {want}) after "
                          f"{FLIP_TIMEOUT} s: {body}\nits stderr:\n{server.stderr}")
            time.sleep(0.05)

    def assert_stays(self, server, token, want, seconds=1.5):
        """Every POST for `seconds` (past at least one registry re-read) answers `want`."""
        end = time.monotonic() + seconds
        answers = []
        while time.monotonic() < end:
            status, _, body = server.request("POST", "/v1/outcome", outcome_event(), token=token)
            answers.append(status)
            self.assertEqual(status, want, (answers, body))
            time.sleep(0.1)


# ---- reviewers ---------------------------------------------------------------------------------

class ReviewerTokenTest(TokenTest):

    def test_reviewer_feedback_takes_the_token_name_and_another_reviewer_id_is_403_unstored(self):
        alice = self.make_token("alice", "reviewer")
        s = self.serve()

        # No reviewerId: stored as the token's name.
        filled = self.assert_stored(s.request("POST", "/v1/feedback", own_feedback(), token=alice))
        self.assertEqual(self.exported()[filled]["reviewerId"], "alice")

        # Someone else's name: 403 naming both, nothing stored.
        jakes = own_feedback(reviewerId="jake")
        self.assert_forbidden(s.request("POST", "/v1/feedback", jakes, token=alice),
                              '"jake"', '"alice"')
        # The comparison is exact: another spelling is another reviewer.
        self.assert_forbidden(s.request("POST", "/v1/feedback", own_feedback(reviewerId="Alice"),
                                        token=alice), '"Alice"', '"alice"')
        self.assertEqual(set(self.exported()), {filled})

        # Their own name: stored as it is.
        named = self.assert_stored(s.request("POST", "/v1/feedback",
                                             own_feedback(reviewerId="alice"), token=alice))
        stored = self.exported()
        self.assertEqual(set(stored), {filled, named})
        self.assertEqual(stored[named]["reviewerId"], "alice")
        self.assertNotIn("jake", json.dumps(list(stored.values())))

    def test_reviewer_feedback_through_the_record_feedback_tool_is_theirs_too(self):
        alice = self.make_token("alice", "reviewer")
        s = self.serve()
        args = own_feedback()
        del args["kind"]
        tool_id = self.assert_stored(s.request("POST", "/v1/tools/record_feedback", args,
                                               token=alice), status=200)
        self.assertEqual(self.exported()[tool_id]["reviewerId"], "alice")
        args = own_feedback(reviewerId="jake")
        del args["kind"]
        self.assert_forbidden(s.request("POST", "/v1/tools/record_feedback", args, token=alice),
                              '"jake"', '"alice"')
        self.assertEqual(set(self.exported()), {tool_id})

    def test_reviewer_jsonl_naming_another_reviewer_on_any_line_is_403_and_stores_no_line(self):
        alice = self.make_token("alice", "reviewer")
        s = self.serve()
        body = jsonl(own_feedback(reviewerId="alice"), own_feedback(reviewerId="jake"),
                     outcome_event())
        message = self.assert_forbidden(s.request("POST", "/v1/events", body, token=alice),
                                        '"jake"', '"alice"')
        self.assertIn("line 2", message)
        self.assertEqual(self.exported(), {})

    def test_reviewer_feedback_posted_as_jsonl_to_events_is_stored_under_the_token_name(self):
        # Several POSTs: the body must live until the writer thread stored it (a view of a freed
        # copy once refused the first line of most bodies, answering 207).
        alice = self.make_token("alice", "reviewer")
        s = self.serve()
        for attempt in range(5):
            events = [own_feedback(), own_feedback(reviewerId="alice"), outcome_event()]
            status, _, body = s.request("POST", "/v1/events", jsonl(*events), token=alice)
            self.assertEqual(status, 200, (attempt, body))
            self.assertEqual([l["status"] for l in body["lines"]], ["stored"] * 3, body)
            stored = self.exported()
            ids = [l["id"] for l in body["lines"]]
            self.assertTrue(set(ids) <= set(stored), (ids, attempt))
            self.assertEqual([stored[i]["reviewerId"] for i in ids[:2]], ["alice", "alice"])
            self.assertEqual(stored[ids[2]]["kind"], "outcome")


# ---- agents ------------------------------------------------------------------------------------

class AgentTokenTest(TokenTest):

    def test_agent_token_cannot_post_feedback_by_any_route(self):
        bot = self.make_token("bot", "agent")
        s = self.serve()
        # Not even feedback in its own name: a review is a person's.
        for event in (own_feedback(), feedback_event(), own_feedback(reviewerId="bot")):
            self.assert_forbidden(s.request("POST", "/v1/feedback", event, token=bot),
                                  "agent", '"bot"')
        self.assert_forbidden(s.request("POST", "/v1/events", jsonl(feedback_event()), token=bot),
                              "line 1", "agent")
        # One feedback line refuses the whole body: the work line before it is not stored either.
        self.assert_forbidden(s.request("POST", "/v1/events",
                                        jsonl(work_event(), feedback_event()), token=bot),
                              "line 2", "agent")
        args = feedback_event()
        del args["kind"]
        self.assert_forbidden(s.request("POST", "/v1/tools/record_feedback", args, token=bot),
                              "agent")
        self.assertEqual(self.exported(), {})

    def test_agent_token_posts_work_outcome_and_submit_but_no_other_admin_event(self):
        bot = self.make_token("bot", "agent")
        s = self.serve()
        work = work_event()
        ids = {
            self.assert_stored(s.request("POST", "/v1/work", work, token=bot)),
            self.assert_stored(s.request("POST", "/v1/outcome", outcome_event(), token=bot)),
            self.assert_stored(s.request("POST", "/v1/tools/record_outcome",
                                         {k: v for k, v in outcome_event().items() if k != "kind"},
                                         token=bot), status=200),
            # `submit` (put a work product in the review queue) is anyone's.
            self.assert_stored(s.request(
                "POST", "/v1/admin",
                admin("submit", work_id=work["workProduct"]["id"], work_version="v1", note="queue it"), token=bot)),
        }
        for refused in (admin_event(action="rule_audit", rule_id="rule-x", verdict="retire"),
                        admin_event(action="consent", user_id="bot"),
                        admin_event(action="dismiss", work_id=work["workProduct"]["id"])):
            self.assert_forbidden(s.request("POST", "/v1/admin", refused, token=bot),
                                  "admin token", '"bot"')
        stored = self.exported()
        self.assertEqual(set(stored), ids)
        self.assertEqual(sorted(e["kind"] for e in stored.values()),
                         ["admin", "outcome", "outcome", "work"])

    def test_agent_work_and_outcome_posted_as_jsonl_to_events_are_stored(self):
        bot = self.make_token("bot", "agent")
        s = self.serve()
        acked = set()
        for attempt in range(5):
            status, _, body = s.request("POST", "/v1/events",
                                        jsonl(work_event(), outcome_event()), token=bot)
            self.assertEqual(status, 200, (attempt, body))
            self.assertEqual((body["stored"], body["refused"]), (2, 0), body)
            acked |= {l["id"] for l in body["lines"]}
        self.assertEqual(set(self.exported()), acked)


# ---- admin events ------------------------------------------------------------------------------

class AdminEventTokenTest(TokenTest):

    def test_reviewer_cannot_audit_rules_but_an_admin_token_can(self):
        alice = self.make_token("alice", "reviewer")
        boss = self.make_token("boss", "admin")
        s = self.serve()
        audit = admin("rule_audit", rule_id="rule-retries", verdict="retire")
        self.assert_forbidden(s.request("POST", "/v1/admin", audit, token=alice),
                              "rule_audit", "admin token", '"alice"')
        self.assert_forbidden(s.request("POST", "/v1/events", jsonl(audit), token=alice),
                              "line 1", "rule_audit")
        self.assert_forbidden(s.request("POST", "/v1/admin",
                                        admin_event(action="deletion_request", user_id="jordan"),
                                        token=alice), "deletion_request", '"alice"')
        self.assertEqual(self.exported(), {})
        done = self.assert_stored(s.request("POST", "/v1/admin", audit, token=boss))
        stored = self.exported()
        self.assertEqual(set(stored), {done})
        self.assertEqual((stored[done]["action"], stored[done]["rule_id"]),
                         ("rule_audit", "rule-retries"))

    def test_reviewer_may_dismiss_and_submit_and_set_only_their_own_consent(self):
        alice = self.make_token("alice", "reviewer")
        boss = self.make_token("boss", "admin")
        s = self.serve()
        work = work_event()
        ids = {self.assert_stored(s.request("POST", "/v1/work", work, token=boss))}
        art = work["workProduct"]["id"]
        ids.add(self.assert_stored(s.request(
            "POST", "/v1/admin", admin("dismiss", work_id=art, work_version="v1", note="stale"),
            token=alice)))
        ids.add(self.assert_stored(s.request(
            "POST", "/v1/admin", admin("submit", work_id=art, work_version="v1"), token=alice)))
        # Consent: their own, yes; someone else's, no (an admin's may).
        own = self.assert_stored(s.request(
            "POST", "/v1/admin", admin_event(action="consent", user_id="alice"), token=alice))
        ids.add(own)
        self.assert_forbidden(s.request(
            "POST", "/v1/admin", admin_event(action="consent", user_id="jordan"), token=alice),
            "consent", '"alice"')
        self.assertEqual(set(self.exported()), ids)  # the refused consent is not stored
        jordan = self.assert_stored(s.request(
            "POST", "/v1/admin", admin_event(action="consent", user_id="jordan"), token=boss))
        ids.add(jordan)
        stored = self.exported()
        self.assertEqual(set(stored), ids)
        # user_id is stored pseudonymized (blake2b:...), so only told apart here.
        self.assertNotEqual(stored[own]["user_id"], stored[jordan]["user_id"])
        self.assertEqual(sorted(e.get("action", "-") for e in stored.values()),
                         ["-", "consent", "consent", "dismiss", "submit"])


# ---- the home's own token, missing and unknown tokens --------------------------------------------

class HomeTokenTest(TokenTest):

    def test_home_token_still_writes_everything_after_named_tokens_exist(self):
        self.make_token("alice", "reviewer")
        self.make_token("bot", "agent")
        s = self.serve(token=None)  # first start: config/token is made and printed
        with open(self.hpath("config", "token")) as f:
            home = f.read().strip()
        self.assertIn(home, s.stderr)

        def writes_everything():
            ids = set()
            # Feedback in any reviewer's name, kept as sent (not rewritten to a token's name).
            jake = self.assert_stored(s.request("POST", "/v1/feedback", feedback_event(),
                                                token=home))
            ids.add(jake)
            self.assertEqual(self.exported()[jake]["reviewerId"], "jake")
            ids.add(self.assert_stored(s.request("POST", "/v1/feedback",
                                                 feedback_event(reviewerId="alice"), token=home)))
            ids.add(self.assert_stored(s.request("POST", "/v1/outcome", outcome_event(),
                                                 token=home)))
            ids.add(self.assert_stored(s.request(
                "POST", "/v1/admin", admin_event(action="rule_audit", rule_id="rule-x",
                                                 verdict="confirm"), token=home)))
            ids.add(self.assert_stored(s.request(
                "POST", "/v1/admin", admin_event(action="consent", user_id="jordan"),
                token=home)))
            return ids

        ids = writes_everything()
        # A token made while the server runs changes nothing for the home's own.
        carol = self.make_token("carol", "reviewer")
        self.wait_for_status(s, carol, 201)
        time.sleep(1.1)  # past a registry re-read
        ids |= writes_everything()
        self.assertTrue(ids <= set(self.exported()))

    def test_kaizen_token_env_is_the_home_token_next_to_named_ones(self):
        self.make_token("alice", "reviewer")
        s = self.serve()  # KAIZEN_TOKEN=TOKEN
        audit = admin_event(action="rule_audit", rule_id="rule-y", verdict="retire")
        a = self.assert_stored(s.request("POST", "/v1/admin", audit))
        b = self.assert_stored(s.request("POST", "/v1/feedback", feedback_event()))
        stored = self.exported()
        self.assertEqual(set(stored), {a, b})
        self.assertEqual(stored[b]["reviewerId"], "jake")

    def test_missing_token_is_401_and_unknown_or_another_homes_token_is_403(self):
        self.make_token("alice", "reviewer")
        elsewhere = self.make_token("alice", "admin", home=self.path("other-home"))
        s = self.serve()
        status, headers, body = s.request("POST", "/v1/outcome", outcome_event(), token=None)
        self.assertEqual(status, 401, body)
        self.assertTrue(headers["www-authenticate"].startswith("Bearer"), headers)
        for wrong in ("kz_" + "0" * 64, elsewhere, elsewhere[3:], "alice"):
            status, _, body = s.request("POST", "/v1/outcome", outcome_event(), token=wrong)
            self.assertEqual(status, 403, (wrong, body))
        self.assertEqual(self.exported(), {})


# ---- revocation --------------------------------------------------------------------------------

class RevokeTest(TokenTest):

    def test_revoked_token_is_refused_within_seconds_and_stays_refused(self):
        alice = self.make_token("alice", "reviewer")
        bob = self.make_token("bob", "reviewer")
        s = self.serve()
        before = self.assert_stored(s.request("POST", "/v1/outcome", outcome_event(),
                                              token=alice))
        r = self.token_cmd("revoke", "alice")
        self.assertEqual(r.rc, EXIT_OK, r)
        took, slipped = self.wait_for_status(s, alice, 403)
        print(f"\n  revoked token refused after {took * 1000:.0f} ms", flush=True)
        status, _, body = s.request("POST", "/v1/feedback", own_feedback(), token=alice)
        self.assertEqual(status, 403, body)
        self.assertIn("revoked", body["error"]["message"], body)
        self.assert_stays(s, alice, 403)
        # Revoking alice's token leaves bob's alone.
        bobs = self.assert_stored(s.request("POST", "/v1/feedback", own_feedback(), token=bob))
        stored = self.exported()
        self.assertEqual(set(stored), {before, bobs, *slipped})
        self.assertEqual(stored[bobs]["reviewerId"], "bob")

    def test_a_revoked_name_made_again_gets_a_new_token_and_the_old_one_stays_refused(self):
        old = self.make_token("alice", "reviewer")
        s = self.serve()
        self.assert_stored(s.request("POST", "/v1/outcome", outcome_event(), token=old))
        self.assertEqual(self.token_cmd("revoke", "alice").rc, EXIT_OK)
        self.wait_for_status(s, old, 403)
        new = self.make_token("alice", "agent")
        self.assertNotEqual(new, old)
        self.wait_for_status(s, new, 201)
        # The name's new role applies, and the old token is still refused.
        self.assert_forbidden(s.request("POST", "/v1/feedback", own_feedback(), token=new),
                              "agent")
        self.assert_stays(s, old, 403)

    def test_a_token_made_while_the_server_runs_is_accepted_within_seconds(self):
        s = self.serve()
        dana = self.make_token("dana", "reviewer")
        took, _ = self.wait_for_status(s, dana, 201)
        print(f"\n  new token accepted after {took * 1000:.0f} ms", flush=True)
        made = self.assert_stored(s.request("POST", "/v1/feedback", own_feedback(), token=dana))
        self.assertEqual(self.exported()[made]["reviewerId"], "dana")


# ---- the CLI and the registry file -------------------------------------------------------------

class TokenCliTest(TokenTest):

    def tokens_file(self):
        return self.hpath("config", "tokens.json")

    def listed(self):
        r = self.token_cmd("list", "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        out = strict_loads(r.out)
        self.assertEqual(set(out), {"tokens"}, r)
        return {t["name"]: t for t in out["tokens"]}

    def test_token_is_printed_once_and_the_0600_tokens_file_keeps_only_its_hash(self):
        r = self.token_cmd("create", "--name", "alice", "--role", "reviewer")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(r.lines), 1, r)  # stdout: the token alone
        alice = r.lines[0]
        self.assertRegex(alice, TOKEN_TEXT)
        self.assertNotIn(alice, r.err)
        bot = self.make_token("bot", "agent")
        boss = self.make_token("boss", "admin")
        self.assertEqual(len({alice, bot, boss}), 3)

        def check_file():
            self.assertEqual(stat.S_IMODE(os.stat(self.tokens_file()).st_mode), 0o600)
            with open(self.tokens_file()) as f:
                text = f.read()
            entries = strict_loads(text)
            self.assertIsInstance(entries, list)
            for token in (alice, bot, boss):
                self.assertNotIn(token, text)
                self.assertNotIn(token[3:], text)  # not even the hex without its prefix
            self.assertEqual({e["name"]: e["hash"] for e in entries},
                             {"alice": sha256_hex(alice), "bot": sha256_hex(bot),
                              "boss": sha256_hex(boss)})
            for e in entries:
                self.assertEqual(set(e) & {"token", "secret"}, set(), e)

        check_file()
        self.assertEqual(self.token_cmd("revoke", "bot").rc, EXIT_OK)
        check_file()  # rewritten by the revocation: still 0600, still hashes only
        # Nothing else in the home holds a token's text.
        for root, _, files in os.walk(self.home):
            for name in files:
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read()
                for token in (alice, bot, boss):
                    self.assertNotIn(token[3:].encode(), data, os.path.join(root, name))

    def test_token_create_with_a_name_already_valid_or_a_bad_name_is_exit_2(self):
        first = self.make_token("alice", "reviewer")
        with open(self.tokens_file(), "rb") as f:
            before = f.read()
        r = self.token_cmd("create", "--name", "alice", "--role", "admin")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertEqual(r.out, "", r)
        self.assertIn('"alice"', r.err)
        self.assertIn("already", r.err)
        with open(self.tokens_file(), "rb") as f:
            self.assertEqual(f.read(), before, "a refused create changed the tokens file")
        self.assertEqual(self.listed()["alice"]["role"], "reviewer")
        self.assertIn(sha256_hex(first), before.decode())

        for bad in ("bad name", "a/b", "x" * 65, "j\u00fcrgen", 'q"uote', "a\\b", "tab\there"):
            r = self.token_cmd("create", "--name", bad, "--role", "reviewer")
            self.assertEqual(r.rc, EXIT_USAGE, (bad, r))
            self.assertEqual(r.out, "", (bad, r))
            self.assertIn("--name", r.err, (bad, r))
        r = self.token_cmd("create", "--name", "eve", "--role", "boss")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertEqual(set(self.listed()), {"alice"})
        with open(self.tokens_file(), "rb") as f:
            self.assertEqual(f.read(), before)
        # The longest name allowed, of every allowed character, is fine.
        longest = ("a.b_c@d-E9" * 7)[:64]
        self.make_token(longest, "agent")
        self.assertEqual(set(self.listed()), {"alice", longest})

    def test_token_list_shows_role_and_revoked_time_and_revoke_of_no_valid_token_is_exit_2(self):
        r = self.token_cmd("list")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("no named tokens", r.out)
        self.assertEqual(self.listed(), {})
        self.make_token("alice", "reviewer")
        self.make_token("bot", "agent")
        self.make_token("boss", "admin")
        self.assertEqual(self.token_cmd("revoke", "bot").rc, EXIT_OK)

        tokens = self.listed()
        self.assertEqual({n: t["role"] for n, t in tokens.items()},
                         {"alice": "reviewer", "bot": "agent", "boss": "admin"})
        for t in tokens.values():
            self.assertEqual(set(t), {"name", "role", "created", "revoked"}, t)
            self.assertRegex(t["created"], ISO_TIME)
        self.assertIsNone(tokens["alice"]["revoked"])
        self.assertIsNone(tokens["boss"]["revoked"])
        self.assertRegex(tokens["bot"]["revoked"], ISO_TIME)
        self.assertGreaterEqual(tokens["bot"]["revoked"], tokens["bot"]["created"])

        text = self.token_cmd("list")
        self.assertEqual(text.rc, EXIT_OK, text)
        rows = {l.split()[0]: l for l in text.lines}
        self.assertEqual(set(rows), {"alice", "bot", "boss"}, text)
        self.assertEqual(rows["bot"].split()[1], "agent", text)
        self.assertIn("revoked " + tokens["bot"]["revoked"], rows["bot"])
        self.assertNotIn("revoked", rows["alice"] + rows["boss"])
        self.assertEqual(rows["boss"].split()[1], "admin", text)

        for name in ("bot", "nobody"):  # already revoked; never made
            r = self.token_cmd("revoke", name)
            self.assertEqual(r.rc, EXIT_USAGE, (name, r))
            self.assertIn(f'"{name}"', r.err)
        self.assertEqual(self.listed()["bot"]["revoked"], tokens["bot"]["revoked"])


# ---- a shared PostgreSQL store ------------------------------------------------------------------

class SharedStoreTokenTest(pg_cluster.ClusterPerClass, TokenTest):
    """Tokens in the store's kaizen_tokens table: one cluster for the class, a database a test."""

    def setUp(self):
        super().setUp()
        self.db = f"kztok{next(_databases)}_{os.getpid()}"
        self.pg.psql(f'CREATE DATABASE "{self.db}" OWNER "{pg_cluster.DB_USER}"',
                     dbname="postgres")
        self.uri = self.pg.uri.rsplit("/", 1)[0] + "/" + self.db

    def sql(self, query):
        return self.pg.psql(query, dbname=self.db)

    def test_a_token_made_on_one_home_of_a_store_writes_through_another_homes_server_until_revoked(
            self):
        h1, h2, h3 = self.path("h1"), self.path("h2"), self.path("h3")
        alice = self.make_token("alice", "reviewer", home=h1, store=self.uri)
        bot = self.make_token("bot", "agent", home=h1, store=self.uri)
        # Kept in the database, as hashes only; not in the home that made them.
        rows = self.sql("select name, role, hash, revoked from kaizen_tokens order by name")
        self.assertEqual(rows.splitlines(), [f"alice|reviewer|{sha256_hex(alice)}|",
                                             f"bot|agent|{sha256_hex(bot)}|"])
        self.assertFalse(os.path.exists(os.path.join(h1, "config", "tokens.json")))
        # Any home on the store lists them, and a name valid in the store is taken from all.
        r = self.token_cmd("list", "--json", "--store", self.uri, home=h3)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual({t["name"]: t["role"] for t in strict_loads(r.out)["tokens"]},
                         {"alice": "reviewer", "bot": "agent"})
        r = self.token_cmd("create", "--name", "alice", "--store", self.uri, home=h2)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("already", r.err)

        s = self.serve(h2, "--store", self.uri)
        made = self.assert_stored(s.request("POST", "/v1/feedback", own_feedback(), token=alice))
        self.assertEqual(self.exported(h2, "--store", self.uri)[made]["reviewerId"], "alice")
        self.assertEqual(self.sql(f"select reviewer from kaizen_events where id = '{made}'"),
                         "alice\n")
        self.assert_forbidden(s.request("POST", "/v1/feedback", own_feedback(reviewerId="jake"),
                                        token=alice), '"jake"', '"alice"')
        # The roles hold on the other home's server too.
        self.assert_forbidden(s.request("POST", "/v1/feedback", own_feedback(), token=bot),
                              "agent")
        self.assert_stored(s.request("POST", "/v1/outcome", outcome_event(), token=bot))

        # Revoked from the first home: the second home's server refuses it within seconds.
        r = self.token_cmd("revoke", "alice", "--store", self.uri, home=h1)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertRegex(self.sql("select revoked from kaizen_tokens where name = 'alice'").strip(),
                         ISO_TIME)
        took, _ = self.wait_for_status(s, alice, 403)
        print(f"\n  revocation reached the other home's server after {took * 1000:.0f} ms",
              flush=True)
        self.assert_stays(s, alice, 403)
        self.assert_stored(s.request("POST", "/v1/outcome", outcome_event(), token=bot))
        self.assertEqual(int(self.sql("select count(*) from kaizen_events where reviewer = "
                                      "'alice'")), 1)

    def test_a_server_without_the_store_does_not_know_the_stores_tokens(self):
        alice = self.make_token("alice", "reviewer", home=self.path("h1"), store=self.uri)
        s = self.serve(self.path("h1"))  # the same home, but not on the store
        status, _, body = s.request("POST", "/v1/outcome", outcome_event(), token=alice)
        self.assertEqual(status, 403, body)


if __name__ == "__main__":
    unittest.main()
