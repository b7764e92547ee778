#!/bin/bash
. /tmp/env.sh
cd /work/ab/pool
for r in 1 2 3 4 5; do
  if [ $((r % 2)) = 1 ]; then order="base2 pool"; else order="pool base2"; fi
  for v in $order; do
    if [ $v = base2 ]; then cl='(gregor|franz)'; else cl='gregor'; fi
    /work/ab/txn/$v.test -test.run '^$' -test.bench "ScaleProduce\$/client=$cl/parts=(16|4096)\$" -test.benchmem -test.benchtime 3x -test.timeout 30m >> sp-$v.txt 2>&1
  done
done
echo done > done.txt
