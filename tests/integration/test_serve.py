"""`kaizen serve`: the HTTP/1.1 JSON API, driven through real sockets against the real binary.

Each test starts `kaizen serve --port 0` on a fresh home, reads the port from its one
"listening on http://HOST:PORT" stderr line, and talks to it with http.client and raw sockets.
"""

import http.client
import json
import os
import re
import resource
import signal
import socket
import stat
import subprocess
import threading
import time
import unittest

from kzlib import (BIN, NOW, KaizenTest, dumps, feedback_event, jsonl, outcome_event,
                   strict_loads, unique)

LISTENING = re.compile(r"^kaizen serve: listening on http://([0-9.]+):([0-9]+) ")
TOKEN = "test-token-0123456789"


class Server:
    """One running `kaizen serve`; stderr is collected by a thread."""

    def __init__(self, home, *flags, token=TOKEN, max_files=None):
        env = dict(os.environ)
        env.pop("KAIZEN_TOKEN", None)
        if token is not None:
            env["KAIZEN_TOKEN"] = token
        self.token = token
        self.proc = subprocess.Popen(
            [BIN, "serve", "--home", home, "--port", "0",
             *([] if "--now" in flags else ["--now", NOW]), *flags],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            # A descriptor limit the server cannot raise (soft = hard).
            preexec_fn=None if max_files is None else
            (lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (max_files, max_files))))
        self.err_lines = []
        self.port = None
        ready = threading.Event()

        def drain():
            for raw in self.proc.stderr:
                line = raw.decode("utf-8", "replace").rstrip("\n")
                self.err_lines.append(line)
                m = LISTENING.match(line)
                if m:
                    self.host, self.port = m.group(1), int(m.group(2))
                    ready.set()
            ready.set()

        self.drainer = threading.Thread(target=drain, daemon=True)
        self.drainer.start()
        ready.wait(60)
        if self.port is None:
            self.proc.kill()
            raise AssertionError(f"kaizen serve did not start: {self.err_lines}")

    @property
    def stderr(self):
        return "\n".join(self.err_lines)

    def conn(self, timeout=30):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method, path, body=None, token="default", headers=None, conn=None):
        """(status, headers dict, parsed JSON or text)."""
        h = dict(headers or {})
        token = self.token if token == "default" else token
        if token is not None:
            h["Authorization"] = f"Bearer {token}"
        if isinstance(body, (dict, list)):
            body = dumps(body)
        if isinstance(body, str):
            body = body.encode("utf-8")
        own = conn is None
        c = conn or self.conn()
        try:
            c.request(method, path, body=body, headers=h)
            r = c.getresponse()
            data = r.read()
            ctype = r.getheader("Content-Type", "")
            parsed = strict_loads(data) if ctype.startswith("application/json") else data.decode()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, parsed
        finally:
            if own:
                c.close()

    def stop(self, timeout=60):
        self.proc.send_signal(signal.SIGTERM)
        rc = self.proc.wait(timeout)
        self.drainer.join(10)
        return rc

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.drainer.join(10)
        self.proc.stdout.close()
        self.proc.stderr.close()


