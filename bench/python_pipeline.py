#!/usr/bin/env python3
"""The Python baseline for the ingest benchmark: the durable pipeline kaizen runs, written the way a
competent Python developer would write it with the standard library only.

    python3 bench/python_pipeline.py INPUT.jsonl HOME_DIR

For every line: json.loads; a dict with a known `kind`; table-driven checks of the schema (required
fields, types, enums, numeric ranges, unknown fields, nested objects and arrays, mirroring
src/model/schema.cc) and of the per-kind rules; checks against the log (duplicate ids, duplicate
modal submissions, references to recorded work, resolves of recorded errors) held in sets and dicts;
enrichment (id via uuid4 when missing, timestamp normalized to UTC milliseconds, feedback
meta.timeOfDay / dayOfWeek / sessionFatigue from a dict counter, keyword themes, word-count
sentiment and actionable sentences over freeText, _predictionDelta, reward signal_value, correction
_category); json.dumps; then, per batch of 50,000 lines, one write + os.fsync per daily file
(HOME_DIR/feedback/raw/YYYY-MM-DD.jsonl, by the event's UTC day), the same group commit kaizen does.

Simpler than kaizen where a Python developer would plausibly cut corners (all in Python's favour):
duplicate JSON keys are not detected (json.loads keeps the last), the free-text analysis is a plain
keyword/word-count match (no negation, intensifiers or phrase trie), no ingest cache is persisted
(the state lives in memory for the run), and there is no writer lock or torn-tail recovery.

Prints: stored/rejected counts, seconds, events/s and MB/s of input.
"""

import json
import os
import re
import sys
import time
import uuid
from datetime import datetime, timezone

BATCH_LINES = 50_000
MAX_STRING = 64 << 10
MAX_IDENT = 256
MAX_ARRAY = 10_000
MAX_EVENT_BYTES = 1 << 20
MIN_UNIX_S = 946684800  # 2000-01-01
MAX_FUTURE_S = 24 * 3600
INF = float("inf")


# ---------------------------------------------------------------------------------------------
# Schema (mirrors src/model/schema.cc)

class F:
    """One field: type, required, allowed values, range, nested object spec, array element type."""
    __slots__ = ("t", "req", "enum", "lo", "hi", "obj", "item", "nonempty")

    def __init__(self, t, req=False, enum=None, lo=-INF, hi=INF, obj=None, elem=None,
                 nonempty=False):
        self.t, self.req, self.enum, self.lo, self.hi = t, req, enum, lo, hi
        self.obj, self.nonempty = obj, nonempty
        self.item = F(elem, True, obj=obj) if elem else None  # the spec of each array element


def common(**rest):
    spec = {"kind": F("id", req=True), "id": F("uuid"), "timestamp": F("ts")}
    spec.update(rest)
    return spec


SEVERITY4 = {"minor", "moderate", "major", "critical"}
DIMENSIONS = {"code-quality", "design-aesthetics", "design-ux", "test-coverage", "documentation",
              "architecture", "error-handling", "performance", "security", "creativity",
              "completeness", "naming", "dx"}

