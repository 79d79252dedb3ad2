"""Bad command-line arguments and option values: a usage error (exit 2) that names the option, the
value and the rule, before anything is written to the home."""

import os
import unittest

from kzlib import (EXIT_OK, EXIT_USAGE, NOW, REPO, KaizenTest, jsonl, kaizen, outcome_event)

EMPTY = "an empty value is not allowed"


class UsageError(KaizenTest):

    def assert_usage(self, r, *fragments):
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertEqual(r.out, "", r)
        for f in fragments:
            self.assertIn(f, r.err, r)
        return r

    def assert_no_home(self):
        self.assertFalse(os.path.exists(self.home), f"the refused run made {self.home}")


class EmptyValues(UsageError):
    """CLI11 read an empty value as "not given": each verb then fell back to its default."""

    def test_empty_home_is_refused_not_taken_as_the_filesystem_root(self):
        # `--home ""` put the home at "/" (""+"/feedback"): `config` read /config/learning.json,
        # and `record`/`import` wrote /.lock and /feedback/ there.
        self.assert_usage(self.kz("config", "--home", ""), f"--home: {EMPTY}")

    def test_empty_now_is_refused_not_read_as_the_system_clock(self):
        r = self.kz("record", "outcome", "--home", self.home, "--now", "",
                    input=jsonl(outcome_event()))
        self.assert_usage(r, f"--now: {EMPTY}")
        self.assert_no_home()

    def test_empty_since_is_refused_not_read_as_no_filter(self):
        self.assert_usage(self.export("--since", ""), f"--since: {EMPTY}")

    def test_serve_with_an_empty_host_is_refused_not_bound_to_every_interface(self):
        # It listened on 0.0.0.0 instead of the loopback default (and so ran until killed).
        r = self.kz("serve", "--host", "", "--port", "0", "--home", self.home, timeout=20)
        self.assert_usage(r, f"--host: {EMPTY}")
        self.assert_no_home()

    def test_git_scan_with_an_empty_agent_pattern_is_refused_not_matching_every_author(self):
        r = self.kz("git", "scan", REPO, "--agent", "", "--dry-run", "--home", self.home,
                    "--now", NOW)
        self.assert_usage(r, f"--agent: {EMPTY}")

    def test_empty_seed_is_refused_not_read_as_seed_zero(self):
        self.assert_usage(self.kz("gen", "--events", "1", "--seed", ""), "--seed: ")

    def test_empty_file_positional_is_a_usage_error(self):
        # It was `cannot read : No such file or directory`, exit 3 (a system failure).
        r = self.kz("import", "", "--home", self.home, "--now", NOW)
        self.assert_usage(r, f"FILE: {EMPTY}")
        self.assert_no_home()


class HomeIsAFile(UsageError):

    def test_home_that_is_a_file_is_a_usage_error_naming_it(self):
        f = self.write("not-a-dir", "keep me\n")
        r = self.kz("record", "outcome", "--home", f, "--now", NOW, input=jsonl(outcome_event()))
        self.assert_usage(r, f'--home: "{f}" is a file, not a directory')
        with open(f) as kept:
            self.assertEqual(kept.read(), "keep me\n")

    def test_config_with_a_file_for_home_is_refused_not_answered_with_defaults(self):
        f = self.write("not-a-dir", "")
        self.assert_usage(self.kz("config", "--home", f), f'--home: "{f}" is a file')


class Seeds(UsageError):
    """CLI11 wrapped "-1" to 2^64-1 and saturated larger seeds at it: one history for them all."""

    def test_negative_seed_is_refused_not_wrapped(self):
        r = self.kz("gen", "--events", "1", "--seed", "-1")
        self.assert_usage(r, '--seed: "-1" is not a whole number from 0 to 18446744073709551615')

    def test_seed_past_64_bits_is_refused_not_saturated(self):
        self.assert_usage(self.kz("gen", "--events", "1", "--seed", "18446744073709551616"),
                          '--seed: "18446744073709551616"')
        self.assert_usage(self.kz("simulate", "--days", "1", "--seed", "99999999999999999999"),
                          '--seed: "99999999999999999999"')

    def test_largest_seed_is_still_accepted(self):
        r = self.kz("gen", "--events", "1", "--seed", "18446744073709551615")
        self.assertEqual(r.rc, EXIT_OK, r)
        self.assertEqual(len(r.lines), 1, r)


