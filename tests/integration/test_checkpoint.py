"""The learned state's checkpoint (feedback/indexes/learned.ckpt): a home that starts from its
checkpoint and folds only the log's tail answers `analyze --json`, `context` and `hints` byte for
byte as a copy of its raw log alone, and a checkpoint that no longer matches the log, the config
or its own bytes is not used."""

import json
import os
import re
import shutil
import time
import unittest

from kzlib import EXIT_OK, KaizenTest, feedback_event, generated_history, outcome_event, work_event

NOW = "2025-10-02T00:00:00Z"


class Checkpoint(KaizenTest):

    def setUp(self):
        super().setUp()
        r = self.import_(generated_history(self.tmp, 6000, 5))  # every kind
        self.assertEqual(r.rc, EXIT_OK, r)
        self.ckpt = self.hpath("feedback", "indexes", "learned.ckpt")

    def at(self, home, *args):
        r = self.kz(*args, "--home", home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        return r.out

    def info(self, home=None):
        r = self.kz("stats", "--json", "--home", home or self.home)
        self.assertEqual(r.rc, EXIT_OK, r)
        return json.loads(r.out)["checkpoint"]

    def wait_for_checkpoint(self, events):
        """The checkpoint is written by a detached process: wait until it holds `events`."""
        deadline = time.time() + 60
        while time.time() < deadline:
            info = self.info()
            if info["usable"] and info["events"] == events:
                return
            time.sleep(0.2)
        self.fail(f"no usable checkpoint of {events} events: {self.info()}")

    def raw_copy(self):
        """A new home holding only this one's raw log and config."""
        copy = self.path(f"raw-copy-{len(os.listdir(self.tmp))}")
        os.makedirs(os.path.join(copy, "feedback"))
        shutil.copytree(self.hpath("feedback", "raw"), os.path.join(copy, "feedback", "raw"))
        if os.path.isdir(self.hpath("config")):
            shutil.copytree(self.hpath("config"), os.path.join(copy, "config"))
        return copy

    def answers(self, home):
        hints = os.path.join(home, "HINTS.md")
        if os.path.exists(hints):
            os.remove(hints)
        self.at(home, "hints", hints)
        with open(hints, encoding="utf-8") as f:
            hints_text = f.read()
        return {
            "analyze": self.at(home, "analyze", "--json"),
            "context": self.at(home, "context"),
            "hints": hints_text,
        }

    def assert_same_answers_as_raw_log(self):
        mine = self.answers(self.home)
        # Each verb from a fresh copy: a copy's own first call writes a checkpoint in turn.
        for verb in mine:
            theirs = self.answers(self.raw_copy())[verb]
            self.assertEqual(mine[verb], theirs, f"{verb} differs from the raw log's")

    def append_tail(self):
        """Events after the checkpoint: new work, its review, a review of old work, outcomes."""
        old = next(e for e in self.stored_events() if e["kind"] == "work")["workProduct"]
        at = "2025-10-01T10:00:00Z"  # after the history: stored at the log's end
        self.record_ok("work", work_event(art_id="tail-art", prediction=7, timestamp=at))
        self.record_ok("feedback", feedback_event(work_ref={"id": "tail-art"}, timestamp=at))
        self.record_ok("feedback", feedback_event(
            work_ref={"id": old["id"], "version": old["version"]}, timestamp=at,
            decision={"decision": "rejected", "reason": "the error handling swallows failures"}))
        for _ in range(3):
            self.record_ok("outcome", outcome_event(timestamp=at))

    def test_import_leaves_a_checkpoint_the_first_verb_starts_from(self):
        # Written before import returns, not by a detached process: no wait.
        self.assertEqual(self.info(), {"usable": True, "events": 6000, "whyNot": None})
        # A second history lands in old day files, so the checkpoint no longer matches the log:
        # the import folds all of it again. (Some of its work versions are already recorded.)
        r = self.import_(generated_history(self.tmp, 3000, 9))
        stored = int(re.match(r"imported (\d+) events", r.out).group(1))
        self.assertGreater(stored, 2900, r)
        self.assertEqual(self.info()["events"], 6000 + stored)
        self.assertTrue(self.info()["usable"])
        self.assert_same_answers_as_raw_log()

    def test_a_home_with_its_checkpoint_answers_as_its_raw_log(self):
        self.at(self.home, "analyze", "--json")  # folds everything, writes the checkpoint
        self.wait_for_checkpoint(6000)
        self.assert_same_answers_as_raw_log()
        self.append_tail()
        self.assertTrue(self.info()["usable"])  # the tail does not make it stale
        self.assert_same_answers_as_raw_log()

    def test_a_stale_or_damaged_checkpoint_is_not_used_and_answers_stay_right(self):
        self.at(self.home, "analyze", "--json")
        self.wait_for_checkpoint(6000)
        # The config changed: another learning, another checkpoint.
        os.makedirs(self.hpath("config"), exist_ok=True)
        with open(self.hpath("config", "learning.json"), "w") as f:
            json.dump({"gates": {"hard": 0.9}}, f)
        self.assertEqual(self.info()["whyNot"], "the learning config changed")
        self.assert_same_answers_as_raw_log()
        os.remove(self.hpath("config", "learning.json"))
        self.at(self.home, "analyze", "--json")  # the default config again: a new checkpoint
        self.wait_for_checkpoint(6000)
        # Its bytes damaged: one bit of the state flipped.
        with open(self.ckpt, "r+b") as f:
            f.seek(-100, os.SEEK_END)
            b = f.read(1)
            f.seek(-100, os.SEEK_END)
            f.write(bytes([b[0] ^ 0x01]))
        self.assertEqual(self.info()["whyNot"], "damaged")
        self.assert_same_answers_as_raw_log()
        self.wait_for_checkpoint(6000)
        # An event stored in an old day's file (not the log's end): the log changed before the
        # checkpoint's end, so it is folded again from the start.
        self.record_ok("outcome", outcome_event(timestamp="2025-07-02T10:00:00Z"))
        self.assertFalse(self.info()["usable"])
        self.assert_same_answers_as_raw_log()

    def test_forget_rewrites_the_log_and_the_checkpoint_goes(self):
        self.at(self.home, "analyze", "--json")
        self.wait_for_checkpoint(6000)
        reviewer = next(e["reviewerId"] for e in self.stored_events()
                        if e["kind"] == "feedback" and e.get("reviewerId"))
        r = self.kz("forget", "--user", reviewer, "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertFalse(self.info()["usable"])
        self.assert_same_answers_as_raw_log()


if __name__ == "__main__":
    unittest.main()
