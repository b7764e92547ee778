#!/bin/bash
# run.sh: the whole delay grid, 3 processes of the final binary
for r in 1 2 3; do
  echo "run $r $(date +%T) $(cat /proc/loadavg)" >> load.txt
  GREGOR_BENCH_RUN=$r GREGOR_KAFKA_STATE=/work/main/.kafka/state.json /tmp/bench-final.test -test.run '^$' -test.bench 'BenchmarkDelay' -test.benchtime 3x -test.count=1 > final-$r.txt 2>&1
done
echo done >> load.txt