GENERATION_CONTEXT = {
    "promptHash": F("id", True), "memorySnapshot": F("arr", True, elem="str"),
    "modelUsed": F("id", True), "generationTimeMs": F("num", True, lo=0, hi=1e15),
    "iterationCount": F("int", True, lo=0, hi=1e9),
}
WORK_PRODUCT_REF = {
    "type": F("id", True, enum={"mcp-server", "code-module", "design", "test-suite",
                                "documentation", "pipeline-config"}),
    "id": F("id", True), "version": F("id", True), "path": F("str"), "summary": F("str", True),
    "bubaConfidence": F("num", True, lo=0, hi=1), "bubaScorePrediction": F("num", lo=1, hi=10),
    "generationContext": F("obj", True, obj=GENERATION_CONTEXT),
}
DECISION = {
    "decision": F("id", True, enum={"approved", "rejected", "needs-work", "deferred"}),
    "reason": F("str"), "severity": F("id", enum=SEVERITY4),
    "blockers": F("arr", elem="str"), "suggestions": F("arr", elem="str"),
}
DIMENSION_SCORE = {
    "dimension": F("id", True, enum=DIMENSIONS), "score": F("num", True, lo=1, hi=10),
    "weight": F("num", lo=0, hi=1e6), "comment": F("str"),
}
FREE_TEXT = {
    "liked": F("str"), "disliked": F("str"), "generalNotes": F("str"),
    "_extractedThemes": F("arr", elem="str"), "_sentiment": F("num", lo=-1, hi=1),
    "_actionableItems": F("arr", elem="str"),
}
DIMENSION_WINNER = {"dimension": F("id", True, enum=DIMENSIONS),
                    "winner": F("id", True, enum={"A", "B", "tie"})}
COMPARISON = {
    "optionA": F("obj", True, obj=WORK_PRODUCT_REF), "optionB": F("obj", True, obj=WORK_PRODUCT_REF),
    "preferred": F("id", True, enum={"A", "B", "neither", "both-good"}), "reason": F("str"),
    "preferenceStrength": F("id", True, enum={"slight", "moderate", "strong", "overwhelming"}),
    "dimensions": F("arr", elem="obj", obj=DIMENSION_WINNER),
}
ANNOTATION_TARGET = {"file": F("str"), "lineStart": F("int", lo=0, hi=1e9),
                     "lineEnd": F("int", lo=0, hi=1e9), "selector": F("str"), "region": F("str")}
ANNOTATION = {
    "type": F("id", True, enum={"praise", "criticism", "question", "suggestion"}),
    "target": F("obj", True, obj=ANNOTATION_TARGET), "text": F("str", True),
    "severity": F("id", enum={"nit", "minor", "major", "critical"}), "category": F("id"),
}
CONFIDENCE = {
    "level": F("id", True, enum={"very-unsure", "somewhat-unsure", "fairly-sure", "very-sure"}),
    "wouldDelegateToAI": F("bool", True), "needsExpertReview": F("bool", True),
}
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
META = {
    "timeToDecisionMs": F("num", True, lo=0, hi=1e12),
    "timeToFirstInteractionMs": F("num", lo=0, hi=1e12),
    "fieldsModified": F("arr", elem="id"), "scrollDepth": F("num", lo=0, hi=1),
    "revisits": F("int", lo=0, hi=1e9), "deviceType": F("id", enum={"desktop", "mobile"}),
    "timeOfDay": F("id", enum={"morning", "afternoon", "evening", "night"}),
    "dayOfWeek": F("id", enum=set(DAYS)), "concurrentModals": F("int", lo=0, hi=1e9),
    "sessionFatigue": F("int", lo=0, hi=1e12), "presentationFormat": F("id"),
}
QUALITY_METRICS = {
    "test_coverage": F("num", lo=0, hi=1), "tests_passing": F("bool"),
    "test_count": F("int", lo=0, hi=1e12), "code_quality_score": F("num", lo=0, hi=1),
    "complexity": F("int", lo=0, hi=1e12), "duplications": F("num", lo=0, hi=1),
    "security_score": F("num", lo=0, hi=1), "vulnerabilities": F("int", lo=0, hi=1e12),
    "type_coverage": F("num", lo=0, hi=1), "type_errors": F("int", lo=0, hi=1e12),
    "doc_coverage": F("num", lo=0, hi=1), "overall_quality": F("num", lo=0, hi=1),
}

