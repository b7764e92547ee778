# gregor: a from-scratch Apache Kafka client in Go.
#
#   make run     build the adapter, start a local Kafka (KAFKA_VERSION, 4.4.0), run the scenarios
#                through it and print the verdict table
#   make test    gofmt check, then every module's vet + unit + integration tests and the
#                scenarios against a real Kafka it starts, then a short suite on 3.7.2
#   make matrix  make run on every supported Kafka version (3.7 to 4.4), one at
#                a time, and a version x scenario verdict table (KAFKA_VERSION
#                selects the release for run, test, kafka-up, lab and soak)
#   make lab     the reliability lab: eight cases on a 1+3 cluster it starts itself,
#                evidence in testlab/evidence/lab-<date>.json (LAB_CASES=a,b selects)
#   make soak    kills under load: idempotent producers, a consumer group and a transactional
#                copier through the fault proxy on a 1+3 cluster while brokers are killed,
#                paused and restarted (SOAK_DURATION, 15m)
#   make bench   every client's benchmarks (gregor, franz-go, sarama, kafka-go, librdkafka):
#                bench/results/ and charts, against a Kafka it starts
#   make test-oldest | fuzz | lint | fmt-check | kafka-up | kafka-down | clean
#
# Needs Go, a JDK >= 17 and Maven; as root on Debian/Ubuntu, missing JDK/Maven are
# installed with apt-get. The Kafka jars are cached in
# ${XDG_CACHE_HOME:-$HOME/.cache}/gregor/kafka-<pom hash>/lib.

SHELL       := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

GO          ?= go
# KAFKA_VERSION: the Apache Kafka release of the test bed (make run, test,
# kafka-up, lab, soak, matrix; kafkatest reads it from the environment), one
# of internal/kafkatest SupportedVersions; its jars are cached per release.
KAFKA_VERSION ?= 4.4.0
export KAFKA_VERSION
STATE       ?= $(CURDIR)/.kafka/state.json
KAFKA_LOCAL := $(CURDIR)/bin/kafka-local
FUZZTIME    ?= 10s
FUZZPKG     ?= ./...
RACE        ?= -race
TEST_TIMEOUT ?= 20m
MODULES     := . testlab bench plugin/prom plugin/otel
# STATICCHECK is pinned so that a new release cannot change lint's verdict.
STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: help run matrix test test-oldest lab soak bench fuzz lint fmt-check kafka-up kafka-down clean deps kafka-local secret-scan

help:
	@sed -n '3,17p' Makefile | sed 's/^# \{0,1\}//'

