"""Golden files: a fixed log and a fixed `now` render the same bytes as the files checked in.

tests/integration/golden/render/events.jsonl is the log (ten rejections about missing retries on
api-client work, ten approvals that praise the fix, a correction, an outcome); expected/ holds
every file `kaizen render` and `kaizen hints` write from it. After an intended change of output,
regenerate with KAIZEN_UPDATE_GOLDEN=1 and read the diff before committing it.
"""

import os
import shutil
import unittest

from kzlib import EXIT_OK, KaizenTest

NOW = "2026-01-01T00:00:00Z"
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "render")
EXPECTED = os.path.join(HERE, "expected")


def tree(root):
    """{relative path: bytes} of every file under root."""
    out = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, root)] = f.read()
    return out


class GoldenRenderTest(KaizenTest):
    def test_fixed_log_and_now_render_the_golden_bytes(self):
        r = self.kz("import", os.path.join(HERE, "events.jsonl"), "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        r = self.kz("render", "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        r = self.kz("hints", self.hpath("AGENTS.md"), "--home", self.home, "--now", NOW)
        self.assertEqual(r.rc, EXIT_OK, r)
        got = {}
        for top in ("memory", "prompts", "patterns"):
            for rel, data in tree(self.hpath(top)).items():  # empty when `top` was not written
                got[os.path.join(top, rel)] = data
        with open(self.hpath("AGENTS.md"), "rb") as f:
            got["AGENTS.md"] = f.read()
        if os.environ.get("KAIZEN_UPDATE_GOLDEN") == "1":
            shutil.rmtree(EXPECTED, ignore_errors=True)
            for rel, data in got.items():
                os.makedirs(os.path.dirname(os.path.join(EXPECTED, rel)), exist_ok=True)
                with open(os.path.join(EXPECTED, rel), "wb") as f:
                    f.write(data)
        expected = tree(EXPECTED)
        self.assertEqual(sorted(got), sorted(expected))
        for rel in sorted(expected):
            self.assertEqual(got[rel].decode(), expected[rel].decode(), rel)


if __name__ == "__main__":
    unittest.main()
