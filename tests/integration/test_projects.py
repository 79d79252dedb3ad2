"""Projects (issue 30 item 5): rules, context and hints per project on top of a global layer.

A team's reviews name the repository they concern (`repository` on feedback or on the work it
reviews; a prompt's `project` is the directory the agent worked in). While the log names one
project every rule holds everywhere, as for one person. Once it names two, a rule holds where
its evidence confirmed it; a rule confirmed in two projects is promoted to every project (seed
004 "Pattern Promotion Across Projects"). `kaizen rules` says where each holds; `kaizen context`,
`kaizen hints FILE`, the MCP tools and the session-start hook tell an agent the rules of the
project it works in.
"""

import json
import os
import subprocess
import unittest

from kzlib import (EXIT_OK, KaizenTest, feedback_event, jsonl, kaizen, strict_loads, unique,
                   work_event, work_product)

NOW = "2025-07-20T00:00:00Z"

# What reviewers wrote, in their words: the api's calls fail under load, the webapp's names are
# unreadable.
API_BLOCKERS = ["No retries or backoff on the API calls",
                "add retries: the client gives up on the first 503",
                "needs retry with backoff around the payment call"]
WEBAPP_BLOCKERS = ["variable names are cryptic", "what do tmp2 and fooMgr mean? rename them",
                   "unclear names throughout the form component"]


def rejection(day, blocker, **extra):
    return feedback_event(timestamp=f"2025-07-{day:02d}T10:00:00Z",
                          decision={"decision": "rejected", "severity": "major",
                                    "reason": "not ready", "blockers": [blocker]}, **extra)


def reviews_of(repository, blockers, days=range(1, 9)):
    """Rejections of the repository's work on each day, the feedback naming it directly."""
    return [rejection(d, blockers[d % len(blockers)], repository=repository) for d in days]


def reviews_by_work(repository, blockers, days=range(1, 9)):
    """The same through `work` events: the feedback names the work, the work its repository."""
    events = []
    for d in days:
        art = unique("art")
        events.append(work_event(art, timestamp=f"2025-07-{d:02d}T08:00:00Z",
                                 repository=repository))
        events.append(rejection(d, blockers[d % len(blockers)],
                                work_ref={"id": art, "version": "v1"}))
    return events


def git_repo(path):
    os.makedirs(path)
    subprocess.run(["git", "init", "-q", path], check=True)
    return path


