"""Drives the real Claude Code program headless against a scripted model on loopback.

Python 3.11 standard library only. Not a test file: tests import it.

    model = AnthropicScriptedModel([
        ("tool", "Write", {"file_path": "/abs/a.txt", "content": "hi\\n"}),
        ("tool", "Bash", {"command": "exit 3"}),
        ("text", "all done"),
    ])
    try:
        res = run_claude(project_dir, "do it", model)
    finally:
        model.close()

The binary is $KAIZEN_CLAUDE (default: tests/js/node_modules/.bin/claude in this repository, from
the npm package @anthropic-ai/claude-code, a native binary; written against 2.1.197);
`claude_available()` says whether it can run, for skipTest.

The model server speaks the Anthropic Messages API (POST /v1/messages, streamed as Server-Sent
Events when the request asks for `stream`, else one JSON message; POST
/v1/messages/count_tokens; HEAD / as the start-up connectivity probe). A request is the agent's
MAIN loop when it offers the model the agent's own tools (a `tools` array naming `Bash`, or any
`mcp__` tool); each main request is answered with the next scripted step, and after the script
runs out with the text "done.". Anything else (a side call such as a type "prompt" hook's
judgement, which sends `tools: []`; count_tokens) is answered with a short text and does not
consume a step. Every request is recorded. With QUIET_ENV, Claude Code 2.1.197 in -p mode makes
no side calls of its own: a plain run is one HEAD / and one POST /v1/messages?beta=true per
turn, and nothing leaves loopback.

What reaches the model, per main request (2.1.197): the project's CLAUDE.md inside the first
user message (a <system-reminder> "# claudeMd" block); SessionStart hooks' additionalContext
and MCP servers' `instructions` in a role "system" message right after it ("SessionStart hook
additional context: ..."); the history is resent whole, so a context string sent once per
session is counted once per main request by count_sent().

Nothing here sleeps to synchronise: the server answers as requests come, and run_claude waits
for the process to exit (with a generous timeout).
"""

import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
from http.server import BaseHTTPRequestHandler

from agent_harness import LoopbackModel, binary_available

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_CLAUDE = os.path.join(REPO, "tests", "js", "node_modules", ".bin", "claude")

SIDE_TEXT = "ok."
FINAL_TEXT = "done."

# Environment that keeps Claude Code on loopback and off every optional service.
QUIET_ENV = {
    "ANTHROPIC_API_KEY": "sk-ant-kaizen-test-dummy",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_BUG_COMMAND": "1",
    "DISABLE_COST_WARNINGS": "1",
    "CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY": "1",
    "CLAUDE_CODE_DISABLE_TERMINAL_TITLE": "1",
    # --dangerously-skip-permissions / bypassPermissions refuse to run as root without it.
    "IS_SANDBOX": "1",
}


def claude_binary():
    return os.environ.get("KAIZEN_CLAUDE") or DEFAULT_CLAUDE


def claude_available():
    """(True, "") when the Claude Code binary is there and runs; else (False, why)."""
    return binary_available(claude_binary(), "Claude Code", "KAIZEN_CLAUDE", _base_env)


# ---- the scripted model -----------------------------------------------------------------------

def _texts_of_content(content):
    """Every string in a message's content (str, or a list of blocks), tool_result bodies and
    tool_use inputs included."""
    if isinstance(content, str):
        return [content]
    out = []
    for block in content or []:
        if not isinstance(block, dict):
            continue
        kind = block.get("type")
        if kind == "text":
            out.append(block.get("text", ""))
        elif kind == "tool_result":
            out.extend(_texts_of_content(block.get("content")))
        elif kind == "tool_use":
            out.append(json.dumps(block.get("input"), sort_keys=True))
    return out


def request_texts(body):
    """Every string one request body sends to the model: system blocks, then message contents."""
    if not isinstance(body, dict):
        return []
    out = []
    system = body.get("system")
    if isinstance(system, str):
        out.append(system)
    elif isinstance(system, list):
        out.extend(b.get("text", "") for b in system if isinstance(b, dict))
    for msg in body.get("messages") or []:
        if isinstance(msg, dict):
            out.extend(_texts_of_content(msg.get("content")))
    return out


