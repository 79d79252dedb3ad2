#!/usr/bin/env bash
# `kaizen serve` under wrk: `bash bench/serve_bench.sh BUILD_DIR` (also the last step of
# bench/run.sh, which passes its 1M-event home in KAIZEN_SERVE_BENCH_HOME).
#   1. ingest: small feedback POSTs (one event each, durable before the answer) on a fresh home,
#      wrk -t2 -c64 -d10s; then checks non-2xx = 0 and that the log holds every answered event.
#      Target: 20,000 events/s.
#   2. context: GET /v1/context over a 1M-event history (`kaizen gen --events 1000000 | kaizen
#      import -`, or KAIZEN_SERVE_BENCH_HOME), wrk --latency; target p99 under 2 ms.
# Environment: KAIZEN_SERVE_BENCH_DURATION (10s), KAIZEN_SERVE_BENCH_CONNECTIONS (64),
# KAIZEN_SERVE_BENCH_EVENTS (1000000), KAIZEN_SERVE_BENCH_HOME (an existing home for 2),
# KAIZEN_SERVE_BENCH_ONLY (ingest or context: run one part).
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: bash bench/serve_bench.sh BUILD_DIR" >&2
  exit 2
fi
BUILD_DIR=$(cd "$1" && pwd)
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KAIZEN="$BUILD_DIR/kaizen"
DURATION=${KAIZEN_SERVE_BENCH_DURATION:-10s}
CONNS=${KAIZEN_SERVE_BENCH_CONNECTIONS:-64}
EVENTS=${KAIZEN_SERVE_BENCH_EVENTS:-1000000}
[[ -x "$KAIZEN" ]] || { echo "no kaizen binary at $KAIZEN" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is required (apt-get install wrk)" >&2; exit 2; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/kaizen-serve-bench.XXXXXX")
SERVER_PID=""
cleanup() {
  [[ -n "$SERVER_PID" ]] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null
  rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export KAIZEN_TOKEN="bench-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"

# start_server HOME [FLAGS...]: starts kaizen serve on a free port; sets SERVER_PID and URL.
start_server() {
  local home=$1
  shift
  : >"$TMP/serve.err"
  "$KAIZEN" serve --home "$home" --port 0 "$@" 2>>"$TMP/serve.err" &
  SERVER_PID=$!
  local i
  for ((i = 0; i < 6000; i++)); do
    URL=$(sed -n 's|^kaizen serve: listening on \(http://[0-9.]*:[0-9]*\) .*|\1|p' "$TMP/serve.err")
    [[ -n "$URL" ]] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$TMP/serve.err" >&2; exit 3; }
    sleep 0.1
  done
  echo "kaizen serve did not start" >&2
  exit 3
}

stop_server() {
  kill -TERM "$SERVER_PID"
  wait "$SERVER_PID" || { echo "kaizen serve exited $?" >&2; exit 3; }
  SERVER_PID=""
}

summary_field() { sed -n "s/^WRK_SUMMARY.* $2=\([0-9]*\).*/\1/p" "$1"; }

echo "machine: $(nproc) x $(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'),"\
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"

ONLY=${KAIZEN_SERVE_BENCH_ONLY:-}
rps=- ingest_p99=- non2xx=0 stored=- requests=- ingest_ok=1
ctx_rps=- ctx_p99=- ctx_p99_c1=- ctx_non2xx=0

# ---- 1. ingest ----
if [[ "$ONLY" != context ]]; then
HOME_I="$TMP/home-ingest"
# Binaries before the Beast transport (e.g. 80c8d14) held a pool thread per connection while a
# write waited for its group commit; the flag keeps them comparable and is harmless now.
start_server "$HOME_I" --threads "$(( CONNS > 64 ? CONNS : 64 ))"
echo
echo "== ingest: wrk -t2 -c$CONNS -d$DURATION POST /v1/feedback ($URL)"
wrk -t2 -c"$CONNS" -d"$DURATION" --latency -s "$REPO/bench/serve_ingest.lua" "$URL" \
  | tee "$TMP/ingest.out"
stop_server
requests=$(summary_field "$TMP/ingest.out" requests)
non2xx=$(summary_field "$TMP/ingest.out" non2xx)
stored=$("$KAIZEN" export --home "$HOME_I" | wc -l)
rps=$(sed -n 's/^Requests\/sec: *//p' "$TMP/ingest.out")
ingest_p99=$(awk '$1 == "99%" {print $2}' "$TMP/ingest.out")
# wrk counts the answers it read; requests in flight when it stopped may be stored too.
ingest_ok=1
if [[ "$non2xx" != 0 || "$stored" -lt "$requests" ]]; then ingest_ok=0; fi
echo "ingest: $requests answered, $non2xx non-2xx, $stored events in the log after shutdown"
fi

# ---- 2. context over a large history ----
if [[ "$ONLY" != ingest ]]; then
HOME_C=${KAIZEN_SERVE_BENCH_HOME:-}
if [[ -z "$HOME_C" ]]; then
  HOME_C="$TMP/home-context"
  echo
  echo "== kaizen gen --events $EVENTS | kaizen import - (untimed)"
  "$KAIZEN" gen --events "$EVENTS" | "$KAIZEN" import - --home "$HOME_C" >/dev/null
fi
t0=$(date +%s.%N)
start_server "$HOME_C" --now 2025-10-02T00:00:00Z
t1=$(date +%s.%N)
echo
echo "== context: $(sed -n 's/^kaizen serve: //p' "$TMP/serve.err"), up in" \
  "$(python3 -c "print(f'{$t1 - $t0:.1f}')") s"
curl_check=$(python3 - "$URL" <<'PYEOF'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1] + "/v1/context?server_type=shopify&type=mcp-server"
                            "&stage=review&dimensions=error-handling,security") as r:
    body = r.read()
print(f"{r.status}, {len(body)} bytes")
PYEOF
)
echo "one GET /v1/context: $curl_check"
wrk -t2 -c"$CONNS" -d"$DURATION" --latency -s "$REPO/bench/serve_context.lua" "$URL" \
  | tee "$TMP/context.out"
for c in 1 8; do
  echo "-- the same with -c$c"
  wrk -t1 -c"$c" -d5s --latency -s "$REPO/bench/serve_context.lua" "$URL" \
    | grep -E 'Requests/sec|99%|WRK_SUMMARY' | tee "$TMP/context-c$c.out"
done
stop_server
ctx_rps=$(sed -n 's/^Requests\/sec: *//p' "$TMP/context.out")
ctx_p99=$(awk '$1 == "99%" {print $2}' "$TMP/context.out")
ctx_p99_c1=$(awk '$1 == "99%" {print $2}' "$TMP/context-c1.out")
ctx_non2xx=$(summary_field "$TMP/context.out" non2xx)
fi

echo
echo "## kaizen serve (wrk -t2 -c$CONNS -d$DURATION)"
echo
echo "| measure | result | target |"
echo "|---|---:|---|"
echo "| ingest POST /v1/feedback, durable | $rps req/s, p99 $ingest_p99, $non2xx non-2xx, $stored/$requests in the log | 20,000/s, 0 errors |"
echo "| GET /v1/context over $EVENTS events, -c$CONNS | $ctx_rps req/s, p99 $ctx_p99, $ctx_non2xx non-2xx | p99 < 2 ms |"
echo "| GET /v1/context, -c1 | p99 $ctx_p99_c1 | p99 < 2 ms |"
if [[ "$ingest_ok" != 1 || "$ctx_non2xx" != 0 ]]; then
  echo "serve bench: errors or lost events (see above)" >&2
  exit 1
fi
