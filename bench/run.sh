#!/usr/bin/env bash
# run.sh: run the end-to-end benchmarks against the shared test bed
# (GREGOR_KAFKA_STATE or <repo>/.kafka/state.json; start one with
# `make kafka-up`) and summarise them with benchstat into results/*.stat.
# COUNT (default 6) sets -count.
set -euo pipefail
cd "$(dirname "$0")"
COUNT=${COUNT:-6}
mkdir -p results
go test -run '^$' -bench 'BenchmarkProduce' -benchmem -benchtime=2s -count="$COUNT" -timeout 60m . | tee results/produce.txt
go test -run '^$' -bench 'BenchmarkConsume$' -benchmem -benchtime=3x -count="$COUNT" -timeout 60m . | tee results/consume.txt
BENCHSTAT=${BENCHSTAT:-go run golang.org/x/perf/cmd/benchstat@latest}
for f in produce consume; do
	$BENCHSTAT -col '/client@(franz gregor)' \
		-filter '.unit:(records/s OR cpu-sec/rec OR B/rec OR allocs/rec OR B/s)' \
		results/$f.txt > results/$f.stat
done
