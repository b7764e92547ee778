#!/usr/bin/env bash
# interleaved: base gregor, new gregor, franz; order rotates per round
export GREGOR_KAFKA_STATE=/work/main/.kafka/state.json
OUT=/work/wt/memory/bench/results/issue33-memory
cd /work/wt/memory/bench
runs=("base gregor" "new gregor" "new franz")
: > $OUT/group.txt; : > $OUT/group-full.txt
echo "load at start: $(uptime)" > $OUT/load.txt
for r in 1 2 3 4 5; do
  for k in 0 1 2; do
    set -- ${runs[$(( (r - 1 + k) % 3 ))]}
    echo "=== round $r build=$1 client=$2" | tee -a $OUT/group.txt
    /tmp/memprobe/bench-$1.test -test.run '^$' -test.bench "^BenchmarkGroupConsume/client=$2/" -test.benchmem -test.benchtime 3x -test.timeout 20m 2>&1 | sed "s/client=gregor/client=gregor-$1/" | tee -a $OUT/group-full.txt | grep -E "^Benchmark|FAIL|panic" | tee -a $OUT/group.txt
  done
  echo "load after round $r: $(uptime)" >> $OUT/load.txt
done