class NotANumber(UsageError):
    """CLI::Range lets NaN through: every comparison with it is false."""

    def test_validate_refuses_nan_min_confidence(self):
        p = self.write("text.txt", "hello\n")
        r = self.kz("validate", p, "--min-confidence", "nan", "--home", self.home)
        self.assert_usage(r, '--min-confidence: "nan" is not a number')

    def test_loop_refuses_nan_budgets_before_running_anything(self):
        marker = self.path("ran")
        for flag in ("--max-cost", "--max-seconds"):
            r = self.kz("loop", "--evaluate", f"touch {marker}", "--refine", "true", flag, "NaN",
                        "--home", self.home)
            self.assert_usage(r, f'{flag}: "NaN" is not a number')
            self.assertFalse(os.path.exists(marker), "the evaluate command ran")
            self.assert_no_home()

    def test_rate_refuses_nan_timeout(self):
        r = self.kz("rate", "--task", "t1", "--score", "3", "--timeout", "nan", "--home",
                    self.home, "--now", NOW)
        self.assert_usage(r, '--timeout: "nan" is not a number')
        self.assert_no_home()


class RefusedBeforeWriting(UsageError):

    def test_serve_with_a_bad_now_writes_no_token_into_the_home(self):
        r = self.kz("serve", "--port", "0", "--now", "yesterday", "--home", self.home, timeout=20)
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn('--now: "yesterday"', r.err)
        self.assertNotIn("created the bearer token", r.err)
        self.assert_no_home()

    def test_forget_refuses_an_id_longer_than_any_stored_one_before_touching_the_log(self):
        self.record_ok("outcome", outcome_event())
        before = self.raw_bytes()
        r = self.kz("forget", "--user", "u" * 300, "--home", self.home, "--now", NOW)
        # It was exit 3 after the log was rewritten, with "run it again", which failed the same way.
        self.assert_usage(r, "kaizen forget: --user is 300 bytes; at most 256")
        self.assertNotIn("run it again", r.err)
        self.assertEqual(self.raw_bytes(), before)


class RejectFileIsAnInput(UsageError):
    """--reject is opened (emptied) before the input is read: it destroyed the input file."""

    def test_record_refuses_a_reject_file_that_is_its_input(self):
        data = jsonl(outcome_event())
        p = self.write("in.jsonl", data)
        r = self.kz("record", "outcome", p, "--reject", p, "--home", self.home, "--now", NOW)
        self.assert_usage(r, f'kaizen record: --reject "{p}" is the input FILE "{p}"')
        with open(p) as f:
            self.assertEqual(f.read(), data)
        self.assert_no_home()

    def test_import_refuses_a_reject_file_that_is_one_of_its_inputs_by_another_path(self):
        data = jsonl(outcome_event())
        first, second = self.write("a.jsonl", jsonl(outcome_event())), self.write("b.jsonl", data)
        other_spelling = os.path.join(self.tmp, ".", "b.jsonl")
        r = self.import_(first, second, "--reject", other_spelling)
        self.assert_usage(r, f'--reject "{other_spelling}" is the input FILE "{second}"')
        with open(second) as f:
            self.assertEqual(f.read(), data)
        self.assert_nothing_stored()


class UnknownVerb(UsageError):
    """CLI11 said only "A subcommand is required"."""

    def test_unknown_verb_is_named_with_the_verbs(self):
        r = kaizen("bogus")
        self.assert_usage(r, 'kaizen: "bogus" is not a verb (one of record, import,', "dashboard")

    def test_unknown_sub_verb_is_named_with_its_siblings(self):
        self.assert_usage(kaizen("reward", "bogus"),
                          'kaizen reward: "bogus" is not a verb (one of ci, coverage)')
        self.assert_usage(kaizen("pii", "nope"), 'kaizen pii: "nope" is not a verb (one of show)')

    def test_missing_verb_still_says_a_verb_is_required(self):
        r = kaizen()
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("A subcommand is required", r.err)


if __name__ == "__main__":
    unittest.main()