SCHEMAS = {
    "feedback": common(
        sessionId=F("id", True), modalId=F("id", True), modalVersion=F("id"),
        workProduct=F("obj", True, obj=WORK_PRODUCT_REF), pipelineStage=F("id", True),
        mcpServerType=F("id"), reviewerId=F("id"), decision=F("obj", obj=DECISION),
        scores=F("arr", elem="obj", obj=DIMENSION_SCORE), freeText=F("obj", obj=FREE_TEXT),
        comparison=F("obj", obj=COMPARISON), annotations=F("arr", elem="obj", obj=ANNOTATION),
        confidence=F("obj", obj=CONFIDENCE), meta=F("obj", True, obj=META),
        override=F("id", enum={"strong", "weak"}), _predictionDelta=F("num")),
    "work": common(
        workProduct=F("obj", True, obj=WORK_PRODUCT_REF), sessionId=F("id"),
        pipelineStage=F("id"), mcpServerType=F("id"),
        priority=F("id", enum={"low", "normal", "high", "urgent"})),
    "outcome": common(
        bead_id=F("id", True), duration_ms=F("num", True, lo=0, hi=1e15),
        error_count=F("int", True, lo=0, hi=1e9), retry_count=F("int", True, lo=0, hi=1e9),
        success=F("bool", True), files_touched=F("arr", elem="str"), strategy=F("id"),
        failure_mode=F("id"), failure_details=F("str"), criteria=F("arr", elem="id"),
        patterns=F("arr", elem="str"), description=F("str")),
    "error": common(
        bead_id=F("id", True),
        error_type=F("id", enum={"validation", "timeout", "conflict", "tool_failure", "unknown"}),
        message=F("str"), stack_trace=F("str"), tool_name=F("id"), context=F("str"),
        resolves=F("uuid")),
    "reward": common(
        signal_id=F("id"), commit_hash=F("id"), task_id=F("id"), session_id=F("id"),
        signal_type=F("id", True), signal_value=F("num", lo=0, hi=1), raw_value=F("any"),
        baseline_seconds=F("num", lo=0, hi=1e12),
        source=F("id", True, enum={"automatic", "human", "agent"}),
        confidence=F("num", lo=0, hi=1), delay_days=F("int", lo=0, hi=1e6)),
    "correction": common(
        session_id=F("id", True), correction_type=F("id", True), original=F("str", True),
        corrected=F("str", True), context=F("open"), user_id=F("id"),
        correction_method=F("id", enum={"manual_edit", "rejection", "feedback_form"}),
        _category=F("id")),
    "loop": common(
        loop_id=F("id", True), iteration=F("int", True, lo=0, hi=1e6),
        metrics=F("obj", True, obj=QUALITY_METRICS, nonempty=True),
        cost=F("num", lo=0, hi=1e12), elapsed_seconds=F("num", lo=0, hi=1e12), feedback=F("str")),
    "admin": common(
        action=F("id", True, enum={"rule_audit", "consent", "deletion_request"}),
        rule_id=F("id"), verdict=F("id", enum={"confirm", "retire"}), user_id=F("id"),
        learning_mode=F("bool"), session_id=F("id"), reviewerId=F("id"), note=F("str")),
}

UUID_RE = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
CONTROL_RE = re.compile(r"[\x00-\x1f]")
TS_RE = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})")


# ---------------------------------------------------------------------------------------------
# Validation

