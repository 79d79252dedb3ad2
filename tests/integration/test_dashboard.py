"""`kaizen dashboard`: the KPI panel of seed 000 §7.1 and the §7.3 alerts, as a box in a terminal.

The history is generated (`kaizen gen --events 3000 --seed 3 | kaizen import -`) and read at
`--now end`. Color is decided by --color, NO_COLOR and whether stdout is a terminal; box drawing
by the locale (LC_ALL / LC_CTYPE / LANG).
"""

import os
import pty
import shutil
import subprocess
import tempfile
import unittest

from kzlib import (BIN, EXIT_OK, EXIT_USAGE, KaizenTest, feedback_event, jsonl, kaizen,
                   strict_loads, work_event)

KPI_NAMES = ("Approval Rate", "Avg Quality Score", "Time-to-Decision", "Prediction Accuracy",
             "Auto-Approve Rate", "Feedback Volume", "Rule Effectiveness", "Regression Rate")
KPI_KEYS = ("approvalRate", "avgQualityScore", "timeToDecisionSeconds", "predictionError",
            "autoApproveRate", "feedbackPerWeek", "ruleEffectiveness", "regressionRate")
ESC = "\x1b["


def env_with(**changes):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "LC_ALL", "LC_CTYPE",
                                                            "LANG", "TERM")}
    env.update({k: v for k, v in changes.items() if v is not None})
    return env


