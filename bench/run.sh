#!/usr/bin/env bash
# kaizen's benchmarks: `bash bench/run.sh BUILD_DIR` (a build configured with -DKAIZEN_BENCH=ON;
# `make bench` does it all).
#   1. the machine;
#   2. the Google Benchmark binaries (BUILD_DIR/*_bench): stage costs and the JSON writer choice;
#   3. `kaizen gen` of 1,000,000 events, then `kaizen import` (durable, fresh home) against the
#      Python baseline (bench/python_pipeline.py) on the same file in the same run, best of N runs
#      (hyperfine when installed), and a check that both homes hold every event; when run as root,
#      the kaizen import again with the page cache dropped before each run (input read from disk);
#   4. analysis: `kaizen analyze --json` on that 1M-event home (every section, and only the three
#      the baseline computes: `--only approval,gates,calibration`) against the Python baseline
#      (bench/python_analysis.py: approval, gates, calibration only), after checking that all give
#      the same numbers, and the kaizen runs' max RSS (/usr/bin/time -v).
# One Python run over 1M events takes about two minutes of CPU, so by default it runs once (kaizen
# three times) to keep the whole script near five minutes; KAIZEN_BENCH_PY_RUNS=3 for best of 3.
# Prints a summary and writes it to BUILD_DIR/bench-results.md. Temporary files (~2.5 GB) live in
# one directory under $TMPDIR (default /tmp), removed at the end, also on failure or Ctrl-C.
#
# Environment: KAIZEN_BENCH_EVENTS (1000000), KAIZEN_BENCH_RUNS (3), KAIZEN_BENCH_PY_RUNS (1),
# KAIZEN_BENCH_MIN_TIME (0.5, seconds per Google Benchmark), KAIZEN_BENCH_SKIP_MICRO=1 to skip 2,
# KAIZEN_BENCH_SKIP_COLD=1 to skip the cold-cache import runs, KAIZEN_BENCH_SKIP_THEMES=1 to skip
# 6 (theme precision and recall on real review comments, bench/review_themes_eval.py).
# Analysis: KAIZEN_BENCH_ANALYZE_RUNS (10), KAIZEN_BENCH_ANALYZE_PY_RUNS (2), KAIZEN_BENCH_NOW
# (2025-10-02T00:00:00Z: two days after `kaizen gen`'s history ends), KAIZEN_BENCH_SKIP_ANALYSIS=1
# to skip 4; KAIZEN_BENCH_ONLY_ANALYSIS=1 skips 3 and builds the home for 4 with
# `kaizen gen --seed 7` + `kaizen import` instead.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: bash bench/run.sh BUILD_DIR" >&2
  exit 2
fi
BUILD_DIR=$(cd "$1" && pwd)
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
KAIZEN="$BUILD_DIR/kaizen"
PIPELINE="$REPO/bench/python_pipeline.py"
EVENTS=${KAIZEN_BENCH_EVENTS:-1000000}
RUNS=${KAIZEN_BENCH_RUNS:-3}
PY_RUNS=${KAIZEN_BENCH_PY_RUNS:-1}
MIN_TIME=${KAIZEN_BENCH_MIN_TIME:-0.5}
RESULTS="$BUILD_DIR/bench-results.md"
ANALYSIS_PY="$REPO/bench/python_analysis.py"
ANALYZE_RUNS=${KAIZEN_BENCH_ANALYZE_RUNS:-10}
ANALYZE_PY_RUNS=${KAIZEN_BENCH_ANALYZE_PY_RUNS:-2}
ANALYZE_NOW=${KAIZEN_BENCH_NOW:-2025-10-02T00:00:00Z}