class ServeTest(KaizenTest):
    def serve(self, *flags, token=TOKEN, max_files=None):
        s = Server(self.home, *flags, token=token, max_files=max_files)
        self.addCleanup(s.kill)
        return s

    def exported_ids(self):
        r = self.export()
        self.assertEqual(r.rc, 0, r)
        return {strict_loads(l)["id"] for l in r.lines}

    def assert_error_body(self, body, code):
        self.assertIsInstance(body, dict, body)
        self.assertEqual(set(body), {"error"}, body)
        self.assertEqual(set(body["error"]), {"code", "message", "errors"}, body)
        self.assertEqual(body["error"]["code"], code, body)
        self.assertTrue(body["error"]["message"], body)

    # ---- health, tokens ------------------------------------------------------------------------

    def test_healthz_needs_no_token_and_counts_events(self):
        s = self.serve()
        status, _, body = s.request("GET", "/healthz", token=None)
        self.assertEqual(status, 200)
        self.assertEqual(body["status"], "ok")
        self.assertEqual(body["events"], 0)
        self.assertIsInstance(body["uptimeSeconds"], int)
        self.assertEqual(s.request("POST", "/v1/feedback", feedback_event())[0], 201)
        self.assertEqual(s.request("GET", "/healthz", token=None)[2]["events"], 1)

    def test_now_end_answers_as_of_the_newest_event(self):
        event = feedback_event(timestamp="2025-03-04T05:06:07.000Z")
        r = self.kz("record", "feedback", "-", "--home", self.home, input=json.dumps(event).encode())
        self.assertEqual(r.rc, 0, r)
        s = self.serve("--now", "end")
        status, _, body = s.request("GET", "/v1/analysis", token=None)
        self.assertEqual(status, 200)
        self.assertEqual(body["now"], "2025-03-04T05:06:07.000Z")

    def test_first_start_creates_a_0600_token_file_and_prints_it_once(self):
        s = self.serve(token=None)
        path = self.hpath("config", "token")
        self.assertEqual(stat.S_IMODE(os.stat(path).st_mode), 0o600)
        with open(path) as f:
            token = f.read().strip()
        self.assertRegex(token, r"^[0-9a-f]{64}$")
        self.assertIn(token, s.stderr)
        s.token = token
        self.assertEqual(s.request("POST", "/v1/feedback", feedback_event())[0], 201)
        self.assertEqual(s.stop(), 0)
        again = self.serve(token=None)
        self.assertNotIn(token, again.stderr)
        again.token = token
        self.assertEqual(again.request("POST", "/v1/feedback", feedback_event())[0], 201)

    def test_write_without_token_is_401_wrong_token_403_right_token_201(self):
        s = self.serve()
        event = feedback_event()
        status, headers, body = s.request("POST", "/v1/feedback", event, token=None)
        self.assertEqual(status, 401)
        self.assertTrue(headers["www-authenticate"].startswith("Bearer"), headers)
        self.assert_error_body(body, "unauthorized")
        status, headers, body = s.request("POST", "/v1/feedback", event, token="nope")
        self.assertEqual(status, 403)
        self.assert_error_body(body, "forbidden")
        self.assertEqual(self.exported_ids(), set())
        status, _, body = s.request("POST", "/v1/feedback", event)
        self.assertEqual(status, 201, body)
        self.assertEqual(body["kind"], "feedback")
        self.assertEqual(self.exported_ids(), {body["id"]})

    # ---- limits ----------------------------------------------------------------------------------

    def test_body_over_the_cap_is_413_and_nothing_is_stored(self):
        s = self.serve("--max-body", "4096")
        big = jsonl(*[feedback_event() for _ in range(40)]).encode()
        self.assertGreater(len(big), 4096)
        with socket.create_connection(("127.0.0.1", s.port), timeout=20) as sock:
            sock.sendall(b"POST /v1/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                         + TOKEN.encode() + b"\r\nContent-Length: " + str(len(big)).encode()
                         + b"\r\n\r\n" + big)
            reply = b""
            while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
                chunk = sock.recv(65536)
                if not chunk:
                    break
                reply += chunk
            reply = reply.decode()
        self.assertTrue(reply.startswith("HTTP/1.1 413"), reply)
        body = json.loads(reply.split("\r\n\r\n", 1)[1])
        self.assert_error_body(body, "payload_too_large")
        self.assertIn("4096", body["error"]["message"])
        self.assertEqual(self.exported_ids(), set())
        small = jsonl(feedback_event())
        self.assertLess(len(small), 4096)
        self.assertEqual(s.request("POST", "/v1/events", small)[0], 200)

    def test_slow_client_is_cut_off_while_others_are_served(self):
        s = self.serve("--timeout", "1", "--threads", "4")
        slow = []
        for _ in range(2):
            sock = socket.create_connection(("127.0.0.1", s.port), timeout=20)
            self.addCleanup(sock.close)
            slow.append(sock)
        # One sends its headers and stalls on the body; one stalls mid-headers.
        slow[0].sendall(b"POST /v1/events HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{")
        slow[1].sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        started = time.monotonic()
        for _ in range(20):
            self.assertEqual(s.request("GET", "/healthz", token=None)[0], 200)
        for sock in slow:
            try:
                data = sock.recv(65536)
            except ConnectionResetError:
                data = b""
            # Cut off: closed, or answered with an error and closed; never left hanging.
            self.assertFalse(data.startswith(b"HTTP/1.1 2"), data)
        self.assertLess(time.monotonic() - started, 15)

    # ---- events ----------------------------------------------------------------------------------

    def test_bad_json_is_400_with_a_message(self):
        s = self.serve()
        status, _, body = s.request("POST", "/v1/feedback", '{"kind": "feedback", ')
        self.assertEqual(status, 400)
        self.assert_error_body(body, "bad_json")
        self.assertIn("not valid JSON", body["error"]["message"])
        status, _, body = s.request("POST", "/v1/feedback", "[1, 2]")
        self.assertEqual(status, 400)
        self.assertIn("one JSON object", body["error"]["message"])
        self.assertEqual(self.exported_ids(), set())

    def test_refused_event_is_422_with_field_paths(self):
        s = self.serve()
        event = feedback_event(scores=[{"dimension": "naming", "score": 11}])
        status, _, body = s.request("POST", "/v1/feedback", event)
        self.assertEqual(status, 422, body)
        self.assert_error_body(body, "invalid_event")
        paths = [e["path"] for e in body["error"]["errors"]]
        self.assertIn("scores[0].score", paths)
        self.assertEqual(self.exported_ids(), set())

    def test_pretty_printed_single_event_is_stored_as_one_line(self):
        s = self.serve()
        status, _, body = s.request("POST", "/v1/outcome", json.dumps(outcome_event(), indent=2))
        self.assertEqual(status, 201, body)
        self.assertEqual(self.exported_ids(), {body["id"]})

    def test_bulk_events_answer_per_line_200_207_or_422(self):
        s = self.serve()
        good, bad = feedback_event(), feedback_event(decision={"decision": "maybe"})
        status, _, body = s.request("POST", "/v1/events", jsonl(good, outcome_event()))
        self.assertEqual(status, 200, body)
        self.assertEqual((body["stored"], body["refused"]), (2, 0))
        self.assertEqual([l["line"] for l in body["lines"]], [1, 2])
        status, _, body = s.request("POST", "/v1/events",
                                    jsonl(feedback_event(), bad) + "{oops\n")
        self.assertEqual(status, 207, body)
        self.assertEqual([l["status"] for l in body["lines"]], ["stored", "refused", "refused"])
        self.assertTrue(body["lines"][1]["errors"][0]["path"].startswith("decision"), body)
        status, _, body = s.request("POST", "/v1/events", jsonl(bad))
        self.assertEqual(status, 422, body)
        self.assertEqual(body["error"]["code"], "invalid_event")
        self.assertTrue(body["error"]["errors"][0]["path"].startswith("line 1: decision"), body)
        status, _, body = s.request("POST", "/v1/events", "\n\n")
        self.assertEqual(status, 400)
        self.assertEqual(len(self.exported_ids()), 3)

    def test_fifty_concurrent_clients_every_acknowledged_id_is_in_the_log(self):
        s = self.serve()
        acked, failures = [], []
        lock = threading.Lock()

        def client(n):
            conn = s.conn()
            try:
                for i in range(4):
                    st, _, body = s.request("POST", "/v1/feedback", feedback_event(), conn=conn)
                    with lock:
                        (acked.append(body["id"]) if st == 201 else failures.append((st, body)))
                st, _, body = s.request("POST", "/v1/events",
                                        jsonl(feedback_event(), outcome_event()), conn=conn)
                with lock:
                    if st == 200:
                        acked.extend(l["id"] for l in body["lines"])
                    else:
                        failures.append((st, body))
            except Exception as e:  # noqa: BLE001 - reported below
                with lock:
                    failures.append(repr(e))
            finally:
                conn.close()

        threads = [threading.Thread(target=client, args=(n,)) for n in range(50)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
        self.assertEqual(failures, [])
        self.assertEqual(len(acked), 300)
        self.assertEqual(len(set(acked)), 300)
        self.assertEqual(s.request("GET", "/healthz", token=None)[2]["events"], 300)
        self.assertEqual(s.stop(), 0)
        self.assertEqual(self.exported_ids(), set(acked))

    def test_sigterm_under_load_keeps_every_acknowledged_event_and_exits_0(self):
        s = self.serve()
        acked, lock, stop = [], threading.Lock(), threading.Event()

        def client():
            while not stop.is_set():
                try:
                    st, _, body = s.request("POST", "/v1/feedback", feedback_event())
                except OSError:
                    return  # refused or reset once the server stopped accepting
                if 200 <= st < 300:
                    with lock:
                        acked.append(body["id"])
                elif st == 503:
                    return
                else:
                    raise AssertionError((st, body))

        threads = [threading.Thread(target=client) for _ in range(16)]
        for t in threads:
            t.start()
        time.sleep(1.5)
        rc = s.stop()
        stop.set()
        for t in threads:
            t.join(30)
        self.assertEqual(rc, 0, s.stderr)
        self.assertGreater(len(acked), 0)
        self.assertTrue(set(acked) <= self.exported_ids())
        self.assertIn("kaizen serve: stopped", s.stderr)

    def test_requests_after_shutdown_began_are_refused(self):
        s = self.serve()
        conn = s.conn()
        self.assertEqual(s.request("GET", "/healthz", token=None, conn=conn)[0], 200)
        s.proc.send_signal(signal.SIGTERM)
        time.sleep(0.3)
        # On the kept-alive connection: 503 JSON; a new connection: refused.
        try:
            status, headers, body = s.request("POST", "/v1/feedback", feedback_event(), conn=conn)
            self.assertEqual(status, 503, body)
            self.assert_error_body(body, "unavailable")
            self.assertEqual(headers.get("connection"), "close")
        except (ConnectionError, http.client.RemoteDisconnected):
            pass
        conn.close()
        with self.assertRaises(ConnectionRefusedError):
            socket.create_connection(("127.0.0.1", s.port), timeout=5).close()
        self.assertEqual(s.proc.wait(30), 0)
        self.assertEqual(self.exported_ids(), set())

    # ---- reads, tools, routing -------------------------------------------------------------------

    def test_get_context_hints_rules_and_analysis(self):
        s = self.serve()
        for _ in range(3):
            self.assertEqual(s.request("POST", "/v1/feedback",
                                       feedback_event(mcpServerType="shopify"))[0], 201)
        status, _, body = s.request("GET", "/v1/context?server_type=shopify&dimensions=naming"
                                    "&stage=review&budget=500", token=None)
        self.assertEqual(status, 200, body)
        self.assertIsInstance(body, dict)
        status, headers, text = s.request("GET", "/v1/context?server_type=shopify&format=md",
                                          token=None)
        self.assertEqual(status, 200)
        self.assertTrue(headers["content-type"].startswith("text/markdown"), headers)
        status, _, body = s.request("GET", "/v1/context?serverType=shopify", token=None)
        self.assertEqual(status, 400)
        self.assertEqual(body["error"]["errors"][0]["path"], "query.serverType")
        status, _, body = s.request("GET", "/v1/context?budget=0", token=None)
        self.assertEqual(body["error"]["errors"][0]["path"], "query.budget")
        status, _, body = s.request("GET", "/v1/hints", token=None)
        self.assertEqual(status, 200)
        self.assertIn("# Generated:", body["section"])
        status, _, body = s.request("GET", "/v1/rules", token=None)
        self.assertEqual(status, 200)
        self.assertEqual(set(body), {"rules", "rejectionPatterns"})
        status, _, body = s.request("GET", "/v1/analysis", token=None)
        self.assertEqual(status, 200)
        self.assertEqual(body["events"]["feedback"], 3, body["events"])

    def test_tools_are_listed_and_callable(self):
        s = self.serve()
        status, _, body = s.request("GET", "/v1/tools", token=None)
        self.assertEqual(status, 200)
        names = {t["name"] for t in body["tools"]}
        self.assertTrue({"record_feedback", "get_context"} <= names, names)
        event = feedback_event()
        del event["kind"]
        status, _, body = s.request("POST", "/v1/tools/record_feedback", event)
        self.assertEqual(status, 200, body)
        self.assertIn(body["id"], self.exported_ids())
        status, _, body = s.request("POST", "/v1/tools/get_context", {"server_type": "shopify"})
        self.assertIn(status, (200, 422), body)  # 422 only if the tool names its args otherwise
        status, _, body = s.request("POST", "/v1/tools/record_feedback", "{")
        self.assertEqual(status, 400)
        status, _, body = s.request("POST", "/v1/tools/nope", {})
        self.assertEqual(status, 404)
        self.assertIn("record_feedback", body["error"]["message"])
        status, _, body = s.request("POST", "/v1/tools/record_feedback", {}, token=None)
        self.assertEqual(status, 401)

    def test_unknown_route_404_and_wrong_method_405_are_json(self):
        s = self.serve()
        status, _, body = s.request("GET", "/v2/nothing", token=None)
        self.assertEqual(status, 404)
        self.assert_error_body(body, "not_found")
        status, headers, body = s.request("POST", "/v1/context", {})
        self.assertEqual(status, 405)
        self.assertEqual(headers["allow"], "GET")
        self.assert_error_body(body, "method_not_allowed")
        status, headers, body = s.request("GET", "/v1/feedback", token=None)
        self.assertEqual(status, 405)
        self.assertEqual(headers["allow"], "POST")
        status, _, body = s.request("DELETE", "/healthz", token=None)
        self.assertEqual(status, 405)

    # ---- the HTTP transport ----------------------------------------------------------------------

    def raw(self, s, data, until_closed=False, timeout=20):
        """Sends raw bytes; returns what arrives until the server closes or goes quiet."""
        with socket.create_connection(("127.0.0.1", s.port), timeout=timeout) as sock:
            sock.sendall(data)
            sock.settimeout(None if until_closed else 1.0)
            reply = b""
            try:
                while True:
                    chunk = sock.recv(65536)
                    if not chunk:
                        break
                    reply += chunk
            except socket.timeout:
                pass
            return reply.decode()

    def test_expect_100_continue_is_answered_before_the_body_is_sent(self):
        s = self.serve()
        body = dumps(feedback_event()).encode()
        with socket.create_connection(("127.0.0.1", s.port), timeout=20) as sock:
            sock.sendall(b"POST /v1/feedback HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer "
                         + TOKEN.encode() + b"\r\nExpect: 100-continue\r\nContent-Length: "
                         + str(len(body)).encode() + b"\r\n\r\n")
            interim = sock.recv(65536).decode()
            self.assertTrue(interim.startswith("HTTP/1.1 100 Continue\r\n"), interim)
            sock.sendall(body)
            reply = sock.recv(65536).decode()
        self.assertTrue(reply.startswith("HTTP/1.1 201"), reply)
        stored_id = json.loads(reply.split("\r\n\r\n", 1)[1])["id"]
        self.assertEqual(self.exported_ids(), {stored_id})

    def test_head_gives_the_get_headers_without_a_body(self):
        s = self.serve()
        _, get_headers, _ = s.request("GET", "/v1/hints", token=None)
        reply = self.raw(s, b"HEAD /v1/hints HTTP/1.1\r\nHost: x\r\n\r\n")
        head, _, rest = reply.partition("\r\n\r\n")
        self.assertTrue(head.startswith("HTTP/1.1 200"), reply)
        self.assertIn(f"Content-Length: {get_headers['content-length']}", head)
        self.assertEqual(rest, "")

    def test_pipelined_requests_are_answered_in_order_on_one_connection(self):
        s = self.serve()
        reply = self.raw(s, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                         b"GET /v2/none HTTP/1.1\r\nHost: x\r\n\r\n"
                         b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                         until_closed=True)
        self.assertEqual(re.findall(r"HTTP/1.1 (\d+)", reply), ["200", "404", "200"], reply)
        self.assertTrue(reply.rstrip().endswith("}"), reply)

    def test_malformed_request_and_oversized_headers_are_json_errors_then_closed(self):
        s = self.serve()
        reply = self.raw(s, b"GET /healthz HTTP/1.1\r\nHost x\r\n\r\n", until_closed=True)
        self.assertTrue(reply.startswith("HTTP/1.1 400"), reply)
        self.assert_error_body(json.loads(reply.split("\r\n\r\n", 1)[1]), "bad_request")
        self.assertIn("Connection: close", reply)
        reply = self.raw(s, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000
                         + b"\r\n\r\n", until_closed=True)
        self.assertTrue(reply.startswith("HTTP/1.1 431"), reply)
        self.assert_error_body(json.loads(reply.split("\r\n\r\n", 1)[1]), "headers_too_large")
        self.assertEqual(s.request("GET", "/healthz", token=None)[0], 200)

    def test_query_parameters_are_percent_decoded(self):
        s = self.serve()
        status, _, body = s.request("GET", "/v1/context?server_type=web%2Bapi&budget=1+0",
                                    token=None)
        self.assertEqual(status, 400, body)
        # '+' is a space in a query: "1 0" is not a number, and the error shows the decoded value.
        self.assertIn("query.budget", [e["path"] for e in body["error"]["errors"]], body)
        self.assertIn("1 0", json.dumps(body))
        status, _, _ = s.request("GET", "/v1/context?server_type=web%2Bapi&budget=1%30", token=None)
        self.assertEqual(status, 200)

    def test_an_http_1_0_request_is_answered_and_closed(self):
        s = self.serve()
        reply = self.raw(s, b"GET /healthz HTTP/1.0\r\n\r\n", until_closed=True)
        self.assertTrue(reply.startswith("HTTP/1.0 200"), reply)
        self.assertIn('"status":"ok"', reply)

    def test_out_of_descriptors_is_said_once_and_serving_resumes_when_clients_leave(self):
        s = self.serve(max_files=64)
        # A connection closed unused first: its error path runs while descriptors remain (under
        # UBSan, the first check of a type needs one).
        socket.create_connection(("127.0.0.1", s.port), timeout=20).close()
        held = []
        for _ in range(100):  # more connections than descriptors: the kernel queues the rest
            sock = socket.create_connection(("127.0.0.1", s.port), timeout=20)
            self.addCleanup(sock.close)
            held.append(sock)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "cannot accept" not in s.stderr:
            time.sleep(0.1)
        time.sleep(1)  # ten retries' worth
        self.assertEqual(s.stderr.count("cannot accept connections"), 1, s.stderr)
        for sock in held:
            sock.close()
        self.assertEqual(s.request("GET", "/healthz", token=None)[0], 200)
        # stderr is collected by a reader thread: the line may trail the answer by a moment.
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and "accepting connections again" not in s.stderr:
            time.sleep(0.05)
        self.assertIn("accepting connections again", s.stderr)
        self.assertEqual(s.stop(), 0)

    def test_port_in_use_is_a_system_error(self):
        s = self.serve()
        r = self.kz("serve", "--home", self.home, "--port", str(s.port), timeout=30)
        self.assertEqual(r.rc, 3, r)
        self.assertIn(str(s.port), r.err)


if __name__ == "__main__":
    unittest.main()
