"""A scripted OpenAI Responses API model on loopback, for the real Codex CLI (agent_codex.py runs
it). Python 3.11 standard library only. Not a test file.

The model server speaks the OpenAI Responses API: POST /v1/responses (the request says
"stream": true) is answered with Server-Sent Events: response.created, response.output_item.added
/ .done, response.output_text.delta, response.completed. Codex 0.171 with a custom provider
(`wire_api = "responses"`) uses plain HTTP+SSE: it asks for no websocket and no GET /v1/models
(both are answered anyway: a websocket upgrade with 426, /models with an empty list).

A request is the agent's MAIN loop when its turn metadata (header x-codex-turn-metadata, or
client_metadata in the body) says request_kind "turn", or, without metadata, when it offers the
agent's shell tool. Each main request is answered with the next scripted step, and after the
script runs out with the text "done."; anything else (a compaction, title or review side call) is
answered with a short text and does not consume a step. Every request is recorded.

Steps, and how they reach Codex (the tool names and shapes are read from the request's `tools`):
  ("text", words)           an assistant message.
  ("shell", command)        the shell tool Codex offers: `exec_command` {"cmd": command} (unified
                            exec, the 0.171 default), else `shell_command` {"command": command},
                            else `shell` {"command": ["bash", "-lc", command]}, else a
                            local_shell_call.
  ("patch", patch_text)     `apply_patch`: a custom_tool_call (freeform tool, input = the patch)
                            when Codex offers it as type "custom" (0.171 with a known slug such as
                            gpt-5.5), a function_call {"input": patch} when as a function; when
                            it is not offered (an unknown slug: Codex answers a custom call with
                            "unsupported custom tool call: apply_patch") the shell heredoc
                            `apply_patch <<'KZ_PATCH_EOF' ...`, which Codex intercepts and runs.
  ("tool", name, args)      a function_call `name` with JSON `args`. Codex 0.171 offers MCP
                            server S's tool T only through its client-side `tool_search` (T in
                            namespace "mcp__S", deferred): when `name` ("mcp__S__T", or T) is not
                            offered yet, the model first answers with a tool_search_call (query
                            "S T"), which does not use up the step; the next request carries the
                            tool_search_output, and the step becomes a function_call
                            {"name": T, "namespace": "mcp__S"}.

Nothing here sleeps to synchronise: the server answers as requests come, and run_codex waits for
the process to exit (with a generous timeout).
"""

import gzip
import json
from http.server import BaseHTTPRequestHandler

from agent_harness import LoopbackModel


SIDE_TEXT = "ok."
FINAL_TEXT = "done."
# A slug Codex 0.171 has bundled metadata for, so it offers the model the freeform apply_patch
# tool (an unknown slug falls back to metadata without it, and warns).
DEFAULT_MODEL_NAME = "gpt-5.5"
PROVIDER_ID = "kzscripted"
KEY_ENV = "KZ_CODEX_DUMMY_KEY"

SHELL_TOOLS = ("exec_command", "shell_command", "shell", "local_shell")


def _content_texts(content):
    """Every string in a Responses content value: a str, or a list of parts (input_text,
    output_text, summary_text, ...)."""
    if isinstance(content, str):
        return [content]
    out = []
    for part in content or []:
        if isinstance(part, str):
            out.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            out.append(part["text"])
    return out


def item_texts(item):
    """Every string one `input` item carries to the model."""
    if not isinstance(item, dict):
        return [item] if isinstance(item, str) else []
    kind = item.get("type")
    if kind == "message" or (kind is None and "role" in item):
        return _content_texts(item.get("content"))
    if kind == "function_call":
        return [item.get("arguments") or ""]
    if kind == "custom_tool_call":
        return [item.get("input") or ""]
    if kind == "local_shell_call":
        return [json.dumps(item.get("action"), sort_keys=True)]
    if kind in ("function_call_output", "custom_tool_call_output"):
        return _content_texts(item.get("output"))
    if kind == "reasoning":
        return _content_texts(item.get("summary")) + _content_texts(item.get("content"))
    return []


