#!/usr/bin/env bash
# run 19 (session 15): run 18's produce and consume tables again on a quiet
# machine, one fresh single-node Kafka 4.4.0 (make kafka-up), nothing else
# running: gregor (copy, BorrowSlices; Recycle, no Recycle, long-lived) and
# franz-go, 5 interleaved runs (the client order rotates per run), 1 KiB
# distinct values too; then the same clients at their defaults (the scale
# suite at 1 and 16 partitions), 5 interleaved runs.
set -euo pipefail
cd /work/main/bench
export GREGOR_KAFKA_STATE=/work/main/.kafka/state.json GREGOR_BENCH_DISTINCT=1
log=results/run19/log.txt
step() { echo "=== $* $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a $log; }
step 1 produce consume tuned
OUT=results/run19 COUNT=5 CLIENTS='gregor franz' SUITES='produce consume' PROFILES=0 ./run.sh
step 2 defaults scale 1,16
OUT=results/run19/defaults COUNT=5 CLIENTS='gregor franz' SUITES='scale' PROFILES=0 GREGOR_BENCH_SCALE_PARTS=1,16 ./run.sh
step done