[[ -x "$KAIZEN" ]] || { echo "no kaizen binary at $KAIZEN (build first)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time (GNU time) is required" >&2; exit 2; }
command -v python3 >/dev/null || { echo "python3 is required" >&2; exit 2; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/kaizen-bench.XXXXXX")
cleanup() { rm -rf "$TMP"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

SCRIPT_START=$(date +%s)
section() { printf '\n=== %s ===\n' "$*"; }

# ---- 1. The machine ----
section "machine"
cpu_model=$(grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//' || true)
ram_gib=$(awk '/^MemTotal:/ {printf "%.1f", $2 / 1048576}' /proc/meminfo)
fs_source=$(findmnt -no SOURCE -T "$TMP" 2>/dev/null || df --output=source "$TMP" | tail -1)
fs_type=$(findmnt -no FSTYPE -T "$TMP" 2>/dev/null || df --output=fstype "$TMP" | tail -1)
disk_desc="$fs_source"
dev=$(basename "$fs_source")
blk=$dev
# A partition (vda1, nvme0n1p2) belongs to its parent device in /sys/block.
if [[ ! -e /sys/block/$blk ]]; then
  parent=$(lsblk -no PKNAME "$fs_source" 2>/dev/null | head -1 || true)
  [[ -n "$parent" ]] && blk=$parent
fi
if [[ -r /sys/block/$blk/queue/rotational ]]; then
  rota=$(cat "/sys/block/$blk/queue/rotational")
  model=$(cat "/sys/block/$blk/device/model" 2>/dev/null | sed 's/ *$//' || true)
  case "$blk" in
    vd*) kind="virtio block device" ;;
    nvme*) kind="NVMe" ;;
    *) [[ "$rota" == 1 ]] && kind="rotational" || kind="SSD" ;;
  esac
  disk_desc="$fs_source ($kind${model:+, $model}, rotational=$rota)"
fi
MACHINE=$(cat <<EOF
- CPUs: $(nproc) x ${cpu_model:-unknown}
- RAM: ${ram_gib} GiB
- temp dir: $TMP on $disk_desc, $fs_type
- kernel: $(uname -sr)
- load average at start: $(cut -d' ' -f1-3 /proc/loadavg)
- tools: $(python3 --version 2>&1), $(command -v hyperfine >/dev/null && hyperfine --version || echo "no hyperfine (using date)")
- kaizen: $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo "?")$(git -C "$REPO" diff --quiet HEAD -- src 2>/dev/null || echo " + uncommitted changes in src/")
EOF
)
echo "$MACHINE"

avail_kb=$(df --output=avail -k "$TMP" | tail -1)
need_kb=$(( EVENTS * 3 ))  # ~0.8 KB per event, three copies (input, two homes)
if (( avail_kb < need_kb )); then
  echo "not enough space in $TMP: $((avail_kb / 1024)) MiB free, ~$((need_kb / 1024)) MiB needed" >&2
  exit 3
fi

