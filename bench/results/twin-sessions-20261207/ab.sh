#!/bin/bash
# ab.sh OUT PATTERN BENCHTIME ROUNDS: the session 18 A/B, as run. Test
# binaries /tmp/bench-base.test (9b5e2a4's library, this bench harness) and
# /tmp/bench-new.test (the change) take turns per round, the order
# alternating; GREGOR_BENCH_RUN alternates the clients' order inside
# BenchmarkDelay. ungated/, gated-first/, gated-records/:
#   'BenchmarkDelay/delay=(0s|10ms|40ms)/op=consume' 3x, rounds 1-4;
# scale-consume/: 'BenchmarkScaleConsume$' 2x, rounds 1-8 (new: new2);
# takeover/: 'BenchmarkGroupTakeover' 5x, rounds 1-2.
# Then: python3 table.py (in the delay folders), benchstat -col /client.
out=$1 pattern=$2 benchtime=$3 rounds=$4
export GREGOR_KAFKA_STATE=${GREGOR_KAFKA_STATE:-$(cd "$(dirname "$0")/../../.." && pwd)/.kafka/state.json}
mkdir -p "$out" && cd "$out" || exit 1
for r in $(seq 1 "$rounds"); do
	for v in base new; do
		if [ $((r % 2)) = 0 ]; then v=$([ $v = base ] && echo new || echo base); fi
		echo "round $r $v $(date +%T) $(cat /proc/loadavg)" >>load.txt
		GREGOR_BENCH_RUN=$r /tmp/bench-$v.test -test.run '^$' -test.bench "$pattern" \
			-test.benchtime="$benchtime" -test.count=1 >"$v-$r.txt" 2>&1
	done
done
echo done >>load.txt
