#!/bin/bash
# interleaved A/B: main (468ad70) vs new (clock), order rotating; franz in each binary's run
. /tmp/env.sh
cd /work/ab/clk
for r in 1 2 3 4 5; do
  if [ $((r % 2)) = 1 ]; then order="main new"; else order="new main"; fi
  for v in $order; do
    /work/ab/txn/$v.test -test.run '^$' -test.bench 'Transaction$' -test.benchmem -test.benchtime 2s -test.timeout 30m >> txn-$v.txt 2>&1
    /work/ab/txn/$v.test -test.run '^$' -test.bench 'Produce$/client=(gregor|franz)/value=100/data=shared/parts=(1|12)/codec=lz4' -test.benchmem -test.benchtime 2s -test.timeout 30m >> produce-$v.txt 2>&1
    /work/ab/txn/$v.test -test.run '^$' -test.bench 'ProduceLatencyAtRate$/client=(gregor|franz)/rate=(1000|10000|100000)/parts=12/' -test.benchmem -test.benchtime 1x -test.timeout 30m >> rate-$v.txt 2>&1
  done
done
echo done > done.txt
