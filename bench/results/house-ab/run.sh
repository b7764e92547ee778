#!/bin/bash
# Interleaved A/B of the offline benchmarks: old = 99dfb6c (issue 35 filed,
# run 18), new = HEAD. Each round runs every package old then new (order
# alternating by round).
cd /work/ab
declare -A RE=(
 [wire]='^(BenchmarkAppendBatch|BenchmarkDecode1MiB|BenchmarkFetchResponseDecode|BenchmarkProduceRequestEncode)$'
 [producer]='^(BenchmarkAdmitEncode|BenchmarkAdmitEncode1KiB|BenchmarkAdmitEncodeHooked)$'
 [consumer]='^(BenchmarkDeliverRecycle|BenchmarkFetchDecodeDeliver|BenchmarkFetchLoop)$'
 [client]='^(BenchmarkEncodeProduceSpliced|BenchmarkEncodeRequest|BenchmarkEnqueuePipelined|BenchmarkMetadataRoundTrip|BenchmarkRequestThroughPool|BenchmarkRetryLogDisabled)$'
)
rm -f out-old-*.txt out-new-*.txt
for r in $(seq 1 ${ROUNDS:-8}); do
  if (( r % 2 )); then order="old new"; else order="new old"; fi
  for p in wire producer consumer client; do
    for v in $order; do
      (cd /work/ab/$v/$([ $p = wire ] && echo wire || echo $p) && /work/ab/$v-$p.test -test.run '^$' -test.bench "${RE[$p]}" -test.benchmem -test.count=1) >> out-$v-$p.txt 2>&1
    done
  done
  echo "round $r done $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"
done
for p in wire producer consumer client; do ~/go/bin/benchstat old=out-old-$p.txt new=out-new-$p.txt > stat-$p.txt; done
echo ALLDONE
