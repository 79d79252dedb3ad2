"""`kaizen rate`: seed 001 tier 2, a 1-5 rating with one key, through the binary.

The terminal is a pseudo-terminal (python's pty module): the test plays the person at the keyboard.
Normalization (seed 001): 1..5 -> 0.0/0.25/0.5/0.75/1.0.
"""

import signal
import subprocess
import time
import unittest

from kzlib import BIN, EXIT_OK, EXIT_USAGE, NOW, KaizenTest, on_terminal, strict_loads


class RateTest(KaizenTest):

    def rewards(self):
        r = self.export("--kind", "reward")
        self.assertEqual(r.rc, EXIT_OK, r)
        return [strict_loads(l) for l in r.lines]

    def on_terminal(self, keys, *args, signal_instead=None):
        """Runs `kaizen rate ARGS` on a pseudo-terminal, types `keys` (or sends it the signal
        `signal_instead`) once the question shows, checks the terminal's settings were restored,
        and returns (exit status, everything the terminal showed)."""
        action = keys if signal_instead is None else (lambda p: p.send_signal(signal_instead))
        rc, shown, restored = on_terminal(
            [BIN, "rate", *args, "--home", self.home, "--now", NOW],
            [(b"[1-5, Enter=skip]", action)])
        self.assertTrue(restored, "the terminal was not restored")
        return rc, shown

class Terminal(RateTest):

    def test_one_key_stores_the_rating(self):
        rc, shown = self.on_terminal(b"4", "--task", "T-9")
        self.assertEqual(rc, EXIT_OK, shown)
        self.assertIn("Rate this task (T-9) [1-5, Enter=skip]: 4", shown)
        self.assertIn("recorded 4/5 (satisfaction 0.75)", shown)
        [e] = self.rewards()
        self.assertEqual((e["signal_type"], e["raw_value"], e["signal_value"], e["source"],
                          e["task_id"]), ("satisfaction", 4, 0.75, "human", "T-9"))
        self.assertEqual(e["context"], {"via": "kaizen rate", "asked": True,
                                        "question": "Rate this task (T-9)"})

    def test_session_rating_uses_the_question_given(self):
        rc, shown = self.on_terminal(b"1", "--session", "s-1", "--question", "How did it go?")
        self.assertEqual(rc, EXIT_OK, shown)
        self.assertIn("How did it go? [1-5, Enter=skip]:", shown)
        [e] = self.rewards()
        self.assertEqual((e["signal_type"], e["signal_value"], e["session_id"]),
                         ("session_productivity", 0, "s-1"))
        self.assertEqual(e["context"]["question"], "How did it go?")

    def skips(self):
        return [e for e in self.stored_events() if e["kind"] == "admin"]

    def test_enter_records_a_skip_not_a_rating(self):
        rc, shown = self.on_terminal(b"\r", "--task", "T-9")
        self.assertEqual(rc, EXIT_OK, shown)
        self.assertIn("skipped (no rating given); recorded as skipped", shown)
        self.assertEqual(self.rewards(), [])
        [skip] = self.skips()
        self.assertEqual((skip["action"], skip["task_id"], skip["question"], skip["note"]),
                         ("skip", "T-9", "Rate this task (T-9)", "no rating given"))

    def test_escape_records_a_skip(self):
        rc, shown = self.on_terminal(b"\x1b", "--session", "s-2")
        self.assertEqual(rc, EXIT_OK, shown)
        [skip] = self.skips()
        self.assertEqual(skip["session_id"], "s-2")

    def test_the_response_rate_is_ratings_given_over_times_asked(self):
        """seed 001 "Feedback response rate: filled vs. skipped", in the analysis and on the
        dashboard's success metrics."""
        for keys in (b"4", b"\r", b"5", b"\x1b"):
            rc, shown = self.on_terminal(keys, "--task", "T-1")
            self.assertEqual(rc, EXIT_OK, shown)
        r = self.kz("analyze", "--json", "--only", "signals", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        rate = strict_loads(r.out)["signals"]["responseRate"]
        self.assertEqual((rate["n"], rate["value"]), (4, 0.5))
        self.assertEqual(rate["trend"][-1]["n"], 4)

    def test_other_keys_are_ignored_until_a_rating(self):
        rc, shown = self.on_terminal(b"x9 2")
        self.assertEqual(rc, EXIT_OK, shown)
        self.assertEqual(self.rewards()[0]["raw_value"], 2)

    def test_ctrl_c_cancels_records_the_skip_and_restores_the_terminal(self):
        rc, shown = self.on_terminal(b"\x03")
        self.assertEqual(rc, 130, shown)
        self.assertIn("cancelled", shown)
        self.assertEqual(self.rewards(), [])
        self.assertEqual([e["note"] for e in self.skips()], ["cancelled"])


    def test_signals_restore_the_terminal(self):
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            rc, shown = self.on_terminal(b"", signal_instead=sig)
            self.assertEqual(rc, -sig, shown)  # ended by the signal, as it should
        self.assertEqual(self.raw_lines(), [])

    def test_no_key_within_the_timeout_skips(self):
        rc, shown = self.on_terminal(b"", "--timeout", "0.5")
        self.assertEqual(rc, EXIT_OK, shown)
        self.assertIn("no key pressed in 0.5 s", shown)
        self.assertEqual([e["note"] for e in self.skips()], ["no key pressed in 0.5 s"])


class NotATerminal(RateTest):

    def test_returns_at_once_and_records_nothing(self):
        # stdin is an open pipe nobody writes to: reading it would block for ever.
        start = time.monotonic()
        proc = subprocess.Popen([BIN, "rate", "--task", "T-1", "--home", self.home],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        try:
            proc.wait(timeout=10)
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stdin.close()
        self.assertLess(time.monotonic() - start, 10)
        self.assertEqual(proc.returncode, EXIT_OK)
        with proc.stdout, proc.stderr:
            err = proc.stderr.read().decode()
        self.assertEqual(len(err.strip().split("\n")), 1, err)
        self.assertIn("skipped", err)
        self.assertEqual(self.raw_lines(), [])

    def test_score_flag_records_without_asking(self):
        r = self.kz("rate", "--task", "T-1", "--score", "5", "--home", self.home, "--now", NOW,
                    "--json")
        self.assertEqual(r.rc, EXIT_OK, r)
        out = strict_loads(r.out_bytes)
        self.assertEqual((out["signal_type"], out["raw_value"], out["signal_value"]),
                         ("satisfaction", 5, 1))
        [e] = self.rewards()
        self.assertEqual(e["id"], out["id"])
        self.assertEqual(e["context"], {"via": "kaizen rate", "asked": False},
                         "nobody was asked: no question recorded")

    def test_score_out_of_range_is_a_usage_error(self):
        for bad in ("0", "6", "three"):
            r = self.kz("rate", "--score", bad, "--home", self.home)
            self.assertEqual(r.rc, EXIT_USAGE, r)
        r = self.kz("rate", "--task", "a", "--session", "b", "--score", "3", "--home", self.home)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertEqual(self.raw_lines(), [])

    def test_help_shows_a_git_hook(self):
        r = self.kz("rate", "--help")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertIn("post-commit", r.out)
        self.assertIn("< /dev/tty", r.out)


if __name__ == "__main__":
    unittest.main()
