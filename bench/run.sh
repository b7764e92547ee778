#!/usr/bin/env bash
# run.sh: run the end-to-end benchmarks of every client against the test bed
# (GREGOR_KAFKA_STATE or <repo>/.kafka/state.json; `make bench` starts one),
# write the raw output, benchstat summaries, gregor's CPU and allocation
# profiles and the charts into results/.
#
#   COUNT     interleaved runs of every suite (default 6)
#   CLIENTS   clients to run (default: gregor franz sarama kafkago confluent)
#   SUITES    produce and/or consume (default both)
#   PROFILES  1 (default) also profiles every gregor case once; 0 skips it
#   PRODUCE_BENCHTIME  records per produce case and run (default 2s)
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
SUITES=(${SUITES:-produce consume})
PROFILES=${PROFILES:-1}
PRODUCE_BENCHTIME=${PRODUCE_BENCHTIME:-2s}
mkdir -p results/profiles results/charts
go test -c -o results/bench.test .
trap 'rm -f results/bench.test' EXIT

# pattern returns the -test.bench pattern of a suite for one client.
pattern() {
	local suite=$1 client=$2 top
	case $suite in
	produce) top=Produce ;;
	consume) top='Consume$' ;;
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

benchtime() { [ "$1" = produce ] && echo "$PRODUCE_BENCHTIME" || echo 3x; }

for suite in "${SUITES[@]}"; do : > "results/$suite.txt"; done
: > results/failures.txt
echo "load at start: $(uptime)" | tee results/load.txt
n=${#CLIENTS[@]}
for run in $(seq "$COUNT"); do
	for suite in "${SUITES[@]}"; do
		for k in $(seq 0 $((n - 1))); do
			client=${CLIENTS[$(((run - 1 + k) % n))]}
			echo "=== run $run/$COUNT $suite $client"
			./results/bench.test -test.run '^$' -test.bench "$(pattern "$suite" "$client")" -test.benchmem \
				-test.benchtime "$(benchtime "$suite")" -test.timeout 60m | tee -a "results/$suite.txt" ||
				echo "run.sh: $suite $client failed (see above); going on" | tee -a results/failures.txt
		done
	done
	echo "load after run $run: $(uptime)" | tee -a results/load.txt
done

# gregor's profiles: one CPU and one allocation profile per case.
if [ "$PROFILES" = 1 ]; then
	for suite in "${SUITES[@]}"; do
		cases=$(grep -h "^Benchmark.*client=gregor/" "results/$suite.txt" | awk '{print $1}' | sed 's/-[0-9]*$//' | sort -u || true)
		for c in $cases; do
			f=results/profiles/$(echo "${c#Benchmark}" | sed 's|client=gregor/||; s|/|_|g; s|=|-|g')
			./results/bench.test -test.run '^$' -test.bench "^$(echo "$c" | sed 's|/|$/^|g')\$" -test.benchmem -test.benchtime "$(benchtime "$suite")" \
				-test.cpuprofile "$f.cpu" -test.memprofile "$f.mem" -test.memprofilerate 65536 -test.timeout 30m >/dev/null ||
				echo "run.sh: profile of $c failed" | tee -a results/failures.txt
		done
	done
fi

BENCHSTAT=${BENCHSTAT:-go run golang.org/x/perf/cmd/benchstat@latest}
for f in "${SUITES[@]}"; do
	$BENCHSTAT -col /client \
		-filter '.unit:(records/s OR cpu-ns/rec OR sys-ns/rec OR B/rec OR allocs/rec OR recs/req OR peak-RSS-MiB)' \
		"results/$f.txt" > "results/$f.stat" || echo "benchstat failed for $f" >&2
done
go run ./cmd/charts -out results/charts $(for s in "${SUITES[@]}"; do echo "results/$s.txt"; done)
echo "charts and summary in results/charts"
