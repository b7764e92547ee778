#!/bin/bash
. /tmp/env.sh
cd /work/ab/clk
for r in 1 2 3 4 5; do
  if [ $((r % 2)) = 1 ]; then order="gregor franz"; else order="franz gregor"; fi
  for c in $order; do
    ./l10.test -test.run '^$' -test.bench "ProduceLatencyAtRate\$/client=$c/rate=(1000|10000|100000)\$/parts=12/linger=(10ms|default)" -test.benchtime 1x >> l10.txt 2>&1
  done
done
echo done > l10.done
