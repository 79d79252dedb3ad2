#!/usr/bin/env bash
# Runs a GoogleTest binary as N shards side by side (GTEST_TOTAL_SHARDS), each one process, and
# fails when any shard fails, showing that shard's failures. Usage: run_shards.sh BINARY N [ARGS].
set -u
bin=$1
shards=$2
shift 2
pids=()
for ((i = 0; i < shards; i++)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$i "$bin" "$@" >"shard-$i.log" 2>&1 &
  pids+=($!)
done
rc=0
for ((i = 0; i < shards; i++)); do
  shard_rc=0
  wait "${pids[$i]}" || shard_rc=$?
  if [[ $shard_rc -eq 0 ]]; then
    tail -n 2 "shard-$i.log"
  else
    rc=1
    echo "shard $i of $shards failed (exit $shard_rc); its log: $PWD/shard-$i.log"
    grep -E '^\[  FAILED  \]|Sanitizer|runtime error' "shard-$i.log" | head -40
    tail -n 60 "shard-$i.log"
  fi
done
exit $rc