class ProjectsTest(KaizenTest):
    def import_ok(self, events):
        r = self.import_("-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)

    def rules(self, *flags):
        r = self.kz("rules", "--home", self.home, "--now", NOW, "--json", *flags)
        self.assertEqual(r.rc, EXIT_OK, r)
        return {rule["id"]: rule for rule in strict_loads(r.out)["rules"]}

    def context_patterns(self, project):
        r = self.kz("context", "--home", self.home, "--now", NOW, "--json", "--project", project)
        self.assertEqual(r.rc, EXIT_OK, r)
        doc = strict_loads(r.out)
        return doc, {p["id"] for p in doc["patterns"]}

    def two_projects(self):
        self.import_ok(reviews_of("acme/api", API_BLOCKERS) +
                       reviews_by_work("acme/webapp", WEBAPP_BLOCKERS))
        return self.rules()

    def test_a_rule_confirmed_in_one_repository_holds_there_only(self):
        rules = self.two_projects()
        retries, naming = rules["rule-retries"], rules["rule-naming"]
        self.assertEqual((retries["status"], naming["status"]), ("active", "active"))
        self.assertEqual(retries["holdsIn"], ["api"])
        self.assertEqual(naming["holdsIn"], ["webapp"])  # named by its work event
        self.assertFalse(retries["promotedToGlobal"])
        self.assertEqual(retries["projects"], [{"name": "api", "occurrences": 8, "positive": 0,
                                                "days": 8, "confirmed": True}])
        text = self.kz("rules", "--home", self.home, "--now", NOW).out
        self.assertIn("holds in api only; cited in api 8x on 8 days, confirmed", text)
        self.assertEqual(set(self.rules("--project", "webapp")), {"rule-naming"})
        self.assertEqual(set(self.rules("--project", "/home/ana/src/api/")), {"rule-retries"})
        # The improvement log says where each promoted rule holds.
        r = self.kz("render", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        log = open(os.path.join(self.home, "memory", "improvement-log.md")).read()
        self.assertIn("Holds in: api only", log)
        self.assertIn("Holds in: webapp only", log)

    def test_context_and_hints_tell_each_project_its_own_rules(self):
        rules = self.two_projects()
        doc, ids = self.context_patterns("/home/ana/src/webapp")
        self.assertEqual(doc["query"]["project"], "webapp")
        self.assertIn("rule-naming", ids)
        self.assertNotIn("rule-retries", ids)
        _, ids = self.context_patterns("api")
        self.assertIn("rule-retries", ids)
        self.assertNotIn("rule-naming", ids)
        _, ids = self.context_patterns("docs")  # a project with no rules of its own
        self.assertEqual(ids & {"rule-retries", "rule-naming"}, set())
        # A hints file in a clone of the api, written from a subdirectory's point of view too.
        api = git_repo(self.path("src", "api"))
        hints = os.path.join(api, "AGENTS.md")
        r = self.kz("hints", hints, "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        text = open(hints).read()
        self.assertIn(rules["rule-retries"]["prompt_instruction"], text)
        self.assertNotIn(rules["rule-naming"]["prompt_instruction"], text)
        self.assertNotIn("Names are descriptive", text)  # webapp's checklist item
        r = self.kz("hints", hints, "--home", self.home, "--now", NOW, "--project", "webapp")
        text = open(hints).read()
        self.assertIn(rules["rule-naming"]["prompt_instruction"], text)
        self.assertNotIn(rules["rule-retries"]["prompt_instruction"], text)

    def test_a_rule_confirmed_in_two_repositories_is_promoted_to_every_project(self):
        self.import_ok(reviews_of("acme/api", API_BLOCKERS) +
                       reviews_of("acme/webapp", API_BLOCKERS) +
                       reviews_of("acme/docs", WEBAPP_BLOCKERS, days=range(1, 3)))
        retries = self.rules()["rule-retries"]
        self.assertTrue(retries["promotedToGlobal"])
        self.assertEqual(retries["holdsIn"], [])
        self.assertEqual([p["name"] for p in retries["projects"] if p["confirmed"]],
                         ["api", "webapp"])
        _, ids = self.context_patterns("docs")
        self.assertIn("rule-retries", ids)
        text = self.kz("rules", "--home", self.home, "--now", NOW).out
        self.assertIn("holds in every project (promoted: confirmed in api, webapp)", text)

    def test_one_repository_keeps_every_rule_global(self):
        """One person's home: whatever the directory asked from, every rule is told."""
        self.import_ok(reviews_of("acme/api", API_BLOCKERS))
        retries = self.rules()["rule-retries"]
        self.assertEqual(retries["holdsIn"], [])
        _, ids = self.context_patterns("somewhere-else")
        self.assertIn("rule-retries", ids)

    def test_a_project_that_only_cited_a_rule_does_not_get_it(self):
        self.import_ok(reviews_of("acme/api", API_BLOCKERS) +
                       reviews_of("acme/webapp", API_BLOCKERS, days=range(1, 3)))
        retries = self.rules()["rule-retries"]
        self.assertEqual(retries["holdsIn"], ["api"])
        self.assertEqual([(p["name"], p["occurrences"], p["confirmed"])
                          for p in retries["projects"]],
                         [("api", 8, True), ("webapp", 2, False)])
        _, ids = self.context_patterns("webapp")
        self.assertNotIn("rule-retries", ids)


class ProjectHooksTest(KaizenTest):
    """The session-start hook in a clone: the agent is told that project's rules, and what a
    person told it there stays there."""

    def setUp(self):
        super().setUp()
        self.webapp = git_repo(self.path("src", "webapp"))
        self.home = os.path.join(self.webapp, ".kaizen")
        os.makedirs(self.home)

    def hook(self, event, cwd, **extra):
        payload = {"session_id": unique("s"), "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
                   "hook_event_name": event}
        payload.update(extra)
        r = kaizen("hook", "--now", NOW, "--home", self.home, input=json.dumps(payload), cwd=cwd)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r

    def session_context(self, cwd):
        r = self.hook("SessionStart", cwd)
        return strict_loads(r.lines[0])["hookSpecificOutput"]["additionalContext"]

    def test_session_start_tells_the_agent_the_rules_of_its_project(self):
        r = self.import_("-", input=jsonl(*(reviews_of("acme/api", API_BLOCKERS) +
                                             reviews_of("acme/webapp", WEBAPP_BLOCKERS))))
        self.assertEqual(r.rc, EXIT_OK, r)
        rules = {x["id"]: x for x in strict_loads(self.kz(
            "rules", "--home", self.home, "--now", NOW, "--json").out)["rules"]}
        sub = os.path.join(self.webapp, "src", "components")
        os.makedirs(sub)
        context = self.session_context(sub)
        self.assertIn(rules["rule-naming"]["prompt_instruction"], context)
        self.assertNotIn(rules["rule-retries"]["prompt_instruction"], context)

    def test_each_hints_file_gets_the_rules_of_the_clone_it_lies_in(self):
        """A clone inside the project (a submodule, a vendored service) has a hints file of its
        own: the session start writes each file its own project's rules."""
        api = git_repo(os.path.join(self.webapp, "services", "api"))
        os.makedirs(os.path.join(self.home, "config"), exist_ok=True)
        with open(os.path.join(self.home, "config", "hints.json"), "w") as f:
            json.dump({"files": ["CLAUDE.md", "services/api/AGENTS.md"]}, f)
        r = self.import_("-", input=jsonl(*(reviews_of("acme/api", API_BLOCKERS) +
                                             reviews_of("acme/webapp", WEBAPP_BLOCKERS))))
        self.assertEqual(r.rc, EXIT_OK, r)
        rules = {x["id"]: x for x in strict_loads(self.kz(
            "rules", "--home", self.home, "--now", NOW, "--json").out)["rules"]}
        self.hook("SessionStart", self.webapp)
        webapp_md = open(os.path.join(self.webapp, "CLAUDE.md")).read()
        api_md = open(os.path.join(api, "AGENTS.md")).read()
        self.assertIn(rules["rule-naming"]["prompt_instruction"], webapp_md)
        self.assertNotIn(rules["rule-retries"]["prompt_instruction"], webapp_md)
        self.assertIn(rules["rule-retries"]["prompt_instruction"], api_md)
        self.assertNotIn(rules["rule-naming"]["prompt_instruction"], api_md)

    def test_an_instruction_said_in_one_project_is_told_there_only(self):
        sub = os.path.join(self.webapp, "src")
        os.makedirs(sub)
        self.hook("UserPromptSubmit", sub, prompt="no, use pnpm, not npm")
        [prompt] = [e for e in self.stored_events() if e["kind"] == "prompt"]
        self.assertEqual(prompt["project"], self.webapp)  # the clone's top, not the subdirectory
        api = git_repo(self.path("src", "api"))
        self.hook("UserPromptSubmit", api, prompt="no, run cargo clippy before committing")

        def told(project):
            r = self.kz("context", "--home", self.home, "--now", NOW, "--json", "--project",
                        project)
            return " | ".join(strict_loads(r.out)["told"])
        self.assertIn("use pnpm", told(self.webapp))
        self.assertNotIn("cargo clippy", told(self.webapp))
        self.assertIn("cargo clippy", told("api"))
        self.assertNotIn("use pnpm", told("api"))
        self.assertIn("use pnpm", self.session_context(self.webapp))


if __name__ == "__main__":
    unittest.main()