def is_main_loop(body):
    """The agent's own loop offers the model its tools (24 built-ins in 2.1.197, Bash among
    them, plus every mcp__<server>__<tool>); a side call sends `tools: []` (seen: a type
    "prompt" hook's judgement, querySource hook_prompt; the binary names others, e.g.
    generate_session_title, compact, that a short -p run with QUIET_ENV never made). A subagent
    (the Agent tool) also offers Bash, so it counts as main loop. With --tools narrowing the
    built-ins, or to decide otherwise, pass is_main= to AnthropicScriptedModel."""
    if not isinstance(body, dict):
        return False
    names = [t.get("name", "") for t in body.get("tools") or [] if isinstance(t, dict)]
    return "Bash" in names or any(n.startswith("mcp__") for n in names)


class Request:
    """One request the agent made."""

    def __init__(self, method, path, headers, body, main, step):
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body          # parsed JSON (dict), or the raw text when it was not JSON
        self.main = main          # True: a main-loop request
        self.step = step          # the index of the scripted step it got (main only), else None

    @property
    def texts(self):
        return request_texts(self.body)

    @property
    def tool_names(self):
        if not isinstance(self.body, dict):
            return []
        return [t.get("name") for t in self.body.get("tools") or [] if isinstance(t, dict)]

    def __repr__(self):
        return f"<{self.method} {self.path} main={self.main} step={self.step}>"


class AnthropicScriptedModel(LoopbackModel):
    """A Messages API server on 127.0.0.1:<free port>, answering the agent's main loop from a
    script. Steps: ("text", words) or ("tool", name, input_dict)."""

    request_class = Request

    def __init__(self, steps, side_text=SIDE_TEXT, final_text=FINAL_TEXT, is_main=is_main_loop):
        for s in steps:
            if not (isinstance(s, tuple) and s and s[0] in ("text", "tool")
                    and len(s) == (2 if s[0] == "text" else 3)):
                raise ValueError(f"bad step {s!r}")
        self.steps = list(steps)
        self.side_text = side_text
        self.final_text = final_text
        self.is_main = is_main
        self._next = 0
        self._ids = 0
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _send(self, code, ctype, data):
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_HEAD(self):
                model._record("HEAD", self.path, self.headers, None)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_GET(self):
                model._record("GET", self.path, self.headers, None)
                self._send(404, "application/json", json.dumps(
                    {"type": "error", "error": {"type": "not_found_error",
                                                "message": "not here"}}).encode())

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(n) if n > 0 else b""
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                path = self.path.split("?", 1)[0]
                if path.endswith("/count_tokens"):
                    model._record("POST", self.path, self.headers, body)
                    size = sum(len(t) for t in request_texts(body))
                    self._send(200, "application/json",
                               json.dumps({"input_tokens": max(1, size // 4)}).encode())
                    return
                if not path.endswith("/v1/messages"):
                    model._record("POST", self.path, self.headers, body)
                    self._send(404, "application/json", json.dumps(
                        {"type": "error", "error": {"type": "not_found_error",
                                                    "message": "not here"}}).encode())
                    return
                step = model._answer_for(self.path, self.headers, body)
                stream = isinstance(body, dict) and bool(body.get("stream"))
                mname = body.get("model", "claude-test") if isinstance(body, dict) else "x"
                if stream:
                    self._send(200, "text/event-stream", model._sse(step, mname))
                else:
                    self._send(200, "application/json",
                               json.dumps(model._message(step, mname)).encode())

        self.serve(Handler)
        self.url = f"http://127.0.0.1:{self.port}"

    # -- answering

    def _answer_for(self, path, headers, body):
        """The step for one /v1/messages request, recording it."""
        main = bool(self.is_main(body))
        with self._lock:
            index = None
            if main:
                index = self._next
                self._next += 1
                step = self.steps[index] if index < len(self.steps) else ("text", self.final_text)
            else:
                step = ("text", self.side_text)
            self._ids += 1
            ident = f"kz{self._ids:06d}"
            self.requests.append(Request("POST", path, dict(headers.items()), body, main, index))
        return step + (ident,)

    def _message(self, step, mname):
        ident = step[-1]
        msg = {"id": f"msg_{ident}", "type": "message", "role": "assistant",
               "model": mname, "stop_sequence": None,
               "usage": {"input_tokens": 10, "output_tokens": 5}}
        if step[0] == "text":
            msg["content"] = [{"type": "text", "text": step[1]}]
            msg["stop_reason"] = "end_turn"
        else:
            msg["content"] = [{"type": "tool_use", "id": f"toolu_{ident}", "name": step[1],
                               "input": step[2]}]
            msg["stop_reason"] = "tool_use"
        return msg

    def _sse(self, step, mname):
        msg = self._message(step, mname)
        content, stop = msg["content"], msg["stop_reason"]
        msg = dict(msg, content=[], stop_reason=None)
        msg["usage"] = {"input_tokens": 10, "output_tokens": 1}
        events = [("message_start", {"type": "message_start", "message": msg})]
        block = content[0]
        if block["type"] == "text":
            events += [
                ("content_block_start", {"type": "content_block_start", "index": 0,
                                         "content_block": {"type": "text", "text": ""}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "text_delta", "text": block["text"]}}),
            ]
        else:
            events += [
                ("content_block_start", {"type": "content_block_start", "index": 0,
                                         "content_block": {"type": "tool_use", "id": block["id"],
                                                           "name": block["name"], "input": {}}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "input_json_delta",
                                                   "partial_json": json.dumps(block["input"])}}),
            ]
        events += [
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta",
                               "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"}),
        ]
        return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode("utf-8")
                        for name, data in events)

    # -- what was received

    def all_requests(self):
        with self._lock:
            return list(self.requests)

    def main_requests(self):
        return [r for r in self.all_requests() if r.main]

    def side_requests(self):
        return [r for r in self.all_requests()
                if not r.main and r.method == "POST" and isinstance(r.body, dict)]

    def steps_used(self):
        with self._lock:
            return self._next

    def all_text_sent(self, main_only=False):
        """Every string sent to the model, request by request (system blocks, then messages),
        flattened: count a context string's appearances with
        sum(t.count(s) for t in model.all_text_sent())."""
        out = []
        for r in self.all_requests():
            if r.method == "POST" and (r.main or not main_only):
                out.extend(r.texts)
        return out

    def count_sent(self, needle, main_only=False):
        """How many times `needle` reached the model, summed over every request."""
        return sum(t.count(needle) for t in self.all_text_sent(main_only))

    def tool_results(self):
        """The tool_result blocks the agent sent back, each once (the history is resent with
        every request), in order: dicts with tool_use_id, is_error, text, request (index into
        all_requests of the first request that carried it)."""
        seen, out = set(), []
        for i, r in enumerate(self.all_requests()):
            if not r.main or not isinstance(r.body, dict):
                continue
            for msg in r.body.get("messages") or []:
                if not isinstance(msg, dict) or not isinstance(msg.get("content"), list):
                    continue
                for block in msg["content"]:
                    if not isinstance(block, dict) or block.get("type") != "tool_result":
                        continue
                    tid = block.get("tool_use_id")
                    if tid in seen:
                        continue
                    seen.add(tid)
                    out.append({"tool_use_id": tid, "is_error": bool(block.get("is_error")),
                                "text": "\n".join(_texts_of_content(block.get("content"))),
                                "request": i})
        return out