# ---- 2. Google Benchmark ----
MICRO_MD=""
if [[ "${KAIZEN_BENCH_SKIP_MICRO:-0}" != 1 ]]; then
  shopt -s nullglob
  benches=("$BUILD_DIR"/*_bench)
  shopt -u nullglob
  for b in "${benches[@]}"; do
    [[ -x "$b" ]] || continue
    name=$(basename "$b")
    section "$name"
    KAIZEN_BENCH_TMP="$TMP" "$b" --benchmark_min_time="$MIN_TIME" \
      --benchmark_out="$BUILD_DIR/$name.json" --benchmark_out_format=json
    MICRO_MD+=$(python3 - "$BUILD_DIR/$name.json" "$name" <<'EOF'
import json, sys
data = json.load(open(sys.argv[1]))
print(f"\n### {sys.argv[2]}\n")
print("| benchmark | time/iter | events/s | MB/s | notes |")
print("|---|---:|---:|---:|---|")
for b in data["benchmarks"]:
    if "error_occurred" in b and b["error_occurred"]:
        print(f"| {b['name']} | error | | | {b.get('error_message', '')} |")
        continue
    unit = b.get("time_unit", "ns")
    real = b.get("real_time", 0)
    cpu = b.get("cpu_time", 0)
    time_s = f"{real:.1f} {unit} wall, {cpu:.1f} {unit} cpu"
    items = b.get("items_per_second")
    by = b.get("bytes_per_second")
    skip = {"name", "run_name", "run_type", "repetitions", "repetition_index", "threads",
            "iterations", "real_time", "cpu_time", "time_unit", "items_per_second",
            "bytes_per_second", "family_index", "per_family_instance_index", "aggregate_name"}
    notes = ", ".join(f"{k}={v:g}" for k, v in b.items() if k not in skip and isinstance(v, (int, float)))
    if b.get("label"):
        notes = f"{notes}; {b['label']}" if notes else b["label"]
    items_s = f"{items:,.0f}" if items else ""
    by_s = f"{by / 1e6:,.1f}" if by else ""
    print(f"| {b['name']} | {time_s} | {items_s} | {by_s} | {notes} |")
EOF
)
    MICRO_MD+=$'\n'
  done
fi

# ---- 4. (defined here, run after 3) kaizen analyze vs the Python baseline ----
# analysis_section HOME: checks that kaizen and Python agree, times both (the log stays in the page
# cache, as for a person who runs analyze twice), measures both max RSS; sets ANALYSIS_TABLE
# (markdown) and ANALYSIS_OK.
ANALYSIS_TABLE=""
ANALYSIS_OK=1

# time_cmd LABEL RUNS WARMUP COMMAND -> "min mean stddev cpu" seconds in $TMP/LABEL.times, cpu
# the mean user + system time (nan without hyperfine): on a shared machine it moves less than
# the wall clock.
time_cmd() {
  local label=$1 runs=$2 warmup=$3 cmd=$4
  section "$label: $cmd (best of $runs run(s))"
  if command -v hyperfine >/dev/null; then
    hyperfine --runs "$runs" --warmup "$warmup" --export-json "$TMP/$label.json" \
      --command-name "$label" "$cmd"
    python3 - "$TMP/$label.json" >"$TMP/$label.times" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(r["min"], r["mean"], r.get("stddev") or 0, r["user"] + r["system"])
EOF
  else
    local times=() i t0 t1
    for ((i = 0; i < warmup; i++)); do $cmd >/dev/null; done
    for ((i = 0; i < runs; i++)); do
      t0=$(date +%s.%N)
      $cmd >/dev/null
      t1=$(date +%s.%N)
      times+=("$(python3 -c "print($t1 - $t0)")")
      echo "run $((i + 1)): ${times[-1]} s"
    done
    python3 -c '
import statistics, sys
t = [float(x) for x in sys.argv[1:]]
print(min(t), statistics.mean(t), statistics.stdev(t) if len(t) > 1 else 0, "nan")' \
      "${times[@]}" >"$TMP/$label.times"
  fi
}

analysis_section() {
  local home=$1
  local kz_cmd="$KAIZEN analyze --json --home $home --now $ANALYZE_NOW"
  local kz3_cmd="$kz_cmd --only approval,gates,calibration"
  local py_cmd="python3 $ANALYSIS_PY $home --now $ANALYZE_NOW"
  local raw_bytes raw_files load check check3 kz_rss kz3_rss py_rss
  raw_bytes=$(du -sb "$home/feedback/raw" | cut -f1)
  raw_files=$(find "$home/feedback/raw" -name '*.jsonl' -type f | wc -l)
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  section "analysis: $raw_bytes bytes in $raw_files daily files, --now $ANALYZE_NOW (load $load)"

  # The same numbers first: a fast wrong answer is not a result.
  /usr/bin/time -v -o "$TMP/analysis-kaizen.rusage" $kz_cmd >"$TMP/analysis-kaizen.json"
  if check=$(/usr/bin/time -v -o "$TMP/analysis-py.rusage" \
      $py_cmd --check "$TMP/analysis-kaizen.json" 2>"$TMP/analysis-check.err"); then
    echo "$check"
  else
    ANALYSIS_OK=0
    cat "$TMP/analysis-check.err" >&2
    check="**MISMATCH** between python and kaizen: $(grep -m1 MISMATCH "$TMP/analysis-check.err")"
  fi
  /usr/bin/time -v -o "$TMP/analysis-kaizen3.rusage" $kz3_cmd >"$TMP/analysis-kaizen3.json"
  if check3=$($py_cmd --check "$TMP/analysis-kaizen3.json" 2>"$TMP/analysis-check3.err"); then
    echo "--only: $check3"
  else
    ANALYSIS_OK=0
    cat "$TMP/analysis-check3.err" >&2
    check="$check; --only: **MISMATCH**: $(grep -m1 MISMATCH "$TMP/analysis-check3.err")"
  fi
  kz_rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/analysis-kaizen.rusage")
  kz3_rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/analysis-kaizen3.rusage")
  py_rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$TMP/analysis-py.rusage")
  echo "max RSS: kaizen analyze $((kz_rss / 1024)) MiB (--only: $((kz3_rss / 1024)) MiB), python $((py_rss / 1024)) MiB"

  time_cmd analyze-kaizen "$ANALYZE_RUNS" 1 "$kz_cmd"
  time_cmd analyze-kaizen3 "$ANALYZE_RUNS" 1 "$kz3_cmd"
  # No warmup for Python: the check above just read the same files.
  time_cmd analyze-python "$ANALYZE_PY_RUNS" 0 "$py_cmd"

  ANALYSIS_TABLE=$(python3 - "$TMP/analyze-kaizen.times" "$TMP/analyze-python.times" \
      "$TMP/analysis-kaizen.json" "$raw_bytes" "$raw_files" "$ANALYZE_RUNS" "$ANALYZE_PY_RUNS" \
      "$kz_rss" "$py_rss" "$ANALYZE_NOW" "$load" "$check" "$TMP/analyze-kaizen3.times" \
      "$kz3_rss" <<'EOF'
import json, sys
k = [float(x) for x in open(sys.argv[1]).read().split()]
p = [float(x) for x in open(sys.argv[2]).read().split()]
events = json.load(open(sys.argv[3]))["events"]["total"]
size, files, runs, py_runs = int(sys.argv[4]), int(sys.argv[5]), sys.argv[6], sys.argv[7]
kz_rss, py_rss = int(sys.argv[8]), int(sys.argv[9])
now, load, check = sys.argv[10:13]
k3 = [float(x) for x in open(sys.argv[13]).read().split()]
kz3_rss = int(sys.argv[14])
def row(name, t, n, rss):
    best, mean, sd, cpu = t
    spread = f"{mean:.2f} ± {sd:.2f}" if int(n) > 1 else "(one run)"
    return (f"| {name} | {events / best:,.0f} | {size / best / 1e6:,.1f} | {best:.2f} | "
            f"{spread} | {cpu:.2f} | {rss / 1024:,.0f} | {n} |")
print(f"`kaizen analyze --json --now {now}` over {events:,} stored events ({size / 1e6:,.1f} MB "
      f"in {files} daily files, page cache warm), best of N runs; load average {load} before:\n")
print("| analysis | events/s | MB/s | seconds (best) | seconds (mean ± sd) | CPU s (mean) "
      "| max RSS (MiB) | runs |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
print(row("kaizen analyze --json (every section)", k, runs, kz_rss))
print(row("kaizen analyze --json --only approval,gates,calibration", k3, runs, kz3_rss))
print(row("python3 bench/python_analysis.py (approval, gates, calibration)", p, py_runs, py_rss))
ratio, ratio3 = p[0] / k[0], p[0] / k3[0]
print(f"| **python / kaizen, every section** | **{ratio:.1f}x** | | | | {p[3] / k[3]:.1f}x | | |")
print(f"| **python / kaizen, the same three sections** | **{ratio3:.1f}x** | | | | "
      f"{p[3] / k3[3]:.1f}x | | |")
ok = lambda good: "met" if good else "**NOT met**"
print(f"\nTargets: kaizen under 2 s: {ok(k[0] < 2)} ({k[0]:.2f} s); under 512 MB: "
      f"{ok(kz_rss < 512 * 1024)} ({kz_rss / 1024:,.0f} MiB); Python at least 20x slower: "
      f"against every section {ok(ratio >= 20)} ({ratio:.1f}x), against the same three "
      f"sections {ok(ratio3 >= 20)} ({ratio3:.1f}x).")
print(f"\nCheck (python_analysis.py --check): {check}")
EOF
)
}

if [[ "${KAIZEN_BENCH_ONLY_ANALYSIS:-0}" == 1 ]]; then
  INPUT="$TMP/input.jsonl"
  HOME_A="$TMP/home-analysis"
  section "kaizen gen --events $EVENTS --seed 7 + kaizen import (untimed)"
  "$KAIZEN" gen --events "$EVENTS" --seed 7 --out "$INPUT"
  "$KAIZEN" import "$INPUT" --home "$HOME_A"
  rm -f "$INPUT"
  analysis_section "$HOME_A"
  ELAPSED=$(( $(date +%s) - SCRIPT_START ))
  section "results"
  echo "$ANALYSIS_TABLE"
  echo
  echo "whole script: ${ELAPSED} s"
  {
    echo "# kaizen benchmark results"
    echo
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), \`KAIZEN_BENCH_ONLY_ANALYSIS=1 bash bench/run.sh" \
      "$(basename "$BUILD_DIR")\` (${ELAPSED} s)"
    echo
    echo "## Machine"
    echo
    echo "$MACHINE"
    echo
    echo "## kaizen analyze vs Python"
    echo
    echo "$ANALYSIS_TABLE"
    if [[ -n "$MICRO_MD" ]]; then
      echo
      echo "## Google Benchmark (--benchmark_min_time=$MIN_TIME)"
      echo "$MICRO_MD"
    fi
  } >"$RESULTS"
  echo "wrote $RESULTS"
  if [[ "$ANALYSIS_OK" != 1 ]]; then
    echo "analysis check failed: python and kaizen disagree, the comparison is not valid" >&2
    exit 1
  fi
  exit 0
fi

# ---- 3. kaizen import vs the Python baseline on 1M events ----
INPUT="$TMP/input.jsonl"
section "kaizen gen --events $EVENTS"
gen_start=$(date +%s.%N)
"$KAIZEN" gen --events "$EVENTS" --seed 1 --out "$INPUT"
gen_end=$(date +%s.%N)
INPUT_BYTES=$(stat -c %s "$INPUT")
INPUT_LINES=$(wc -l <"$INPUT")
GEN_SECONDS=$(python3 -c "print(f'{$gen_end - $gen_start:.2f}')")
echo "generated $INPUT_LINES lines, $INPUT_BYTES bytes in $GEN_SECONDS s"
if [[ "$INPUT_LINES" -ne "$EVENTS" ]]; then
  echo "kaizen gen wrote $INPUT_LINES lines, expected $EVENTS" >&2
  exit 3
fi

KZ_HOME="$TMP/home-kaizen"
PY_HOME="$TMP/home-py"
KZ_CMD="$KAIZEN import $INPUT --home $KZ_HOME"
PY_CMD="python3 $PIPELINE $INPUT $PY_HOME"

# Dropping the page cache needs root; without it the cold-cache runs are skipped.
DROP_CACHES=/proc/sys/vm/drop_caches
can_drop_caches() { [[ "${KAIZEN_BENCH_SKIP_COLD:-0}" != 1 && -w $DROP_CACHES ]]; }

# time_runs LABEL RUNS HOME COMMAND [cold] -> writes "min mean stddev" seconds to
# $TMP/LABEL.times. With "cold", the page cache is dropped before each run too, so the input is
# read from disk (as right after a reboot, or once other files have pushed it out).
time_runs() {
  local label=$1 runs=$2 home=$3 cmd=$4 cold=${5:-}
  local prepare="rm -rf $home && sync"
  [[ "$cold" == cold ]] && prepare+=" && echo 3 > $DROP_CACHES"
  section "$label: $cmd (best of $runs run(s), fresh home each run${cold:+, page cache dropped})"
  if command -v hyperfine >/dev/null; then
    hyperfine --runs "$runs" --prepare "$prepare" --show-output \
      --export-json "$TMP/$label.json" --command-name "$label" "$cmd"
    python3 - "$TMP/$label.json" >"$TMP/$label.times" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
print(r["min"], r["mean"], r.get("stddev") or 0)
EOF
  else
    local times=()
    for ((i = 0; i < runs; i++)); do
      bash -c "$prepare"
      local t0 t1
      t0=$(date +%s.%N)
      $cmd
      t1=$(date +%s.%N)
      times+=("$(python3 -c "print($t1 - $t0)")")
      echo "run $((i + 1)): ${times[-1]} s"
    done
    python3 -c '
import statistics, sys
t = [float(x) for x in sys.argv[1:]]
print(min(t), statistics.mean(t), statistics.stdev(t) if len(t) > 1 else 0)' "${times[@]}" \
      >"$TMP/$label.times"
  fi
}

time_runs kaizen "$RUNS" "$KZ_HOME" "$KZ_CMD"
if can_drop_caches; then
  time_runs kaizen-cold "$RUNS" "$KZ_HOME" "$KZ_CMD" cold
else
  echo "(no cold-cache runs: $DROP_CACHES is not writable, or KAIZEN_BENCH_SKIP_COLD=1)"
fi
time_runs python "$PY_RUNS" "$PY_HOME" "$PY_CMD"

# ---- 4. Both homes hold every event ----
section "verify"
count_lines() { find "$1/feedback/raw" -name '*.jsonl' -type f -exec cat {} + | wc -l; }
KZ_LINES=$(count_lines "$KZ_HOME")
PY_LINES=$(count_lines "$PY_HOME")
KZ_FILES=$(find "$KZ_HOME/feedback/raw" -name '*.jsonl' -type f | wc -l)
PY_FILES=$(find "$PY_HOME/feedback/raw" -name '*.jsonl' -type f | wc -l)
KZ_STORED=$(du -sb "$KZ_HOME/feedback/raw" | cut -f1)
PY_STORED=$(du -sb "$PY_HOME/feedback/raw" | cut -f1)
echo "kaizen home: $KZ_LINES lines in $KZ_FILES daily files ($KZ_STORED bytes)"
echo "python home: $PY_LINES lines in $PY_FILES daily files ($PY_STORED bytes)"
VERIFY_OK=1
for pair in "kaizen:$KZ_LINES" "python:$PY_LINES"; do
  if [[ "${pair#*:}" -ne "$EVENTS" ]]; then
    echo "MISMATCH: the ${pair%%:*} home holds ${pair#*:} lines, expected $EVENTS" >&2
    VERIFY_OK=0
  fi
done

# ---- 4. kaizen analyze vs Python on the kaizen home just imported ----
if [[ "${KAIZEN_BENCH_SKIP_ANALYSIS:-0}" != 1 ]]; then
  analysis_section "$KZ_HOME"
fi

# ---- The table ----
TABLE=$(python3 - "$TMP/kaizen.times" "$TMP/python.times" "$EVENTS" "$INPUT_BYTES" "$RUNS" "$PY_RUNS" \
    "$TMP/kaizen-cold.times" <<'EOF'
import os, sys
k = [float(x) for x in open(sys.argv[1]).read().split()]
p = [float(x) for x in open(sys.argv[2]).read().split()]
events, size, runs, py_runs = int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
cold = [float(x) for x in open(sys.argv[7]).read().split()] if os.path.exists(sys.argv[7]) else None
def row(name, t, n):
    best, mean, sd = t
    spread = f"{mean:.2f} ± {sd:.2f}" if int(n) > 1 else "(one run)"
    return (f"| {name} | {events / best:,.0f} | {size / best / 1e6:,.1f} | {best:.2f} | "
            f"{spread} | {n} |")
print(f"Durable ingest of {events:,} generated events ({size / 1e6:,.1f} MB JSONL), fresh home, "
      "best of N runs:\n")
print("| pipeline | events/s | MB/s | seconds (best) | seconds (mean ± sd) | runs |")
print("|---|---:|---:|---:|---:|---:|")
print(row("kaizen import", k, runs))
if cold:
    print(row("kaizen import, page cache dropped before each run", cold, runs))
print(row("python3 bench/python_pipeline.py", p, py_runs))
print(f"| **kaizen / python** | **{p[0] / k[0]:.1f}x** | | | | |")
ok = lambda good: "met" if good else "**NOT met**"
under = f"{ok(k[0] < 5)} ({k[0]:.2f} s)"
if cold:
    under += f", from a cold page cache {ok(cold[0] < 5)} ({cold[0]:.2f} s)"
if events == 1_000_000:
    print(f"\nTargets: under 5 s: {under}; at least 20x the Python pipeline: "
          f"{ok(p[0] / k[0] >= 20)} ({p[0] / k[0]:.1f}x).")
EOF
)
ELAPSED=$(( $(date +%s) - SCRIPT_START ))

section "results"
echo "$TABLE"
echo
echo "verified: kaizen $KZ_LINES lines, python $PY_LINES lines (expected $EVENTS each)"
if [[ -n "$ANALYSIS_TABLE" ]]; then
  echo
  echo "$ANALYSIS_TABLE"
fi
echo "whole script: ${ELAPSED} s"

{
  echo "# kaizen benchmark results"
  echo
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), \`bash bench/run.sh $(basename "$BUILD_DIR")\` (${ELAPSED} s)"
  echo
  echo "## Machine"
  echo
  echo "$MACHINE"
  echo
  echo "## kaizen import vs Python"
  echo
  echo "$TABLE"
  echo
  echo "Verified after the last runs: the kaizen home holds $KZ_LINES lines in $KZ_FILES daily files" \
    "($KZ_STORED bytes), the Python home $PY_LINES lines in $PY_FILES files ($PY_STORED bytes)."
  if [[ -n "$ANALYSIS_TABLE" ]]; then
    echo
    echo "## kaizen analyze vs Python"
    echo
    echo "$ANALYSIS_TABLE"
  fi
  if [[ -n "$MICRO_MD" ]]; then
    echo
    echo "## Google Benchmark (--benchmark_min_time=$MIN_TIME)"
    echo "$MICRO_MD"
  fi
} >"$RESULTS"
echo "wrote $RESULTS"

if [[ "$VERIFY_OK" != 1 ]]; then
  echo "verification failed: the comparison is not valid" >&2
  exit 1
fi
if [[ "$ANALYSIS_OK" != 1 ]]; then
  echo "analysis check failed: python and kaizen disagree, the comparison is not valid" >&2
  exit 1
fi

# ---- 5. kaizen serve over HTTP: durable ingest POSTs and /v1/context latency (wrk) ----
# bench/serve_bench.sh; the context part reuses the 1M-event kaizen home of step 3.
if [[ "${KAIZEN_BENCH_SKIP_SERVE:-0}" != 1 ]]; then
  section "kaizen serve (bench/serve_bench.sh)"
  KAIZEN_SERVE_BENCH_HOME="$KZ_HOME" bash "$REPO/bench/serve_bench.sh" "$BUILD_DIR" \
    | tee "$TMP/serve-bench.out"
  { echo; sed -n '/^## kaizen serve/,$p' "$TMP/serve-bench.out"; } >>"$RESULTS"
fi

# ---- 6. theme extraction on real review comments (bench/review_themes_eval.py) ----
# Precision and recall per theme against 1,828 hand-labelled comments, when the data is there
# (../shared/realdata/review-comments; read in place, never copied: GPL-3.0). Seconds, not minutes.
THEMES_DATA="$REPO/../shared/realdata/review-comments/review_comments.jsonl"
if [[ "${KAIZEN_BENCH_SKIP_THEMES:-0}" != 1 && -f "$THEMES_DATA" ]]; then
  section "theme extraction on real review comments (bench/review_themes_eval.py)"
  python3 "$REPO/bench/review_themes_eval.py" --bin "$KAIZEN" --data "$THEMES_DATA" \
    | tee "$TMP/themes-eval.out"
  { echo; cat "$TMP/themes-eval.out"; } >>"$RESULTS"
fi