# deps checks for (and, as root with apt-get, installs) a JDK >= 17 and Maven.
deps:
	@need=""; \
	jv=$$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1 || true); \
	if [ -z "$$jv" ] || [ "$$jv" -lt 17 ]; then need="$$need openjdk-17-jdk-headless"; fi; \
	command -v mvn >/dev/null 2>&1 || need="$$need maven"; \
	if [ -n "$$need" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing:$$need"; \
	    DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$need >/dev/null; \
	  else \
	    echo "ERROR: missing:$$need. Install a JDK >= 17 and Maven (e.g. apt-get install -y openjdk-17-jdk-headless maven)." >&2; exit 1; \
	  fi; \
	fi; \
	jv=$$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1 || true); \
	if [ -z "$$jv" ] || [ "$$jv" -lt 17 ]; then echo "ERROR: java >= 17 not found (got '$$jv')" >&2; exit 1; fi; \
	command -v mvn >/dev/null 2>&1 || { echo "ERROR: mvn not found" >&2; exit 1; }; \
	echo "java $$jv, $$(mvn -v 2>/dev/null | head -1 | sed 's/\x1b\[[0-9;]*m//g'), $$($(GO) version)"

kafka-local:
	@echo "building bin/kafka-local"; mkdir -p bin && $(GO) build -o $(KAFKA_LOCAL) ./internal/kafkatest/cmd/kafka-local

kafka-up: deps kafka-local
	@$(KAFKA_LOCAL) up -state $(STATE)

kafka-down: kafka-local
	@$(KAFKA_LOCAL) down -state $(STATE)

# run: the project's main job. Builds the adapter and the testlab runner, starts a
# single-node Kafka for the run, runs every scenario in testlab/scenarios, prints
# the verdict table and "N passed, N failed", stops Kafka (also on failure or Ctrl-C).
# RUN=<regexp> selects scenarios; one that matches no scenario id fails before
# Kafka starts. Last, bin/secret-scan (issue 21) greps everything the run wrote
# (its captured output, the bed's logs, testlab/evidence) for the bed's
# passwords, tokens and private keys and fails the run on any hit.
run: deps kafka-local
	@mkdir -p bin; t0=$$(date +%s); \
	echo "run: building bin/gregor-adapter and bin/testlab (a cold build compiles for about a minute)"; \
	( while sleep 10; do echo "run: still building ($$(( $$(date +%s) - t0 ))s)"; done ) & beat=$$!; \
	$(GO) build -o bin/gregor-adapter ./adapter/cmd/gregor-adapter || { kill $$beat; exit 1; }; \
	( cd testlab && $(GO) build -o ../bin/testlab ./cmd/testlab ) || { kill $$beat; exit 1; }; \
	$(GO) build -o bin/secret-scan ./internal/secretscan/cmd/secret-scan || { kill $$beat; exit 1; }; \
	kill $$beat; \
	./bin/testlab -list -scenarios testlab/scenarios $(if $(value RUN),-run '$(value RUN)') >/dev/null; \
	echo "run: built in $$(( $$(date +%s) - t0 ))s; starting Kafka (its JVMs take 15-30s to start; the first run also downloads the jars)"; \
	run=$$(mktemp -d -t gregor-run-XXXXXX); state=$$run/state.json; mkdir -p $$run/tmp; \
	cleanup() { \
	  $(KAFKA_LOCAL) down -state "$$state" >/dev/null || true; \
	  left=$$(pgrep -f -- "-Djava.io.tmpdir=$$run/" || true); \
	  if [ -n "$$left" ]; then echo "ERROR: leftover JVMs of this run: $$left; killing them" >&2; kill -9 $$left || true; fi; \
	  rm -rf "$$run"; \
	}; \
	trap cleanup EXIT; trap 'exit 130' INT; trap 'exit 143' TERM; \
	$(KAFKA_LOCAL) up -dir "$$run/tmp" -state "$$state" 2>&1 | tee "$$run/kafka-up.log"; echo; \
	rc=0; GREGOR_KAFKA_STATE="$$state" TMPDIR="$$run/tmp" ./bin/testlab -adapter bin/gregor-adapter \
	  -scenarios testlab/scenarios -evidence testlab/evidence $(if $(value RUN),-run '$(value RUN)') 2>&1 | tee "$$run/testlab.log" || rc=1; \
	./bin/secret-scan -state "$$state" "$$run" testlab/evidence || rc=1; \
	exit $$rc

# matrix: `make run` on every supported Kafka version in turn (MATRIX_VERSIONS,
# default internal/kafkatest SupportedVersions), one cluster at a time (each
# run starts and stops its own), then the version x scenario verdict table
# (bin/matrix), printed and written to testlab/evidence/matrix-<UTC time>.md
# with each run's log beside it. Fails when a run failed.
MATRIX_VERSIONS ?= 3.7.2 3.8.1 3.9.2 4.0.2 4.1.2 4.2.2 4.3.2 4.4.0
matrix:
	@mkdir -p bin testlab/evidence; ( cd testlab && $(GO) build -o ../bin/matrix ./cmd/matrix ); \
	stamp=$$(date -u +%Y%m%dT%H%M%SZ); logs=testlab/evidence/matrix-$$stamp; mkdir -p $$logs; \
	rc=0; args=""; \
	for v in $(MATRIX_VERSIONS); do \
	  echo "=== matrix: make run KAFKA_VERSION=$$v"; \
	  $(MAKE) --no-print-directory run KAFKA_VERSION=$$v $(if $(value RUN),RUN='$(value RUN)') 2>&1 | tee $$logs/run-$$v.log || rc=1; \
	  args="$$args $$v=$$logs/run-$$v.log"; \
	done; \
	./bin/matrix $$args | tee testlab/evidence/matrix-$$stamp.md; \
	echo "matrix: table in testlab/evidence/matrix-$$stamp.md, logs in $$logs/"; \
	exit $$rc

# lab: the reliability lab (issue 22, testlab/lab). bin/lab writes
# testlab/evidence/$(LAB_NAME)-<UTC date>.json (running, then passed or failed),
# runs the cases as `go test -tags lab` in a process group of its own with its
# own 1+3 cluster, and exits 0 only when the evidence says passed. Bounded by
# 14 minutes. LAB_CASES=a,b runs only those cases (the evidence then judges
# only them; use another LAB_NAME so the full run's file stays the full run's).
LAB_NAME    ?= lab
LAB_CASES   ?=
# LAB_TEST_CASES: the lab cases `make test` runs (evidence lab-test-<date>.json):
# all eight (make lab took 1m27s on the 2-core machine, cluster start included).
LAB_TEST_CASES ?= minIsr,transactionVisibility,eosOffsets,offsetReplay,cooperativeRebalance,retention,producerFencing,idempotenceConfig
lab: deps
	@mkdir -p bin; ( cd testlab && $(GO) build -o ../bin/lab ./cmd/lab ); \
	./bin/lab -repo . -evidence testlab/evidence -name '$(LAB_NAME)' $(if $(value LAB_CASES),-cases '$(value LAB_CASES)')

# soak: issue 23's soak (testlab/faultcheck TestSoak, build tag soak; not in
# `make test`, which runs the short TestKillsUnderLoad: 20s of load, one kill,
# one failover, 3 network faults). It starts its own 1+3 cluster and fails on
# any lost or duplicated acknowledged record, invariant violation (atomicity,
# double ownership, ...), group record not delivered or delivered below an
# accepted commit, copier record lost or duplicated, panic, goroutine leak,
# leftover process or proxy. Apache's Java clients run in the mix
# (VerifiableProducer, VerifiableConsumer, TransactionalMessageCopier) and the
# controller is paused now and then. Figures, fault timeline, throughput:
# testlab/evidence/soak-<time>.json (chart and tables: testlab/cmd/soakreport).
# SOAK_SEED=<n> replays a chaos schedule.
SOAK_DURATION ?= 15m
soak: deps
	@cd testlab && SOAK_DURATION='$(SOAK_DURATION)' $(GO) test $(RACE) -tags soak -count=1 -v -timeout 120m -run '^TestSoak$$' ./faultcheck/ 2>&1 | \
	  grep -Ev '^[[:space:]]*(=== (RUN|PAUSE|CONT|NAME))'

# OLDEST_*: the short form of the suite on the oldest supported release
# (make test's last step before the secret scan, or make test-oldest alone):
# its own single node of OLDEST_VERSION, then OLDEST_RUN in OLDEST_PKGS:
# produce and consume, classic groups (the default protocol there),
# transactions v1 and a recreated topic under Produce by name.
# internal/featuretest (in the suite) also starts that release itself and
# checks that each feature it lacks fails with gregor.ErrUnsupportedFeature.
OLDEST_VERSION ?= 3.7.2
OLDEST_PKGS    ?= ./producer/ ./txn/ ./consumer/ ./admin/
OLDEST_RUN     ?= ^(TestTopologyProducer|TestIntegrationRecreatedTopic|TestIntegrationTransactionVisibility|TestIntegrationEOSOffsets|TestGroupIntegrationSplitAndTakeOver|TestGroupIntegrationCommitReplay|TestTopologyAssigned|TestIntegrationLag)$$
# OLDEST_SUITE: run from make test (GREGOR_KAFKA_STATE and TMPDIR are the
# main run's; the old release's cluster has its own state file).
OLDEST_SUITE = ( ostate=$$(dirname "$$GREGOR_KAFKA_STATE")/oldest-state.json; t0=$$(date +%s); orc=0; \
	KAFKA_VERSION=$(OLDEST_VERSION) $(KAFKA_LOCAL) up -dir "$$TMPDIR" -state "$$ostate" >/dev/null || orc=1; \
	if [ $$orc -eq 0 ]; then KAFKA_VERSION=$(OLDEST_VERSION) GREGOR_KAFKA_STATE="$$ostate" \
	  $(GO) test $(RACE) -count=1 -p 1 -timeout $(TEST_TIMEOUT) -run '$(OLDEST_RUN)' $(OLDEST_PKGS) || orc=1; fi; \
	KAFKA_VERSION=$(OLDEST_VERSION) $(KAFKA_LOCAL) down -state "$$ostate" >/dev/null || true; \
	echo "short suite on Kafka $(OLDEST_VERSION): $$(( $$(date +%s) - t0 ))s, cluster start included"; exit $$orc )

# FAIL_SUMMARY: make test's last lines on failure, so a CI log's tail names
# what failed: each failed test and package, panic and failed scenario of
# the captured output (at most 40 lines).
FAIL_SUMMARY = { echo "=== what failed (from the captured output)" >&2; \
	grep -E '^[[:space:]]*--- FAIL|^FAIL[[:space:]]|^panic:|[[:space:]](failed|invalid)[[:space:]]+[0-9.]+[[:space:]]*$$' "$$run/test-output.log" | head -40 >&2 || true; }

# test-oldest: the short suite alone (OLDEST_SUITE) on a cluster of its own.
test-oldest: deps kafka-local
	@run=$$(mktemp -d -t gregor-oldest-XXXXXX); mkdir -p $$run/tmp; trap 'rm -rf "$$run"' EXIT; \
	export GREGOR_KAFKA_STATE="$$run/state.json" TMPDIR="$$run/tmp"; $(OLDEST_SUITE)

# test: one shared single-node cluster (KAFKA_VERSION) for the whole run, stopped on
# exit, failure or Ctrl-C; then the short suite on the oldest supported
# release (OLDEST_SUITE, 3.7.2).
test: deps kafka-local
	@run=$$(mktemp -d -t gregor-test-XXXXXX); state=$$run/state.json; mkdir -p $$run/tmp; \
	cleanup() { \
	  $(KAFKA_LOCAL) down -state "$$state" || true; \
	  left=$$(pgrep -f -- "-Djava.io.tmpdir=$$run/" || true); \
	  if [ -n "$$left" ]; then echo "ERROR: leftover JVMs of this run: $$left; killing them" >&2; kill -9 $$left || true; fi; \
	  rm -rf "$$run"; \
	}; \
	trap cleanup EXIT; trap 'exit 130' INT; trap 'exit 143' TERM; \
	rc=0; failed=""; \
	echo "=== gofmt -l"; fmtrc=0; $(GOFMT_CHECK) || { rc=1; fmtrc=1; failed="$$failed gofmt"; }; \
	$(KAFKA_LOCAL) up -dir "$$run/tmp" -state "$$state"; \
	export GREGOR_KAFKA_STATE="$$state" TMPDIR="$$run/tmp"; \
	for m in $(MODULES); do \
	  echo "=== go vet + go test $(RACE) ./... in module $$m"; \
	  ( cd $$m && $(GO) vet ./... ) || { rc=1; failed="$$failed vet($$m)"; }; \
	  ( cd $$m && $(GO) test $(RACE) -count=1 -timeout $(TEST_TIMEOUT) -v ./... 2>&1 | tee -a "$$run/test-output.log" | \
	    grep -Ev '^[[:space:]]*(=== (RUN|PAUSE|CONT|NAME)|--- PASS)|^testing: warning: no tests to run' ) || { rc=1; failed="$$failed test($$m)"; }; \
	done; \
	echo "=== allocation targets without -race (the race detector allocates)"; \
	$(GO) test -count=1 -run 'SteadyStateAllocations|ProduceCallAllocatesNothing' ./client/ || { rc=1; failed="$$failed allocation-targets"; }; \
	echo "=== offline produce, consume and share consume paths: 0 allocs/op for every codec (-benchmem)"; \
	$(ALLOC_GUARD) || { rc=1; failed="$$failed alloc-guard"; }; \
	echo "=== testlab scenarios through the adapter (make run's suite)"; \
	( mkdir -p bin && $(GO) build -o bin/gregor-adapter ./adapter/cmd/gregor-adapter && \
	  ( cd testlab && $(GO) build -o ../bin/testlab ./cmd/testlab ) && \
	  ./bin/testlab -adapter bin/gregor-adapter -scenarios testlab/scenarios -evidence testlab/evidence 2>&1 | tee -a "$$run/test-output.log" ) || { rc=1; failed="$$failed scenarios"; }; \
	echo "=== reliability lab, cases $(LAB_TEST_CASES) (make lab runs all eight)"; \
	( mkdir -p bin && ( cd testlab && $(GO) build -o ../bin/lab ./cmd/lab ) && \
	  ./bin/lab -repo . -evidence testlab/evidence -name lab-test -cases '$(LAB_TEST_CASES)' 2>&1 | tee -a "$$run/test-output.log" ) || { rc=1; failed="$$failed lab"; }; \
	echo "=== the short suite on the oldest supported release, Kafka $(OLDEST_VERSION) (make test-oldest)"; \
	$(OLDEST_SUITE) 2>&1 | tee -a "$$run/test-output.log" || { rc=1; failed="$$failed oldest($(OLDEST_VERSION))"; }; \
	echo "=== secret scan of everything the tests wrote (captured output, the bed's logs, testlab/evidence)"; \
	( $(GO) build -o bin/secret-scan ./internal/secretscan/cmd/secret-scan && \
	  ./bin/secret-scan -state "$$state" "$$run" testlab/evidence ) || { rc=1; failed="$$failed secret-scan"; }; \
	if [ $$fmtrc -ne 0 ]; then echo "gofmt needed: see the list at the top" >&2; fi; \
	if [ $$rc -ne 0 ]; then $(FAIL_SUMMARY); echo "FAIL: some tests or scenarios failed:$$failed" >&2; else echo "PASS: all modules and scenarios"; fi; \
	exit $$rc

# bench: the offline benchmarks of the root and testlab modules, then the
# bench module's end-to-end suite (bench/run.sh: gregor, franz-go, sarama,
# kafka-go and confluent-kafka-go, produce and consume; gregor and franz-go
# also latency at fixed rates, group consumer, transactions, share group and
# beside Kafka's ProducerPerformance/ConsumerPerformance (suite tools);
# interleaved runs, gregor's profiles, charts) against a single-node Kafka
# it starts and stops. BENCH_COUNT (default 6) sets the interleaved runs;
# SUITES (run.sh's) narrows the suites, e.g. make bench SUITES='latency txn'.
BENCH_COUNT ?= 6
bench: deps kafka-local
	@for m in . testlab; do ( cd $$m && $(GO) test -run '^$$' -bench . -benchmem ./... ); done
	@run=$$(mktemp -d -t gregor-bench-XXXXXX); state=$$run/state.json; mkdir -p $$run/tmp; \
	cleanup() { \
	  $(KAFKA_LOCAL) down -state "$$state" || true; \
	  left=$$(pgrep -f -- "-Djava.io.tmpdir=$$run/" || true); \
	  if [ -n "$$left" ]; then echo "ERROR: leftover JVMs of this run: $$left; killing them" >&2; kill -9 $$left || true; fi; \
	  rm -rf "$$run"; \
	}; \
	trap cleanup EXIT; trap 'exit 130' INT; trap 'exit 143' TERM; \
	$(KAFKA_LOCAL) up -dir "$$run/tmp" -state "$$state"; \
	GREGOR_KAFKA_STATE="$$state" COUNT=$(BENCH_COUNT) ./bench/run.sh

# fuzz: every Fuzz target of every package for $(FUZZTIME) each
# (FUZZPKG=./wire/ MODULES=. narrows it).
fuzz:
	@for m in $(MODULES); do \
	  ( cd $$m; for p in $$($(GO) list $(FUZZPKG) 2>/dev/null); do \
	      for f in $$($(GO) test -list '^Fuzz' $$p 2>/dev/null | grep '^Fuzz' || true); do \
	        echo "=== fuzz $$p $$f"; \
	        $(GO) test -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) $$p; \
	      done; \
	    done ); \
	done

