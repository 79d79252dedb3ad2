"""The dashboard (#/dashboard) and rule audit (#/audit) pages of `kaizen serve`, in a real browser.

A generated three-month history (8000 events) is imported, `kaizen serve` runs on it three days after its last
event (so the §7.3 "no feedback for 48+ hours" notice is up), and tests/js/web_dashboard.mjs drives
Debian's Chromium through playwright-core: it reads the KPI panel, the charts and the alerts, posts
a review through the API and refreshes, confirms a rule with the mouse, retires a correction
pattern with the keyboard, tries an audit without the token, and runs the accessibility audit
(tests/js/a11y.mjs) on both pages; then it opens every page (queue, review modal, dashboard,
audit) at 390 px and 1280 px wide. Python compares what the page showed with `kaizen analyze`,
`kaizen dashboard --json`, `kaizen export`, `kaizen rules` and `kaizen corrections`.

WebClockTest: a reviewer in another time zone, on a phone, reviews through the modal
(tests/js/web_clock.mjs); the queue and the stored review follow the reviewer's clock.

Fails (does not skip) when node, playwright-core or Chromium is missing.
"""

import datetime
import json
import os
import shutil
import subprocess
import unittest
import uuid

from kzlib import EXIT_OK, REPO, KaizenTest, jsonl, strict_loads, work_event
from test_serve import TOKEN, Server

JS_DIR = os.path.join(REPO, "tests", "js")
DRIVER = os.path.join(JS_DIR, "web_dashboard.mjs")
CLOCK_DRIVER = os.path.join(JS_DIR, "web_clock.mjs")
PLAYWRIGHT = os.path.join(JS_DIR, "node_modules", "playwright-core", "package.json")
CHROMIUM = "/usr/bin/chromium"
SHOTS = os.path.join(REPO, "build", "screenshots", "dashboard")
REVIEWER = "web-auditor"

# src/render/dashboard_box_test.cc StandingAgainstTargets: (key, newest value, trend, better) and
# the standing the C++ KpiStanding gives; the page's JavaScript port must agree.
STANDING_CASES = [
    ("approvalRate", 0.85, None, "up", "good"), ("approvalRate", 0.70, None, "up", "fair"),
    ("approvalRate", 0.69, None, "up", "poor"), ("avgQualityScore", 8.0, None, "up", "good"),
    ("predictionError", 0.5, None, "down", "good"), ("predictionError", 2.0, None, "down", "fair"),
    ("predictionError", 2.01, None, "down", "poor"), ("ruleEffectiveness", 0.3, None, "up", "good"),
    ("ruleEffectiveness", 0, None, "up", "fair"), ("ruleEffectiveness", -0.3, None, "up", "poor"),
    ("regressionRate", 0, None, "down", "good"), ("regressionRate", 0.05, None, "down", "fair"),
    ("regressionRate", 0.10, None, "down", "poor"),
    ("timeToDecisionSeconds", 60, "down", "down", "good"),
    ("timeToDecisionSeconds", 60, "flat", "down", "good"),
    ("timeToDecisionSeconds", 60, "up", "down", "fair"),
    ("timeToDecisionSeconds", 60, None, "down", "none"),
]


RATES = ("approvalRate", "autoApproveRate", "regressionRate")
ONE_DECIMAL = r"^[+-]?[0-9]+\.[0-9]$"


def time_of_day(hour):
    """ingest/enrich.cc TimeOfDay."""
    return ("morning" if 5 <= hour < 12 else "afternoon" if 12 <= hour < 17
            else "evening" if 17 <= hour < 21 else "night")


def utc_hour(iso):
    return int(iso[11:13])


def later(iso, hours):
    t = datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ") + datetime.timedelta(hours=hours)
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