class Checker:
    def __init__(self, now_s):
        self.now_s = now_s
        self.errors = []
        self.references = []  # (path, id, version) of {"id"[, "version"]} work product references
        self.ts = None        # the parsed `timestamp` (the only field of type "ts")

    def error(self, path, message):
        self.errors.append(f"{path or '(event)'}: {message}")

    def obj(self, o, spec, path):
        reference = spec is WORK_PRODUCT_REF and "id" in o and o.keys() <= {"id", "version"}
        if not reference:
            for name, f in spec.items():
                if f.req and name not in o:
                    self.error(f"{path}{name}", "missing (required)")
        for key, value in o.items():
            f = spec.get(key)
            if f is None:
                self.error(f"{path}{key}", "unknown field")
            else:
                self.field(value, f, path + key)
        if reference:
            if isinstance(o["id"], str):
                self.references.append((path[:-1] or "workProduct", o["id"], o.get("version")))

    def field(self, v, f, path):
        if v is None:
            if f.req:
                self.error(path, "is null (required)")
            return
        t = f.t
        if t == "str":
            if not isinstance(v, str):
                self.error(path, f"{v!r} is not a string")
            elif len(v) > MAX_STRING:
                self.error(path, "string too long")
        elif t == "id" or t == "uuid" or t == "ts":
            if not isinstance(v, str) or not v:
                self.error(path, f"{v!r} is not a non-empty string")
            elif len(v) > MAX_IDENT:
                self.error(path, "identifier too long")
            elif CONTROL_RE.search(v):
                self.error(path, "contains a control character")
            elif f.enum is not None and v not in f.enum:
                self.error(path, f"{v!r} is not one of {sorted(f.enum)}")
            elif t == "uuid" and not UUID_RE.fullmatch(v):
                self.error(path, f"{v!r} is not a UUID")
            elif t == "ts":
                ts = self.ts = parse_timestamp(v)
                if ts is None:
                    self.error(path, f"{v!r} is not an ISO 8601 timestamp with a zone")
                elif ts.timestamp() < MIN_UNIX_S or ts.timestamp() > self.now_s + MAX_FUTURE_S:
                    self.error(path, f"{v!r} is not a sane time for an event")
        elif t == "num" or t == "int":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                self.error(path, f"{v!r} is not a number")
            elif t == "int" and isinstance(v, float) and not v.is_integer():
                self.error(path, f"{v!r} is not an integer")
            elif not f.lo <= v <= f.hi:
                self.error(path, f"{v!r} is out of range {f.lo}..{f.hi}")
        elif t == "bool":
            if not isinstance(v, bool):
                self.error(path, f"{v!r} is not a boolean")
        elif t == "obj":
            if not isinstance(v, dict):
                self.error(path, f"{v!r} is not an object")
            elif f.nonempty and not v:
                self.error(path, "is empty")
            else:
                self.obj(v, f.obj, path + ".")
        elif t == "arr":
            if not isinstance(v, list):
                self.error(path, f"{v!r} is not an array")
            elif len(v) > MAX_ARRAY:
                self.error(path, "array too long")
            else:
                item = f.item
                for i, x in enumerate(v):
                    self.field(x, item, f"{path}[{i}]")
        elif t == "open":
            if not isinstance(v, dict):
                self.error(path, f"{v!r} is not an object")
        # "any": anything goes


def parse_timestamp(s):
    if not TS_RE.fullmatch(s):
        return None
    try:
        return datetime.fromisoformat(s)  # Python 3.11: accepts "Z" and any fraction length
    except ValueError:
        return None


CI_YES, CI_NO = {"pass", "passed", "success", True}, {"fail", "failed", "failure", False}


def normalize_reward(signal_type, raw, baseline):
    """seed 001's normalization rules; returns a float or an error string."""
    if signal_type == "ci_result":
        if raw in CI_YES:
            return 1.0
        if raw in CI_NO:
            return 0.0
        return "must be pass or fail"
    if signal_type == "approach_correctness":
        if raw in ("yes", "y", True):
            return 1.0
        if raw in ("no", "n", False):
            return 0.0
        return "must be yes or no"
    if signal_type == "merge_outcome":
        m = {"merged": 1.0, "closed": 0.5, "reverted": 0.0}
        return m.get(raw, "must be merged, closed or reverted") if isinstance(raw, str) else \
            "must be merged, closed or reverted"
    n = raw if isinstance(raw, (int, float)) and not isinstance(raw, bool) else None
    if signal_type == "coverage_delta":
        return 0.5 + n / 200.0 if n is not None and -100 <= n <= 100 else "must be -100..100"
    if signal_type in ("satisfaction", "session_productivity", "handoff_clarity"):
        ok = n is not None and 1 <= n <= 5 and float(n).is_integer()
        return (n - 1) / 4.0 if ok else "must be an integer rating 1..5"
    if signal_type == "iteration_count":
        ok = n is not None and n >= 1 and float(n).is_integer()
        return 1.0 / n if ok else "must be an integer >= 1"
    if signal_type == "time_efficiency":
        if n is None or n <= 0:
            return "must be a number of seconds > 0"
        if not baseline or baseline <= 0:
            return "needs baseline_seconds > 0"
        return min(1.0, baseline / n)
    return None  # no rule