# fmt-check fails listing every tracked or new (not ignored) .go file that
# gofmt would change; a file gofmt cannot parse fails it too. GOFMT_CHECK is
# a subshell (no recursive make, so `make -n test` stays a dry run).
GOFMT_CHECK = ( files=$$(git ls-files --cached --others --exclude-standard -- '*.go' | while read -r f; do [ ! -f "$$f" ] || echo "$$f"; done); \
	if [ -z "$$files" ]; then echo "ERROR: fmt-check found no .go files (not a git work tree?)" >&2; exit 1; fi; \
	if ! out=$$(gofmt -l $$files </dev/null); then echo "ERROR: gofmt failed" >&2; exit 1; fi; \
	if [ -n "$$out" ]; then echo "gofmt needed (gofmt -w FILE):"; echo "$$out"; exit 1; fi )

# ALLOC_GUARD runs the offline produce (BenchmarkAdmitEncode), consume
# (BenchmarkDeliverRecycle) and share consume (BenchmarkShareReceiveAck)
# benchmarks, one op = one record, for every codec (produce in both the copy
# and the BorrowSlices mode) and fails unless each reports 0 allocs/op.
ALLOC_GUARD = ( out=$$($(GO) test -count=1 -run '^$$' -bench '^(BenchmarkAdmitEncode|BenchmarkDeliverRecycle|BenchmarkShareReceiveAck)$$' -benchmem -benchtime=20000x ./producer/ ./consumer/ ./consumer/share/) || { echo "$$out"; exit 1; }; \
	echo "$$out" | grep '^Benchmark'; \
	echo "$$out" | awk '/^Benchmark/ { n++; for (i = 2; i < NF; i++) if ($$(i+1) == "allocs/op" && $$i != 0) { print "ERROR: " $$1 " allocates " $$i " allocs/op" > "/dev/stderr"; bad = 1 } } \
	  END { if (n < 20) { print "ERROR: expected 20 guarded benchmarks (copy and borrow produce, every codec; consume and share consume, every codec), saw " n > "/dev/stderr"; bad = 1 }; exit bad }' )

