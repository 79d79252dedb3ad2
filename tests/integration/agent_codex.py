"""Drives the real OpenAI Codex CLI (`codex exec`) headless against a scripted model on loopback.

Python 3.11 standard library only. Not a test file: tests import it.

    model = ResponsesScriptedModel([
        ("patch", "*** Begin Patch\\n*** Add File: a.py\\n+print(1)\\n*** End Patch\\n"),
        ("shell", "exit 3"),
        ("tool", "mcp__kaizen__status", {}),
        ("text", "all done"),
    ])
    home = tempfile.mkdtemp()
    write_codex_config(home, trusted_projects=[project_dir],
                       trusted_hooks=[os.path.join(project_dir, ".codex", "hooks.json")])
    try:
        res = run_codex(project_dir, "do it", model, home)
    finally:
        model.close()

Trust, headless. Codex loads a project's .codex/ layer (config.toml, hooks.json) only when
CODEX_HOME/config.toml has [projects."<abs path>"] trust_level = "trusted". It then runs a
non-managed hook only when [hooks.state."<hooks.json path>:<event>:<group>:<handler>"] in
CODEX_HOME/config.toml holds its current trusted_hash (what the TUI's /hooks review writes;
hook_trust_state computes it), or under --dangerously-bypass-hook-trust (bypass_hook_trust=True).
`codex exec` says nothing when it skips an unreviewed hook. MCP tool calls run unasked under
--dangerously-bypass-approvals-and-sandbox (the default here); without it a tool not annotated
readOnlyHint fails with "MCP tool call requires approval, but approval policy is never" unless
its server table says default_tools_approval_mode = "approve" (or
[mcp_servers.<s>.tools.<t>] approval_mode = "approve").

The binary is $KAIZEN_CODEX (default: tests/js/node_modules/.bin/codex in this repository, which
`npm ci` in tests/js installs; it starts a native binary); `codex_available()` says whether it can
run, for skipTest.

The scripted model it talks to is codex_model.py's ResponsesScriptedModel (re-exported here).
"""

import hashlib
import json
import os
import signal
import subprocess

from agent_harness import binary_available
from codex_model import KEY_ENV, PROVIDER_ID, ResponsesScriptedModel  # noqa: F401 (re-exported)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEFAULT_CODEX = os.path.join(REPO, "tests", "js", "node_modules", ".bin", "codex")


def codex_binary():
    return os.environ.get("KAIZEN_CODEX") or DEFAULT_CODEX


def codex_available():
    """(True, "") when the Codex binary is there and runs; else (False, why)."""
    return binary_available(codex_binary(), "Codex", "KAIZEN_CODEX", _base_env)


# ---- the scripted model -----------------------------------------------------------------------


# ---- configuring and running the agent --------------------------------------------------------

def _toml_str(s):
    return json.dumps(str(s))


# Events whose `matcher` Codex ignores (it hashes them without one).
_MATCHERLESS_EVENTS = ("UserPromptSubmit", "Stop")
# Codex clamps a SessionEnd hook's timeout to 3 seconds (warning "clamping SessionEnd hook timeout
# to 3s in <file>"), gives it 1 second when the handler names none, and hashes that value.
SESSION_END_MAX_TIMEOUT = 3
SESSION_END_DEFAULT_TIMEOUT = 1


def _event_label(event):
    """"PreToolUse" -> "pre_tool_use", the label in hook-state keys and trust hashes."""
    return "".join("_" + c.lower() if c.isupper() else c for c in event).lstrip("_")


def hook_trust_state(hooks_json_path):
    """{state key: trusted hash} for every command hook in a hooks.json, as Codex's /hooks review
    would persist them under [hooks.state."<key>"] trusted_hash in CODEX_HOME/config.toml. The
    key is "<absolute hooks.json path>:<event_label>:<group index>:<handler index>"; the hash is
    "sha256:" + hex sha256 of the compact, key-sorted JSON of {"event_name": label, "matcher":
    matcher (left out when absent or ignored for the event), "hooks": [the handler normalised:
    type, command, timeout (default 600), async (default false), statusMessage when set]}."""
    path = os.path.realpath(hooks_json_path)
    with open(path, encoding="utf-8") as f:
        hooks = json.load(f).get("hooks") or {}
    out = {}
    for event, groups in hooks.items():
        label = _event_label(event)
        for gi, group in enumerate(groups or []):
            for hi, handler in enumerate(group.get("hooks") or []):
                if handler.get("type", "command") != "command":
                    continue
                timeout = handler.get("timeout", handler.get("timeoutSec"))
                if event == "SessionEnd":
                    timeout = min(SESSION_END_MAX_TIMEOUT, max(1, int(
                        SESSION_END_DEFAULT_TIMEOUT if timeout is None else timeout)))
                else:
                    timeout = max(1, int(600 if timeout is None else timeout))
                norm = {"type": "command", "command": handler["command"], "timeout": timeout,
                        "async": bool(handler.get("async", False))}
                for k in ("statusMessage", "additionalContextLimit"):
                    if handler.get(k) is not None:
                        norm[k] = handler[k]
                identity = {"event_name": label, "hooks": [norm]}
                if group.get("matcher") is not None and event not in _MATCHERLESS_EVENTS:
                    identity["matcher"] = group["matcher"]
                blob = json.dumps(identity, sort_keys=True, separators=(",", ":"),
                                  ensure_ascii=False).encode("utf-8")
                out[f"{path}:{label}:{gi}:{hi}"] = "sha256:" + hashlib.sha256(blob).hexdigest()
    return out