def kind_rules(kind, ev, c):
    if kind == "feedback":
        seen = set()
        for i, s in enumerate(ev.get("scores") or ()):
            d = s.get("dimension")
            if d in seen:
                c.error(f"scores[{i}].dimension", f"{d!r} is scored twice in one review")
            seen.add(d)
        for i, a in enumerate(ev.get("annotations") or ()):
            t = a.get("target") or {}
            if isinstance(t.get("lineStart"), int) and isinstance(t.get("lineEnd"), int) and \
                    t["lineEnd"] < t["lineStart"]:
                c.error(f"annotations[{i}].target.lineEnd", "is before lineStart")
    elif kind == "work":
        for ref in c.references:
            c.error(ref[0], "a work event must carry the full WorkProductRef")
    elif kind == "error":
        if not ev.get("resolves"):
            for f in ("error_type", "message"):
                if f not in ev:
                    c.error(f, "missing (required unless the event resolves an earlier error)")
    elif kind == "reward":
        if ev.get("signal_value") is None:
            raw = ev.get("raw_value")
            if raw is None:
                c.error("signal_value", "missing (give signal_value, or raw_value)")
                return None
            n = normalize_reward(ev["signal_type"], raw, ev.get("baseline_seconds"))
            if n is None:
                c.error("signal_type", "has no normalization rule")
            elif isinstance(n, str):
                c.error("raw_value", n)
            else:
                return n
    elif kind == "correction":
        if ev["original"] and ev["original"] == ev["corrected"]:
            c.error("corrected", "is identical to original")
    elif kind == "admin":
        action = ev["action"]
        need = {"rule_audit": ("rule_id", "verdict"), "consent": ("user_id", "learning_mode")}
        for f in need.get(action, ()):
            if f not in ev:
                c.error(f, f"missing (required for action {action})")
        if action == "deletion_request" and "user_id" not in ev and "session_id" not in ev:
            c.error("user_id", "missing (deletion_request needs user_id or session_id)")
    return None


# ---------------------------------------------------------------------------------------------
# Enrichment