# ---- running the agent ------------------------------------------------------------------------

class ClaudeRun:
    """What one run of Claude Code did."""

    def __init__(self, args, returncode, stdout, stderr, home, timed_out=False):
        self.args = args
        self.returncode = returncode   # None when it was killed for running past the timeout
        self.timed_out = timed_out
        self.stdout = stdout or ""
        self.stderr = stderr or ""
        self.home = home               # the HOME it ran with, when the caller gave it (kept)
        self.events = []               # stream-json: every JSON line
        self.json = None               # the final result object ({"type": "result", ...})
        text = self.stdout.strip()
        try:
            obj = json.loads(text) if text else None
            if isinstance(obj, dict):
                self.json = obj
            elif isinstance(obj, list):
                self.events = obj
        except ValueError:
            for line in text.splitlines():
                try:
                    self.events.append(json.loads(line))
                except ValueError:
                    pass
        if self.json is None:
            results = [e for e in self.events if isinstance(e, dict) and e.get("type") == "result"]
            self.json = results[-1] if results else None

    @property
    def result_text(self):
        return (self.json or {}).get("result")

    @property
    def permission_denials(self):
        return (self.json or {}).get("permission_denials") or []

    def __repr__(self):
        return (f"claude -p ... (timed_out={self.timed_out}) -> rc={self.returncode}\n"
                f"--- stdout ---\n{self.stdout[:3000]}\n--- stderr ---\n{self.stderr[:3000]}")