def request_texts(body):
    """Every string one request body sends to the model: instructions, then the input items."""
    if not isinstance(body, dict):
        return []
    out = []
    if isinstance(body.get("instructions"), str):
        out.append(body["instructions"])
    inp = body.get("input")
    if isinstance(inp, str):
        out.append(inp)
    else:
        for item in inp or []:
            out.extend(item_texts(item))
    return out


def turn_metadata(headers, body):
    """The x-codex-turn-metadata object Codex attaches to a model request, or {}."""
    raw = None
    for k, v in headers.items():
        if k.lower() == "x-codex-turn-metadata":
            raw = v
    if raw is None and isinstance(body, dict):
        raw = (body.get("client_metadata") or {}).get("x-codex-turn-metadata")
    try:
        meta = json.loads(raw) if raw else {}
    except ValueError:
        return {}
    return meta if isinstance(meta, dict) else {}


def _add_tools(out, specs):
    specs = [t for t in specs or [] if isinstance(t, dict)]
    for t in specs:     # top-level tools first: they win a name clash
        name = t.get("name") or t.get("type")
        if name:
            out.setdefault(name, (t, None))
    for t in specs:
        if t.get("type") != "namespace":
            continue
        ns = t.get("name") or ""
        for sub in t.get("tools") or []:
            if isinstance(sub, dict) and sub.get("name"):
                # Codex offers MCP server S's tool T as T in namespace "mcp__S"; a step may
                # name it "mcp__S__T" (the qualified name Codex's hooks see) or T.
                sep = "" if ns.endswith("_") else "__"
                out.setdefault(ns + sep + sub["name"], (sub, ns))
                out.setdefault(sub["name"], (sub, ns))


def _tools_by_name(body):
    """name -> (tool spec, namespace or None) for every tool the request offers the model:
    its `tools`, namespace members included, and tools an earlier tool_search returned (the
    tool_search_output items in its input)."""
    out = {}
    if not isinstance(body, dict):
        return out
    _add_tools(out, body.get("tools"))
    for item in body.get("input") or []:
        if isinstance(item, dict) and item.get("type") == "tool_search_output":
            _add_tools(out, item.get("tools"))
    return out


def is_main_loop(headers, body):
    if not isinstance(body, dict):
        return False
    names = {k.lower() for k in headers.keys()}
    if "x-openai-subagent" in names:
        return False
    kind = turn_metadata(headers, body).get("request_kind")
    if kind is not None:
        return kind == "turn"
    return any(n in _tools_by_name(body) for n in SHELL_TOOLS)


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
    def input(self):
        if isinstance(self.body, dict) and isinstance(self.body.get("input"), list):
            return self.body["input"]
        return []

    @property
    def tool_names(self):
        return sorted(_tools_by_name(self.body))

    @property
    def metadata(self):
        return turn_metadata(self.headers, self.body)

    def __repr__(self):
        return f"<{self.method} {self.path} main={self.main} step={self.step}>"