THEMES = {
    "error-handling": ["error handling", "error handler", "handle errors", "exception",
                       "exceptions", "try catch", "unhandled", "swallow", "swallowed", "graceful",
                       "gracefully", "failure mode", "error message", "error messages", "panic"],
    "input-validation": ["input validation", "validation", "validate", "validated", "sanitize",
                         "sanitized", "user input", "invalid input", "malformed", "null check",
                         "bounds check"],
    "naming": ["naming", "names", "variable names", "function name", "rename", "renamed",
               "identifier", "identifiers", "misleading name", "descriptive", "abbreviation"],
    "tests-and-edge-cases": ["test", "tests", "testing", "tested", "untested", "unit test",
                             "unit tests", "integration test", "test coverage", "coverage",
                             "edge case", "edge cases", "corner case", "regression", "assertion",
                             "assertions", "fixture", "mock", "mocks", "flaky"],
    "documentation": ["documentation", "docs", "doc", "docstring", "document", "documented",
                      "undocumented", "comment", "comments", "readme", "changelog", "jsdoc"],
    "rate-limiting": ["rate limiting", "rate limit", "rate limits", "rate limiter", "throttle",
                      "throttling", "429", "too many requests", "quota", "backpressure"],
    "retries": ["retry", "retries", "retrying", "retry logic", "exponential backoff", "backoff",
                "jitter", "idempotent", "idempotency", "transient", "circuit breaker", "timeout",
                "timeouts"],
    "security": ["security", "secure", "insecure", "vulnerability", "vulnerable", "injection",
                 "xss", "csrf", "authentication", "authorization", "auth", "secret", "secrets",
                 "credentials", "password", "api key", "encryption", "hmac", "permissions"],
    "performance": ["performance", "slow", "slower", "faster", "latency", "throughput", "memory",
                    "allocation", "quadratic", "cache", "caching", "inefficient", "efficient",
                    "optimize", "bottleneck", "hot path", "benchmark", "blocking"],
    "types": ["type safety", "type safe", "typed", "untyped", "typing", "type hints",
              "type annotations", "typescript", "generics", "cast", "casting", "any type", "enum",
              "nullable", "mypy"],
    "architecture": ["architecture", "coupling", "tightly coupled", "decouple", "abstraction",
                     "layering", "layer", "layers", "dependency injection", "god object",
                     "monolith", "modular", "single responsibility", "refactor", "refactoring",
                     "design"],
    "readability": ["readability", "readable", "unreadable", "hard to read", "easy to read",
                    "hard to follow", "confusing", "convoluted", "nested", "nesting",
                    "magic number", "dead code", "duplication", "duplicated", "simplify",
                    "complex", "complexity", "verbose", "formatting", "long function"],
    "logging": ["logging", "log", "logs", "logged", "log level", "metrics", "tracing",
                "observability", "monitoring", "telemetry", "stack trace"],
    "concurrency": ["concurrency", "concurrent", "race condition", "data race", "deadlock",
                    "thread safety", "thread safe", "mutex", "lock", "locking", "atomic", "async",
                    "await"],
}
# Single words: one set lookup per word; phrases: a substring search on the joined words.
THEME_WORDS = {name: {k for k in kws if " " not in k} for name, kws in THEMES.items()}
THEME_PHRASES = {name: [f" {k} " for k in kws if " " in k] for name, kws in THEMES.items()}

POSITIVE = set("""appreciate appreciated awesome beautiful best careful clean cleaner cleanly clear
clearer comprehensive concise consistent correct easy efficient elegant excellent fantastic good
great helpful idiomatic impressive intuitive lgtm love loved maintainable neat nice nicely perfect
pleasant readable reliable robust simple smart solid straightforward thank thanks thorough
thoughtful tidy useful wonderful worked works""".split())
NEGATIVE = set("""annoying awful bad bloated brittle broken bug buggy bugs careless clunky
complicated confused confusing convoluted crash crashed crashes cryptic difficult duplicated fail
failed failing fails failure flaky forgot forgotten fragile hacky hard horrible ignored ignores
incomplete inconsistent incorrect inefficient insecure issue issues lack lacking lacks leak leaks
leaky mess messy misleading missing noisy obscure overcomplicated overengineered poor poorly problem
problematic problems prone redundant sloppy slow terrible ugly unclear undocumented unhandled
unnecessary unreadable unsafe untested useless verbose vulnerable weird worse worst wrong""".split())
ACTION_CUES = {"should", "must", "need", "needs", "please", "add", "remove", "use", "avoid",
               "consider", "missing", "wish", "instead", "dont", "don't"}

WORD_RE = re.compile(r"[a-z0-9']+")
SENTENCE_RE = re.compile(r"[.!?;\n]+")