fmt-check:
	@$(GOFMT_CHECK)

# lint: go vet, gofmt and staticcheck ($(STATICCHECK), fetched through the Go
# proxy) over every module; fails if any of them reports or cannot run.
lint:
	@rc=0; for m in $(MODULES); do echo "=== go vet + staticcheck in module $$m"; \
	  ( cd $$m && $(GO) vet ./... ) || rc=1; \
	  ( cd $$m && $(GO) run $(STATICCHECK) ./... ) || rc=1; \
	done; \
	echo "=== gofmt -l"; $(GOFMT_CHECK) || rc=1; \
	if [ $$rc -ne 0 ]; then echo "FAIL: lint" >&2; else echo "PASS: lint (vet, staticcheck, gofmt) in $(MODULES)"; fi; \
	exit $$rc

# secret-scan (issue 21): make run and make test always end with bin/secret-scan
# over what they wrote; this target additionally runs the security tests (mTLS, OAUTHBEARER,
# authorization, re-authentication, adapter SASL/TLS) against the shared bed
# and the security scenarios through `make run`, capturing all their output in
# .kafka/secret-scan/, then scans that, the bed's logs and testlab/evidence
# for the test users' passwords, unsecured JWS tokens and the bed's private
# keys (internal/secretscan): it fails on any hit.
secret-scan: kafka-up
	@mkdir -p .kafka/secret-scan; \
	GREGOR_KAFKA_STATE=$(STATE) $(GO) test -count=1 -v -run 'Integration(MTLS|OAuth|Authorization|Reauth)|SASL|TLS|Security' ./client/ ./adapter/internal/protocol/ > .kafka/secret-scan/go-test.log 2>&1; \
	$(MAKE) --no-print-directory run RUN='security' > .kafka/secret-scan/make-run.log 2>&1; \
	GREGOR_KAFKA_STATE=$(STATE) GREGOR_SECRET_SCAN=$(CURDIR)/.kafka/secret-scan $(GO) test -count=1 -v ./internal/secretscan/

clean:
	@if [ -f $(STATE) ] && [ -x $(KAFKA_LOCAL) ]; then $(KAFKA_LOCAL) down -state $(STATE) || true; fi
	rm -rf bin .kafka testlab/evidence
	$(GO) clean -testcache
