#!/bin/bash
export GREGOR_KAFKA_STATE=/work/main/.kafka/state.json
cd /tmp/ab-lz4
for r in 1 2 3 4 5 6; do
  for c in gregor franz; do
    if [ $((r % 2)) = 0 ]; then c=$([ $c = gregor ] && echo franz || echo gregor); fi
    echo "round $r $c $(date +%T) $(cat /proc/loadavg)" >> load.txt
    /tmp/bench-new.test -test.run '^$' -test.bench "BenchmarkConsume\$/client=$c/parts=1/codec=lz4" -test.benchtime=3x -test.count=1 >> $c.txt 2>&1
  done
done
echo done >> load.txt