def analyze_free_text(ft):
    text = "\n".join(s for s in (ft.get("liked"), ft.get("disliked"), ft.get("generalNotes")) if s)
    lower = text.lower()
    words = WORD_RE.findall(lower)
    wordset = set(words)
    joined = f" {' '.join(words)} "
    themes = [name for name in THEMES
              if wordset & THEME_WORDS[name] or any(p in joined for p in THEME_PHRASES[name])]
    pos = sum(1 for w in words if w in POSITIVE)
    neg = sum(1 for w in words if w in NEGATIVE)
    sentiment = round((pos - neg) / (pos + neg), 4) if pos + neg else 0.0
    items, seen = [], set()
    for sentence in SENTENCE_RE.split(text):
        s = sentence.strip().lstrip("-*• ").strip()
        if s and ACTION_CUES & set(WORD_RE.findall(s.lower())):
            key = " ".join(s.lower().split())
            if key not in seen:
                seen.add(key)
                items.append(s[:280])
    return themes, sentiment, items


def time_of_day(hour):
    if 5 <= hour < 12:
        return "morning"
    if 12 <= hour < 17:
        return "afternoon"
    if 17 <= hour < 21:
        return "evening"
    return "night"


CORRECTION_CATEGORY = {
    "factual_error": "content", "missing_detail": "content", "excessive_detail": "content",
    "tone_mismatch": "style", "passive_to_active": "style", "jargon_overuse": "style",
    "formatting": "style", "missing_section": "structural", "section_order": "structural",
    "bullet_structure": "structural", "ats_keyword_missing": "domain:jseeker",
    "metric_vague": "domain:jseeker", "experience_inflated": "domain:jseeker",
    "claim_too_vague": "domain:via", "source_missing": "domain:via",
    "claim_unsupported": "domain:via",
    "type_safety": "code", "naming": "code", "error_handling": "code", "null_handling": "code",
    "dead_code": "code", "code_fix": "code",
}
COMPUTED_META = {"timeOfDay", "dayOfWeek", "sessionFatigue"}


# ---------------------------------------------------------------------------------------------
# The pipeline

