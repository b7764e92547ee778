#!/usr/bin/env bash
# ab.sh: the before/after runs of the scale suite's produce curves: gregor
# at main (99dfb6c, before), gregor with draining (after) and franz-go, each
# in a process of its own, taking turns (the order rotates every run).
#   COUNT (default 5), PARTS (GREGOR_BENCH_SCALE_PARTS), BEFORE and AFTER
#   (bench test binaries), OUT (default .)
set -euo pipefail
COUNT=${COUNT:-5}
OUT=${OUT:-.}
export GREGOR_BENCH_SCALE_PARTS=${PARTS:-1,16,64,256,1024}
names=(before after franz)
: > "$OUT"/scale.txt
for run in $(seq "$COUNT"); do
	for k in 0 1 2; do
		name=${names[$(((run - 1 + k) % 3))]}
		case $name in
		before) bin=$BEFORE pat='^BenchmarkScaleProduce/client=gregor/' ;;
		after) bin=$AFTER pat='^BenchmarkScaleProduce/client=gregor/' ;;
		franz) bin=$AFTER pat='^BenchmarkScaleProduce/client=franz/' ;;
		esac
		echo "=== run $run/$COUNT $name $(uptime)"
		"$bin" -test.run '^$' -test.bench "$pat" -test.benchmem -test.benchtime 1x -test.timeout 30m |
			sed "s|client=gregor/|client=gregor-$name/|" | tee -a "$OUT"/scale.txt
	done
done