def run(args, env, tty=False):
    """Runs the binary with `env`; with `tty`, stdout is a pseudo-terminal. Returns (rc, text)."""
    if not tty:
        p = subprocess.run([BIN] + args, env=env, capture_output=True, timeout=120,
                           stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen([BIN] + args, env=env, stdout=slave, stderr=subprocess.DEVNULL,
                             stdin=subprocess.DEVNULL)
        os.close(slave)
        slave = None
        chunks = []
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        rc = p.wait(timeout=120)
    finally:
        if slave is not None:
            os.close(slave)
        os.close(master)
    return rc, b"".join(chunks).decode("utf-8", "replace").replace("\r\n", "\n")


class Dashboard(KaizenTest):
    home_dir = None

    @classmethod
    def setUpClass(cls):
        cls.tmp_class = tempfile.mkdtemp(prefix="kaizen-dash-")
        cls.home_dir = os.path.join(cls.tmp_class, "home")
        gen = kaizen("gen", "--events", "3000", "--seed", "3")
        assert gen.rc == 0, gen
        imp = kaizen("import", "-", "--home", cls.home_dir, input=gen.out_bytes)
        assert imp.rc == 0, imp

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp_class, True)

    def dash(self, *flags, tty=False, home=None, **env):
        args = ["dashboard", "--home", home or self.home_dir, "--now", "end", *flags]
        rc, out = run(args, env_with(**env), tty=tty)
        self.assertEqual(rc, EXIT_OK, out)
        return out

    def kpi_line(self, box, name):
        [line] = [l for l in box.split("\n") if l[2:].startswith(name + " ")]
        return line

    def test_piped_output_has_no_escape_codes(self):
        box = self.dash(LANG="C.UTF-8")
        self.assertNotIn("\x1b", box)
        self.assertIn("KAIZEN LEARNING DASHBOARD", box)

    def test_color_always_colors_even_when_piped(self):
        box = self.dash("--color", "always", LANG="C.UTF-8")
        self.assertIn(ESC, box)
        self.assertTrue(any(c in box for c in (ESC + "32m", ESC + "33m", ESC + "31m")), box)

    def test_terminal_gets_color_and_no_color_wins_over_auto(self):
        self.assertIn(ESC, self.dash(tty=True, LANG="C.UTF-8"))
        self.assertNotIn("\x1b", self.dash(tty=True, LANG="C.UTF-8", NO_COLOR="1"))
        self.assertNotIn("\x1b", self.dash("--color", "never", tty=True, LANG="C.UTF-8"))
        # An explicit --color always is the user asking: it beats NO_COLOR.
        self.assertIn(ESC, self.dash("--color", "always", NO_COLOR="1"))

    def test_every_kpi_is_shown_within_80_columns(self):
        box = self.dash(LANG="en_US.UTF-8")
        for name in KPI_NAMES:
            self.kpi_line(box, name)
        lines = [l for l in box.split("\n") if l]
        self.assertGreater(len(lines), 12)
        for line in lines:
            self.assertEqual(len(line), 80, line)
        self.assertTrue(lines[0].startswith("┌") and lines[-1].startswith("└"), box)
        self.assertIn("Alerts", box)

    def test_ascii_box_when_the_locale_is_not_utf8(self):
        for env in ({"LANG": "C"}, {}, {"LC_ALL": "POSIX", "LANG": "en_US.UTF-8"}):
            box = self.dash(**env)
            self.assertTrue(box.isascii(), (env, box))
            self.assertTrue(box.startswith("+---"), box)

    def test_json_matches_the_box(self):
        box = self.dash(LANG="C.UTF-8")
        data = strict_loads(self.dash("--json"))
        self.assertEqual([k["key"] for k in data["kpis"]], list(KPI_KEYS))
        self.assertEqual(len(data["windows"]), 3)
        self.assertIn(f"{data['events']} events", box)
        self.assertIn(data["now"], box)
        with_data = 0
        for k in data["kpis"]:
            line = self.kpi_line(box, k["name"])
            self.assertEqual(len(k["values"]), 3)
            self.assertEqual(k["current"], k["values"][-1])
            self.assertIn(k["target"], line)
            for value, text in zip(k["values"], k["text"]):
                self.assertEqual(value is None, text is None)
                if text is not None:
                    self.assertIn(text, line)
            if k["current"] is None:
                self.assertIn("no data", line)
            else:
                with_data += 1
                # The text is the number as printed: parse it back and compare.
                number = k["text"][-1].lstrip("±+").rstrip("%s").split("/")[0]
                decimals = len(number.split(".")[1]) if "." in number else 0
                scale = 100 if k["text"][-1].endswith("%") else 1
                self.assertAlmostEqual(float(number), k["current"] * scale,
                                       delta=0.5 * 10 ** -decimals + 1e-9, msg=k)
            self.assertIn(k["standing"], ("good", "fair", "poor", "none", "insufficient"))
            self.assertEqual(len(k["n"]), 3)
            if k["standing"] == "insufficient":
                self.assertLess(k["n"][-1], k["minN"])
                self.assertEqual(k["standingText"], f"not enough data (n = {k['n'][-1]})")
        self.assertGreaterEqual(with_data, 5, data)
        # The same alerts, in the same order, each with its level.
        alert_lines = [l for l in box.split("\n") if l.startswith("│   [")]
        self.assertEqual(len(alert_lines), len(data["alerts"]))
        for line, a in zip(alert_lines, data["alerts"]):
            self.assertTrue(line.startswith(f"│   [{a['level']}] "), (line, a))
        self.assertIn(f"{round(data['health'] * 100)}% on target", box)

    def test_empty_home_prints_the_box_with_no_data(self):
        empty = os.path.join(self.tmp, "empty")
        box = self.dash(home=empty, LANG="C.UTF-8")
        for name in KPI_NAMES:
            self.assertIn("no data", self.kpi_line(box, name))
        self.assertIn("no feedback events recorded yet", box)
        data = strict_loads(self.dash("--json", home=empty))
        self.assertEqual(data["events"], 0)
        self.assertIsNone(data["now"], "--now end on an empty log has no time")
        self.assertNotIn("1970", box)
        self.assertIsNone(data["health"])
        self.assertTrue(all(k["current"] is None for k in data["kpis"]))

    def test_a_kpi_below_its_minimum_n_says_not_enough_data_instead_of_a_verdict(self):
        # Three decided reviews: an approval rate of 100%, but far below the 5 a verdict needs.
        home = os.path.join(self.tmp, "thin")
        events = []
        for i in range(3):
            events.append(work_event(f"thin-{i}"))
            events.append(feedback_event({"id": f"thin-{i}", "version": "v1"}))
        r = kaizen("import", "-", "--home", home, input=jsonl(*events).encode())
        self.assertEqual(r.rc, EXIT_OK, r)
        box = self.dash(home=home, LANG="C.UTF-8")
        lines = box.split("\n")
        at = lines.index(self.kpi_line(box, "Approval Rate"))
        self.assertIn("100.0%", lines[at])
        self.assertIn("not enough data (n = 3)", lines[at + 1])
        data = strict_loads(self.dash("--json", home=home))
        approval = next(k for k in data["kpis"] if k["key"] == "approvalRate")
        self.assertEqual((approval["standing"], approval["standingText"], approval["minN"]),
                         ("insufficient", "not enough data (n = 3)", 5))
        self.assertIsNone(data["health"], "no KPI judged from three reviews")
        self.assertIn("Overall Health      no data", box)
        # Colored, the withheld verdict has no color: neither green nor red.
        colored = self.dash("--color", "always", home=home, LANG="C.UTF-8")
        self.assertNotIn(ESC, self.kpi_line(colored, "Approval Rate"))

    def test_bad_color_value_is_a_usage_error(self):
        r = kaizen("dashboard", "--home", self.home_dir, "--color", "sometimes")
        self.assertEqual(r.rc, EXIT_USAGE, r)
        self.assertIn("--color", r.err)


if __name__ == "__main__":
    unittest.main()
