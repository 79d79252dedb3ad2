#!/usr/bin/env bash
# Trains the profile for kaizen's profile-guided build: `bash cmake/pgo_train.sh BIN OUT`, where
# BIN is a kaizen built with -DKAIZEN_PGO_GENERATE=ON and OUT the merged profile to write.
# The workload is what users run on large histories, on a generated one (every event kind):
# import (parse, validate, enrich, store), analyze (read the log, fold every learner, write JSON
# and text), and the demo (render, simulate, check). clang optimizes for size what a profile saw
# run zero times, so CMakeLists.txt applies the profile only to the code this workload runs
# through.
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: bash cmake/pgo_train.sh INSTRUMENTED_KAIZEN OUT.profdata" >&2
  exit 2
fi
BIN=$(realpath "$1")
OUT=$(realpath -m "$2")
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kaizen-pgo.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export LLVM_PROFILE_FILE="$WORK/profiles/%p.profraw"

"$BIN" gen --events 60000 --seed 7 > "$WORK/history.jsonl"
"$BIN" import --home "$WORK/home" "$WORK/history.jsonl" > /dev/null
# Two days after the generated history ends (`kaizen gen`: 90 days from 2025-07-01), so that the
# windowed rules (gates' 30 days, the dashboard's months) have events to fold.
NOW=2025-10-02T00:00:00Z
"$BIN" analyze --home "$WORK/home" --now "$NOW" --json > /dev/null
"$BIN" analyze --home "$WORK/home" --now "$NOW" > /dev/null
# A verb that reads some sections (the benchmarked approval, gates and calibration): it skips most
# of each review (Parts::FieldsOfReviews), a path the whole analysis never takes.
"$BIN" analyze --home "$WORK/home" --now "$NOW" --json --only approval,gates,calibration > /dev/null
"$BIN" demo --home "$WORK/demo" > /dev/null

mkdir -p "$(dirname "$OUT")"
llvm-profdata merge -o "$OUT.tmp" "$WORK"/profiles/*.profraw
mv "$OUT.tmp" "$OUT"
echo "PGO profile: $OUT ($(ls "$WORK"/profiles | wc -l) runs merged)"
