#!/bin/bash
. /tmp/env.sh
cd /work/ab/rev
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then order="main rev"; else order="rev main"; fi
  for v in $order; do
    b=/work/ab/txn/$v.test; [ $v = main ] && b=/work/ab/clk/l10.test
    $b -test.run '^$' -test.bench 'Transaction$/client=(gregor|franz)/records=(1|100)$' -test.benchmem -test.benchtime 2s -test.timeout 30m >> txn-$v.txt 2>&1
    $b -test.run '^$' -test.bench 'Produce$/client=gregor/value=100/data=shared/parts=(1|12)/codec=lz4' -test.benchmem -test.benchtime 2s -test.timeout 30m >> produce-$v.txt 2>&1
    $b -test.run '^$' -test.bench 'ProduceLatencyAtRate$/client=gregor/rate=(10000|100000)/parts=12/linger=default' -test.benchmem -test.benchtime 1x -test.timeout 30m >> rate-$v.txt 2>&1
  done
done
echo done > done.txt
