#!/usr/bin/env bash
export GREGOR_KAFKA_STATE=/work/main/.kafka/state.json
OUT=/work/wt/memory/bench/results/issue33-memory
cd /work/wt/memory/bench
runs=("base gregor" "new2 gregor" "new2 franz")
: > $OUT/lz4.txt; : > $OUT/lz4-full.txt
echo "load at start: $(uptime)" >> $OUT/load.txt
for r in 1; do
  for k in 0 1 2; do
    set -- ${runs[$(( (r - 1 + k) % 3 ))]}
    echo "=== lz4 round $r build=$1 client=$2" | tee -a $OUT/lz4.txt
    /tmp/memprobe/bench-$1.test -test.run '^$' -test.bench "^BenchmarkConsume/client=$2/parts=1/codec=lz4" -test.benchmem -test.benchtime 3x -test.timeout 20m 2>&1 | sed "s/client=gregor/client=gregor-$1/" | tee -a $OUT/lz4-full.txt | grep -E "^Benchmark|FAIL|panic" | tee -a $OUT/lz4.txt
  done
  echo "load after lz4 round $r: $(uptime)" >> $OUT/load.txt
done
