#!/usr/bin/env python3
"""Runs every integration test against the built binary ($KAIZEN_BIN).

    KAIZEN_BIN=build/kaizen python3 tests/integration/run_all.py [-v] [-k PATTERN]

Ends with one line, `N passed, M failed`, and exits non-zero if anything failed.

Files: kzlib.py (helpers: run the binary in a throw-away home, valid events of every kind),
test_record.py, test_bad_input.py, test_import.py, test_durability.py, test_verify_rebuild.py,
test_export_stats.py, test_fuzz.py. Knobs (environment): KZ_FUZZ_SEED / KZ_FUZZ_ROUNDS for the
fuzz loop, KZ_KILL_DELAY to move the kill -9 point (seconds), KZ_DEBUG=1 to print where it landed.
"""

import argparse
import os
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))


class TimedResult(unittest.TextTestResult):
    """Remembers how long each test took, to name the slow ones (never asserted on)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.durations = []
        self._started = {}

    def startTest(self, test):
        self._started[test.id()] = time.monotonic()
        super().startTest(test)

    def stopTest(self, test):
        super().stopTest(test)
        start = self._started.pop(test.id(), None)
        if start is not None:
            self.durations.append((time.monotonic() - start, test.id()))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("-v", "--verbose", action="store_true", help="name every test as it runs")
    ap.add_argument("-k", dest="patterns", action="append", default=[],
                    help="only tests whose name contains this substring (repeatable)")
    opts = ap.parse_args()

    sys.path.insert(0, HERE)
    import kzlib  # noqa: E402

    if not os.access(kzlib.BIN, os.X_OK):
        print(f"no kaizen binary at {kzlib.BIN}: build it, or set KAIZEN_BIN", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1

    loader = unittest.TestLoader()
    if opts.patterns:
        loader.testNamePatterns = [f"*{p}*" for p in opts.patterns]
    suite = loader.discover(HERE, pattern="test_*.py", top_level_dir=HERE)

    runner = unittest.TextTestRunner(stream=sys.stdout, verbosity=2 if opts.verbose else 1,
                                     resultclass=TimedResult)
    start = time.monotonic()
    result = runner.run(suite)
    failed = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    # A test that cannot even be imported shows up as an error above, so it is counted.
    passed = result.testsRun - failed - len(result.skipped) - len(result.expectedFailures)
    slowest = sorted(result.durations, reverse=True)[:5]
    print(f"integration suite took {time.monotonic() - start:.1f} s; slowest: " +
          ", ".join(f"{name.split('.')[-1]} {secs:.1f} s" for secs, name in slowest),
          file=sys.stderr)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or result.testsRun == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
