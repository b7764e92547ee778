#!/bin/bash
. /tmp/env.sh
cd /work/ab/pool
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then order="base2 pool"; else order="pool base2"; fi
  for v in $order; do
    /work/ab/txn/$v.test -test.run '^$' -test.bench "ScaleProduce\$/client=gregor/parts=(256|1024)\$" -test.benchmem -test.benchtime 3x -test.timeout 30m >> k1-$v.txt 2>&1
  done
done
echo done > done3.txt
