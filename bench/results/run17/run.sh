#!/usr/bin/env bash
# Run 17: gregor copy vs gregor BorrowSlices vs franz-go, 1 KiB distinct
# values (GREGOR_BENCH_DISTINCT=1), 1 and 12 partitions, none and lz4.
# Each client in a process of its own, the order rotating per round.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROUNDS=${ROUNDS:-4}
go test -c -o results/run17/bench.test .
trap 'rm -f results/run17/bench.test' EXIT
export GREGOR_BENCH_DISTINCT=1
clients=(gregor gregor-borrow franz)
out=results/run17/produce.txt
: > "$out"
echo "load at start: $(uptime)" > results/run17/load.txt
for r in $(seq "$ROUNDS"); do
	for k in 0 1 2; do
		c=${clients[$(((r - 1 + k) % 3))]}
		echo "=== round $r $c"
		./results/run17/bench.test -test.run '^$' -test.bench "^BenchmarkProduce\$/^client=${c}\$/^value=1024\$/^data=distinct\$/" \
			-test.benchmem -test.benchtime "${BENCHTIME:-2s}" -test.timeout 30m | tee -a "$out"
	done
	echo "load after round $r: $(uptime)" >> results/run17/load.txt
done