class Pipeline:
    def __init__(self, home):
        self.raw_dir = os.path.join(home, "feedback", "raw")
        os.makedirs(self.raw_dir, exist_ok=True)
        self.now_s = time.time()
        self.ids = {}                # id -> kind
        self.modal_sessions = set()  # (modalId, sessionId)
        self.artifacts = {}          # artifact id -> latest bubaScorePrediction (or None)
        self.versions = {}           # (artifact id, version) -> bubaScorePrediction (or None)
        self.session_reviews = {}    # sessionId -> reviews so far
        self.stored = 0
        self.rejected = 0

    def process(self, line):
        """Returns (day, stored line) or None when refused."""
        if len(line) > MAX_EVENT_BYTES:
            self.rejected += 1
            return None
        try:
            ev = json.loads(line)
        except ValueError:
            self.rejected += 1
            return None
        if not isinstance(ev, dict) or ev.get("kind") not in SCHEMAS:
            self.rejected += 1
            return None
        kind = ev["kind"]
        c = Checker(self.now_s)
        c.obj(ev, SCHEMAS[kind], "")
        signal = kind_rules(kind, ev, c) if not c.errors else None
        if c.errors:
            self.rejected += 1
            return None

        # Checks against the log.
        event_id = ev.get("id")
        if event_id is not None and event_id.lower() in self.ids:
            self.rejected += 1
            return None
        prediction = None
        if kind == "feedback":
            if (ev["modalId"], ev["sessionId"]) in self.modal_sessions:
                self.rejected += 1
                return None
            for path, aid, version in c.references:
                known = (aid, version) in self.versions if version else aid in self.artifacts
                if not known:
                    self.rejected += 1
                    return None
                if path == "workProduct":
                    prediction = self.versions[(aid, version)] if version else self.artifacts[aid]
            wp = ev["workProduct"]
            if "summary" in wp:
                prediction = wp.get("bubaScorePrediction")
        elif kind == "work":
            wp = ev["workProduct"]
            if (wp["id"], wp["version"]) in self.versions:
                self.rejected += 1
                return None
        elif kind == "error" and ev.get("resolves"):
            if self.ids.get(ev["resolves"].lower()) != "error":
                self.rejected += 1
                return None

        # Enrichment.
        ts = c.ts or datetime.now(timezone.utc)
        utc = ts.astimezone(timezone.utc)
        utc_text = utc.isoformat(timespec="milliseconds")[:23] + "Z"  # 2025-07-11T09:30:00.000Z
        event_id = (event_id or str(uuid.uuid4())).lower()
        out = {"kind": kind, "id": event_id, "timestamp": utc_text}
        for key, value in ev.items():
            if key in ("kind", "id", "timestamp") or key[0] == "_":
                continue
            if key == "signal_value" and signal is not None:
                continue
            if kind == "feedback" and key == "meta":
                value = {k: v for k, v in value.items() if k not in COMPUTED_META}
                fatigue = self.session_reviews.get(ev["sessionId"], 0) + 1
                self.session_reviews[ev["sessionId"]] = fatigue
                value["timeOfDay"] = time_of_day(ts.hour)
                value["dayOfWeek"] = DAYS[ts.weekday()]
                value["sessionFatigue"] = fatigue
            elif kind == "feedback" and key == "freeText":
                value = {k: v for k, v in value.items() if k[0] != "_"}
                themes, sentiment, items = analyze_free_text(value)
                value["_extractedThemes"] = themes
                value["_sentiment"] = sentiment
                value["_actionableItems"] = items
            out[key] = value
        if signal is not None:
            out["signal_value"] = round(signal, 6)
        if kind == "feedback" and prediction is not None:
            scores = [s["score"] for s in ev.get("scores") or ()]
            if scores:
                out["_predictionDelta"] = round(sum(scores) / len(scores) - prediction, 6)
        if kind == "correction":
            category = CORRECTION_CATEGORY.get(ev["correction_type"])
            if category:
                out["_category"] = category

        # Apply to the state.
        self.ids[event_id] = kind
        if kind == "feedback":
            self.modal_sessions.add((ev["modalId"], ev["sessionId"]))
        elif kind == "work":
            wp = ev["workProduct"]
            p = wp.get("bubaScorePrediction")
            self.artifacts[wp["id"]] = p
            self.versions[(wp["id"], wp["version"])] = p
        self.stored += 1
        return utc_text[:10], json.dumps(out, ensure_ascii=False,
                                                    separators=(",", ":"))

    def commit(self, by_day):
        """One write + fsync per daily file: the batch is durable when this returns."""
        created = False
        for day, lines in by_day.items():
            path = os.path.join(self.raw_dir, day + ".jsonl")
            created = created or not os.path.exists(path)
            with open(path, "a", encoding="utf-8") as f:
                f.write("\n".join(lines) + "\n")
                f.flush()
                os.fsync(f.fileno())
        if created:  # make the new files' directory entries durable too
            fd = os.open(self.raw_dir, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

    def run(self, input_path):
        by_day = {}
        pending = 0
        with open(input_path, "r", encoding="utf-8") as f:
            for line in f:
                if not line.strip():
                    continue
                result = self.process(line)
                if result is not None:
                    by_day.setdefault(result[0], []).append(result[1])
                pending += 1
                if pending == BATCH_LINES:
                    self.commit(by_day)
                    by_day, pending = {}, 0
        if by_day:
            self.commit(by_day)


def main(argv):
    if len(argv) != 3:
        print(f"usage: {argv[0]} INPUT.jsonl HOME_DIR", file=sys.stderr)
        return 2
    input_path, home = argv[1], argv[2]
    size = os.path.getsize(input_path)
    start = time.perf_counter()
    p = Pipeline(home)
    p.run(input_path)
    seconds = time.perf_counter() - start
    total = p.stored + p.rejected
    print(f"python: {p.stored} stored, {p.rejected} rejected in {seconds:.2f} s: "
          f"{total / seconds:,.0f} events/s, {size / seconds / 1e6:.1f} MB/s")
    return 0 if p.rejected == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
