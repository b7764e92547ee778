#!/usr/bin/env bash
# run 18 (session 7): the quiet final run of issue 24 on one single-node
# test bed (make kafka-up in the repo root), nothing else running.
#   1. gregor (copy, BorrowSlices; recycle, norecycle, reused) and franz-go,
#      produce and consume, 5 interleaved runs, 1 KiB distinct values too,
#      gregor's profiles;
#   2. gregor and franz-go: latency, group, txn and share, 2 interleaved runs;
#   3. sarama, kafka-go and confluent-kafka-go: produce and consume, 1 run;
#   4. charts of 1 and 3 together.
set -euo pipefail
cd /work/main/bench
export GREGOR_KAFKA_STATE=/work/main/.kafka/state.json GREGOR_BENCH_DISTINCT=1
log=results/run18/log.txt
step() { echo "=== $* $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a $log; }
step 1 produce consume gregor franz
OUT=results/run18 COUNT=5 CLIENTS='gregor franz' SUITES='produce consume' PROFILES=1 ./run.sh
step 2 latency group txn share
OUT=results/run18/suites COUNT=2 CLIENTS='gregor franz' SUITES='latency group txn share' PROFILES=0 ./run.sh
step 3 peers
OUT=results/run18/peers COUNT=1 CLIENTS='sarama kafkago confluent' SUITES='produce consume' PROFILES=0 ./run.sh
step 4 charts
mkdir -p results/run18/all
for s in produce consume; do cat results/run18/$s.txt results/run18/peers/$s.txt > results/run18/all/$s.txt; done
go run ./cmd/charts -out results/run18/all/charts results/run18/all/produce.txt results/run18/all/consume.txt
step done
