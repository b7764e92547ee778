#!/usr/bin/env bash
# run.sh: run the end-to-end benchmarks of every client against the test bed
# (GREGOR_KAFKA_STATE or <repo>/.kafka/state.json; `make bench` starts one),
# write the raw output, benchstat summaries, gregor's CPU and allocation
# profiles and the charts into results/.
#
#   COUNT     interleaved runs of every suite (default 6)
#   CLIENTS   clients to run (default: gregor franz sarama kafkago confluent)
#   SUITES    any of produce consume latency group txn share scale tools
#             (default all):
#             produce   BenchmarkProduce, BenchmarkPeerProduce
#             consume   BenchmarkConsume, BenchmarkPeerConsume
#             latency   BenchmarkProduceLatencyAtRate, BenchmarkEndToEndLatency
#             group     BenchmarkGroupConsume
#             txn       BenchmarkTransaction
#             share     BenchmarkShareConsume
#             scale     BenchmarkScale* (cost curves over 1 to 4,096
#                       partitions, both clients at their defaults)
#             tools     BenchmarkPerfTools: gregor and franz-go beside
#                       Kafka's ProducerPerformance and ConsumerPerformance
#                       (client "java", a JVM per op, added to CLIENTS)
#             delay     BenchmarkDelay: produce and consume at 0, 1, 10
#                       and 40 ms one-way delay, 1/16/256 partitions,
#                       gregor and franz-go at their defaults in ONE
#                       process per run (their order alternates by run)
#                       (not in the default list: ~15 minutes per run)
#             (the last six have gregor and franz-go only; other clients
#             are skipped in them)
#   PROFILES  1 (default) also profiles every gregor case once (not the
#             latency suite's: paced runs wait most of their time); 0 skips it
#   OUT       directory for all of it (default results; relative to bench/)
#   PRODUCE_BENCHTIME  records per produce case and run (default 2s)
#   TXN_BENCHTIME      per transaction case and run (default 2s)
#   SCALE_BENCHTIME    ops per scale case and run (default 1x; one op is
#             a whole curve point, e.g. 100,000 records produced)
#   GREGOR_BENCH_SCALE_PARTS  the scale suite's partition counts
#             (comma-separated; default 1,16,64,256,1024,4096)
#   GREGOR_BENCH_LATENCY_RUN  measured time per latency case and run after
#             1s of warm-up (default 3s; ~2 minutes per client and run)
#
# Every client's suite runs in a process of its own (so peak-RSS-MiB is that
# client's peak), and the clients take turns: run 1 is gregor, franz, ...,
# confluent; run 2 starts one client later; and so on, so that each sees the
# machine's and the broker's drift alike on average. (-count=N would run one
# client's cases back to back in one window of the broker's state.)
set -euo pipefail
cd "$(dirname "$0")"
COUNT=${COUNT:-6}
CLIENTS=(${CLIENTS:-gregor franz sarama kafkago confluent})
SUITES=(${SUITES:-produce consume latency group txn share scale tools})
PROFILES=${PROFILES:-1}
OUT=${OUT:-results}
PRODUCE_BENCHTIME=${PRODUCE_BENCHTIME:-2s}
TXN_BENCHTIME=${TXN_BENCHTIME:-2s}
SCALE_BENCHTIME=${SCALE_BENCHTIME:-1x}
mkdir -p "$OUT"/profiles "$OUT"/charts
BIN=$(cd "$OUT" && pwd)/bench.test
go test -c -o "$BIN" .
trap 'rm -f "$BIN"' EXIT

# pattern returns the -test.bench pattern of a suite for one client, empty
# when the client has no case in the suite.
pattern() {
	local suite=$1 client=$2 top
	case $suite in
	produce) top='Produce$' ;;
	consume) top='Consume$' ;;
	latency) top='(ProduceLatencyAtRate|EndToEndLatency)$' ;;
	group) top='GroupConsume$' ;;
	txn) top='Transaction$' ;;
	share) top='ShareConsume$' ;;
	scale) top='Scale[A-Za-z]*' ;;
	tools) top='PerfTools$' ;;
	delay) # both clients in one process, run with the gregor turn
		if [ "$client" = gregor ]; then echo '^BenchmarkDelay$'; fi
		return
		;;
	*)
		echo "run.sh: unknown suite $suite" >&2
		exit 2
		;;
	esac
	case $suite in
	produce | consume) ;;
	scale) # a client's variants too (gregor-snappy, franz-none)
		case $client in gregor | franz) echo "^Benchmark${top}/client=${client}(-[a-z]+)?/" ;; esac
		return
		;;
	tools)
		case $client in gregor | franz | java) echo "^Benchmark${top}/client=${client}/" ;; esac
		return
		;;
	group) # gregor's Group.Recycle variant too
		case $client in
		gregor) echo "^Benchmark${top}/client=(gregor|gregor-recycle)/" ;;
		franz) echo "^Benchmark${top}/client=franz/" ;;
		esac
		return
		;;
	*)
		case $client in gregor | franz) echo "^Benchmark${top}/client=${client}/" ;; esac
		return
		;;
	esac
	case $client in
	gregor | franz)
		if [ "$suite" = consume ] && [ "$client" = gregor ]; then
			echo "^Benchmark${top}/client=(gregor|gregor-norecycle)/"
		elif [ "$suite" = produce ] && [ "$client" = gregor ]; then
			echo "^Benchmark${top}/client=(gregor|gregor-borrow)/"
		else
			echo "^Benchmark${top}/client=${client}/"
		fi
		;;
	*) echo "^BenchmarkPeer${top%\$}/client=${client}/" ;;
	esac
}