class WebDashboardTest(KaizenTest):

    def json_verb(self, *args):
        r = self.kz(*args, "--home", self.home)
        self.assertEqual(r.rc, 0, r)
        return strict_loads(r.out)

    def setUp(self):
        super().setUp()
        self.node = shutil.which("node")
        self.assertIsNotNone(self.node, "node is not installed: `make js-deps` installs it")
        self.assertTrue(os.path.exists(PLAYWRIGHT),
                        "tests/js/node_modules lacks playwright-core: run `make js-deps`")
        self.assertTrue(os.access(CHROMIUM, os.X_OK), f"no Chromium at {CHROMIUM}")
        log = self.path("history.jsonl")
        r = self.kz("gen", "--events", "8000", "--seed", "7", "--out", log)
        self.assertEqual(r.rc, 0, r)
        r = self.kz("import", "--home", self.home, log)
        self.assertEqual(r.rc, 0, r)
        end = self.json_verb("analyze", "--json", "--now", "end")["now"]
        self.now = later(end, 72)  # 72 h of silence: the §7.3 48-hour notice fires

    def test_dashboard_and_rule_audit_in_the_browser(self):
        analysis = self.json_verb("analyze", "--json", "--now", self.now)
        box = self.json_verb("dashboard", "--json", "--now", self.now)
        rules = self.json_verb("rules", "--json", "--now", self.now)["rules"]
        patterns = self.json_verb("corrections", "--json", "--now", self.now)["patterns"]
        due = [r["id"] for r in rules if r["auditDue"]]
        self.assertGreaterEqual(len(due), 2, rules)
        rule_id, other_rule_id = due[0], due[1]
        pattern_id = next(p["pattern_id"] for p in patterns
                          if p["status"] == "active" and not p["rejected_by"])
        work = [strict_loads(l) for l in self.kz("export", "--kind", "work", "--home",
                                                  self.home).lines]
        wp = work[-1]["workProduct"]
        feedback = {
            "sessionId": "web-dashboard-test", "modalId": str(uuid.uuid4()),
            "workProduct": {"id": wp["id"], "version": wp["version"]},
            "pipelineStage": "review", "reviewerId": REVIEWER,
            "decision": {"decision": "approved", "reason": "clean and tested"},
            "scores": [{"dimension": "naming", "score": 8}],
            "meta": {"timeToDecisionMs": 30000, "deviceType": "desktop"},
        }
        plan = self.write("plan.json", json.dumps({
            "reviewer": REVIEWER, "feedback": feedback, "ruleId": rule_id,
            "patternId": pattern_id, "otherRuleId": other_rule_id,
            "standingCases": [c[:4] for c in STANDING_CASES]}))

        server = Server(self.home, "--now", self.now)
        self.addCleanup(server.kill)
        # The charts: each KPI's own 30-day window, rolled back a week at a time.
        status, _, weekly = server.request("GET", "/v1/kpis?windowDays=30&windows=13&stepDays=7",
                                           token=None)
        self.assertEqual(status, 200, weekly)
        weekly = weekly["kpis"]
        url = f"http://127.0.0.1:{server.port}"
        proc = subprocess.run([self.node, DRIVER, url, TOKEN, SHOTS, plan], capture_output=True,
                              timeout=120, cwd=JS_DIR)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        facts = json.loads(proc.stdout.decode().strip().split("\n")[-1])
        self.assertNotIn("failure", facts, facts.get("failure"))
        self.assertEqual(facts["pageErrors"], [])
        self.assertEqual(facts["consoleErrors"], [])
        self.assertEqual(server.stop(), 0, server.stderr)

        # The JavaScript port of dashboard_box.cc agrees with the C++ on its own test's cases.
        port = facts["port"]
        self.assertEqual(port["standings"], [c[4] for c in STANDING_CASES])
        self.assertEqual(port["onlyNewest"], "none")
        # good 1 + fair 0.5 + poor 0, the trend-less volume left out: 1.5 / 3.
        self.assertEqual(port["health"], {"health": 0.5, "n": 3})
        # Scores and score points with one decimal, as dashboard_box_test.cc
        # ScoresAndScorePointsHaveOneDecimal has them.
        self.assertEqual(port["formats"],
                         ["89.0%", "7.6", "±2.5", "50.0/wk", "62s", "+0.4", "-0.4",
                          "2s", "±0.2", "-0.0",  # fmt: "{:.0f}" 2.5, "{:.1f}" 0.25, -0.0
                          "6.6", "6.6"])
        # Below its minimum n a KPI says so instead of a verdict (the C++ test's case).
        self.assertEqual(port["thin"], {"standing": "insufficient",
                                        "text": "not enough data (n = 1)", "enough": "good",
                                        "noTrend": "no trend yet", "noData": "no data"})
        # A rate of 0 every week keeps its axis at 0-100% (it ran from -100% to 100%); a time
        # axis padded around one value stops at 0.
        self.assertEqual(port["zeroRateAxis"], {"yMin": 0, "yMax": 1,
                                                "ticks": ["100.0%", "0.0%", "a", "b"]})
        self.assertEqual(port["oneTimeAxisMin"], 0)
        # The level's label gives the real reason: a regression is not a new task type.
        self.assertEqual(port["autonomy"], [
            "Level 0 — regressed from level 1: review 100%",
            "Level 0 — new task type: review 100%",
            "Level 0 — not yet promoted: review 100%",
            "Level 2 — regressed from level 3: review 50%, auto-approve simple ones",
            "Level 3 — review 20%, auto-approve standard patterns"])

        before = facts["before"]
        self.assertEqual(before["errors"], [])
        # The KPI panel: the eight KPIs with the values, targets and standings of the terminal
        # box, which shows the analysis numbers.
        shown = {k["key"]: k for k in before["kpis"]}
        self.assertEqual(list(shown), [k["key"] for k in box["kpis"]])
        self.assertEqual(len(shown), 8)
        for k in box["kpis"]:
            page = shown[k["key"]]
            self.assertEqual(k["values"], analysis["kpis"][k["key"]]["values"], k["key"])
            self.assertEqual(page["now"], k["text"][-1] or "no data", k["key"])
            self.assertEqual(page["target"], k["target"], k["key"])
            self.assertEqual(page["standing"], k["standing"], k["key"])
            # The standing's words agree with the value: never "no data" beside a value.
            self.assertEqual(page["standingText"], k["standingText"], k["key"])
            if page["now"] != "no data":
                self.assertNotEqual(page["standingText"], "no data", k["key"])
            if k["standing"] == "insufficient":
                self.assertEqual(page["standingText"], f"not enough data (n = {k['n'][-1]})")
            self.assertEqual(page["nText"].split(" ")[:3], ["n", "=", str(k["n"][-1])], k["key"])
            # The axis in the metric's own domain: a rate 0-100%, nothing else below 0 but
            # score points after - before.
            if k["key"] in RATES:
                self.assertEqual((page["yMin"], page["yMax"]), (0, 1), k["key"])
                self.assertEqual(page["ticks"][:2], ["100.0%", "0.0%"], k["key"])
            elif k["key"] != "ruleEffectiveness":
                self.assertGreaterEqual(page["yMin"], 0, k["key"])
            # One window for the value and its chart: the chart's last point is the value.
            self.assertEqual(weekly[k["key"]]["values"][-1], k["values"][-1], k["key"])
            self.assertEqual(page["tableRows"][-1][1], page["now"], k["key"])
            self.assertEqual(page["trend"], k["trend"] or "", k["key"])
            # The three-month chart: 13 weekly points, a gap (not a zero) where a week has none.
            values = weekly[k["key"]]["values"]
            self.assertEqual(len(values), 13)
            self.assertEqual(page["points"], sum(v is not None for v in values), k["key"])
            runs = "".join("x" if v is not None else " " for v in values).split()
            self.assertEqual(page["segments"], sum(len(r) > 1 for r in runs), k["key"])
            self.assertEqual(len(page["tableRows"]), 13, k["key"])
            self.assertEqual([r[1] == "no data" for r in page["tableRows"]],
                             [v is None for v in values], k["key"])
            self.assertTrue(page["svgName"], k["key"])
        self.assertEqual(weekly["windows"][-1], analysis["kpis"]["windows"][-1])
        last = analysis["kpis"]["windows"][-1]
        self.assertIn(f"Each value covers the last 30 days ({last['from']} to {last['to']})",
                      before["kpiWindow"])
        # Scores and score points with one decimal everywhere on the page.
        quality = shown["avgQualityScore"]["now"]
        self.assertRegex(quality, ONE_DECIMAL)
        self.assertRegex(shown["predictionError"]["now"].lstrip("±"), ONE_DECIMAL)
        self.assertTrue(before["ruleEffectiveness"])
        for text in before["ruleEffectiveness"]:
            self.assertRegex(text, ONE_DECIMAL + "|^–$")
        self.assertRegex(before["calibrationText"],
                         r"mean \|predicted − actual\| [0-9]+\.[0-9] score points")
        self.assertEqual(before["health"],
                         f"{box['health'] * 100:.0f}% on target "
                         f"({sum(k['standing'] != 'none' for k in box['kpis'])} KPIs with data)")

        # §7.3 alerts, as analyzed (the learner orders them most severe first).
        self.assertTrue(analysis["alerts"], analysis["alerts"])
        self.assertEqual([(a["level"], a["message"]) for a in before["alerts"]],
                         [(a["level"], a["message"]) for a in analysis["alerts"]])
        self.assertRegex(before["alerts"][-1]["message"], r"^no feedback events for 7[0-9] hours")
        self.assertFalse(before["noAlerts"])

        # Calibration: one point per bucket with reviews, the diagonal, the ECE.
        buckets = analysis["calibration"]["buckets"]
        self.assertEqual(before["calibrationPoints"], sum(b["n"] > 0 for b in buckets))
        self.assertEqual(before["diagonal"], 1)
        self.assertIn(f"{analysis['calibration']['ece'] * 100:.1f}%", before["calibrationText"])
        # Approval by server type: one bar per type, with its n.
        by_type = analysis["approval"]["byServerType"]
        self.assertEqual(before["bars"], list(by_type))
        self.assertEqual(before["barRects"], len(by_type))
        overall = analysis["approval"]["overall"]
        self.assertEqual(before["approved"], overall["approved"])
        # Autonomy per task type, rules, patterns, reviewers.
        self.assertEqual([a["taskType"] for a in before["autonomy"]], list(analysis["autonomy"]))
        for a in before["autonomy"]:
            mine = analysis["autonomy"][a["taskType"]]
            self.assertTrue(a["level"].startswith(f"Level {mine['level']} — "))
            if mine["regressed"]:
                self.assertIn(f"regressed from level {mine['regressedFrom']}", a["level"])
            if mine["total"] >= 5:
                self.assertNotIn("new task type", a["level"])
        self.assertEqual(before["rules"], [r["id"] for r in rules if r["status"] == "active"])
        for state in ("candidate", "established", "proven", "deprecated"):
            n = sum(p["state"] == state for p in analysis["patterns"])
            self.assertTrue(before["maturity"][state].startswith(f"{state}: {n} "), before["maturity"])
        self.assertEqual(before["antiPatterns"], len(analysis["antiPatterns"]))
        self.assertTrue(before["reviewers"])
        # Reviewer agreement: Krippendorff's alpha of decisions, then of each dimension scored by
        # 2+ reviewers of one item, as the analysis has it, two decimals.
        agreement = analysis["agreement"]
        expected = [["Decisions", agreement["decisions"]]] + [
            [d, a] for d, a in agreement["dimensions"].items()]
        self.assertEqual([row[0] for row in before["agreement"]], [e[0] for e in expected])
        for (name, alpha, text), (_, a) in zip(before["agreement"], expected):
            if a["alpha"] is None:
                self.assertEqual(alpha, "", name)
                self.assertIn(f"n = {a['items']} items", text, name)
            else:
                self.assertAlmostEqual(float(alpha), a["alpha"], 6, name)
                self.assertEqual(text, f"{a['alpha']:.2f}", name)
        # seed 001's signals after review: one row per success metric, the value as the analysis
        # has it, then n, one cell per month and the target.
        signals = analysis["signals"]
        self.assertEqual([s["key"] for s in before["signals"]],
                         ["coverage", "revertRate", "humanEditAfterAgentRate", "ciPassRate",
                          "timeToCompletion", "ratings", "responseRate"])
        rate = signals["revertRate"]["value"]
        reverts = next(s for s in before["signals"] if s["key"] == "revertRate")
        self.assertEqual(reverts["value"], "–" if rate is None else f"{rate * 100:.1f}%")
        self.assertEqual(reverts["cells"], 4 + len(signals["revertRate"]["trend"]))

        # The review posted through the API shows after Refresh.
        self.assertEqual(facts["feedbackStatus"], 201, facts["feedbackBody"])
        after = facts["after"]
        self.assertNotEqual(after["updated"], before["updated"])
        self.assertEqual(after["approved"], before["approved"] + 1)
        self.assertEqual(after["decided"], before["decided"] + 1)
        box_after = self.json_verb("dashboard", "--json", "--now", self.now)
        volume = next(k for k in box_after["kpis"] if k["key"] == "feedbackPerWeek")
        self.assertEqual({k["key"]: k for k in after["kpis"]}["feedbackPerWeek"]["now"],
                         volume["text"][-1])
        self.assertNotEqual(shown["feedbackPerWeek"]["now"], volume["text"][-1])
        self.assertEqual(facts["statusAfterRefresh"], "Dashboard updated")

        # The audit page lists audit-due rules first.
        order = facts["auditOrder"]
        dues = [o["due"] for o in order]
        self.assertEqual(dues, sorted(dues, reverse=True), order)
        self.assertEqual(facts["ruleStatusBefore"], "active")
        self.assertEqual(facts["ruleStatusAfter"], "active (confirmed)")
        self.assertIn("confirm by web-auditor", facts["ruleLastAudits"])
        self.assertEqual(facts["keyboardOn"], "Retire")
        self.assertEqual(facts["patternStatusBefore"], "active")
        self.assertEqual(facts["patternStatusAfter"], "rejected")
        self.assertIn("retired; status now rejected", facts["statusAfterRetire"])
        self.assertIn("401", facts["unauthorizedError"])
        self.assertIn("token", facts["unauthorizedError"])
        self.assertEqual(facts["otherRuleStatus"], "active")

        # The log holds exactly the two audits, with their fields.
        admins = [strict_loads(l) for l in self.kz("export", "--kind", "admin", "--home",
                                                   self.home).lines]
        # (Opening a review also reserves the item: reserve and release events, not audits.)
        mine = [a for a in admins
                if a.get("reviewerId") == REVIEWER and a.get("action") == "rule_audit"]
        self.assertEqual(len(mine), 2, mine)
        fields = [{k: a.get(k) for k in ("kind", "action", "rule_id", "verdict", "note")}
                  for a in mine]
        self.assertEqual(fields, [
            {"kind": "admin", "action": "rule_audit", "rule_id": rule_id, "verdict": "confirm",
             "note": "still accurate: seen again this month"},
            {"kind": "admin", "action": "rule_audit", "rule_id": pattern_id, "verdict": "retire",
             "note": "no longer what reviewers want"},
        ])
        rules_after = {r["id"]: r for r in self.json_verb("rules", "--json", "--now", self.now)["rules"]}
        rule = rules_after[rule_id]
        self.assertEqual((rule["status"], rule["confirmed"], rule["auditDue"]),
                         ("active", True, False))
        self.assertEqual(rule["audits"][-1]["verdict"], "confirm")
        self.assertEqual(rule["audits"][-1]["reviewerId"], REVIEWER)
        self.assertEqual(rules_after[other_rule_id]["audits"], [])
        pattern = next(p for p in self.json_verb("corrections", "--json", "--now",
                                                 self.now)["patterns"]
                       if p["pattern_id"] == pattern_id)
        self.assertEqual(pattern["status"], "rejected")
        self.assertEqual(pattern["rejected_by"], [REVIEWER])

        # Accessibility of both pages.
        self.assertEqual(facts["dashboardA11y"]["problems"], [])
        self.assertGreater(facts["dashboardA11y"]["tabbed"], 5)
        self.assertEqual(facts["auditA11y"]["problems"], [])
        self.assertGreater(facts["auditA11y"]["tabbed"], 20)
        # ... and the checker does see faults: one of each kind on a page made to have them.
        found = "\n".join(facts["a11ySelfTest"]["problems"])
        for fault in ("no accessible name: <button>", "no accessible name: <input#q>",
                      "chart without a name", "positive tabindex 2", "contrast 2.32:1 < 4.5:1",
                      "DOM order expects <div>"):
            self.assertIn(fault, found)
        for shot in ("dashboard.png", "audit.png"):
            self.assertGreater(os.path.getsize(os.path.join(SHOTS, shot)), 10000)

        # A favicon on every page: /favicon.ico answers, the page links the icon.
        self.assertEqual(facts["favicon"]["status"], 200, facts["favicon"])
        self.assertEqual(facts["favicon"]["type"], "image/svg+xml")
        self.assertIn("<svg", facts["favicon"]["body"])
        self.assertEqual(facts["iconLinkStatus"], 200, facts["iconLink"])
        # Every page at 390 px and 1280 px: no element wider than the screen (outside a table's
        # own scrolling region), no sideways scroll of the page.
        for width in ("390", "1280"):
            pages = facts["layout"][width]
            self.assertEqual(sorted(pages), ["audit", "dashboard", "queue", "review"])
            for name, m in pages.items():
                self.assertEqual(m["viewport"], int(width), (width, name))
                self.assertEqual(m["wide"], [], (width, name))
                self.assertLessEqual(m["scrollWidth"], int(width), (width, name))
            for name in ("queue", "review", "dashboard", "audit"):
                self.assertGreater(os.path.getsize(os.path.join(SHOTS, f"{name}-{width}.png")),
                                   5000)

    def test_the_queue_reads_the_time_of_day_on_the_reviewers_clock(self):
        # Server clock 2026-01-01T00:00Z (test_serve.NOW): night in UTC.
        server = Server(self.home)
        self.addCleanup(server.kill)
        for offset, hour in ((-300, 19), (720, 12), (330, 5), (0, 0), (-720, 12), (840, 14)):
            status, _, q = server.request("GET", f"/v1/queue?utcOffset={offset}", token=None)
            self.assertEqual(status, 200, q)
            self.assertEqual((q["utcOffset"], q["timeOfDay"]), (offset, time_of_day(hour)), offset)
        _, _, q = server.request("GET", "/v1/queue?reviewer=jake&utcOffset=-300", token=None)
        self.assertEqual(q["timeOfDay"], "evening")
        _, _, q = server.request("GET", "/v1/queue", token=None)
        self.assertIsNone(q["utcOffset"])  # the server's own clock
        for bad in ("abc", "900", "-721", "1.5", ""):
            status, _, body = server.request("GET", f"/v1/queue?utcOffset={bad}", token=None)
            self.assertEqual(status, 400, (bad, body))
            error = body["error"]["errors"][0]
            self.assertEqual(error["path"], "query.utcOffset")
            self.assertIn(f'"{bad}" is not a whole number in -720..840', error["message"])
            self.assertIn("minutes east of UTC", error["message"])
        self.assertEqual(server.stop(), 0, server.stderr)


