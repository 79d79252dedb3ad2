#!/bin/sh
# Runs the HTTP library comparison: both servers, same wrk settings, side by side.
# Usage: bench/http/run.sh   (builds first with build.sh)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$("$here/build.sh")
threads=${THREADS:-8}
echo "machine: nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for server in httplib beast; do
  port=18080; [ "$server" = beast ] && port=18081
  st=$threads; [ "$server" = beast ] && st=${BEAST_THREADS:-2}
  "$out/${server}_server" "$port" "$st" 2>/dev/null &
  pid=$!
  sleep 0.5
  echo "== $server ($st threads): GET /healthz"
  wrk -t2 -c64 -d10s --latency "http://127.0.0.1:$port/healthz" | grep -E 'Requests/sec|Latency |99%|Non-2xx|errors'
  echo "== $server ($st threads): POST /v1/echo (~300-byte body)"
  wrk -t2 -c64 -d10s --latency -s "$here/post.lua" "http://127.0.0.1:$port/v1/echo" | grep -E 'Requests/sec|Latency |99%|Non-2xx|errors'
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