benchtime() {
	case $1 in
	produce) echo "$PRODUCE_BENCHTIME" ;;
	txn) echo "$TXN_BENCHTIME" ;;
	scale) echo "$SCALE_BENCHTIME" ;;
	latency) echo 1x ;; # one op is one paced run of GREGOR_BENCH_LATENCY_RUN
	tools) echo 1x ;;   # one op is one run of 1,000,000 records (a JVM for java)
	delay) echo 1x ;;   # one op per cell and run; COUNT runs give n
	*) echo 3x ;;
	esac
}

for suite in "${SUITES[@]}"; do pattern "$suite" gregor > /dev/null; done # unknown suites stop here
for suite in "${SUITES[@]}"; do : > "$OUT/$suite.txt"; done
: > "$OUT"/failures.txt
echo "load at start: $(uptime)" | tee "$OUT"/load.txt
for run in $(seq "$COUNT"); do
	for suite in "${SUITES[@]}"; do
		clients=("${CLIENTS[@]}")
		[ "$suite" != tools ] || [[ " ${clients[*]} " == *" java "* ]] || clients+=(java)
		n=${#clients[@]}
		for k in $(seq 0 $((n - 1))); do
			client=${clients[$(((run - 1 + k) % n))]}
			pat=$(pattern "$suite" "$client")
			[ -n "$pat" ] || continue
			echo "=== run $run/$COUNT $suite $client"
			GREGOR_BENCH_RUN=$run "$BIN" -test.run '^$' -test.bench "$pat" -test.benchmem \
				-test.benchtime "$(benchtime "$suite")" -test.timeout 60m | tee -a "$OUT/$suite.txt" ||
				echo "run.sh: $suite $client failed (see above); going on" | tee -a "$OUT"/failures.txt
		done
	done
	echo "load after run $run: $(uptime)" | tee -a "$OUT"/load.txt
done

# gregor's profiles: one CPU and one allocation profile per case.
if [ "$PROFILES" = 1 ]; then
	for suite in "${SUITES[@]}"; do
		[ "$suite" != latency ] || continue
		cases=$(grep -h "^Benchmark.*client=gregor/" "$OUT/$suite.txt" | awk '{print $1}' | sed 's/-[0-9]*$//' | sort -u || true)
		for c in $cases; do
			f="$OUT"/profiles/$(echo "${c#Benchmark}" | sed 's|client=gregor/||; s|/|_|g; s|=|-|g')
			"$BIN" -test.run '^$' -test.bench "^$(echo "$c" | sed 's|/|$/^|g')\$" -test.benchmem -test.benchtime "$(benchtime "$suite")" \
				-test.cpuprofile "$f.cpu" -test.memprofile "$f.mem" -test.memprofilerate 65536 -test.timeout 30m >/dev/null ||
				echo "run.sh: profile of $c failed" | tee -a "$OUT"/failures.txt
		done
	done
fi

BENCHSTAT=${BENCHSTAT:-go run golang.org/x/perf/cmd/benchstat@latest}
for f in "${SUITES[@]}"; do
	$BENCHSTAT -col /client \
		-filter '.unit:(records/s OR cpu-ns/rec OR sys-ns/rec OR B/rec OR allocs/rec OR recs/req OR peak-RSS-MiB OR cpu-s OR txn/s OR heap-MiB OR heap-KiB/part OR bound-rec/s OR of-bound OR rtt-ms OR p50-us OR p99-us OR p99.9-us OR late-p99-us)' \
		"$OUT/$f.txt" > "$OUT/$f.stat" || echo "benchstat failed for $f" >&2
done
go run ./cmd/charts -out "$OUT"/charts $(for s in "${SUITES[@]}"; do echo "$OUT/$s.txt"; done)
echo "charts and summary in $OUT/charts"
