#!/usr/bin/env bash
# quiet interleaved gregor vs franz-go run (issue 24), 3 runs
set -euo pipefail
cd /work/main/bench
out=results/run16; mkdir -p $out
go test -c -o /tmp/bench16.test .
export GREGOR_KAFKA_STATE=/work/main/.kafka/state.json
echo "load at start: $(uptime)" > $out/load.txt
for run in 1 2 3; do
  if [ $((run % 2)) = 1 ]; then order="gregor franz"; else order="franz gregor"; fi
  for suite in consume produce; do
    for c in $order; do
      if [ $suite = consume ]; then pat="^BenchmarkConsume\$/client=${c}/"; bt=3x; else pat="^BenchmarkProduce\$/client=${c}/"; bt=2s; fi
      echo "=== run $run $suite $c $(date +%T) $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a $out/log.txt
      /tmp/bench16.test -test.run '^$' -test.bench "$pat" -test.benchmem -test.benchtime $bt -test.timeout 20m | tee -a $out/$suite.txt
    done
  done
done
echo "load at end: $(uptime)" >> $out/load.txt
