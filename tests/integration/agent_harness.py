"""What the real-agent harnesses share (agent_claude_code.py for Claude Code, codex_model.py and
agent_codex.py for Codex): a scripted model served on loopback in a thread of its own, and the
check that an agent's binary is there and runs. Python 3.11 standard library only; not a test
file.
"""

import os
import shutil
import subprocess
import tempfile
import threading
from http.server import ThreadingHTTPServer


def binary_available(path, name, env_var, base_env):
    """(True, "") when the agent's binary at `path` is there and `--version` runs (HOME a
    throwaway directory, its environment from base_env(home)); else (False, why)."""
    if not os.path.exists(path):
        return False, f"no {name} binary at {path} (npm ci in tests/js, or set {env_var})"
    if not os.access(path, os.X_OK):
        return False, f"{path} is not executable"
    home = tempfile.mkdtemp(prefix="kz-agent-probe-")
    try:
        proc = subprocess.run([path, "--version"], capture_output=True, timeout=60,
                              stdin=subprocess.DEVNULL, env=base_env(home))
    except (OSError, subprocess.SubprocessError) as e:
        return False, f"{path} --version failed: {e}"
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if proc.returncode != 0:
        return False, f"{path} --version exited {proc.returncode}: {proc.stderr[:200]!r}"
    return True, ""


class LoopbackModel:
    """A model server on 127.0.0.1:<free port> answering in daemon threads, usable as a context
    manager. Subclasses set `request_class` (what a recorded request is) and call serve(handler)
    from __init__; every request they see goes through _record."""

    request_class = None

    def serve(self, handler):
        self.requests = []
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
        self._thread.join()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _record(self, method, path, headers, body, main=False, step=None):
        with self._lock:
            self.requests.append(
                self.request_class(method, path, dict(headers.items()), body, main, step))
