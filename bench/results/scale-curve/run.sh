#!/usr/bin/env bash
# run.sh: the issue-37 cost curve, gregor and franz-go at their defaults in
# one process per run (produce then consume, every count; the clients' order
# alternates by run and count), N runs; the
# load average beside (load.txt, every 30 s).
set -euo pipefail
cd "$(dirname "$0")/../.."
OUT=results/scale-curve
N=${N:-3}
START=${START:-1}
BENCHES=${BENCHES:-Produce|Consume}
TAG=${TAG:-run}
PARTS=${PARTS:-1,16,64,256,1024}
export GREGOR_KAFKA_STATE=${GREGOR_KAFKA_STATE:-/work/main/.kafka/state.json}
go test -c -o "$OUT/bench.test" .
( while true; do echo "$(date -u +%T) $(uptime)"; sleep 30; done ) >>"$OUT/load.txt" &
LOADPID=$!
trap 'kill $LOADPID; rm -f "$OUT/bench.test"' EXIT
for i in $(seq "$START" $((START + N - 1))); do
	echo "run $i $(date -u +%T) $(uptime)" | tee -a "$OUT/run.log"
	GREGOR_BENCH_RUN=$i GREGOR_BENCH_SCALE_PARTS=$PARTS "$OUT/bench.test" -test.run '^$' -test.benchtime=1x -test.timeout=60m \
		-test.bench "^BenchmarkScale(${BENCHES})\$/client=(gregor|franz)$/parts=(${PARTS//,/|})\$" \
		>"$OUT/$TAG$i.txt" 2>&1 || echo "run $i failed" | tee -a "$OUT/run.log"
done
