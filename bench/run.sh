#!/usr/bin/env bash
# run.sh: run the end-to-end benchmarks against the shared test bed
# (GREGOR_KAFKA_STATE or <repo>/.kafka/state.json; start one with
# `make kafka-up`) and summarise them with benchstat into results/*.stat.
# COUNT (default 6) sets how many times each suite runs (interleaved, see below).
set -euo pipefail
cd "$(dirname "$0")"
COUNT=${COUNT:-6}
mkdir -p results
# -count=N would run each case N times back to back, so one client's runs
# would share one window of the broker's (and machine's) state; instead the
# whole suite runs N times, so gregor and franz-go alternate case by case.
go test -c -o results/bench.test .
: > results/produce.txt
: > results/consume.txt
for _ in $(seq "$COUNT"); do
	./results/bench.test -test.run '^$' -test.bench 'BenchmarkProduce' -test.benchmem -test.benchtime=2s -test.timeout 60m | tee -a results/produce.txt
done
for _ in $(seq "$COUNT"); do
	./results/bench.test -test.run '^$' -test.bench 'BenchmarkConsume$' -test.benchmem -test.benchtime=3x -test.timeout 60m | tee -a results/consume.txt
done
rm -f results/bench.test
BENCHSTAT=${BENCHSTAT:-go run golang.org/x/perf/cmd/benchstat@latest}
for f in produce consume; do
	$BENCHSTAT -col '/client@(franz gregor)' \
		-filter '.unit:(records/s OR cpu-ns/rec OR sys-ns/rec OR B/rec OR allocs/rec OR recs/req OR B/s)' \
		results/$f.txt > results/$f.stat
done