class ResponsesScriptedModel(LoopbackModel):
    """A Responses API server on 127.0.0.1:<free port>, answering Codex's main loop from a
    script. Steps: ("text", words), ("shell", command), ("patch", patch_text),
    ("tool", name, args_dict). `url` is the base URL to configure (".../v1")."""

    request_class = Request

    def __init__(self, steps, side_text=SIDE_TEXT, final_text=FINAL_TEXT,
                 model_name=DEFAULT_MODEL_NAME):
        arity = {"text": 2, "shell": 2, "patch": 2, "tool": 3}
        for s in steps:
            if not (isinstance(s, tuple) and s and s[0] in arity and len(s) == arity[s[0]]):
                raise ValueError(f"bad step {s!r}")
        self.steps = list(steps)
        self.side_text = side_text
        self.final_text = final_text
        self.model_name = model_name
        self._next = 0
        self._ids = 0
        self._searched = set()
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

            def _read_body(self):
                if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
                    raw = b""
                    while True:
                        size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                        if size == 0:
                            self.rfile.readline()
                            break
                        raw += self.rfile.read(size)
                        self.rfile.readline()
                else:
                    n = int(self.headers.get("Content-Length") or 0)
                    raw = self.rfile.read(n) if n > 0 else b""
                if (self.headers.get("Content-Encoding") or "").lower() == "gzip":
                    raw = gzip.decompress(raw)
                try:
                    return json.loads(raw)
                except ValueError:
                    return raw.decode("utf-8", "replace")

            def do_GET(self):
                model._record("GET", self.path, self.headers, None)
                if (self.headers.get("Upgrade") or "").lower() == "websocket":
                    self._send(426, "text/plain", b"no websockets here")
                elif self.path.split("?", 1)[0].endswith("/models"):
                    self._send(200, "application/json", json.dumps(
                        {"object": "list", "data": [], "models": []}).encode())
                else:
                    self._send(404, "application/json", b'{"error": {"message": "not here"}}')

            def do_POST(self):
                body = self._read_body()
                path = self.path.split("?", 1)[0]
                if not path.endswith("/responses"):
                    model._record("POST", self.path, self.headers, body)
                    self._send(404, "application/json", b'{"error": {"message": "not here"}}')
                    return
                events = model._answer(self.path, self.headers, body)
                data = b"".join(
                    f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode("utf-8")
                    for e in events)
                self._send(200, "text/event-stream", data)

        self.serve(Handler)
        self.url = f"http://127.0.0.1:{self.port}/v1"

    # -- answering

    def _answer(self, path, headers, body):
        """The SSE events for one POST .../responses, recording the request."""
        main = is_main_loop(headers, body)
        with self._lock:
            index = None
            if main:
                index = self._next
                step = self.steps[index] if index < len(self.steps) else ("text", self.final_text)
                if self._needs_search(step, body, index):
                    # The tool is deferred (Codex 0.171 offers MCP tools only through its
                    # client-side `tool_search`): search for it first, keeping the step.
                    self._searched.add(index)
                    step = ("search", step[1])
                else:
                    self._next += 1
            else:
                step = ("text", self.side_text)
            self._ids += 1
            n = self._ids
            self.requests.append(Request("POST", path, dict(headers.items()), body, main, index))
        return self._events(step, n, body)

    def _needs_search(self, step, body, index):
        if step[0] != "tool" or index in self._searched:
            return False
        tools = _tools_by_name(body)
        return step[1] not in tools and "tool_search" in tools

    def _events(self, step, n, body):
        rid, call_id = f"resp_kz{n:06d}", f"call_kz{n:06d}"
        tools = _tools_by_name(body)
        kind = step[0]
        if kind == "text":
            item = {"type": "message", "role": "assistant", "id": f"msg_kz{n:06d}",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": step[1], "annotations": []}]}
            middle = [
                {"type": "response.output_item.added", "output_index": 0,
                 "item": dict(item, status="in_progress", content=[])},
                {"type": "response.output_text.delta", "output_index": 0, "content_index": 0,
                 "item_id": item["id"], "delta": step[1]},
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ]
        elif kind == "search":
            words = " ".join(w for w in step[1].replace("__", " ").replace("_", " ").split()
                             if w != "mcp")
            item = {"type": "tool_search_call", "id": f"tsc_kz{n:06d}", "call_id": call_id,
                    "status": "completed", "execution": "client",
                    "arguments": {"query": words or step[1], "limit": 8}}
            middle = [{"type": "response.output_item.done", "output_index": 0, "item": item}]
        else:
            item = self._call_item(step, tools, call_id, n)
            middle = [{"type": "response.output_item.done", "output_index": 0, "item": item}]
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                 "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0},
                 "total_tokens": 15}
        return ([{"type": "response.created", "response": {"id": rid, "status": "in_progress"}}]
                + middle
                + [{"type": "response.completed",
                    "response": {"id": rid, "status": "completed", "usage": usage}}])

    @staticmethod
    def _call_item(step, tools, call_id, n):
        kind = step[0]
        if kind == "shell":
            cmd = step[1]
            if "exec_command" in tools:
                return _function_call(call_id, "exec_command", {"cmd": cmd}, tools)
            if "shell_command" in tools:
                return _function_call(call_id, "shell_command", {"command": cmd}, tools)
            if "shell" in tools:
                return _function_call(call_id, "shell", {"command": ["bash", "-lc", cmd]}, tools)
            return {"type": "local_shell_call", "id": f"lsh_kz{n:06d}", "call_id": call_id,
                    "status": "completed",
                    "action": {"type": "exec", "command": ["bash", "-lc", cmd]}}
        if kind == "patch":
            spec = tools.get("apply_patch", ({}, None))[0]
            if spec.get("type") == "function":
                return _function_call(call_id, "apply_patch", {"input": step[1]}, tools)
            if spec.get("type") == "custom" or not any(t in tools for t in SHELL_TOOLS):
                return {"type": "custom_tool_call", "id": f"ctc_kz{n:06d}", "call_id": call_id,
                        "status": "completed", "name": "apply_patch", "input": step[1]}
            # No apply_patch tool offered: the shell heredoc, which Codex intercepts.
            patch = step[1] if step[1].endswith("\n") else step[1] + "\n"
            return ResponsesScriptedModel._call_item(
                ("shell", f"apply_patch <<'KZ_PATCH_EOF'\n{patch}KZ_PATCH_EOF"), tools, call_id, n)
        spec = tools.get(step[1], ({}, None))[0]
        if spec.get("type") == "custom":
            text = step[2] if isinstance(step[2], str) else json.dumps(step[2])
            return {"type": "custom_tool_call", "id": f"ctc_kz{n:06d}", "call_id": call_id,
                    "status": "completed", "name": step[1], "input": text}
        return _function_call(call_id, step[1], step[2], tools)

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
        """Every string sent to the model, request by request (instructions, then every input
        item: messages, tool calls, tool outputs), flattened. Codex resends the whole history
        with each request, so a context string the agent got once appears once per later
        request; count with count_sent, or look at main_requests()[i].texts."""
        out = []
        for r in self.all_requests():
            if r.method == "POST" and (r.main or not main_only):
                out.extend(r.texts)
        return out

    def count_sent(self, needle, main_only=False):
        """How many times `needle` reached the model, summed over every request."""
        return sum(t.count(needle) for t in self.all_text_sent(main_only))

    def tool_outputs(self):
        """The function_call_output / custom_tool_call_output items the agent sent back, each
        once (the history is resent with every request), in order: dicts with call_id, type,
        name (of the call it answers), call (that call item), text (the output flattened to a
        string), output (as sent), request (index into all_requests of the first request that
        carried it)."""
        seen, out, calls = set(), [], {}
        for i, r in enumerate(self.all_requests()):
            if r.method != "POST" or not isinstance(r.body, dict):
                continue
            for item in r.input:
                if not isinstance(item, dict):
                    continue
                kind = item.get("type")
                if kind in ("function_call", "custom_tool_call", "local_shell_call"):
                    calls.setdefault(item.get("call_id"), item)
                if kind not in ("function_call_output", "custom_tool_call_output"):
                    continue
                cid = item.get("call_id")
                if cid in seen:
                    continue
                seen.add(cid)
                call = calls.get(cid) or {}
                out.append({"call_id": cid, "type": kind, "name": call.get("name"), "call": call,
                            "text": "\n".join(_content_texts(item.get("output"))),
                            "output": item.get("output"), "request": i})
        return out


def _function_call(call_id, name, args, tools):
    spec, namespace = tools.get(name, ({}, None))
    item = {"type": "function_call", "id": f"fc_{call_id}", "call_id": call_id,
            "status": "completed", "name": name,
            "arguments": args if isinstance(args, str) else json.dumps(args)}
    if namespace:
        item["name"] = spec.get("name") or name
        item["namespace"] = namespace
    return item


