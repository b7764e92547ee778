#!/usr/bin/env bash
# The low-rate many-partition case (BenchmarkProduceLatencyAtRate, 1k
# records/s over 12 partitions, default linger) before (main) and after
# draining, beside franz-go; each in a process of its own, order rotating.
set -euo pipefail
: > latency.txt
names=(before after franz)
for run in 1 2 3; do
	for k in 0 1 2; do
		name=${names[$(((run - 1 + k) % 3))]}
		case $name in
		before) bin=$BEFORE c=gregor ;;
		after) bin=$AFTER c=gregor ;;
		franz) bin=$AFTER c=franz ;;
		esac
		echo "=== run $run $name"
		"$bin" -test.run '^$' -test.bench "^BenchmarkProduceLatencyAtRate/client=$c/rate=1000/parts=12/linger=default\$" -test.benchmem -test.benchtime 1x -test.timeout 10m |
			sed "s|client=gregor/|client=gregor-$name/|" | tee -a latency.txt
	done
done