def _base_env(home):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("ANTHROPIC_", "CLAUDE_", "CLAUDECODE", "OTEL_"))}
    env.update(QUIET_ENV)
    env["HOME"] = home
    env["XDG_CONFIG_HOME"] = os.path.join(home, ".config")
    env["XDG_CACHE_HOME"] = os.path.join(home, ".cache")
    env["XDG_DATA_HOME"] = os.path.join(home, ".local", "share")
    env["XDG_STATE_HOME"] = os.path.join(home, ".local", "state")
    return env


def trust_project(home, project_dir):
    """Marks project_dir as a trusted workspace in HOME/.claude.json, as accepting the trust
    dialog once would. Without it, -p mode still runs the project's hooks and starts its
    .mcp.json servers, but ignores `permissions.allow` in the project's .claude/settings.json."""
    path = os.path.join(home, ".claude.json")
    try:
        with open(path, encoding="utf-8") as f:
            config = json.load(f)
    except (OSError, ValueError):
        config = {}
    projects = config.setdefault("projects", {})
    projects.setdefault(os.path.realpath(project_dir), {})["hasTrustDialogAccepted"] = True
    with open(path, "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)


def mcp_log_lines(home, project_dir, server):
    """The JSON lines Claude Code logged for one MCP server in a run with this HOME
    ($XDG_CACHE_HOME/claude-cli-nodejs/<project path, each non-alphanumeric as ->/
    mcp-logs-<server>/*.jsonl, written with or without --debug):
    {"debug": ...} or {"error": ...} entries; the server's start-up stderr is logged as
    {"error": "Server stderr: ..."}. Needs the run's `home` kept (pass home= to run_claude)."""
    key = re.sub(r"[^A-Za-z0-9]", "-", os.path.realpath(project_dir))
    folder = os.path.join(home, ".cache", "claude-cli-nodejs", key, f"mcp-logs-{server}")
    out = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            for line in f:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
    return out


def _descendants(root):
    """Every live descendant of process `root` (Linux /proc; empty elsewhere)."""
    children = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8", errors="replace") as f:
                stat = f.read()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(name))
    out, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


def run_claude(project_dir, prompt, model, env_extra=None, timeout=180, home=None,
               extra_args=(), output_format="json", permission_mode="bypassPermissions",
               trust=True):
    """Runs `claude -p PROMPT --output-format FORMAT --permission-mode MODE` in project_dir
    against `model`, with nothing but loopback, and returns a ClaudeRun.

    HOME is a fresh temporary directory removed afterwards, or `home` (created if need be, and
    kept) when given. `trust` marks the project trusted there (see trust_project).
    bypassPermissions lets Write, Edit, Bash and MCP tools run without a grant; as root it needs
    IS_SANDBOX=1, which QUIET_ENV sets. For the permission rules to matter instead, pass
    permission_mode="default" (then `permissions.allow` in a trusted project's settings, or
    extra_args=["--allowedTools", "Write,Bash,mcp__kaizen"], grant tools). stream-json adds
    --verbose, which it requires."""
    own_home = home is None
    if own_home:
        home = tempfile.mkdtemp(prefix="kz-claude-home-")
    os.makedirs(home, exist_ok=True)
    config = os.path.join(home, ".claude.json")
    if not os.path.exists(config):
        with open(config, "w", encoding="utf-8") as f:
            f.write("{}\n")
    if trust:
        trust_project(home, project_dir)
    env = _base_env(home)
    env["ANTHROPIC_BASE_URL"] = model.url
    if env_extra:
        env.update(env_extra)
    args = [claude_binary(), "-p", prompt, "--output-format", output_format,
            "--permission-mode", permission_mode]
    if output_format == "stream-json":
        args.append("--verbose")
    args += list(extra_args)
    try:
        proc = subprocess.Popen(args, cwd=project_dir, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                encoding="utf-8", errors="replace", start_new_session=True)
        try:
            out, err = proc.communicate(timeout=timeout)
            return ClaudeRun(args, proc.returncode, out, err, None if own_home else home)
        except subprocess.TimeoutExpired:
            # The agent and everything it started: its process group (hooks, MCP servers) and
            # its descendants in sessions of their own (the Bash tool runs commands under setsid).
            for pid in [proc.pid] + _descendants(proc.pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            out, err = proc.communicate()
            return ClaudeRun(args, None, out, err, None if own_home else home, timed_out=True)
    finally:
        if own_home:
            shutil.rmtree(home, ignore_errors=True)