def write_codex_config(codex_home, trusted_projects=(), trusted_hooks=(), extra=""):
    """Writes CODEX_HOME/config.toml: the trusted projects (their .codex/ layer, hooks.json and
    config.toml included, loads only then), the hooks of each hooks.json in `trusted_hooks`
    marked reviewed (see hook_trust_state; Codex runs a non-managed hook only when its
    trusted_hash matches, or under --dangerously-bypass-hook-trust), and `extra` TOML appended
    verbatim. The model provider and the quiet switches are passed by run_codex on the command
    line, so one home serves any model server."""
    os.makedirs(codex_home, exist_ok=True)
    lines = []
    for p in trusted_projects:
        lines.append(f"[projects.{_toml_str(os.path.realpath(p))}]")
        lines.append('trust_level = "trusted"')
        lines.append("")
    for hooks_json in trusted_hooks:
        for key, digest in hook_trust_state(hooks_json).items():
            lines.append(f"[hooks.state.{_toml_str(key)}]")
            lines.append(f"trusted_hash = {_toml_str(digest)}")
            lines.append("")
    text = "\n".join(lines) + ("\n" + extra if extra else "") + "\n"
    with open(os.path.join(codex_home, "config.toml"), "w", encoding="utf-8") as f:
        f.write(text)
    return os.path.join(codex_home, "config.toml")


def codex_overrides(model):
    """The -c overrides that point Codex at `model` and keep it on loopback and quiet."""
    provider = (f'{{ name = "kaizen scripted", base_url = {_toml_str(model.url)}, '
                f'wire_api = "responses", env_key = "{KEY_ENV}", '
                f'request_max_retries = 0, stream_max_retries = 0, '
                f'stream_idle_timeout_ms = 120000, supports_websockets = false }}')
    pairs = [
        ("model", _toml_str(model.model_name)),
        ("model_provider", _toml_str(PROVIDER_ID)),
        (f"model_providers.{PROVIDER_ID}", provider),
        ("check_for_update_on_startup", "false"),
        ("analytics.enabled", "false"),
        ("feedback.enabled", "false"),
        ("otel.exporter", '"none"'),
        ("otel.trace_exporter", '"none"'),
        ("otel.metrics_exporter", '"none"'),
        ("web_search", '"disabled"'),
        ("features.memories", "false"),
        # The plugin marketplace sync looks up api.github.com and chatgpt.com at start-up.
        ("features.plugins", "false"),
        ("features.apps", "false"),
    ]
    out = []
    for k, v in pairs:
        out += ["-c", f"{k}={v}"]
    return out


class CodexRun:
    """What one run of `codex exec` did."""

    def __init__(self, args, proc):
        self.args = args
        self.returncode = proc.returncode
        self.stdout = proc.stdout or ""
        self.stderr = proc.stderr or ""
        self.events = []       # with --json: every JSONL event object
        for line in self.stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    self.events.append(json.loads(line))
                except ValueError:
                    pass

    @property
    def last_message(self):
        """The final agent message text (--json runs), or None."""
        for e in reversed(self.events):
            item = e.get("item") if isinstance(e, dict) else None
            if isinstance(item, dict) and item.get("type") == "agent_message":
                return item.get("text")
        return None

    def __repr__(self):
        return (f"codex {' '.join(self.args[1:3])} ... -> rc={self.returncode}\n"
                f"--- stdout ---\n{self.stdout[:3000]}\n--- stderr ---\n{self.stderr[:3000]}")


def _base_env(codex_home):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OPENAI_", "CODEX_", "OTEL_", "RUST_LOG"))}
    env["CODEX_HOME"] = codex_home
    env["HOME"] = codex_home
    env[KEY_ENV] = "sk-kaizen-test-dummy"
    env["NO_COLOR"] = "1"
    # Codex refuses to put its helper binaries (the `apply_patch` alias on PATH) in a CODEX_HOME
    # under the temporary directory; a TMPDIR inside the home lifts that.
    tmp = os.path.join(codex_home, "tmp")
    os.makedirs(tmp, exist_ok=True)
    env["TMPDIR"] = tmp
    return env


def run_codex(project_dir, prompt, model, codex_home, env_extra=None, timeout=180,
              bypass_hook_trust=False, json_events=True, extra_args=(), bypass_approvals=True):
    """Runs `codex exec PROMPT` in project_dir against `model` (a ResponsesScriptedModel), with
    CODEX_HOME = codex_home (see write_codex_config) and nothing but loopback.
    bypass_approvals (default): --dangerously-bypass-approvals-and-sandbox, so shell commands,
    patches and MCP tool calls run unsandboxed and unasked; False leaves exec's own defaults
    (approval "never", sandbox read-only unless extra_args says -s ...). bypass_hook_trust: run
    the hooks without a persisted review (--dangerously-bypass-hook-trust; else see
    write_codex_config(trusted_hooks=...)). Returns a CodexRun."""
    os.makedirs(codex_home, exist_ok=True)
    env = _base_env(codex_home)
    if env_extra:
        env.update(env_extra)
    args = [codex_binary(), "exec", "--skip-git-repo-check", "--color", "never",
            "-C", project_dir]
    if bypass_approvals:
        args.append("--dangerously-bypass-approvals-and-sandbox")
    if bypass_hook_trust:
        args.append("--dangerously-bypass-hook-trust")
    if json_events:
        args.append("--json")
    args += codex_overrides(model) + list(extra_args) + ["--", prompt]
    # Its own process group: the npm launcher starts the native binary as a child, and a timeout
    # must end both (and any hook or MCP server still running), not leave them behind.
    proc = subprocess.Popen(args, cwd=project_dir, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise subprocess.TimeoutExpired(args, timeout, output=out, stderr=err) from None
    return CodexRun(args, subprocess.CompletedProcess(args, proc.returncode, out, err))