class WebClockTest(KaizenTest):
    """A reviewer 12 hours ahead of UTC reviews on a phone: the queue asks for their offset, the
    review posts a timestamp in it, and both the queue's time of day and the stored review's are
    the reviewer's, not the server's (a 12-hour shift always changes the bucket)."""

    def test_a_reviewer_in_another_time_zone_reviews_on_a_phone(self):
        node = shutil.which("node")
        self.assertIsNotNone(node, "node is not installed: `make js-deps` installs it")
        self.assertTrue(os.path.exists(PLAYWRIGHT), "run `make js-deps`")
        events = [work_event(f"clock-{i}", timestamp="2025-12-31T20:00:00Z") for i in range(2)]
        r = self.import_("-", input=jsonl(*events))
        self.assertEqual(r.rc, EXIT_OK, r)
        server = Server(self.home)  # on 2026-01-01T00:00Z, night in UTC
        self.addCleanup(server.kill)
        # Etc/GMT-12 is UTC+12 (POSIX signs): noon there.
        proc = subprocess.run([node, CLOCK_DRIVER, f"http://127.0.0.1:{server.port}", TOKEN,
                               SHOTS, "Etc/GMT-12"], capture_output=True, timeout=120, cwd=JS_DIR)
        self.assertEqual(proc.returncode, 0, proc.stderr.decode())
        facts = json.loads(proc.stdout.decode().strip().split("\n")[-1])
        self.assertNotIn("failure", facts, facts.get("failure"))
        self.assertEqual(facts["pageErrors"], [])
        self.assertEqual(facts["consoleErrors"], [])
        self.assertEqual(facts["browserOffset"], 720)
        self.assertTrue(facts["queueRequests"])
        for url in facts["queueRequests"]:
            self.assertIn("utcOffset=720", url)
        q = facts["queueAnswer"]
        self.assertEqual(q["utcOffset"], 720)
        self.assertEqual(q["timeOfDay"], time_of_day((utc_hour(q["now"]) + 12) % 24))
        self.assertNotEqual(q["timeOfDay"], time_of_day(utc_hour(q["now"])))
        self.assertIn(f"now: {q['timeOfDay']}", facts["windowsLine"])
        # The posted timestamp is on the server's clock (its `--now`) in the reviewer's offset.
        self.assertEqual(len(facts["posted"]), 1, facts["posted"])
        stamp = facts["posted"][0]["timestamp"]
        self.assertRegex(stamp, r"^2026-01-01T1[0-9]:[0-9]{2}:[0-9]{2}\.[0-9]{3}\+12:00$")
        self.assertEqual(server.stop(), 0, server.stderr)
        stored = [strict_loads(l) for l in self.kz("export", "--kind", "feedback", "--home",
                                                   self.home).lines]
        self.assertEqual(len(stored), 1)
        at = stored[0]["timestamp"]
        self.assertEqual(stored[0]["meta"]["timeOfDay"], time_of_day((utc_hour(at) + 12) % 24))
        self.assertNotEqual(stored[0]["meta"]["timeOfDay"], time_of_day(utc_hour(at)))
        # One decided review: its approval rate is shown, its verdict withheld.
        self.assertEqual(facts["approval"]["now"], "100.0%")
        self.assertEqual(facts["approval"]["standing"], "insufficient")
        self.assertEqual(facts["approval"]["standingText"], "not enough data (n = 1)")


if __name__ == "__main__":
    unittest.main()
